//! Conformance cases: what a capability promises to do against the real application,
//! declared by the pack beside the capability (`Case` in the SDK) and run by the
//! conformance suite (`host/tests/conformance.rs`) against one real Blender, reset to
//! its factory scene before every case.
//!
//! A case is JSON: `{"name", "setup"?: [{"key", "arguments"}], "arguments", "expect"}`,
//! where `expect` may hold:
//! - `delta`: `added`, `removed`, `changed` (exact object lists), `settings` (exact),
//!   `fields` (per object, aspects that must be among those changed), `datablocks`
//!   (per kind, `added`/`removed`/`changed` lists that must be exact);
//! - `result`: a value the answer must contain (`contains`: objects by key, arrays
//!   element by element with equal length, numbers within 1e-4);
//! - `reads`: `[{"key", "arguments", "result"}]`, read-only calls made afterwards;
//! - `error`: the code the call must fail with (an application code such as
//!   `not_found`, or an MCP code such as `INVALID_CAPABILITY_ARGUMENTS`);
//! - `png`: `{"width", "height"}` of the PNG the answer's `path` names.
//!
//! Whatever a case says, a read-only capability's delta must be empty, and a case that
//! expects success must not fail. The language is checked when a pack loads, so a
//! malformed case refuses the pack instead of passing vacuously.

pub mod check;

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub key: String,
    #[serde(default = "empty_object")]
    pub arguments: Value,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectChanges {
    pub added: Option<Vec<String>>,
    pub removed: Option<Vec<String>>,
    pub changed: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectDelta {
    pub added: Option<Vec<String>>,
    pub removed: Option<Vec<String>>,
    pub changed: Option<Vec<String>>,
    pub settings: Option<Vec<String>>,
    #[serde(default)]
    pub fields: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub datablocks: BTreeMap<String, ExpectChanges>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Read {
    pub key: String,
    #[serde(default = "empty_object")]
    pub arguments: Value,
    pub result: Value,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Png {
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub delta: Option<ExpectDelta>,
    pub result: Option<Value>,
    #[serde(default)]
    pub reads: Vec<Read>,
    pub error: Option<String>,
    pub png: Option<Png>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    #[serde(default)]
    pub setup: Vec<Step>,
    #[serde(default = "empty_object")]
    pub arguments: Value,
    pub expect: Expect,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

impl Case {
    /// Parse and check one case as a pack declared it.
    pub fn parse(text: &str) -> Result<Case, String> {
        let case: Case = serde_json::from_str(text).map_err(|e| format!("not a conformance case: {e}"))?;
        if case.name.trim().is_empty() || case.name.len() > 200 {
            return Err("a case needs a name of at most 200 characters".into());
        }
        if !case.arguments.is_object() || case.setup.iter().any(|s| !s.arguments.is_object()) {
            return Err(format!("case {:?}: arguments must be JSON objects", case.name));
        }
        let e = &case.expect;
        if e.error.is_some() && (e.delta.is_some() || e.result.is_some() || e.png.is_some()) {
            return Err(format!("case {:?}: a case that expects an error cannot also expect a delta, result or file", case.name));
        }
        if case.setup.len() > 16 || e.reads.len() > 16 {
            return Err(format!("case {:?}: at most 16 setup steps and 16 reads", case.name));
        }
        Ok(case)
    }
}
