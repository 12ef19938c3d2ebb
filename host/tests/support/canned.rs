//! Answers for the stub bridges: the smallest answer each command's declared result
//! schema accepts (so the host's result check passes), with the object the params
//! name where the answer names one. Bookkeeping for fault injection and mediation
//! tests only; tests that claim Blender works use a real Blender.
#![allow(dead_code)]

use serde_json::{Map, Value, json};

fn catalog() -> Value {
    serde_json::from_str(capstan::app_units::blender::unit::CATALOG_JSON).unwrap()
}

fn minimal(schema: &Value, defs: &Value) -> Value {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return minimal(&defs[r.trim_start_matches("#/$defs/")], defs);
    }
    if let Some(alts) = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array) {
        return minimal(&alts[0], defs);
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array) {
        return e[0].clone();
    }
    let kind = match &schema["type"] {
        Value::String(s) => s.clone(),
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("null").to_string(),
        _ => return Value::Null,
    };
    match kind.as_str() {
        "string" => json!("x".repeat(schema["minLength"].as_u64().unwrap_or(1).max(1) as usize)),
        "integer" => json!(schema["minimum"].as_i64().unwrap_or(0)),
        "number" => json!(schema["minimum"].as_f64().unwrap_or(0.0)),
        "boolean" => json!(false),
        "array" => {
            let item = minimal(&schema["items"], defs);
            json!(vec![item; schema["minItems"].as_u64().unwrap_or(0) as usize])
        }
        "object" => {
            let mut out = Map::new();
            for key in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
                out.insert(key.to_string(), minimal(&schema["properties"][key], defs));
            }
            Value::Object(out)
        }
        _ => Value::Null,
    }
}

/// A valid answer to `command` with `params`.
pub fn answer(command: &str, params: &Value) -> Value {
    let cat = catalog();
    let Some(spec) = cat["commands"].get(command) else { return json!({}) };
    let mut out = minimal(&spec["result"], &cat["$defs"]);
    match command {
        "get_scene_info" => {
            out["objects"] = json!([
                { "name": "Cube", "type": "MESH", "location": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0], "scale": [1.0, 1.0, 1.0],
                  "visible": true, "parent": null, "collections": ["Collection"], "materials": [] },
                { "name": "Light", "type": "LIGHT", "location": [4.0, 1.0, 6.0], "rotation": [0.0, 0.0, 0.0], "scale": [1.0, 1.0, 1.0],
                  "visible": true, "parent": null, "collections": ["Collection"], "materials": [] },
            ]);
            out["counts"] = json!({ "MESH": 1, "LIGHT": 1 });
            out["object_count"] = json!(2);
            if let Some(kind) = params.get("type").and_then(Value::as_str) {
                let kept: Vec<Value> = out["objects"].as_array().unwrap().iter().filter(|o| o["type"] == kind).cloned().collect();
                out["objects"] = json!(kept);
            }
            let total = out["objects"].as_array().unwrap().len();
            out["page"] = json!({ "offset": 0, "limit": 20, "total": total, "next_offset": null });
        }
        _ => {
            for key in ["name", "object"] {
                if let (Some(name), Some(slot)) = (params.get(key).and_then(Value::as_str), out.get_mut(key)) {
                    *slot = json!(name);
                }
            }
        }
    }
    if spec["effect"] != "read" {
        out["delta"] = json!({ "added": [], "removed": [], "changed": [], "settings": [] });
        if command == "create_object"
            && let Some(name) = params.get("name").and_then(Value::as_str)
        {
            out["delta"]["added"] = json!([name]);
        }
    }
    out
}
