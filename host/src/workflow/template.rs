//! Argument templates: JSON in which `{"$arg": NAME}` stands for one of the workflow's
//! arguments and `{"$item": true}` for the element an `each` step runs on.
//!
//! Rendering is substitution only: no expressions, no string interpolation, nothing that
//! could turn an argument into a key, a command or a path the step's own schema has not
//! already bounded (each rendered step is validated against its capability's schema
//! before anything runs).

use serde_json::{Map, Value};

fn marker<'a>(value: &'a Value, name: &str) -> Option<&'a Value> {
    value.as_object().filter(|o| o.len() == 1).and_then(|o| o.get(name))
}

/// Every `$arg` name the template uses.
pub fn arg_names(template: &Value, out: &mut Vec<String>) {
    if let Some(name) = marker(template, "$arg").and_then(Value::as_str) {
        out.push(name.to_string());
        return;
    }
    match template {
        Value::Object(o) => o.values().for_each(|v| arg_names(v, out)),
        Value::Array(a) => a.iter().for_each(|v| arg_names(v, out)),
        _ => {}
    }
}

pub fn uses_item(template: &Value) -> bool {
    marker(template, "$item").is_some()
        || match template {
            Value::Object(o) => o.values().any(uses_item),
            Value::Array(a) => a.iter().any(uses_item),
            _ => false,
        }
}

/// The template's top level is an object (a capability's arguments), or a lone
/// `{"$item": true}` / `{"$arg": NAME}` that stands for the whole object; markers are
/// well formed and never sit inside an array (an absent argument there has no meaning).
pub fn check_shape(template: &Value) -> Result<(), String> {
    if !template.is_object() {
        return Err("args must be a JSON object".into());
    }
    fn walk(v: &Value, in_array: bool) -> Result<(), String> {
        if let Some(o) = v.as_object() {
            for name in ["$arg", "$item"] {
                if o.contains_key(name) {
                    if o.len() != 1 || (name == "$arg" && !o[name].is_string()) || (name == "$item" && o[name] != Value::Bool(true)) {
                        return Err(format!("{{\"{name}\": ...}} stands alone: {{\"$arg\": \"name\"}} or {{\"$item\": true}}"));
                    }
                    if in_array && name == "$item" {
                        return Err(format!("{name} cannot stand inside an array"));
                    }
                    return Ok(());
                }
            }
            if o.keys().any(|k| k.starts_with('$')) {
                return Err("keys starting with $ are reserved for $arg and $item".into());
            }
            return o.values().try_for_each(|v| walk(v, false));
        }
        if let Some(a) = v.as_array() {
            return a.iter().try_for_each(|v| walk(v, true));
        }
        Ok(())
    }
    walk(template, false)
}

/// Render a template; `None` when it is a lone marker whose argument is absent.
pub fn render(template: &Value, arguments: &Map<String, Value>, item: Option<&Value>) -> Option<Value> {
    if let Some(name) = marker(template, "$arg").and_then(Value::as_str) {
        return arguments.get(name).filter(|v| !v.is_null()).cloned();
    }
    if marker(template, "$item").is_some() {
        return item.cloned();
    }
    Some(match template {
        Value::Object(o) => Value::Object(o.iter().filter_map(|(k, v)| Some((k.clone(), render(v, arguments, item)?))).collect()),
        Value::Array(a) => Value::Array(a.iter().filter_map(|v| render(v, arguments, item)).collect()),
        other => other.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn arguments_are_substituted_and_absent_ones_left_out() {
        let t = json!({ "object_name": { "$arg": "object_name" }, "preset": { "$arg": "material" }, "fixed": [1, 2], "nested": { "style": "hero" } });
        let got = render(&t, &args(json!({ "object_name": "Bottle" })), None).unwrap();
        assert_eq!(got, json!({ "object_name": "Bottle", "fixed": [1, 2], "nested": { "style": "hero" } }));
        // null counts as absent, so an optional argument passed as null reaches no step.
        let got = render(&t, &args(json!({ "object_name": "B", "material": null })), None).unwrap();
        assert!(got.get("preset").is_none());
    }

    #[test]
    fn a_lone_marker_is_the_whole_object() {
        assert_eq!(render(&json!({ "$arg": "road" }), &args(json!({ "road": { "lanes": 4 } })), None), Some(json!({ "lanes": 4 })));
        assert_eq!(render(&json!({ "$item": true }), &Map::new(), Some(&json!({ "name": "Car A" }))), Some(json!({ "name": "Car A" })));
        assert_eq!(render(&json!({ "$arg": "road" }), &Map::new(), None), None);
    }

    #[test]
    fn malformed_markers_are_refused() {
        for bad in [
            json!({ "a": { "$arg": "x", "default": 1 } }),
            json!({ "a": { "$arg": 3 } }),
            json!({ "a": [{ "$item": true }] }),
            json!({ "$other": 1 }),
            json!({ "a": { "$item": "yes" } }),
            json!([1]),
        ] {
            assert!(check_shape(&bad).is_err(), "{bad}");
        }
        assert!(check_shape(&json!({ "a": { "$arg": "x" }, "b": [1, { "c": 2 }], "names": [{ "$arg": "x" }] })).is_ok());
    }

    #[test]
    fn names_and_items_are_found() {
        let mut names = Vec::new();
        arg_names(&json!({ "a": { "$arg": "x" }, "b": { "c": { "$arg": "y" } } }), &mut names);
        assert_eq!(names, ["x", "y"]);
        assert!(uses_item(&json!({ "a": { "b": { "$item": true } } })));
        assert!(!uses_item(&json!({ "a": 1 })));
    }
}
