//! Arguments still missing after the first reading, filled from what the words say in
//! other shapes. Each rule fills only an argument that is missing, and only with a word
//! of the goal or an object the scene has:
//! - a name after "called" for a plain text argument no other took ("a vertex group
//!   called top": `group`);
//! - `key` and `value` from "with KEY VALUE" ("tag the cube with sku A-17");
//! - `tags` from "tagged X" / "tags X, Y";
//! - a kind the reference already shows: `kind: object` when the step's target is one
//!   of the scene's objects;
//! - "the product", "the model", "the object" for the object acted on, when the scene
//!   holds exactly one mesh (the only thing it can mean).

use super::args::SceneObject;
use serde_json::{Map, Value, json};

const THE_THING: &[&str] = &["product", "model", "object", "subject", "item", "mesh"];

fn plain_text(root: &Value, prop: &Value) -> bool {
    super::args::accepts_type(root, prop, "string") && !super::args::has_enum(root, prop)
}

/// Fill what the rules of the module doc give; `missing` is updated.
pub fn fill(root: &Value, text: &str, lw: &[String], scene: &[SceneObject], args: &mut Map<String, Value>, missing: &mut Vec<String>) {
    let props = root.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
    let valid = |key: &str, value: &Value| super::args::valid_for(root, &props[key], value);
    let set = |key: &str, value: Value, args: &mut Map<String, Value>, missing: &mut Vec<String>| {
        if props.contains_key(key) && !args.contains_key(key) && valid(key, &value) {
            args.insert(key.into(), value);
            missing.retain(|m| m != key);
        }
    };
    // "with sku A-17": a key and its value.
    if missing.iter().any(|m| m == "key")
        && props.contains_key("value")
        && let Some(at) = lw.iter().position(|w| w == "with")
    {
        let original: Vec<&str> = text.split_whitespace().map(|w| w.trim_matches(|c: char| ",.;:!?\"'".contains(c))).collect();
        let at_original = original.iter().position(|w| w.eq_ignore_ascii_case("with")).unwrap_or(at);
        if let (Some(key), Some(value)) = (original.get(at_original + 1), original.get(at_original + 2)) {
            set("key", json!(key), args, missing);
            if args.get("key") == Some(&json!(key)) {
                let value = value.parse::<f64>().ok().filter(|v| v.is_finite()).map_or_else(|| json!(value), |v| json!(v));
                set("value", value, args, missing);
            }
        }
    }
    // "tagged crate": the tags.
    if props.get("tags").is_some_and(|p| p.get("type") == Some(&json!("array")))
        && let Some(at) = lw.iter().position(|w| w == "tagged" || w == "tags" || w == "tag")
        && at + 1 < lw.len()
        && !["the", "a", "an", "it"].contains(&lw[at + 1].as_str())
    {
        let tags: Vec<Value> = lw[at + 1..].iter().take_while(|w| !["and", "with", "then", "in", "on"].contains(&w.as_str())).take(8).map(|w| json!(w)).collect();
        set("tags", Value::Array(tags), args, missing);
    }
    // A kind the target shows: an object of the scene is an `object`.
    let target_is_object = ["target", "name", "object"].iter().any(|k| args.get(*k).and_then(Value::as_str).is_some_and(|n| scene.iter().any(|o| o.name == n)));
    for key in ["kind", "target_kind", "datablock_type"] {
        if target_is_object && missing.iter().any(|m| m == key) && super::args::enum_accepts(root, &props[key], "object") {
            set(key, json!("object"), args, missing);
        }
    }
    // "the product": the scene's only mesh.
    let meshes: Vec<&SceneObject> = scene.iter().filter(|o| o.kind == "MESH").collect();
    let says_the_thing = lw.windows(2).any(|w| w[0] == "the" && THE_THING.contains(&w[1].as_str()));
    if let ([only], true) = (meshes.as_slice(), says_the_thing) {
        let keys: Vec<String> = missing.iter().filter(|m| super::args::is_primary_reference(m)).cloned().collect();
        for key in keys {
            set(&key, json!(only.name), args, missing);
        }
    }
    // "called top": the one plain text argument still missing.
    if let Some(name) = super::names::called(text)
        && !args.values().any(|v| v.as_str() == Some(name.as_str()))
    {
        let keys: Vec<String> = missing.iter().filter(|m| props.get(m.as_str()).is_some_and(|p| plain_text(root, p)) && !super::args::is_primary_reference(m)).cloned().collect();
        if let [key] = keys.as_slice() {
            set(key, json!(name), args, missing);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(schema: Value, text: &str, scene: &[SceneObject], args: Value) -> (Value, Vec<String>) {
        let lw = crate::planner::text::clause_words(text);
        let mut args = args.as_object().unwrap().clone();
        let mut missing: Vec<String> = schema["required"].as_array().unwrap().iter().filter_map(Value::as_str).filter(|k| !args.contains_key(*k)).map(String::from).collect();
        fill(&schema, text, &lw, scene, &mut args, &mut missing);
        (Value::Object(args), missing)
    }

    fn scene() -> Vec<SceneObject> {
        [("Cube", "MESH"), ("Light", "LIGHT"), ("Camera", "CAMERA")].iter().map(|(n, k)| SceneObject { name: n.to_string(), kind: k.to_string() }).collect()
    }

    #[test]
    fn a_key_and_its_value_follow_with() {
        let prop = json!({ "properties": { "object": { "type": "string" }, "key": { "type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]*$" }, "value": {} }, "required": ["object", "key"] });
        let (args, missing) = run(prop.clone(), "tag the cube with sku A-17", &scene(), json!({ "object": "Cube" }));
        assert_eq!(args, json!({ "object": "Cube", "key": "sku", "value": "A-17" }));
        assert!(missing.is_empty());
        let (args, _) = run(prop, "tag the cube with weight 2.5", &scene(), json!({ "object": "Cube" }));
        assert_eq!(args["value"], json!(2.5));
    }

    #[test]
    fn tags_a_kind_the_only_mesh_and_a_called_name() {
        let mark = json!({ "properties": { "target": { "type": "string" }, "kind": { "enum": ["object", "material"] }, "tags": { "type": "array", "items": { "type": "string" } } }, "required": ["target", "kind"] });
        let (args, missing) = run(mark, "mark the cube as an asset tagged crate", &scene(), json!({ "target": "Cube" }));
        assert_eq!(args, json!({ "target": "Cube", "kind": "object", "tags": ["crate"] }));
        assert!(missing.is_empty());
        let paint = json!({ "properties": { "object": { "type": "string" }, "preset": { "enum": ["chrome"] } }, "required": ["object"] });
        let (args, _) = run(paint.clone(), "give the product a chrome finish", &scene(), json!({ "preset": "chrome" }));
        assert_eq!(args["object"], "Cube");
        let two = [scene(), vec![SceneObject { name: "Ball".into(), kind: "MESH".into() }]].concat();
        assert!(run(paint, "give the product a chrome finish", &two, json!({})).0.get("object").is_none(), "two meshes: which one is not guessed");
        let group = json!({ "properties": { "object": { "type": "string" }, "group": { "type": ["string", "null"] } }, "required": ["object", "group"] });
        assert_eq!(run(group, "make a vertex group called top on the cube", &scene(), json!({ "object": "Cube" })).0["group"], "top");
    }
}
