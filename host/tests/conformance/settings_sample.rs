//! The settings sample (issue 34): at least 200 UI-exposed RNA properties across the
//! datablock kinds the settings capabilities take, enumerated from the running Blender
//! (the capabilities' own `*` listings, with each property's RNA facts), each set through
//! `object.settings` or `render.settings` to a value other than its current one and read
//! back equal in the same call's read. Runs on whichever Blender the suite runs on (the
//! test command runs it on 5.2 LTS and 4.5 LTS).
//!
//! Skipped by rule, before any call: read-only properties, pointers and collections
//! (another datablock, a group of settings), file paths (the containment check judges
//! those; a case covers them) and names (renaming is `object.rename`). A set that Blender
//! refuses with a declared refusal (`invalid_params`: a value this context does not take,
//! such as an item of a dynamic enum) is counted as refused, not sampled; any other
//! failure, and any value that does not read back equal, fails the trial.

use super::*;

/// How many properties must be sampled on each Blender version.
pub(crate) const MINIMUM: usize = 200;
/// At most this many properties per listed struct, so every kind is represented.
const PER_STRUCT: usize = 40;
const PATH_SUBTYPES: &[&str] = &["FILE_PATH", "DIR_PATH", "FILE_NAME"];

/// (capability, target or view layer, listed prefix) of every struct the sample lists.
fn structs() -> Vec<(&'static str, Value, &'static str)> {
    let obj = |kind: &str, name: &str| json!({ "target": { "kind": kind, "name": name } });
    vec![
        ("render.settings", json!({}), "render."),
        ("render.settings", json!({}), "render.image_settings."),
        ("render.settings", json!({}), "cycles."),
        ("render.settings", json!({}), "eevee."),
        ("render.settings", json!({}), "view_layer."),
        ("render.settings", json!({}), "view_layer.cycles."),
        ("render.settings", json!({}), "rigidbody_world."),
        ("object.settings", obj("object", "Cube"), ""),
        ("object.settings", obj("mesh", "Cube"), ""),
        ("object.settings", obj("light", "Light"), ""),
        ("object.settings", obj("camera", "Camera"), ""),
        ("object.settings", obj("camera", "Camera"), "dof."),
        ("object.settings", obj("material", "Material"), ""),
        ("object.settings", json!({ "target": { "kind": "world" } }), ""),
        ("object.settings", obj("rigid_body", "Cube"), ""),
        ("object.settings", json!({ "target": { "kind": "modifier", "object": "Cube", "name": "Bevel" } }), ""),
        ("object.settings", json!({ "target": { "kind": "constraint", "object": "Camera", "name": "Track To" } }), ""),
        ("object.settings", obj("text", "Title"), ""),
        ("object.settings", obj("curve", "Fence"), ""),
    ]
}

/// The scene the sample runs in: the factory scene plus a rigid body, a modifier, a
/// constraint, a text and a curve.
fn setup(f: &Fixture) -> Result<(), Failed> {
    reset(f)?;
    for (key, args) in [
        ("physics.rigid_body", json!({ "object": "Cube" })),
        ("mutate.modifier_add", json!({ "object": "Cube", "type": "BEVEL" })),
        ("rig.constraint", json!({ "object": "Camera", "type": "TRACK_TO", "target": "Cube" })),
        ("create.text", json!({ "text": "capstan", "name": "Title" })),
        ("create.curve", json!({ "curve_type": "POLY", "name": "Fence", "points": [[0, 0, 0], [3, 0, 0], [3, 4, 0]] })),
    ] {
        f.runtime.call(key, &args.to_string()).map_err(|e| format!("setup {key}: {e}"))?;
    }
    Ok(())
}

fn num(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// A value other than `current` that the property's RNA facts allow, or None.
fn another(current: &Value, facts: &Value) -> Option<Value> {
    let kind = facts["type"].as_str()?;
    let (lo, hi) = (num(facts, "soft_min").or(num(facts, "min")), num(facts, "soft_max").or(num(facts, "max")));
    let scalar = |v: &Value| -> Option<Value> {
        match kind {
            "BOOLEAN" => Some(json!(!v.as_bool()?)),
            "INT" => {
                let v = v.as_i64()?;
                let (lo, hi) = (lo.unwrap_or(-1e6) as i64, hi.unwrap_or(1e6) as i64);
                if v < hi { Some(json!(v + 1)) } else if v > lo { Some(json!(v - 1)) } else { None }
            }
            "FLOAT" => {
                let v = v.as_f64()?;
                let (lo, hi) = (lo.unwrap_or(-1000.0).max(-1000.0), hi.unwrap_or(1000.0).min(1000.0));
                let next = if hi - v > 0.01 { (v + hi) / 2.0 } else if v - lo > 0.01 { (v + lo) / 2.0 } else { return None };
                Some(json!((next * 1000.0).round() / 1000.0)).filter(|n| (n.as_f64().unwrap_or(v) - v).abs() > 1e-4)
            }
            _ => None,
        }
    };
    match (kind, current) {
        ("ENUM", _) if facts["enum_flag"] == json!(true) => {
            let first = facts["enum_items"].as_array()?.first()?.clone();
            let chosen = json!([first]);
            Some(if current == &chosen { json!([]) } else { chosen })
        }
        ("ENUM", Value::String(now)) => facts["enum_items"].as_array()?.iter().find(|i| i.as_str() != Some(now)).cloned(),
        ("STRING", Value::String(now)) => Some(json!(if now == "capstan" { "capstan 2" } else { "capstan" })),
        ("BOOLEAN" | "INT" | "FLOAT", Value::Array(items)) => {
            let mut items = items.clone();
            let first = scalar(items.first()?)?;
            items[0] = first;
            Some(Value::Array(items))
        }
        ("BOOLEAN" | "INT" | "FLOAT", v) => scalar(v),
        _ => None,
    }
}

/// Whether a property may be sampled at all (see the module doc).
fn sampled_kind(path: &str, facts: &Value) -> bool {
    let leaf = path.rsplit('.').next().unwrap_or(path);
    facts["read_only"] == json!(false)
        && matches!(facts["type"].as_str(), Some("BOOLEAN" | "INT" | "FLOAT" | "ENUM" | "STRING"))
        && !PATH_SUBTYPES.contains(&facts["subtype"].as_str().unwrap_or(""))
        && leaf != "name"
}

fn equal(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Number(a), Value::Number(b)) => {
            let (a, b) = (a.as_f64().unwrap_or(f64::NAN), b.as_f64().unwrap_or(f64::NAN));
            (a - b).abs() <= 1e-4 * b.abs().max(1.0)
        }
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| equal(x, y)),
        _ => got == want,
    }
}

/// The trial: list, set, read back; fails on a mismatch, an undeclared failure, or fewer
/// than MINIMUM sampled.
pub(crate) fn sample_settings() -> Result<(), Failed> {
    let f = fixture().map_err(Failed::from)?;
    setup(f)?;
    let (mut sampled, mut refused, mut problems) = (0usize, Vec::new(), Vec::new());
    let mut per_kind = std::collections::BTreeMap::new();
    for (key, base, prefix) in structs() {
        let mut listing = base.clone();
        listing["read"] = json!([format!("{prefix}*")]);
        let listed = f.runtime.call(key, &listing.to_string()).map_err(|e| format!("{key} {listing}: {e}"))?;
        let rows = listed.result["values"].as_array().cloned().unwrap_or_default();
        let label = format!("{key} {}", base.get("target").map(|t| format!("{} ", t["kind"])).unwrap_or_default());
        let mut here = 0;
        for row in rows {
            if here >= PER_STRUCT {
                break;
            }
            let path = row["path"].as_str().unwrap_or_default().to_string();
            if !sampled_kind(&path, &row["facts"]) {
                continue;
            }
            let Some(value) = another(&row["value"], &row["facts"]) else { continue };
            let mut args = base.clone();
            args["settings"] = json!([{ "path": path, "value": value }]);
            args["read"] = json!([path]);
            match f.runtime.call(key, &args.to_string()) {
                Ok(out) => {
                    let got = &out.result["values"][0]["value"];
                    if equal(got, &value) {
                        here += 1;
                    } else {
                        problems.push(format!("{label}{path}: set {value}, read back {got}"));
                    }
                }
                Err(e) if error_codes(&e).iter().any(|c| c == "invalid_params") => refused.push(format!("{label}{path}")),
                Err(e) => problems.push(format!("{label}{path} = {value}: {}", report::error_json(&e))),
            }
        }
        sampled += here;
        per_kind.insert(format!("{label}{prefix}"), here);
    }
    eprintln!("settings sample: {sampled} properties set and read back equal, {} refused by Blender; per struct: {per_kind:?}", refused.len());
    if !refused.is_empty() {
        eprintln!("settings sample: refused: {}", refused.join(", "));
    }
    if sampled < MINIMUM {
        problems.push(format!("only {sampled} properties sampled, fewer than {MINIMUM}"));
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n").into()) }
}
