//! Running a suite: each task in a fresh factory scene, its calls through the checked
//! path, its assertions measured by the critic, its side effects read from the merged
//! delta. A task whose Blender is unreachable (the reset or a call fails on transport
//! or availability) is an error, never a pass.

use super::{Call, Suite, Task};
use crate::bridge::{BridgeClient, BridgeRequest};
use crate::delta::SceneDelta;
use crate::planner::critique::{Critique, critique};
use crate::planner::plan::{PlanRequest, build};
use crate::planner::{Router, act};
use crate::runtime::{CallError, Runtime};
use serde::Serialize;
use serde_json::json;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Passed,
    Failed,
    Error,
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
    /// Calls (not retries) whose arguments passed validation on the first attempt.
    pub args_accepted_first_time: usize,
    pub calls_failed: usize,
    pub assertions_met: usize,
    pub assertions_total: usize,
    pub side_effects: Vec<String>,
    pub constraint_success: Option<bool>,
    pub visual_success: Option<bool>,
    /// Calls repeated on the same capability after it failed.
    pub retries: usize,
    pub tool_calls: usize,
    /// Arguments sent plus answers received, in bytes of JSON.
    pub bytes: usize,
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critique: Option<Critique>,
    #[serde(skip)]
    pub thumbnail: Option<Vec<u8>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Totals {
    pub tasks: usize,
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    pub family_ok: String,
    pub capability_ok: String,
    pub args_accepted_first_time: String,
    pub assertions_met: String,
    pub tasks_with_side_effects: usize,
    pub constraint_success: String,
    pub visual_success: String,
    pub retries: usize,
    pub tool_calls: usize,
    pub bytes: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct SuiteReport {
    pub tasks: Vec<TaskReport>,
    pub totals: Totals,
}

pub struct Env<'a> {
    pub runtime: &'a Runtime,
    pub client: &'a dyn BridgeClient,
    pub router: &'a Router,
    /// Take a small picture of each task's final scene (for the contact sheet).
    pub thumbnails: bool,
    /// Run the planner's own plan for every task, its trajectory ignored (`--planner`).
    pub planner_only: bool,
}

fn reset(env: &Env<'_>) -> Result<(), String> {
    let spec = env.runtime.bridge_command("blender", "reset_scene").ok_or("the catalog has no reset_scene")?;
    let params = json!({});
    env.client
        .call(BridgeRequest { server: "blender", command: "reset_scene", params: &params, timeout: spec.timeout })
        .map(|_| ())
        .map_err(|e| format!("Blender did not reset the scene: {e}"))
}

/// A failure that means Blender is not there, not that the task went wrong.
fn unreachable_blender(e: &CallError) -> bool {
    match e {
        CallError::Pack { failure, .. } => matches!(failure.bridge_code.as_deref(), Some("transport") | Some("app_unavailable")),
        CallError::Workflow { cause, .. } => unreachable_blender(cause),
        _ => false,
    }
}

fn ratio(n: usize, d: usize) -> String {
    if d == 0 { "n/a".into() } else { format!("{n}/{d}") }
}

fn all_of_kind(c: &Critique, kind: &str) -> Option<bool> {
    let of: Vec<_> = c.checks.iter().filter(|k| k.expectation["kind"] == kind).collect();
    (!of.is_empty()).then(|| of.iter().all(|k| k.passed))
}

/// Every task an error (Blender did not start): no number is made up.
pub fn not_started(suite: &Suite, reason: &str) -> SuiteReport {
    let tasks: Vec<TaskReport> = suite
        .tasks
        .iter()
        .map(|t| {
            let mut r = blank(t, String::new(), None);
            r.error = Some(format!("Blender did not start: {reason}"));
            r
        })
        .collect();
    let totals = totals(&tasks);
    SuiteReport { tasks, totals }
}

fn blank(task: &Task, routed_family: String, routed_capability: Option<String>) -> TaskReport {
    TaskReport {
        id: task.id.clone(),
        goal: task.goal.clone(),
        status: Status::Error,
        error: None,
        source: if task.trajectory.is_some() { "trajectory" } else { "planner" },
        family_ok: task.family.as_ref().map(|f| *f == routed_family).filter(|_| !routed_family.is_empty()),
        capability_ok: task.capability.as_ref().map(|c| Some(c) == routed_capability.as_ref()).filter(|_| !routed_family.is_empty()),
        routed_family,
        routed_capability,
        args_accepted_first_time: 0,
        calls_failed: 0,
        assertions_met: 0,
        assertions_total: task.assertions.len(),
        side_effects: vec![],
        constraint_success: None,
        visual_success: None,
        retries: 0,
        tool_calls: 0,
        bytes: 0,
        seconds: 0.0,
        critique: None,
        thumbnail: None,
    }
}

pub fn run_task(env: &Env<'_>, task: &Task) -> TaskReport {
    let started = std::time::Instant::now();
    let (routed_family, routed_capability) = env.router.pick(&task.goal);
    let mut report = blank(task, routed_family, routed_capability);
    let outcome = run_inner(env, task, &mut report);
    report.seconds = started.elapsed().as_secs_f64();
    match outcome {
        Ok(()) => {}
        Err(e) => {
            report.status = Status::Error;
            report.error = Some(e);
        }
    }
    report
}

fn run_inner(env: &Env<'_>, task: &Task, report: &mut TaskReport) -> Result<(), String> {
    reset(env)?;
    let calls: Vec<Call> = match task.trajectory.as_ref().filter(|_| !env.planner_only) {
        Some(calls) => calls.clone(),
        None => {
            let pick = |t: &str| env.router.pick(t).1;
            let scene = crate::planner::scene_names(env.runtime);
            let steps = build(env.runtime, &pick, &PlanRequest { goal: &task.goal, scene: &scene, ..Default::default() }).map_err(|e| format!("planning failed: {e}"))?;
            steps.into_iter().map(|s| Call { key: s.tool_hint, args: s.args }).collect()
        }
    };
    let mut merged = SceneDelta::default();
    let mut last_failed: Option<String> = None;
    for call in &calls {
        let text = call.args.to_string();
        report.tool_calls += 1;
        report.bytes += text.len();
        let key = match act::resolve(env.runtime, &call.key) {
            Ok((key, _)) => key,
            Err(_) => {
                report.calls_failed += 1;
                last_failed = Some(call.key.clone());
                continue;
            }
        };
        let retry = last_failed.as_deref() == Some(key.as_str());
        if retry {
            report.retries += 1;
        }
        if let Err(_e) = env.runtime.check(&key, &text) {
            report.calls_failed += 1;
            last_failed = Some(key);
            continue;
        }
        if !retry {
            report.args_accepted_first_time += 1;
        }
        match env.runtime.call_checked(&key, &text) {
            Ok(out) => {
                report.bytes += out.result.to_string().len();
                if let Some(d) = &out.delta {
                    merged.then(d);
                }
                last_failed = None;
            }
            Err(e) if unreachable_blender(&e) => return Err(format!("Blender failed during {key}: {e}")),
            Err(e) => {
                report.calls_failed += 1;
                if let CallError::Pack { delta: Some(d), .. } | CallError::Fault { delta: Some(d), .. } = &e {
                    merged.then(d);
                }
                last_failed = Some(key);
            }
        }
    }
    let result = critique(env.runtime, &task.assertions, Some(&merged));
    // A check that failed because Blender went away is not a measurement: make sure it
    // is still there before scoring.
    if let Err(e) = env.runtime.call("scene.info", r#"{"limit":1}"#)
        && unreachable_blender(&e)
    {
        return Err(format!("Blender failed while the assertions were checked: {e}"));
    }
    report.assertions_met = result.checks.iter().filter(|c| c.passed).count();
    report.constraint_success = all_of_kind(&result, "spatial");
    report.visual_success = all_of_kind(&result, "visual");
    let o = &merged.objects;
    report.side_effects = o.changed.iter().chain(&o.removed).filter(|n| !task.may_change.contains(n)).map(|n| format!("object {n}")).collect();
    if let Some(allowed) = &task.may_change_settings {
        report.side_effects.extend(merged.settings.iter().filter(|s| !allowed.contains(s)).map(|s| format!("setting {s}")));
    }
    report.status = if result.passed && report.side_effects.is_empty() { Status::Passed } else { Status::Failed };
    report.critique = Some(result);
    if env.thumbnails {
        let args = json!({ "width": 128, "height": 96, "samples": 4 });
        if let Ok(out) = env.runtime.call("inspect.viewport", &args.to_string()) {
            use base64::Engine as _;
            report.thumbnail = out.result["image"]["data"].as_str().and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok());
        }
    }
    Ok(())
}

/// Run every task (`progress`: a bar on stderr).
pub fn run_suite(env: &Env<'_>, suite: &Suite, progress: bool) -> SuiteReport {
    let bar = if progress { indicatif::ProgressBar::new(suite.tasks.len() as u64) } else { indicatif::ProgressBar::hidden() };
    bar.set_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} [{elapsed}]").expect("a valid template"));
    let mut tasks = Vec::new();
    for task in &suite.tasks {
        bar.set_message(task.id.clone());
        tasks.push(run_task(env, task));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let totals = totals(&tasks);
    SuiteReport { tasks, totals }
}

fn totals(tasks: &[TaskReport]) -> Totals {
    let count = |f: &dyn Fn(&TaskReport) -> bool| tasks.iter().filter(|t| f(t)).count();
    let opt = |f: &dyn Fn(&TaskReport) -> Option<bool>| ratio(count(&|t| f(t) == Some(true)), count(&|t| f(t).is_some()));
    Totals {
        tasks: tasks.len(),
        passed: count(&|t| t.status == Status::Passed),
        failed: count(&|t| t.status == Status::Failed),
        errors: count(&|t| t.status == Status::Error),
        family_ok: opt(&|t| t.family_ok),
        capability_ok: opt(&|t| t.capability_ok),
        args_accepted_first_time: ratio(tasks.iter().map(|t| t.args_accepted_first_time).sum(), tasks.iter().map(|t| t.tool_calls).sum()),
        assertions_met: ratio(tasks.iter().map(|t| t.assertions_met).sum(), tasks.iter().map(|t| t.assertions_total).sum()),
        tasks_with_side_effects: count(&|t| !t.side_effects.is_empty()),
        constraint_success: opt(&|t| t.constraint_success),
        visual_success: opt(&|t| t.visual_success),
        retries: tasks.iter().map(|t| t.retries).sum(),
        tool_calls: tasks.iter().map(|t| t.tool_calls).sum(),
        bytes: tasks.iter().map(|t| t.bytes).sum(),
    }
}

/// Values a person reads in the table.
pub fn summary_row(t: &TaskReport) -> Vec<String> {
    let b = |v: Option<bool>| match v {
        Some(true) => "yes".to_string(),
        Some(false) => "no".to_string(),
        None => "-".to_string(),
    };
    vec![
        t.id.clone(),
        format!("{:?}", t.status).to_lowercase(),
        format!("{}{}", t.routed_family, if t.family_ok == Some(false) { " (wrong)" } else { "" }),
        b(t.capability_ok),
        format!("{}/{}", t.args_accepted_first_time, t.tool_calls),
        format!("{}/{}", t.assertions_met, t.assertions_total),
        if t.side_effects.is_empty() { "none".into() } else { t.side_effects.join(", ") },
        b(t.constraint_success),
        b(t.visual_success),
        t.retries.to_string(),
        t.bytes.to_string(),
    ]
}

