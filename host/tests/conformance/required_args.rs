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

/// Add one trial per capability and workflow (ignored without a Blender, as the cases are).
pub(crate) fn add_trials(list: &mut Vec<Trial>, have_blender: bool) {
    for (key, schema, cases) in required_argument_subjects() {
        let name = format!("sweep :: required :: {key}");
        list.push(crate::blender_trial(name, have_blender, move || required_arguments(&key, &schema, &cases)));
    }
}

fn required_argument_subjects() -> Vec<(String, Value, Vec<Value>)> {
    let rt = offline_runtime();
    rt.capabilities()
        .filter(|(p, _)| crate::in_this_suite(p))
        .map(|(_, c)| c.clone())
        .chain(rt.workflows().filter(|w| crate::workflow_in_this_suite(rt, w)).map(|w| w.spec.clone()))
        .map(|c| {
            let known = c.conformance.iter().filter(|case| case.expect.error.is_none()).map(known_values).collect();
            (c.key.clone(), c.input_schema.clone(), known)
        })
        .collect()
}

/// A passing case's arguments, less those that name what its setup made, an object or
/// a file (the sweep runs in the factory scene, where they do not exist).
fn known_values(case: &Case) -> Value {
    let made: Vec<String> = case
        .setup
        .iter()
        .flat_map(|s| ["name", "filename"].map(|k| s.arguments.get(k).and_then(Value::as_str).map(String::from)))
        .flatten()
        .map(|m| m.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()).map_or(m.clone(), |(stem, _)| stem.to_string()))
        .collect();
    let mentions = |v: &Value| made.iter().any(|m| v.to_string().contains(m.as_str()));
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
        // An object (a workflow's step arguments): its required properties, meeting its rules.
        Some("object") => Value::Object(Filler { root, schema, known: &[] }.required_only()),
        Some("string") | None => {
            // A file name whose pattern ends in its extension ("\\.png$") gets one.
            if let Some(ext) = schema.get("pattern").and_then(Value::as_str).and_then(|p| p.strip_suffix('$')).and_then(|p| p.rsplit_once("\\.")).map(|(_, e)| e)
                && !ext.is_empty()
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
            {
                return json!(format!("sweep.{ext}"));
            }
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
    let mut out = required_of(schema);
    for key in ["anyOf", "oneOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|a| a.first()) {
            let more: Vec<String> = required_of(first).into_iter().filter(|n| !out.contains(n)).collect();
            out.extend(more);
        }
    }
    out
}

/// Values for the sweep's calls: a passing case's value where one gives it, else a
/// synthesized one; two names synthesized for one call name two different factory objects.
struct Filler<'a> {
    /// The capability's whole schema (what `$ref`s point into).
    root: &'a Value,
    /// The object schema being filled: the root, or an object inside it.
    schema: &'a Value,
    known: &'a [Value],
}

impl Filler<'_> {
    const FACTORY: [&'static str; 3] = ["Cube", "Light", "Camera"];

    fn value(&self, args: &serde_json::Map<String, Value>, name: &str, sub: Option<&Value>) -> Value {
        let used: Vec<&str> = args.values().filter_map(Value::as_str).collect();
        let distinct = |v: Value| match v {
            Value::String(s) if Self::FACTORY.contains(&s.as_str()) && used.contains(&s.as_str()) => {
                json!(Self::FACTORY.iter().find(|n| !used.contains(n)).copied().unwrap_or("Cube"))
            }
            v => v,
        };
        if let Some(v) = sub.and_then(|s| s.get("const")) {
            return v.clone();
        }
        if let Some(v) = self.known.iter().find_map(|a| a.get(name).cloned()) {
            return distinct(v);
        }
        let props = self.schema.get("properties").and_then(Value::as_object);
        let sub = sub.filter(|s| s.as_object().is_some_and(|o| o.contains_key("type") || o.contains_key("enum") || o.contains_key("$ref")));
        let declared = props.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
        let anything = json!({});
        let mut v = synthesize(self.root, if declared.is_null() { sub.unwrap_or(&anything) } else { declared }, name);
        // An alternative that asks for a non-empty list (`minItems` in the rule) gets one.
        if let (Some(items), Some(least)) = (v.as_array_mut(), sub.and_then(|s| s.get("minItems")).and_then(Value::as_u64))
            && items.is_empty()
        {
            let item = declared.get("items").cloned().unwrap_or(json!({}));
            items.extend((0..least).map(|_| synthesize(self.root, &item, name)));
        }
        distinct(v)
    }

    fn add(&self, args: &mut serde_json::Map<String, Value>, name: &str, rule: Option<&Value>) {
        if !args.contains_key(name) {
            let sub = rule.and_then(|r| r.pointer(&format!("/properties/{name}")));
            let v = self.value(args, name, sub);
            args.insert(name.to_string(), v);
        }
    }

    /// Make `args` meet the schema's rules between arguments (`allOf` of `anyOf` and
    /// `if`/`then`, as `capstan_sdk::schema_rules` writes them): an unmet "one of these"
    /// gets its first alternative, a value that needs other arguments gets them.
    fn meet_rules(&self, args: &mut serde_json::Map<String, Value>) {
        let rules: Vec<&Value> = self.schema.get("allOf").and_then(Value::as_array).into_iter().flatten().collect();
        for _ in 0..4 {
            let before = args.clone();
            for rule in &rules {
                self.meet(args, rule);
                if let (Some(cond), Some(then)) = (rule.get("if"), rule.get("then")) {
                    // A property the condition does not require holds when absent (the
                    // rule of a default value).
                    let needed = required_of(cond);
                    let holds = cond.get("properties").and_then(Value::as_object).is_none_or(|props| {
                        props.iter().all(|(k, want)| match (args.get(k), want.get("const")) {
                            (Some(have), Some(c)) => have == c,
                            (Some(_), None) => true,
                            (None, _) => !needed.contains(k),
                        })
                    }) && needed.iter().all(|k| args.contains_key(k));
                    if holds {
                        self.meet(args, then);
                    }
                }
            }
            if *args == before {
                break;
            }
        }
    }

    /// Meet one rule's own `required`, `anyOf` (its first alternative) and `const`s.
    fn meet(&self, args: &mut serde_json::Map<String, Value>, rule: &Value) {
        for k in required_of(rule) {
            self.add(args, &k, Some(rule));
        }
        for (k, sub) in rule.get("properties").and_then(Value::as_object).into_iter().flatten() {
            if let (Some(c), Some(have)) = (sub.get("const"), args.get_mut(k)) {
                *have = c.clone();
            }
        }
        if let Some(alts) = rule.get("anyOf").and_then(Value::as_array) {
            let met = |alt: &Value| {
                let consts = alt.get("properties").and_then(Value::as_object).into_iter().flatten().filter_map(|(k, sub)| Some((k, sub.get("const")?)));
                required_of(alt).iter().all(|k| args.get(k).is_some_and(|v| v.as_array().is_none_or(|a| !a.is_empty())))
                    && consts.into_iter().all(|(k, c)| args.get(k).is_none_or(|v| v == c))
            };
            if !alts.iter().any(met)
                && let Some(first) = alts.first()
            {
                for k in required_of(first) {
                    args.remove(&k);
                    self.add(args, &k, Some(first));
                }
            }
        }
    }

    /// Only the required properties (and those the rules then ask for).
    fn required_only(&self) -> serde_json::Map<String, Value> {
        let mut out = self.required_plain();
        self.meet_rules(&mut out);
        out
    }

    /// Only the required properties, before the rules between them. A `minProperties`
    /// above what is required adds the first optional ones.
    fn required_plain(&self) -> serde_json::Map<String, Value> {
        let props = self.schema.get("properties").and_then(Value::as_object);
        let mut names = required_names(self.schema);
        let least = self.schema.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
        for extra in props.into_iter().flatten().map(|(k, _)| k) {
            if names.len() >= least {
                break;
            }
            if !names.contains(extra) {
                names.push(extra.clone());
            }
        }
        let mut out = serde_json::Map::new();
        for name in names {
            self.add(&mut out, &name, None);
        }
        out
    }
}

fn required_of(schema: &Value) -> Vec<String> {
    schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(String::from).collect()
}

/// Optional arguments the sweep sets where a schema offers them, so that a workflow, a
/// render or a bake does not make a full-size picture per enum value: what the sweep
/// checks is whether arguments are missing, and these have no dependencies. An image's
/// `width` and `height` (said "in pixels") get their smallest allowed size, at least 16
/// (a 1024-pixel bake took 17 s of the suite).
fn cut_cost(schema: &Value, args: &mut serde_json::Map<String, Value>) {
    let knobs = [("auto_render", json!(false)), ("render_percentage", json!(1)), ("samples", json!(1))];
    let props = schema.get("properties").and_then(Value::as_object);
    for (name, value) in knobs {
        if props.is_some_and(|p| p.contains_key(name)) && !args.contains_key(name) {
            args.insert(name.into(), value);
        }
    }
    for name in ["width", "height"] {
        let Some(prop) = props.and_then(|p| p.get(name)) else { continue };
        let in_pixels = prop.get("description").and_then(Value::as_str).is_some_and(|d| d.to_ascii_lowercase().contains("pixel"));
        if in_pixels && !args.contains_key(name) {
            let least = prop.get("minimum").and_then(Value::as_f64).map_or(16.0, f64::ceil).max(16.0);
            args.insert(name.into(), json!(least as u64));
        }
    }
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
        // The pack's own "could not" after asking Blender (no HDRI of that name in the
        // libraries): about the scene; a missing argument is `PackError::invalid`.
        (_, report::ErrorCode::CapabilityFailed) if !e.bridge_calls().is_empty() => Ok(Some(format!("failed after asking Blender: {e}"))),
        _ => Err(format!("failed: {}", told(&e))),
    }
}

/// The sweep of one capability: its required arguments alone, then with each enum value.
pub(crate) fn required_arguments(key: &str, schema: &Value, known: &[Value]) -> Result<(), Failed> {
    let f = fixture().map_err(Failed::from)?;
    let filler = Filler { root: schema, schema, known };
    let mut base = filler.required_only();
    cut_cost(schema, &mut base);
    let mut calls = vec![(true, base.clone())];
    // Each enum value starts again from the required arguments alone, so that what the
    // rules asked of another value is not carried over.
    let plain = filler.required_plain();
    for (property, value) in enum_values(schema) {
        let mut args = plain.clone();
        args.insert(property, value);
        filler.meet_rules(&mut args);
        cut_cost(schema, &mut args);
        calls.push((false, args));
    }
    let mut problems = Vec::new();
    for (is_base, args) in calls {
        let args = Value::Object(args);
        reset(f)?;
        f.runtime.call("scene.render_settings", SWEEP_PRESET).map_err(|e| format!("the sweep's render preset: {e}"))?;
        match judge(f.runtime.call(key, &args.to_string()).map(|_| ()), is_base) {
            Ok(None) => {}
            Ok(Some(note)) => eprintln!("sweep :: required :: {key}: {args} was refused (allowed): {note}"),
            Err(problem) => {
                eprintln!("sweep :: required :: {key}: PROBLEM {args}: {problem}");
                problems.push(format!("{args}: {problem}"));
            }
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n").into()) }
}
