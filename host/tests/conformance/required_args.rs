//! The required-arguments sweep (issue 34 item 5): every capability is called, in the
//! factory scene, with only the properties its input schema requires (values built from
//! the schema), and once more per documented value of each top-level enum property. A
//! call the schema accepts must not then be refused for its arguments: not by the pack
//! (`PackError::invalid`), and not by the app with `invalid_params`. Where two arguments
//! depend on each other the schema must say so (`anyOf`, `dependentRequired`), so that
//! the synthesized call is one the schema refuses or one that works.
//!
//! Values: a property a passing conformance case of the capability gives is taken from
//! that case (a known-good value), otherwise synthesized from the schema: the first enum
//! item, a number inside the range, a name of a factory object for a name. Failures that
//! are about the scene (the app's `not_found`, `invalid_target`, ...) are allowed and
//! listed on stderr, so a reader sees what the synthesized calls could not reach.

use super::*;
use sweeps::{SWEEP_PRESET, told};

/// Add one trial per capability and workflow.
/// UNFINISHED (issue 34 item 5): about 50 capabilities still fail this sweep (schemas that
/// accept a call the capability then refuses, "this action needs X"), so its trials are
/// registered ignored until those schemas say their dependencies. Run them with
/// `cargo test -p capstan --test conformance -- --ignored "sweep :: required"`.
pub(crate) fn add_trials(list: &mut Vec<Trial>, _have_blender: bool) {
    for (key, schema, cases) in required_argument_subjects() {
        let name = format!("sweep :: required :: {key}");
        list.push(Trial::test(name, move || required_arguments(&key, &schema, &cases)).with_ignored_flag(true));
    }
}

fn required_argument_subjects() -> Vec<(String, Value, Vec<Value>)> {
    let (_tmp, rt) = offline_runtime();
    rt.capabilities()
        .map(|(_, c)| c.clone())
        .chain(rt.workflows().map(|w| w.spec.clone()))
        .map(|c| {
            let known = c.conformance.iter().filter(|case| case.expect.error.is_none()).map(known_values).collect();
            (c.key.clone(), c.input_schema.clone(), known)
        })
        .collect()
}

/// A passing case's arguments, less those that name what its setup made (the sweep
/// runs in the factory scene, where they do not exist).
fn known_values(case: &Case) -> Value {
    let made: Vec<Value> = case.setup.iter().filter_map(|s| s.arguments.get("name").cloned()).collect();
    let mentions = |v: &Value| made.iter().any(|m| v.to_string().contains(&m.to_string()));
    let kept = case.arguments.as_object().into_iter().flatten().filter(|(_, v)| !mentions(v)).map(|(k, v)| (k.clone(), v.clone()));
    Value::Object(kept.collect())
}

/// `schema` with `$ref`s into the root's `$defs`/`definitions` resolved (one level at a
/// time, as they are met).
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    let mut at = schema;
    for _ in 0..16 {
        let Some(target) = at.get("$ref").and_then(Value::as_str) else { return at };
        let Some(found) = target.strip_prefix("#").and_then(|p| root.pointer(p)) else { return at };
        at = found;
    }
    at
}

/// The first alternative of a union (`oneOf`/`anyOf`) that is not null, or the schema.
fn first_alternative<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    let schema = resolve(root, schema);
    for key in ["oneOf", "anyOf"] {
        if let Some(alts) = schema.get(key).and_then(Value::as_array)
            && let Some(alt) = alts.iter().map(|a| resolve(root, a)).find(|a| a.get("type") != Some(&json!("null")))
        {
            return first_alternative(root, alt);
        }
    }
    schema
}

fn kind(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// The factory object a string property most likely names, from its name.
fn name_for(property: &str) -> &'static str {
    let p = property.to_ascii_lowercase();
    if p.contains("camera") {
        "Camera"
    } else if p.contains("light") || p.contains("lamp") {
        "Light"
    } else if p.contains("material") {
        "Material"
    } else if p.contains("collection") {
        "Collection"
    } else if p.contains("scene") {
        "Scene"
    } else {
        "Cube"
    }
}

fn number_in(schema: &Value, integer: bool) -> Value {
    let f = |k: &str| schema.get(k).and_then(Value::as_f64);
    let low = f("minimum").or(f("exclusiveMinimum").map(|m| if integer { m.floor() + 1.0 } else { m + 0.5 }));
    let high = f("maximum").or(f("exclusiveMaximum").map(|m| if integer { m.ceil() - 1.0 } else { m - 0.5 }));
    let pick = match (low, high) {
        (Some(l), Some(h)) => {
            if integer { ((l + h) / 2.0).floor().max(l) } else { (l + h) / 2.0 }
        }
        (Some(l), None) => l.max(if integer { 1.0 } else { 1.0_f64.max(l) }),
        (None, Some(h)) => h.min(1.0),
        (None, None) => 1.0,
    };
    if integer { json!(pick as i64) } else { json!(pick) }
}

/// A value the schema accepts, for a property called `property`.
fn synthesize(root: &Value, schema: &Value, property: &str) -> Value {
    let schema = first_alternative(root, schema);
    if let Some(v) = schema.get("const") {
        return v.clone();
    }
    if let Some(v) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return v.clone();
    }
    if let Some(v) = schema.get("default").filter(|v| !v.is_null()) {
        return v.clone();
    }
    match kind(schema) {
        Some("integer") => number_in(schema, true),
        Some("number") => number_in(schema, false),
        Some("boolean") => json!(true),
        Some("array") => {
            let count = schema.get("minItems").and_then(Value::as_u64).unwrap_or(1).max(1);
            if let Some(prefix) = schema.get("prefixItems").and_then(Value::as_array) {
                return Value::Array(prefix.iter().map(|s| synthesize(root, s, property)).collect());
            }
            let item = schema.get("items").cloned().unwrap_or(json!({}));
            // Names in a list are distinct objects where the list wants several.
            let names = ["Cube", "Light", "Camera"];
            Value::Array(
                (0..count)
                    .map(|i| match synthesize(root, &item, property) {
                        Value::String(s) if s == "Cube" => json!(names[i as usize % names.len()]),
                        v => v,
                    })
                    .collect(),
            )
        }
        Some("object") => {
            let props = schema.get("properties").and_then(Value::as_object);
            let mut out = serde_json::Map::new();
            for req in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
                let sub = props.and_then(|p| p.get(req)).cloned().unwrap_or(json!({}));
                out.insert(req.into(), synthesize(root, &sub, req));
            }
            Value::Object(out)
        }
        Some("string") | None => {
            let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
            let name = name_for(property).to_string();
            if name.len() >= min { json!(name) } else { json!("x".repeat(min)) }
        }
        Some(_) => Value::Null,
    }
}

/// The properties the schema requires: its `required`, and those of the first
/// alternative of a top-level `anyOf`/`oneOf` (at least one of several).
fn required_names(schema: &Value) -> Vec<String> {
    let names = |s: &Value| s.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(String::from).collect::<Vec<_>>();
    let mut out = names(schema);
    for key in ["anyOf", "oneOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|a| a.first()) {
            let more: Vec<String> = names(first).into_iter().filter(|n| !out.contains(n)).collect();
            out.extend(more);
        }
    }
    out
}

/// Only the required properties: a passing case's value where one gives it, else a
/// synthesized one (two names synthesized for one call name two different factory
/// objects). A `minProperties` above what is required adds the first optional ones.
fn required_only(schema: &Value, known: &[Value]) -> Value {
    const FACTORY: [&str; 3] = ["Cube", "Light", "Camera"];
    let props = schema.get("properties").and_then(Value::as_object);
    let mut names = required_names(schema);
    let least = schema.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
    for extra in props.into_iter().flatten().map(|(k, _)| k) {
        if names.len() >= least {
            break;
        }
        if !names.contains(extra) {
            names.push(extra.clone());
        }
    }
    let mut out = serde_json::Map::new();
    let mut used: Vec<String> = Vec::new();
    for req in names {
        let value = match known.iter().find_map(|args| args.get(&req).cloned()) {
            Some(v) => v,
            None => match synthesize(schema, props.and_then(|p| p.get(&req)).unwrap_or(&json!({})), &req) {
                Value::String(s) if FACTORY.contains(&s.as_str()) && used.contains(&s) => {
                    json!(FACTORY.iter().find(|n| !used.iter().any(|u| u == *n)).copied().unwrap_or("Cube"))
                }
                v => v,
            },
        };
        if let Some(s) = value.as_str() {
            used.push(s.to_string());
        }
        out.insert(req, value);
    }
    Value::Object(out)
}

/// Every documented value of each top-level enum property, as (property, value).
fn enum_values(schema: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (name, sub) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
        let sub = resolve(schema, sub);
        let mut values: Vec<Value> = sub.get("enum").and_then(Value::as_array).cloned().unwrap_or_default();
        for key in ["oneOf", "anyOf"] {
            for alt in sub.get(key).and_then(Value::as_array).into_iter().flatten() {
                let alt = resolve(schema, alt);
                values.extend(alt.get("enum").and_then(Value::as_array).cloned().unwrap_or_default());
                values.extend(alt.get("const").cloned());
            }
        }
        out.extend(values.into_iter().filter(|v| !v.is_null()).map(|v| (name.clone(), v)));
    }
    out
}

/// What a call's failure says about the schema: `Err` for a refusal of arguments the
/// schema accepted, `Ok(Some(note))` for a failure about the scene, `Ok(None)` for success.
fn judge(outcome: Result<(), CallError>, base: bool) -> Result<Option<String>, String> {
    let Err(e) = outcome else { return Ok(None) };
    let code = report::error_code(&e);
    match (&e, code) {
        // An enum value that needs another argument, said in the schema: honest.
        (CallError::InvalidArguments { .. }, _) if !base => Ok(Some(format!("the schema refuses it: {e}"))),
        (CallError::InvalidArguments { .. }, _) => Err(format!("the sweep's own arguments fail the schema (fix the synthesis): {}", told(&e))),
        (_, report::ErrorCode::InvalidCapabilityArguments) => {
            Err(format!("the schema accepts it, the capability refuses it (after {} bridge calls): {}", e.bridge_calls().len(), told(&e)))
        }
        (_, report::ErrorCode::AppRefused) if e.app_code() == Some("invalid_params") => Err(format!("the schema accepts it, Blender refuses it: {}", told(&e))),
        (_, report::ErrorCode::AppRefused) => Ok(Some(format!("{}: {e}", e.app_code().unwrap_or("?")))),
        _ => Err(format!("failed: {}", told(&e))),
    }
}

/// The sweep of one capability: its required arguments alone, then with each enum value.
pub(crate) fn required_arguments(key: &str, schema: &Value, known: &[Value]) -> Result<(), Failed> {
    let f = fixture().map_err(Failed::from)?;
    let base = required_only(schema, known);
    let mut calls = vec![(true, base.clone())];
    for (property, value) in enum_values(schema) {
        let mut args = base.clone();
        args[property.as_str()] = value;
        calls.push((false, args));
    }
    let mut problems = Vec::new();
    for (is_base, args) in calls {
        reset(f)?;
        f.runtime.call("scene.render_settings", SWEEP_PRESET).map_err(|e| format!("the sweep's render preset: {e}"))?;
        match judge(f.runtime.call(key, &args.to_string()).map(|_| ()), is_base) {
            Ok(None) => {}
            Ok(Some(note)) => eprintln!("sweep :: required :: {key}: {args} was refused (allowed): {note}"),
            Err(problem) => problems.push(format!("{args}: {problem}")),
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n").into()) }
}

