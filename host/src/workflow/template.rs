//! Argument templates: JSON in which `{"$arg": NAME}` stands for one of the workflow's
//! arguments, `{"$item": true}` for the element an `each` step runs on, and
//! `{"$step": ID, "pointer": "/json/pointer"}` for a value in the result of an earlier
//! step (the name an import gave the object it made, the file an export wrote).
//!
//! Rendering is substitution only: no expressions, no string interpolation, nothing that
//! could turn an argument into a key, a command or a path the step's own schema has not
//! already bounded. Each rendered step is validated against its capability's schema
//! before anything runs; a step that uses an earlier step's result is validated when its
//! turn comes, once that result exists, and before it runs (a result is an app's answer,
//! already checked against its command's result schema, and it gets no more trust than
//! an argument: the next step's schema bounds it the same way).

use serde_json::{Map, Value};

fn marker<'a>(value: &'a Value, name: &str) -> Option<&'a Value> {
    value.as_object().filter(|o| o.len() == 1).and_then(|o| o.get(name))
}

/// `{"$step": ID, "pointer": P}`: (ID, P) when well formed.
fn step_marker(value: &Value) -> Option<(&str, &str)> {
    let o = value.as_object().filter(|o| o.len() == 2)?;
    Some((o.get("$step")?.as_str()?, o.get("pointer")?.as_str()?))
}

/// Every earlier step id the template reads a result of.
pub fn step_refs<'a>(template: &'a Value, out: &mut Vec<&'a str>) {
    if let Some((id, _)) = step_marker(template) {
        out.push(id);
        return;
    }
    match template {
        Value::Object(o) => o.values().for_each(|v| step_refs(v, out)),
        Value::Array(a) => a.iter().for_each(|v| step_refs(v, out)),
        _ => {}
    }
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
            if o.contains_key("$step") {
                let pointer_ok = step_marker(v).is_some_and(|(id, p)| !id.is_empty() && (p.is_empty() || p.starts_with('/')));
                if !pointer_ok {
                    return Err("{\"$step\": \"id\", \"pointer\": \"/json/pointer\"} names an earlier step and a JSON pointer into its result".into());
                }
                return Ok(());
            }
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
                return Err("keys starting with $ are reserved for $arg, $item and $step".into());
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

/// The results of the steps that ran so far, by step id.
pub type Results = Map<String, Value>;

/// A `$step` marker that cannot be filled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unfilled {
    #[error("step {0:?} has not run (a step reads only the results of steps before it)")]
    NotRun(String),
    #[error("the result of step {step:?} has nothing at {pointer:?}")]
    Nothing { step: String, pointer: String },
}

/// Render a template; `None` when it is a lone marker whose argument is absent.
/// `$step` markers are left as they are (see [`render_with_results`]).
pub fn render(template: &Value, arguments: &Map<String, Value>, item: Option<&Value>) -> Option<Value> {
    walk(template, arguments, item, None).unwrap_or_else(|_| unreachable!("without results no marker is filled"))
}

/// Render a template once its step has run's turn: `$arg`, `$item` and `$step` in one
/// pass over the template, so a value never becomes a marker (an argument shaped like
/// `{"$step": ...}` stays that argument, and a result shaped like `{"$arg": ...}` stays
/// that result).
pub fn render_with_results(template: &Value, arguments: &Map<String, Value>, item: Option<&Value>, results: &Results) -> Result<Option<Value>, Unfilled> {
    walk(template, arguments, item, Some(results))
}

fn walk(template: &Value, arguments: &Map<String, Value>, item: Option<&Value>, results: Option<&Results>) -> Result<Option<Value>, Unfilled> {
    if let Some(name) = marker(template, "$arg").and_then(Value::as_str) {
        return Ok(arguments.get(name).filter(|v| !v.is_null()).cloned());
    }
    if marker(template, "$item").is_some() {
        return Ok(item.cloned());
    }
    if let Some((id, pointer)) = step_marker(template) {
        let Some(results) = results else { return Ok(Some(template.clone())) };
        let result = results.get(id).ok_or_else(|| Unfilled::NotRun(id.into()))?;
        return result.pointer(pointer).cloned().map(Some).ok_or_else(|| Unfilled::Nothing { step: id.into(), pointer: pointer.into() });
    }
    Ok(Some(match template {
        Value::Object(o) => {
            let mut out = Map::new();
            for (k, v) in o {
                if let Some(v) = walk(v, arguments, item, results)? {
                    out.insert(k.clone(), v);
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => {
            let mut out = Vec::new();
            for v in a {
                out.extend(walk(v, arguments, item, results)?);
            }
            Value::Array(out)
        }
        other => other.clone(),
    }))
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
    fn earlier_results_fill_step_markers() {
        let t = json!({ "object_name": { "$step": "place", "pointer": "/new_objects/0" }, "names": [{ "$step": "place", "pointer": "/new_objects/0" }], "scale": { "$arg": "scale" } });
        assert!(check_shape(&t).is_ok());
        let mut refs = Vec::new();
        step_refs(&t, &mut refs);
        assert_eq!(refs, ["place", "place"]);
        let given = args(json!({ "scale": 2 }));
        let rendered = render(&t, &given, None).unwrap();
        assert_eq!(rendered["scale"], 2);
        assert_eq!(rendered["object_name"], json!({ "$step": "place", "pointer": "/new_objects/0" }), "left for the run");
        let mut results = Results::new();
        assert_eq!(render_with_results(&t, &given, None, &results), Err(Unfilled::NotRun("place".into())));
        results.insert("place".into(), json!({ "new_objects": [] }));
        assert!(matches!(render_with_results(&t, &given, None, &results), Err(Unfilled::Nothing { .. })));
        results.insert("place".into(), json!({ "new_objects": ["Bracket"] }));
        assert_eq!(render_with_results(&t, &given, None, &results).unwrap().unwrap(), json!({ "object_name": "Bracket", "names": ["Bracket"], "scale": 2 }));
        // One pass: an argument shaped like a marker stays the argument, a result shaped
        // like one stays the result.
        let smuggled = args(json!({ "scale": { "$step": "place", "pointer": "/secret" } }));
        results.insert("place".into(), json!({ "new_objects": [{ "$arg": "scale" }], "secret": "x" }));
        let out = render_with_results(&t, &smuggled, None, &results).unwrap().unwrap();
        assert_eq!(out["scale"], json!({ "$step": "place", "pointer": "/secret" }));
        assert_eq!(out["object_name"], json!({ "$arg": "scale" }));
        for bad in [json!({ "a": { "$step": "x" } }), json!({ "a": { "$step": "x", "pointer": "no-slash" } }), json!({ "a": { "$step": 1, "pointer": "/a" } })] {
            assert!(check_shape(&bad).is_err(), "{bad}");
        }
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
