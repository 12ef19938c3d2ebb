//! The suite file (its format is documented in `host/eval/README.md`).
//!
//! A suite that cannot be read as a suite at all (not JSON, an unknown version, no
//! task list) is refused as a whole. A task that is not valid (an unknown field or
//! assertion kind, a bad id, no assertions) is kept as an entry that cannot run: the
//! rest of the suite still runs, and that task is reported as an error with the reason,
//! so one typo costs one row, not the run, and is never silently skipped.

use crate::planner::critique::Expectation;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The largest suite file read (bytes).
pub const MAX_SUITE_BYTES: u64 = 16 * 1024 * 1024;
/// The most tasks one suite may hold.
pub const MAX_TASKS: usize = 10_000;
/// The most calls one trajectory may hold.
pub const MAX_CALLS: usize = 256;
/// The most assertions one task may hold.
pub const MAX_ASSERTIONS: usize = 64;
/// The scene-level settings domains a delta reports (`may_change_settings`).
pub const SETTINGS_DOMAINS: &[&str] = &["render", "world", "scene"];

#[derive(Debug, Clone)]
pub struct Suite {
    /// The format version (1).
    pub version: u32,
    pub description: Option<String>,
    pub tasks: Vec<TaskEntry>,
}

/// One task of the file: parsed, or the reason it cannot run.
#[derive(Debug, Clone)]
pub struct TaskEntry {
    /// The task's id, or `task-N` (its position) when the id itself is not usable.
    pub id: String,
    /// The goal as written (empty when there is none).
    pub goal: String,
    pub task: Result<Task, String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Unique in the suite: letters, digits, `-`, `_`, `.`.
    pub id: String,
    pub goal: String,
    /// The family the router should choose for the goal (scored when given).
    #[serde(default)]
    pub family: Option<String>,
    /// The capability the router should choose (scored when given).
    #[serde(default)]
    pub capability: Option<String>,
    /// Calls that prepare the scene the goal talks about (a floor, a product), run after
    /// the reset and before the task; not measured, and any failure makes the task an
    /// error.
    #[serde(default)]
    pub setup: Vec<Call>,
    /// The tool calls an agent would make, in order. Absent: the planner's own plan.
    #[serde(default)]
    pub trajectory: Option<Vec<Call>>,
    /// What must be true in the scene afterwards (the critic's expectations).
    pub assertions: Vec<Expectation>,
    /// Objects the task may change or remove (objects it adds are always allowed);
    /// any other change in the merged delta is an unintended side effect.
    #[serde(default)]
    pub may_change: Vec<String>,
    /// Scene-level settings domains the task may change (`render`, `world`, `scene`);
    /// any other changed domain is an unintended side effect.
    #[serde(default)]
    pub may_change_settings: Vec<String>,
    /// An image goal: calls that build the goal scene (after the reset and the setup),
    /// which is rendered as the reference picture the `visual_match` assertion compares
    /// with; the scene is then reset and set up again. Never shown to an agent (it gets
    /// the picture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Vec<Call>>,
    /// An image goal's near miss: calls that get one thing wrong (a colour, a position,
    /// a missing object), which must fail `visual_match` (so the threshold is shown to
    /// discriminate; [`crate::eval::run::run_image_task`] runs it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near_miss: Option<Vec<Call>>,
}

impl Task {
    /// The task gives its goal as a picture (it has a reference trajectory).
    pub fn is_image(&self) -> bool {
        self.reference.is_some()
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    /// A canonical key (an alias is resolved and counted as such).
    pub key: String,
    #[serde(default = "empty_object")]
    pub args: Value,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error("cannot read the suite {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("the suite is not valid: {0}")]
    Invalid(String),
}

/// The file's outer shape; tasks are parsed one by one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Outer {
    version: u32,
    #[serde(default)]
    description: Option<String>,
    tasks: Vec<Value>,
}

fn usable_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// What is wrong with a parsed task on its own (None: nothing).
fn problem(t: &Task) -> Option<String> {
    if !usable_id(&t.id) {
        return Some(format!("id {:?}: 1-64 letters, digits, - _ .", t.id));
    }
    if t.goal.trim().is_empty() {
        return Some("an empty goal".into());
    }
    if t.assertions.is_empty() {
        return Some("no assertions (nothing would define success)".into());
    }
    if t.assertions.len() > MAX_ASSERTIONS {
        return Some(format!("{} assertions (at most {MAX_ASSERTIONS})", t.assertions.len()));
    }
    fn listed(calls: &Option<Vec<Call>>) -> &[Call] {
        calls.as_deref().unwrap_or_default()
    }
    for (what, calls) in [("setup", t.setup.as_slice()), ("trajectory", listed(&t.trajectory)), ("reference", listed(&t.reference)), ("near_miss", listed(&t.near_miss))] {
        if calls.len() > MAX_CALLS {
            return Some(format!("{} calls in the {what} (at most {MAX_CALLS})", calls.len()));
        }
        if let Some(i) = calls.iter().position(|c| !c.args.is_object()) {
            return Some(format!("{what} call {}: args must be a JSON object", i + 1));
        }
    }
    if let Some(i) = t.assertions.iter().position(|a| a.comparison().is_some_and(|c| c.is_empty())) {
        return Some(format!("assertion {}: give equals, at_least or at_most", i + 1));
    }
    if let Some((i, p)) = t.assertions.iter().enumerate().find_map(|(i, a)| a.problem().map(|p| (i, p))) {
        return Some(format!("assertion {}: {p}", i + 1));
    }
    if let Some(d) = t.may_change_settings.iter().find(|d| !SETTINGS_DOMAINS.contains(&d.as_str())) {
        return Some(format!("may_change_settings: {d:?} is not a settings domain ({})", SETTINGS_DOMAINS.join(", ")));
    }
    image_problem(t)
}

/// An image goal's own rules: a reference and a near miss (both with calls) go with
/// exactly one `visual_match` assertion, and that assertion with them.
fn image_problem(t: &Task) -> Option<String> {
    let matches = t.assertions.iter().filter(|a| matches!(a, Expectation::VisualMatch { .. })).count();
    match (&t.reference, &t.near_miss, matches) {
        (None, None, 0) => None,
        (None, _, _) => Some("a visual_match assertion or a near_miss needs a reference trajectory (the calls that build the goal scene)".into()),
        (Some(r), _, _) if r.is_empty() => Some("an empty reference trajectory".into()),
        (Some(_), None, _) => Some("an image task needs a near_miss (calls that get one thing wrong and must fail visual_match)".into()),
        (Some(_), Some(n), _) if n.is_empty() => Some("an empty near_miss".into()),
        (Some(_), Some(_), 1) => None,
        (Some(_), Some(_), n) => Some(format!("an image task needs exactly one visual_match assertion, not {n}")),
    }
}

/// The first assertion or call of a raw task that does not parse, named by its place
/// (serde's own message does not say which element of a list it came from).
fn pinpoint(raw: &Value) -> Option<String> {
    let each = |field: &str| raw.get(field).and_then(Value::as_array).into_iter().flatten().enumerate();
    for (i, a) in each("assertions") {
        if let Err(e) = serde_json::from_value::<Expectation>(a.clone()) {
            return Some(format!("assertion {}: {e}", i + 1));
        }
    }
    for field in ["setup", "trajectory", "reference", "near_miss"] {
        for (i, c) in each(field) {
            if let Err(e) = serde_json::from_value::<Call>(c.clone()) {
                return Some(format!("{field} call {}: {e}", i + 1));
            }
        }
    }
    None
}

impl Suite {
    pub fn parse(text: &str) -> Result<Suite, SuiteError> {
        let outer: Outer = serde_json::from_str(text).map_err(|e| SuiteError::Invalid(e.to_string()))?;
        if outer.version != 1 {
            return Err(SuiteError::Invalid(format!("version {} (this capstan reads version 1)", outer.version)));
        }
        if outer.tasks.is_empty() {
            return Err(SuiteError::Invalid("the suite has no tasks".into()));
        }
        if outer.tasks.len() > MAX_TASKS {
            return Err(SuiteError::Invalid(format!("{} tasks (at most {MAX_TASKS})", outer.tasks.len())));
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut tasks = Vec::with_capacity(outer.tasks.len());
        for (i, raw) in outer.tasks.into_iter().enumerate() {
            let written_id = raw.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            let goal = raw.get("goal").and_then(Value::as_str).unwrap_or_default().to_string();
            let pinpointed = pinpoint(&raw);
            let parsed = serde_json::from_value::<Task>(raw).map_err(|e| pinpointed.unwrap_or_else(|| e.to_string())).and_then(|t| match problem(&t) {
                Some(p) => Err(p),
                None => Ok(t),
            });
            let unique = usable_id(&written_id) && seen.insert(written_id.clone());
            let id = if unique { written_id.clone() } else { format!("task-{}", i + 1) };
            let task = match parsed {
                Ok(_) if !unique => Err(format!("task id {written_id:?} appears twice")),
                other => other,
            };
            tasks.push(TaskEntry { id, goal, task });
        }
        Ok(Suite { version: outer.version, description: outer.description, tasks })
    }

    pub fn load(path: &std::path::Path) -> Result<Suite, SuiteError> {
        let read = |reason: String| SuiteError::Read { path: path.display().to_string(), reason };
        let size = std::fs::metadata(path).map_err(|e| read(e.to_string()))?.len();
        if size > MAX_SUITE_BYTES {
            return Err(read(format!("{size} bytes (at most {MAX_SUITE_BYTES})")));
        }
        let text = std::fs::read_to_string(path).map_err(|e| read(e.to_string()))?;
        Suite::parse(&text)
    }

    /// The tasks that parsed.
    pub fn valid(&self) -> impl Iterator<Item = &Task> {
        self.tasks.iter().filter_map(|t| t.task.as_ref().ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_suite_parses_and_covers_every_family() {
        let suite = Suite::parse(include_str!("../../eval/suite.json")).unwrap();
        let bad: Vec<_> = suite.tasks.iter().filter_map(|t| t.task.as_ref().err().map(|e| format!("{}: {e}", t.id))).collect();
        assert!(bad.is_empty(), "{bad:?}");
        assert!(suite.tasks.len() >= 40, "{}", suite.tasks.len());
        let families: std::collections::BTreeSet<_> = suite.valid().filter_map(|t| t.family.as_deref()).collect();
        assert!(families.len() >= 19, "{families:?}");
        // At least 10 image goals, each with a reference, a near miss and a trajectory.
        let images: Vec<&Task> = suite.valid().filter(|t| t.is_image()).collect();
        assert!(images.len() >= 10, "{}", images.len());
        assert!(images.iter().all(|t| t.near_miss.is_some() && t.trajectory.is_some()));
        for area in ["geometry", "material", "lighting", "placement", "shape keys"] {
            assert!(images.iter().any(|t| t.goal.contains(&format!("({area}:"))), "no image goal about {area}");
        }
    }

    fn one(task: &str) -> String {
        format!(r#"{{"version": 1, "tasks": [{task}]}}"#)
    }

    #[test]
    fn a_bad_suite_is_refused_and_a_bad_task_is_kept_as_an_error() {
        let ok = r#"{"id": "a", "goal": "g", "assertions": [{"kind": "object_exists", "name": "Cube"}]}"#;
        assert!(Suite::parse(&one(ok)).unwrap().tasks[0].task.is_ok());
        let image = r#"{"id": "i", "goal": "g", "reference": [{"key": "k"}], "near_miss": [{"key": "k"}], "assertions": [{"kind": "visual_match", "size": 64}]}"#;
        assert!(Suite::parse(&one(image)).unwrap().tasks[0].task.as_ref().unwrap().is_image());
        for refused in ["not json", r#"{"version": 2, "tasks": []}"#, r#"{"version": 1, "tasks": []}"#, r#"{"version": 1}"#, r#"{"version": 1, "tasks": [], "extra": 1}"#] {
            assert!(Suite::parse(refused).is_err(), "{refused}");
        }
        for (task, why) in [
            (r#"{"id": "a", "goal": "g", "assertions": []}"#, "no assertions"),
            (r#"{"id": "../x", "goal": "g", "assertions": [{"kind": "object_exists", "name": "C"}]}"#, "id"),
            (r#"{"id": "a", "goal": "g", "assertions": [{"kind": "vibes"}]}"#, "vibes"),
            (r#"{"id": "a", "goal": "g", "asserts": []}"#, "asserts"),
            (r#"{"id": "a", "goal": " ", "assertions": [{"kind": "object_exists", "name": "C"}]}"#, "empty goal"),
            (r#"{"id": "a", "goal": "g", "trajectory": [{"key": "k", "args": [1]}], "assertions": [{"kind": "object_exists", "name": "C"}]}"#, "JSON object"),
            (r#"{"id": "a", "goal": "g", "assertions": [{"kind": "property", "object": "C", "path": "x"}]}"#, "equals, at_least"),
            (r#"{"id": "a", "goal": "g", "assertions": [{"kind": "object_exists", "name": "C"}, {"kind": "read", "capability": "x"}]}"#, "assertion 2: missing field `path`"),
            (r#"{"id": "a", "goal": "g", "assertions": [{"kind": "visual", "size": 100000}]}"#, "assertion 1: size 100000"),
            (r#"{"id": "a", "goal": "g", "assertions": [{"kind": "property", "object": "C", "path": "x", "equals": 0, "tolerance": -1}]}"#, "tolerance -1"),
            (r#"{"id": "a", "goal": "g", "assertions": [{"kind": "object_exists", "name": "$added.1"}]}"#, "$added or $added:TYPE"),
            (r#"{"id": "a", "goal": "g", "assertions": [{"kind": "object_exists", "name": "C"}], "may_change_settings": ["rendr"]}"#, "not a settings domain"),
            (r#"{"id": "a", "goal": "g", "assertions": [{"kind": "visual_match"}]}"#, "needs a reference"),
            (r#"{"id": "a", "goal": "g", "reference": [{"key": "k"}], "assertions": [{"kind": "visual_match"}]}"#, "needs a near_miss"),
            (r#"{"id": "a", "goal": "g", "reference": [{"key": "k"}], "near_miss": [{"key": "k"}], "assertions": [{"kind": "object_exists", "name": "C"}]}"#, "exactly one visual_match"),
            (r#"{"id": "a", "goal": "g", "reference": [], "near_miss": [{"key": "k"}], "assertions": [{"kind": "visual_match"}]}"#, "empty reference"),
            (r#"{"id": "a", "goal": "g", "reference": [{"key": "k"}], "near_miss": [{"key": "k", "args": 1}], "assertions": [{"kind": "visual_match"}]}"#, "near_miss call 1"),
            (r#"{"id": "a", "goal": "g", "reference": [{"key": "k"}], "near_miss": [{"key": "k"}], "assertions": [{"kind": "visual_match", "size": 8}]}"#, "size 8"),
        ] {
            let suite = Suite::parse(&one(task)).unwrap();
            let entry = &suite.tasks[0];
            let e = entry.task.as_ref().unwrap_err();
            assert!(e.contains(why), "{task}: {e}");
            assert!(usable_id(&entry.id), "{}", entry.id);
        }
        // A duplicate id: the second is the error, under its position.
        let suite = Suite::parse(&format!(r#"{{"version": 1, "tasks": [{ok}, {ok}]}}"#)).unwrap();
        assert!(suite.tasks[0].task.is_ok());
        assert_eq!(suite.tasks[1].id, "task-2");
        assert!(suite.tasks[1].task.as_ref().unwrap_err().contains("twice"));
    }
}
