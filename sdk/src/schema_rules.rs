//! Rules between arguments, written into a capability's input schema.
//!
//! A struct's derived schema says each argument's own type and range, not how the
//! arguments depend on each other ("one of these must be given", "this action needs
//! that argument"). Without those rules a schema accepts calls the capability can only
//! refuse at run time, and an agent that trusts the schema fails. Use them from a
//! schemars transform on the argument struct:
//!
//! ```
//! use capstan_sdk::prelude::*;
//! use capstan_sdk::schema_rules;
//!
//! fn something_to_set(schema: &mut capstan_sdk::schemars::Schema) {
//!     schema_rules::require_any(schema, &["color", "roughness"]);
//! }
//!
//! #[derive(Deserialize, JsonSchema)]
//! #[schemars(transform = something_to_set)]
//! struct Args {
//!     color: Option<String>,
//!     roughness: Option<f64>,
//! }
//!
//! let schema = serde_json::to_value(capstan_sdk::schemars::schema_for!(Args)).unwrap();
//! assert_eq!(schema["allOf"][0]["anyOf"][1]["required"][0], "roughness");
//! ```
//!
//! Keep the check in the capability too: the host validates against the schema, but a
//! pack's own tests and other callers may not.

use schemars::Schema;
use serde_json::{Value, json};

/// At least one of `fields` is given (`anyOf` of `required`).
pub fn require_any(schema: &mut Schema, fields: &[&str]) {
    add_rule(schema, json!({ "anyOf": fields.iter().map(|k| json!({ "required": [k] })).collect::<Vec<_>>() }));
}

/// At least one of the array arguments `fields` is given and not empty.
pub fn require_any_nonempty(schema: &mut Schema, fields: &[&str]) {
    let alternatives: Vec<Value> = fields.iter().map(|k| json!({ "required": [k], "properties": { *k: { "minItems": 1 } } })).collect();
    add_rule(schema, json!({ "anyOf": alternatives }));
}

/// Each value of the enum argument `field` needs the arguments listed with it
/// (`if {field: value} then {required: needs}`). Where `field` has a default (a
/// `#[serde(default = ..)]` the schema records), the default value's rule holds when
/// `field` is absent too: the capability then acts as if it were given.
pub fn needs_by_value(schema: &mut Schema, field: &str, rules: &[(&str, &[&str])]) {
    let default = schema.get("properties").and_then(|p| p.get(field)).and_then(|f| f.get("default")).cloned();
    for (value, needs) in rules {
        let mut condition = json!({ "properties": { field: { "const": value } } });
        if default.as_ref().and_then(Value::as_str) != Some(*value) {
            condition["required"] = json!([field]);
        }
        add_rule(schema, json!({ "if": condition, "then": { "required": needs } }));
    }
}

/// The value `value` of the enum argument `field` needs at least one of `fields`
/// (`if {field: value} then {anyOf: [{required: [f]}, ...]}`).
pub fn needs_any_by_value(schema: &mut Schema, field: &str, value: &str, fields: &[&str]) {
    let alternatives: Vec<Value> = fields.iter().map(|k| json!({ "required": [k] })).collect();
    add_rule(schema, json!({ "if": { "properties": { field: { "const": value } }, "required": [field] }, "then": { "anyOf": alternatives } }));
}

/// Any rule (a JSON Schema, such as an `if`/`then`), added under `allOf` so that
/// several rules (and several calls) combine. The functions above write theirs with it.
pub fn add_rule(schema: &mut Schema, rule: Value) {
    match schema.get_mut("allOf").and_then(Value::as_array_mut) {
        Some(rules) => rules.push(rule),
        None => {
            schema.insert("allOf".into(), Value::Array(vec![rule]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Schema {
        serde_json::from_value(json!({ "type": "object", "properties": { "a": {}, "b": {}, "action": {} } })).unwrap()
    }

    #[test]
    fn rules_combine_under_all_of() {
        let mut s = schema();
        require_any(&mut s, &["a", "b"]);
        needs_by_value(&mut s, "action", &[("add", &["a"]), ("remove", &["b"])]);
        let v = s.as_value();
        assert_eq!(v["allOf"].as_array().unwrap().len(), 3);
        assert_eq!(v["allOf"][0]["anyOf"][0], json!({ "required": ["a"] }));
        assert_eq!(v["allOf"][2], json!({ "if": { "properties": { "action": { "const": "remove" } }, "required": ["action"] }, "then": { "required": ["b"] } }));
    }

    #[test]
    fn a_default_value_rule_holds_when_the_field_is_absent() {
        let mut s: Schema = serde_json::from_value(json!({ "type": "object", "properties": { "action": { "default": "add" }, "a": {} } })).unwrap();
        needs_by_value(&mut s, "action", &[("add", &["a"]), ("remove", &["a"])]);
        let v = s.as_value();
        assert_eq!(v["allOf"][0]["if"], json!({ "properties": { "action": { "const": "add" } } }));
        assert_eq!(v["allOf"][1]["if"]["required"], json!(["action"]));
    }

    #[test]
    fn nonempty_alternatives_ask_for_an_item() {
        let mut s = schema();
        require_any_nonempty(&mut s, &["a"]);
        assert_eq!(s.as_value()["allOf"][0]["anyOf"][0]["properties"]["a"]["minItems"], 1);
    }
}
