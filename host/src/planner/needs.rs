//! What a plan step needs from its client: the required arguments the goal's words and
//! the scene do not give, each with its schema and the values that would fit, and the
//! rules "at least one of" that nothing meets. A step with any is `needs_input` and is
//! never sent as it is (the planner asks instead of guessing).

use super::args::{REFERENCE_LISTS, REFERENCES, SceneObject, branches, enum_values, wanted_kind};
use serde_json::Value;

/// A required argument neither the words nor the scene give: what a client (or its
/// user) is asked for instead of the planner guessing.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NeededInput {
    pub argument: String,
    /// The argument's schema, `$ref`s followed (what an answer must satisfy).
    pub schema: Value,
    /// Values that would fit: objects of the scene of the right kind, or the enum's values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Value>,
    /// Why, when it is not simply a required argument: a rule wants one of several
    /// arguments, or the schema refuses the arguments as filled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The rules "at least one of these" (`anyOf` of `required`, at the root or in `allOf`)
/// that the arguments do not meet: each as the names it offers.
pub fn unmet_any_of(schema: &Value, args: &serde_json::Map<String, Value>) -> Vec<Vec<String>> {
    let groups = std::iter::once(schema).chain(schema.get("allOf").and_then(Value::as_array).into_iter().flatten());
    let mut out = Vec::new();
    for g in groups {
        let Some(branches) = g.get("anyOf").and_then(Value::as_array) else { continue };
        let names: Vec<Vec<String>> = branches
            .iter()
            .filter_map(|b| b.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).map(String::from).collect()))
            .collect();
        if names.len() == branches.len() && !names.iter().any(|n: &Vec<String>| n.iter().all(|k| args.contains_key(k))) {
            out.push(names.into_iter().flatten().collect());
        }
    }
    out
}

/// What to ask for `key` of a capability with this input schema, in this scene.
pub fn needed(root: &Value, key: &str, scene: &[SceneObject]) -> NeededInput {
    let prop = root.get("properties").and_then(|p| p.get(key)).cloned().unwrap_or(Value::Null);
    let resolved: Vec<&Value> = branches(root, &prop).into_iter().filter(|b| b.get("$ref").is_none() && b.get("anyOf").is_none()).collect();
    let schema = match resolved.as_slice() {
        [] => prop.clone(),
        [one] => (*one).clone(),
        many => serde_json::json!({ "anyOf": many }),
    };
    let mut candidates: Vec<Value> = enum_values(root, &prop).into_iter().map(Value::String).collect();
    if candidates.is_empty() && (REFERENCES.contains(&key) || REFERENCE_LISTS.contains(&key) || key == "name") {
        let kind = wanted_kind(key);
        candidates = scene.iter().filter(|o| kind.is_none_or(|k| o.kind == k)).take(50).map(|o| Value::String(o.name.clone())).collect();
    }
    NeededInput { argument: key.to_string(), schema, candidates, reason: None }
}
