//! `capstan eval`: goal-conditioned tasks run against a real Blender, each in a fresh
//! factory scene, with every number measured in that scene (the format is documented
//! in `host/eval/README.md`).
//!
//! Security reasoning: a suite is data. Its tool calls go through the same checked
//! path as any client's ([`Runtime::check`](crate::runtime::Runtime::check), sandbox,
//! gate), by canonical key or alias resolved by the registry; its assertions are the
//! critic's read-only expectations. A suite cannot name a bridge command, run Python
//! outside the capabilities, or write outside the report folder it was given (file
//! names there are made from a sanitised task id).

pub mod report;
pub mod run;

use crate::planner::critique::Expectation;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// The format version (1).
    pub version: u32,
    #[serde(default)]
    pub description: Option<String>,
    pub tasks: Vec<Task>,
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
    /// The tool calls an agent would make, in order. Absent: the planner's own plan.
    #[serde(default)]
    pub trajectory: Option<Vec<Call>>,
    /// What must be true in the scene afterwards (the critic's expectations).
    pub assertions: Vec<Expectation>,
    /// Objects the task may change or remove (objects it adds are always allowed);
    /// any other change in the merged delta is an unintended side effect.
    #[serde(default)]
    pub may_change: Vec<String>,
    /// Render settings the task may change (any other is a side effect).
    #[serde(default)]
    pub may_change_settings: Option<Vec<String>>,
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

impl Suite {
    pub fn parse(text: &str) -> Result<Suite, SuiteError> {
        let suite: Suite = serde_json::from_str(text).map_err(|e| SuiteError::Invalid(e.to_string()))?;
        if suite.version != 1 {
            return Err(SuiteError::Invalid(format!("version {} (this capstan reads version 1)", suite.version)));
        }
        let mut seen = std::collections::BTreeSet::new();
        for t in &suite.tasks {
            let ok = !t.id.is_empty() && t.id.len() <= 64 && t.id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
            if !ok {
                return Err(SuiteError::Invalid(format!("task id {:?}: 1-64 letters, digits, - _ .", t.id)));
            }
            if !seen.insert(t.id.clone()) {
                return Err(SuiteError::Invalid(format!("task id {:?} appears twice", t.id)));
            }
            if t.goal.trim().is_empty() {
                return Err(SuiteError::Invalid(format!("task {}: an empty goal", t.id)));
            }
            if t.assertions.is_empty() {
                return Err(SuiteError::Invalid(format!("task {}: no assertions (nothing would define success)", t.id)));
            }
        }
        Ok(suite)
    }

    pub fn load(path: &std::path::Path) -> Result<Suite, SuiteError> {
        let text = std::fs::read_to_string(path).map_err(|e| SuiteError::Read { path: path.display().to_string(), reason: e.to_string() })?;
        Suite::parse(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_suite_parses_and_covers_the_families() {
        let suite = Suite::parse(include_str!("../../eval/suite.json")).unwrap();
        assert!(suite.tasks.len() >= 40, "{}", suite.tasks.len());
        let families: std::collections::BTreeSet<_> = suite.tasks.iter().filter_map(|t| t.family.as_deref()).collect();
        assert!(families.len() >= 8, "{families:?}");
    }

    #[test]
    fn bad_suites_are_refused() {
        let task = |id: &str, assertions: &str| format!(r#"{{"id": "{id}", "goal": "g", "assertions": {assertions}}}"#);
        let ok = format!(r#"{{"version": 1, "tasks": [{}]}}"#, task("a", r#"[{"kind": "object_exists", "name": "Cube"}]"#));
        assert!(Suite::parse(&ok).is_ok());
        for bad in [
            format!(r#"{{"version": 2, "tasks": [{}]}}"#, task("a", r#"[{"kind": "object_exists", "name": "Cube"}]"#)),
            format!(r#"{{"version": 1, "tasks": [{}]}}"#, task("a", "[]")),
            format!(r#"{{"version": 1, "tasks": [{}]}}"#, task("../x", r#"[{"kind": "object_exists", "name": "Cube"}]"#)),
            format!(r#"{{"version": 1, "tasks": [{}, {}]}}"#, task("a", r#"[{"kind": "object_exists", "name": "C"}]"#), task("a", r#"[{"kind": "object_exists", "name": "C"}]"#)),
            format!(r#"{{"version": 1, "tasks": [{}]}}"#, task("a", r#"[{"kind": "vibes"}]"#)),
        ] {
            assert!(Suite::parse(&bad).is_err(), "{bad}");
        }
    }
}
