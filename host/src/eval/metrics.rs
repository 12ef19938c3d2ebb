//! What a run measures, per task and in total, and the rows a person reads.

use crate::planner::critique::Critique;
use crate::planner::plan::PlanStep;
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Passed,
    Failed,
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Error => "error",
        }
    }
}

/// How one call of a task went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It ran and answered.
    Ok,
    /// Refused before any sandbox or bridge work (unknown key, invalid arguments).
    Refused,
    /// It ran and failed (the pack, the gate or the app said no).
    Failed,
}

/// One tool call as a client would have made it.
#[derive(Debug, Clone, Serialize)]
pub struct CallRecord {
    /// The name as the trajectory or plan gave it.
    pub key: String,
    /// The canonical key it resolved to (None: unknown).
    pub capability: Option<String>,
    pub args: Value,
    /// The same capability right after it failed.
    pub retry: bool,
    pub outcome: Outcome,
    /// The MCP error code of a refused or failed call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The request `{key, arguments}` as JSON.
    pub bytes_sent: usize,
    /// The answer `execute_capability` gives (result and delta, or the error) as JSON.
    pub bytes_received: usize,
}

impl CallRecord {
    /// Its arguments were right the first time: not a retry, they passed validation,
    /// and the call then ran and answered. A call that validation admits but the app
    /// then refuses (`{}` answered with "nothing to change", a name that does not
    /// exist) had arguments that were not right, so it does not count.
    pub fn accepted_first_time(&self) -> bool {
        !self.retry && self.outcome == Outcome::Ok
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct TaskReport {
    pub id: String,
    pub goal: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `trajectory` or `planner`.
    pub source: &'static str,
    pub routed_family: String,
    pub routed_capability: Option<String>,
    pub family_ok: Option<bool>,
    pub capability_ok: Option<bool>,
    /// Calls (not retries) whose arguments passed validation on the first attempt and
    /// that then ran and answered (`CallRecord::accepted_first_time`).
    pub args_accepted_first_time: usize,
    pub calls_failed: usize,
    pub assertions_met: usize,
    pub assertions_total: usize,
    /// Assertions that already held in the scene before the task acted (they measure
    /// nothing it did; when all do, the task cannot fail).
    pub held_before: usize,
    pub side_effects: Vec<String>,
    /// The last call was refused or failed: the task did not finish.
    pub ended_on_error: bool,
    pub constraint_success: Option<bool>,
    pub visual_success: Option<bool>,
    /// An image goal's `visual_match` held (None: the task has none).
    pub visual_match_success: Option<bool>,
    /// An image goal's reference picture, as the agent was given it (a file that lives
    /// while the task runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_picture: Option<String>,
    /// Calls repeating a capability right after it failed.
    pub retries: usize,
    pub tool_calls: usize,
    /// Plan steps held back because a required argument was missing (never sent: a
    /// client would be asked for it).
    pub held_for_input: usize,
    /// Requests sent plus answers received, in bytes of JSON.
    pub bytes: usize,
    pub seconds: f64,
    pub calls: Vec<CallRecord>,
    /// The planner's plan, when the task ran it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<Vec<PlanStep>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critique: Option<Critique>,
    /// `--agent`: how the external agent ran and what crossed the MCP boundary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<super::agent::AgentRun>,
    #[serde(skip)]
    pub thumbnail: Option<Vec<u8>>,
}

impl TaskReport {
    /// A report with nothing measured yet (status error until the task has run).
    pub fn blank(id: &str, goal: &str, source: &'static str) -> TaskReport {
        TaskReport {
            id: id.into(),
            goal: goal.into(),
            status: Status::Error,
            error: None,
            source,
            routed_family: String::new(),
            routed_capability: None,
            family_ok: None,
            capability_ok: None,
            args_accepted_first_time: 0,
            calls_failed: 0,
            assertions_met: 0,
            assertions_total: 0,
            held_before: 0,
            side_effects: vec![],
            ended_on_error: false,
            constraint_success: None,
            visual_success: None,
            visual_match_success: None,
            reference_picture: None,
            retries: 0,
            tool_calls: 0,
            held_for_input: 0,
            bytes: 0,
            seconds: 0.0,
            calls: vec![],
            plan: None,
            critique: None,
            agent: None,
            thumbnail: None,
        }
    }

    /// Every assertion held before the task acted: it could not have failed.
    pub fn vacuous(&self) -> bool {
        self.status != Status::Error && self.assertions_total > 0 && self.held_before == self.assertions_total
    }

    /// Why a task did not pass, one line each: the error, failed checks with what was
    /// measured, side effects, refused or failed calls.
    pub fn reasons(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(e) = &self.error {
            out.push(e.clone());
        }
        for c in self.critique.iter().flat_map(|c| &c.checks).filter(|c| !c.passed) {
            let kind = c.expectation["kind"].as_str().unwrap_or("check");
            let reason = c.reason.as_deref().unwrap_or("failed");
            let measured = if c.measured.is_null() || reason.contains("measured") { String::new() } else { format!(" (measured {})", short(&c.measured.to_string(), 160)) };
            out.push(format!("{kind}: {reason}{measured}"));
        }
        out.extend(self.side_effects.iter().map(|s| format!("side effect: {s}")));
        if self.ended_on_error {
            out.push("the last call did not succeed: the task did not finish".into());
        }
        if let Some(why) = self.agent.as_ref().and_then(|a| a.failure()) {
            out.push(why);
        }
        for c in self.calls.iter().filter(|c| c.outcome != Outcome::Ok) {
            out.push(format!("call {} {}: {}", c.key, c.code.as_deref().unwrap_or("failed"), short(c.message.as_deref().unwrap_or(""), 200)));
        }
        out
    }
}

/// `n` of `of` (both 0: nothing to count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ratio {
    pub n: usize,
    pub of: usize,
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.of == 0 { write!(f, "n/a") } else { write!(f, "{}/{}", self.n, self.of) }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Totals {
    pub tasks: usize,
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    pub family_ok: Ratio,
    pub capability_ok: Ratio,
    pub args_accepted_first_time: Ratio,
    pub assertions_met: Ratio,
    pub tasks_with_side_effects: usize,
    /// Tasks whose every assertion held before they acted (they cannot fail).
    pub vacuous_tasks: usize,
    pub constraint_success: Ratio,
    pub visual_success: Ratio,
    pub retries: usize,
    pub tool_calls: usize,
    /// Plan steps held back for a missing required argument.
    pub held_for_input: usize,
    pub bytes: usize,
    /// Tool calls and bytes of the passed tasks only: the cost of a completed task.
    pub tool_calls_to_completion: usize,
    pub bytes_to_completion: usize,
    pub seconds: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SuiteReport {
    pub tasks: Vec<TaskReport>,
    pub totals: Totals,
}

impl SuiteReport {
    pub fn new(tasks: Vec<TaskReport>) -> SuiteReport {
        let totals = totals(&tasks);
        SuiteReport { tasks, totals }
    }
}

fn totals(tasks: &[TaskReport]) -> Totals {
    let count = |f: &dyn Fn(&TaskReport) -> bool| tasks.iter().filter(|t| f(t)).count();
    let opt = |f: &dyn Fn(&TaskReport) -> Option<bool>| Ratio { n: count(&|t| f(t) == Some(true)), of: count(&|t| f(t).is_some()) };
    let sum = |f: &dyn Fn(&TaskReport) -> usize| tasks.iter().map(f).sum::<usize>();
    let passed = |t: &TaskReport| t.status == Status::Passed;
    Totals {
        tasks: tasks.len(),
        passed: count(&passed),
        failed: count(&|t| t.status == Status::Failed),
        errors: count(&|t| t.status == Status::Error),
        family_ok: opt(&|t| t.family_ok),
        capability_ok: opt(&|t| t.capability_ok),
        args_accepted_first_time: Ratio { n: sum(&|t| t.args_accepted_first_time), of: sum(&|t| t.tool_calls - t.retries) },
        assertions_met: Ratio { n: sum(&|t| t.assertions_met), of: sum(&|t| t.assertions_total) },
        tasks_with_side_effects: count(&|t| !t.side_effects.is_empty()),
        vacuous_tasks: count(&|t| t.vacuous()),
        constraint_success: opt(&|t| t.constraint_success),
        visual_success: opt(&|t| t.visual_success),
        retries: sum(&|t| t.retries),
        tool_calls: sum(&|t| t.tool_calls),
        held_for_input: sum(&|t| t.held_for_input),
        bytes: sum(&|t| t.bytes),
        tool_calls_to_completion: sum(&|t| if passed(t) { t.tool_calls } else { 0 }),
        bytes_to_completion: sum(&|t| if passed(t) { t.bytes } else { 0 }),
        seconds: tasks.iter().map(|t| t.seconds).sum(),
    }
}

fn short(text: &str, max: usize) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    if one_line.chars().count() <= max { one_line } else { format!("{}...", one_line.chars().take(max).collect::<String>()) }
}

/// The table's columns.
pub const HEADER: &[&str] = &["task", "status", "family", "capability", "args ok first time", "assertions", "side effects", "constraints", "visual", "retries", "calls", "bytes"];

/// Values a person reads in the table.
pub fn summary_row(t: &TaskReport) -> Vec<String> {
    let b = |v: Option<bool>| match v {
        Some(true) => "yes".to_string(),
        Some(false) => "no".to_string(),
        None => "-".to_string(),
    };
    vec![
        t.id.clone(),
        t.status.as_str().to_string(),
        format!("{}{}", t.routed_family, if t.family_ok == Some(false) { " (wrong)" } else { "" }),
        b(t.capability_ok),
        format!("{}/{}", t.args_accepted_first_time, t.tool_calls - t.retries),
        format!("{}/{}{}", t.assertions_met, t.assertions_total, if t.vacuous() { " (held before)" } else { "" }),
        if t.side_effects.is_empty() { "none".into() } else { t.side_effects.join(", ") },
        b(t.constraint_success),
        b(t.visual_success),
        t.retries.to_string(),
        t.tool_calls.to_string(),
        t.bytes.to_string(),
    ]
}

/// The totals in one sentence.
pub fn totals_line(s: &Totals) -> String {
    format!(
        "{} tasks, {} passed, {} failed, {} errors; family {}, capability {}, arguments accepted first time {}, assertions {}, tasks with side effects {}, tasks that could not fail {}, constraints {}, visual {}, retries {}, tool calls {} ({} in passed tasks), steps held for input {}, bytes {} ({} in passed tasks), {:.1} s",
        s.tasks,
        s.passed,
        s.failed,
        s.errors,
        s.family_ok,
        s.capability_ok,
        s.args_accepted_first_time,
        s.assertions_met,
        s.tasks_with_side_effects,
        s.vacuous_tasks,
        s.constraint_success,
        s.visual_success,
        s.retries,
        s.tool_calls,
        s.tool_calls_to_completion,
        s.held_for_input,
        s.bytes,
        s.bytes_to_completion,
        s.seconds
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_count_what_was_measured_and_nothing_else() {
        let mut a = TaskReport::blank("a", "g", "trajectory");
        a.status = Status::Passed;
        a.tool_calls = 3;
        a.retries = 1;
        a.args_accepted_first_time = 2;
        a.bytes = 100;
        a.family_ok = Some(true);
        let mut b = TaskReport::blank("b", "g", "planner");
        b.status = Status::Failed;
        b.tool_calls = 2;
        b.bytes = 50;
        b.family_ok = Some(false);
        b.side_effects = vec!["object Cube".into()];
        let c = TaskReport::blank("c", "g", "trajectory");
        let r = SuiteReport::new(vec![a, b, c]);
        let t = &r.totals;
        assert_eq!((t.passed, t.failed, t.errors), (1, 1, 1));
        assert_eq!(t.family_ok, Ratio { n: 1, of: 2 });
        assert_eq!(t.capability_ok.to_string(), "n/a");
        assert_eq!(t.args_accepted_first_time, Ratio { n: 2, of: 4 });
        assert_eq!((t.tool_calls, t.tool_calls_to_completion, t.bytes_to_completion), (5, 3, 100));
        assert_eq!(t.tasks_with_side_effects, 1);
        assert_eq!(r.tasks[1].reasons(), ["side effect: object Cube"]);
    }

    fn call(retry: bool, outcome: Outcome) -> CallRecord {
        CallRecord { key: "scene.world".into(), capability: Some("scene.world".into()), args: serde_json::json!({}), retry, outcome, code: None, message: None, bytes_sent: 0, bytes_received: 0 }
    }

    #[test]
    fn accepted_first_time_needs_a_first_attempt_that_ran() {
        assert!(call(false, Outcome::Ok).accepted_first_time());
        // Validation admitted it, then the app refused it ("nothing to change"): not accepted.
        assert!(!call(false, Outcome::Failed).accepted_first_time());
        assert!(!call(false, Outcome::Refused).accepted_first_time());
        assert!(!call(true, Outcome::Ok).accepted_first_time(), "a retry is never a first attempt");
    }
}
