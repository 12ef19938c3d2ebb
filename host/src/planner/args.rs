//! Arguments for a plan step, read from the goal's words against the capability's own
//! input schema (no table per capability: the schema says what can be filled).
//!
//! What is filled, and only when the words say it:
//! - an enum property, from a value whose words all appear (`uv_sphere` from "uv
//!   sphere", `shade_smooth` from "shade ... smooth"), a word that begins with a value of
//!   four or more letters (`ORTHO` from "orthographic"), or a value's last word ("sphere"
//!   gives the first such value, `uv_sphere`);
//! - an object reference (`object`, `target`, `camera`, a `name` not described as a new
//!   name, ...), from the scene's object names the words mention, whole words, any case;
//!   a reference after "to", "on", "at", "into", ... fills the second role (`target`,
//!   `parent`, ...) when the capability has one;
//!   a property that names a kind of object (`camera`, `light`, `armature`, `curve`)
//!   takes a mentioned object of that kind first, and the others leave such objects to it;
//! - a new name (`name` described as new, `new_name`), from "called X" / "named X" (and
//!   "to X" for `new_name`);
//! - a number, into the numeric property a word beside it names ([`super::numbers`]).
//!
//! - "it", "its", "them" fill an object reference with the subject of the plan's step
//!   before (the object it created or acted on), when the words name no object.
//!
//! Everything else stays out of `args`; a required property left unfilled is listed in
//! `missing`, so a client knows what to supply. A filled value is never invented: it is
//! a word of the goal, an object the scene has, or the object an earlier step named.

use serde_json::{Map, Value};

/// References that fill the second role of a two-object capability.
const SECONDARY: &[&str] = &["target", "parent", "support", "into", "b", "surface", "cutter", "curve", "focus_object", "under_object"];
/// String properties that name an existing object.
const REFERENCES: &[&str] = &[
    "object", "target", "camera", "support", "parent", "armature", "mesh", "curve", "into", "cutter", "instance", "surface", "object_name",
    "vehicle_name", "source_vehicle", "focus_object", "under_object", "a", "b",
];
/// Array properties that list existing objects.
const REFERENCE_LISTS: &[&str] = &["objects", "children", "names", "object_names"];
/// Words after which a mention fills the second role.
const PREPOSITIONS: &[&str] = &["to", "on", "onto", "at", "into", "toward", "towards", "with", "under", "over", "above", "below", "beside", "inside", "in"];
const FILLERS: &[&str] = &["the", "a", "an", "default", "my", "this", "that"];

/// Words that stand for the object an earlier step acted on.
const PRONOUNS: &[&str] = &["it", "its", "them"];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filled {
    pub args: Map<String, Value>,
    /// Required properties the words did not give.
    pub missing: Vec<String>,
}

impl Filled {
    /// The object this step creates or acts on (a new name, else the first reference):
    /// what "it" means in the next step.
    pub fn subject(&self) -> Option<String> {
        let text = |k: &str| self.args.get(k).and_then(Value::as_str).map(String::from);
        text("new_name").or_else(|| text("name")).or_else(|| REFERENCES.iter().find_map(|k| text(k))).or_else(|| {
            REFERENCE_LISTS.iter().find_map(|k| self.args.get(*k).and_then(Value::as_array).and_then(|a| a.first()).and_then(Value::as_str).map(String::from))
        })
    }
}

/// An object of the scene: its name and the app's type for it (`MESH`, `CAMERA`, ...;
/// empty when unknown, as for an object an earlier step of the plan will create).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SceneObject {
    pub name: String,
    pub kind: String,
}

impl From<&str> for SceneObject {
    fn from(name: &str) -> SceneObject {
        SceneObject { name: name.into(), kind: String::new() }
    }
}

/// The kind of object a property names by its own name (the app units' words).
fn wanted_kind(key: &str) -> Option<&'static str> {
    crate::app_units::all().iter().flat_map(|u| u.kind_words()).find(|(word, _)| *word == key).map(|(_, kind)| *kind)
}

/// One mention of a scene object in the words.
#[derive(Debug, Clone, PartialEq)]
struct Mention {
    name: String,
    kind: String,
    secondary: bool,
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-' || c == '_' || c == '\''))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == '\'').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

fn lower(words: &[String]) -> Vec<String> {
    words.iter().map(|w| w.to_lowercase()).collect()
}

/// The scene objects the words name, in the order they appear.
fn mentions(original: &[String], scene: &[SceneObject]) -> Vec<Mention> {
    let lw = lower(original);
    let mut found: Vec<(usize, Mention)> = Vec::new();
    for object in scene {
        let parts: Vec<String> = lower(&words(&object.name));
        if parts.is_empty() || parts.len() > lw.len() {
            continue;
        }
        if let Some(at) = (0..=lw.len() - parts.len()).find(|&i| lw[i..i + parts.len()] == parts[..]) {
            let mut before = at;
            while before > 0 && FILLERS.contains(&lw[before - 1].as_str()) {
                before -= 1;
            }
            let secondary = before > 0 && PREPOSITIONS.contains(&lw[before - 1].as_str());
            found.push((at, Mention { name: object.name.clone(), kind: object.kind.clone(), secondary }));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.dedup_by(|a, b| a.1.name == b.1.name);
    found.into_iter().map(|(_, m)| m).collect()
}

/// A property's schema with `$ref` and `anyOf` branches followed (one level of `$defs`).
fn branches<'a>(root: &'a Value, prop: &'a Value) -> Vec<&'a Value> {
    let mut out = vec![prop];
    let mut i = 0;
    while i < out.len() && out.len() < 16 {
        let s = out[i];
        if let Some(r) = s.get("$ref").and_then(Value::as_str)
            && let Some(name) = r.strip_prefix("#/$defs/")
            && let Some(def) = root.get("$defs").and_then(|d| d.get(name))
        {
            out.push(def);
        }
        for b in s.get("anyOf").or_else(|| s.get("oneOf")).and_then(Value::as_array).into_iter().flatten() {
            out.push(b);
        }
        i += 1;
    }
    out
}

fn enum_values(root: &Value, prop: &Value) -> Vec<String> {
    branches(root, prop).iter().filter_map(|s| s.get("enum").and_then(Value::as_array)).flatten().filter_map(|v| v.as_str().map(String::from)).collect()
}

fn accepts(root: &Value, prop: &Value, kind: &str) -> bool {
    branches(root, prop).iter().any(|s| match s.get("type") {
        Some(Value::String(t)) => t == kind,
        Some(Value::Array(ts)) => ts.iter().any(|t| t == kind),
        _ => false,
    })
}

/// The enum value the words choose, if any (see the module doc for the rule).
fn choose_enum(values: &[String], lw: &[String]) -> Option<String> {
    let has = |w: &str| lw.iter().any(|x| x == w || x.strip_suffix('s') == Some(w));
    let mut best: Option<(usize, &String)> = None;
    for v in values {
        let parts: Vec<String> = v.to_lowercase().split(['_', ' ', '-']).filter(|p| !p.is_empty()).map(String::from).collect();
        let score = if !parts.is_empty() && parts.iter().all(|p| has(p)) {
            10 + parts.len()
        } else if v.len() >= 4 && lw.iter().any(|w| w.starts_with(&v.to_lowercase())) {
            5
        } else if parts.len() > 1 && parts.last().is_some_and(|p| p.len() >= 4 && has(p)) {
            1
        } else {
            0
        };
        if score > 0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, v));
        }
    }
    best.map(|(_, v)| v.clone())
}

/// The word after "called" / "named" (and "to", for a rename), in its own case.
fn new_name(original: &[String], rename: bool) -> Option<String> {
    let lw = lower(original);
    // "called X" / "named X"; "to X" only when the words ask for a rename ("rename the
    // cube to Box", not "scale the cube to 2"), and never "to the ...".
    let asks_rename = rename && lw.iter().any(|w| w == "rename" || w == "renamed");
    let at = lw
        .iter()
        .position(|w| *w == "called" || *w == "named")
        .or_else(|| if asks_rename { lw.iter().position(|w| w == "to") } else { None })?;
    original
        .get(at + 1)
        .filter(|w| !FILLERS.contains(&w.to_lowercase().as_str()) && w.chars().all(|c| c.is_alphanumeric() || "_.-".contains(c)))
        .cloned()
}

fn is_new_name(key: &str, prop: &Value) -> bool {
    key == "new_name" || (key == "name" && prop.get("description").and_then(Value::as_str).is_some_and(|d| d.to_lowercase().contains("new")))
}

/// Fill what the words say for a capability with this input schema, in a scene with
/// these object names; `subject` is what "it" refers to (the previous step's object).
/// A word can match an enum of an argument the rest of the call rules out ("add a sphere
/// called Ball": SPHERE is also an empty's display type, which a UV sphere does not
/// take). When the schema's rules between arguments (`allOf`, `dependentSchemas`, ...)
/// refuse the filled arguments, drop the one word-chosen value whose absence satisfies
/// them. Missing required arguments are not this step's concern (they are reported as
/// missing), so the check runs without `required`.
fn drop_what_the_rules_refuse(schema: &Value, args: &mut serde_json::Map<String, Value>, from_words: &[String]) {
    let mut relaxed = schema.clone();
    if let Some(o) = relaxed.as_object_mut() {
        o.remove("required");
    }
    let Ok(validator) = jsonschema::validator_for(&relaxed) else { return };
    if validator.is_valid(&Value::Object(args.clone())) {
        return;
    }
    for key in from_words {
        let Some(value) = args.remove(key) else { continue };
        if validator.is_valid(&Value::Object(args.clone())) {
            return;
        }
        args.insert(key.clone(), value);
    }
}

pub fn fill(schema: &Value, text: &str, scene: &[SceneObject], subject: Option<&str>) -> Filled {
    let original = words(text);
    let lw = lower(&original);
    let mut found = mentions(&original, scene);
    // "it" is the step before's object, in the first role, when the words name nothing
    // there themselves ("put it on the table": it, then the table).
    if let Some(subject) = subject
        && found.iter().all(|m| m.secondary && m.name != subject)
        && lw.iter().any(|w| PRONOUNS.contains(&w.as_str()))
    {
        let kind = scene.iter().find(|o| o.name == subject).map(|o| o.kind.clone()).unwrap_or_default();
        found.insert(0, Mention { name: subject.to_string(), kind, secondary: false });
    }
    let mut filled = Filled::default();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return filled };
    let has_secondary = props.keys().any(|k| SECONDARY.contains(&k.as_str()));
    // A `name` beside an object property names something else (a modifier, a UV map).
    let names_other_object = props.keys().any(|k| k != "name" && (REFERENCES.contains(&k.as_str()) || REFERENCE_LISTS.contains(&k.as_str())));
    // Kinds some property of this capability names: other properties leave such objects to it.
    let reserved: Vec<&str> = props.keys().filter_map(|k| wanted_kind(k)).collect();
    let mut used: Vec<String> = Vec::new();
    // Optional enum values read off the words: one may break a rule between arguments.
    let mut from_words: Vec<String> = Vec::new();
    let take = |key: &str, used: &mut Vec<String>| -> Option<String> {
        let secondary = SECONDARY.contains(&key);
        let free = |m: &&Mention| !used.contains(&m.name);
        let own = |m: &&Mention| !reserved.contains(&m.kind.as_str()) || wanted_kind(key) == Some(m.kind.as_str());
        // A property named for a kind takes that kind, or an object whose kind is unknown
        // (one an earlier step makes); never an object known to be something else.
        let pick = match wanted_kind(key) {
            Some(kind) => found.iter().filter(free).find(|m| m.kind == kind).or_else(|| found.iter().filter(free).find(|m| m.kind.is_empty())),
            None => found
                .iter()
                .filter(free)
                .filter(own)
                .find(|m| !has_secondary || m.secondary == secondary)
                .or_else(|| found.iter().filter(free).find(own)),
        }?;
        used.push(pick.name.clone());
        Some(pick.name.clone())
    };
    // Primary references first, so a second-role property gets what is left.
    let mut keys: Vec<&String> = props.keys().collect();
    keys.sort_by_key(|k| (SECONDARY.contains(&k.as_str()), wanted_kind(k).is_none()));
    for key in keys {
        let prop = &props[key.as_str()];
        let value = if is_new_name(key, prop) {
            new_name(&original, key == "new_name").map(Value::String)
        } else if REFERENCE_LISTS.contains(&key.as_str()) && accepts(schema, prop, "array") {
            // A list takes every mention of its role (every mention when there is one role).
            let secondary = SECONDARY.contains(&key.as_str());
            let names: Vec<String> = found
                .iter()
                .filter(|m| !used.contains(&m.name) && !reserved.contains(&m.kind.as_str()) && (!has_secondary || m.secondary == secondary))
                .map(|m| m.name.clone())
                .collect();
            used.extend(names.iter().cloned());
            (!names.is_empty()).then(|| Value::Array(names.into_iter().map(Value::String).collect()))
        } else if (REFERENCES.contains(&key.as_str()) || (key == "name" && !names_other_object)) && accepts(schema, prop, "string") {
            take(key, &mut used).map(Value::String)
        } else {
            let values = enum_values(schema, prop);
            let chosen = if values.is_empty() { None } else { choose_enum(&values, &lw).map(Value::String) };
            if chosen.is_some() {
                from_words.push(key.clone());
            }
            chosen
        };
        if let Some(v) = value {
            filled.args.insert(key.clone(), v);
        }
    }
    drop_what_the_rules_refuse(schema, &mut filled.args, &from_words);
    let numeric: Vec<(&String, Vec<&Value>)> = props.iter().map(|(k, v)| (k, branches(schema, v))).collect();
    super::numbers::fill(&numeric, &lw, &mut filled.args);
    for r in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        if !filled.args.contains_key(r) {
            filled.missing.push(r.to_string());
        }
    }
    filled
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn create() -> Value {
        json!({
            "$defs": { "T": { "enum": ["cube", "uv_sphere", "ico_sphere", "cylinder", "monkey", "light_spot"], "type": "string" } },
            "properties": {
                "name": { "description": "Name for the new object", "type": ["string", "null"] },
                "size": { "type": ["number", "null"] },
                "type": { "$ref": "#/$defs/T" }
            },
            "required": ["type"]
        })
    }

    const SCENE: &[(&str, &str)] = &[("Cube", "MESH"), ("Light", "LIGHT"), ("Camera", "CAMERA"), ("Big Box", "MESH")];

    fn scene() -> Vec<SceneObject> {
        SCENE.iter().map(|(name, kind)| SceneObject { name: name.to_string(), kind: kind.to_string() }).collect()
    }

    #[test]
    fn a_word_matching_an_argument_the_rules_rule_out_is_dropped() {
        let mut schema = create();
        schema["properties"]["display_type"] = json!({ "enum": ["PLAIN_AXES", "SPHERE", "CUBE"], "type": ["string", "null"] });
        schema["dependentSchemas"] = json!({ "display_type": { "properties": { "type": { "const": "empty" } } } });
        let f = fill(&schema, "add a sphere called Ball", &scene(), None);
        assert_eq!(Value::Object(f.args), json!({ "type": "uv_sphere", "name": "Ball" }), "SPHERE is an empty's display, not this");
        // Without the rule, the same words keep it (the drop is the rule's doing).
        schema.as_object_mut().unwrap().remove("dependentSchemas");
        assert_eq!(fill(&schema, "add a sphere called Ball", &scene(), None).args["display_type"], "SPHERE");
    }

    #[test]
    fn enums_and_new_names_come_from_the_words() {
        let f = fill(&create(), "add a sphere called Ball", &scene(), None);
        assert_eq!(Value::Object(f.args), json!({ "type": "uv_sphere", "name": "Ball" }));
        assert!(f.missing.is_empty());
        let f = fill(&create(), "add an ico sphere", &scene(), None);
        assert_eq!(f.args["type"], "ico_sphere", "every word of a value beats its last word");
        assert_eq!(fill(&create(), "add two monkeys", &scene(), None).args["type"], "monkey");
        assert_eq!(fill(&create(), "add a spot light", &scene(), None).args["type"], "light_spot");
        // The existing Cube is not a new name, and nothing is invented.
        let f = fill(&create(), "add something nice", &scene(), None);
        assert!(f.args.is_empty());
        assert_eq!(f.missing, ["type"]);
    }

    #[test]
    fn a_prefix_of_a_long_word_chooses_an_upper_case_value() {
        let lens = json!({ "properties": { "camera": { "type": "string" }, "type": { "enum": ["PERSP", "ORTHO", "PANO"] } }, "required": ["camera"] });
        let f = fill(&lens, "switch the camera to orthographic", &scene(), None);
        assert_eq!(Value::Object(f.args), json!({ "camera": "Camera", "type": "ORTHO" }));
    }

    #[test]
    fn references_are_scene_objects_and_prepositions_pick_the_second_role() {
        let parent = json!({ "properties": { "children": { "type": "array" }, "keep_transform": { "type": "boolean" }, "parent": { "type": ["string", "null"] } }, "required": ["children", "parent"] });
        let f = fill(&parent, "parent the light to the cube", &scene(), None);
        assert_eq!(Value::Object(f.args), json!({ "children": ["Light"], "parent": "Cube" }));
        let look = json!({ "properties": { "camera": { "type": "string" }, "target": { "type": "string" } } });
        let f = fill(&look, "point the camera at the big box", &scene(), None);
        assert_eq!(Value::Object(f.args), json!({ "camera": "Camera", "target": "Big Box" }));
        // A name that only contains a scene name is not a mention of it.
        let info = json!({ "properties": { "name": { "description": "The object", "type": "string" } }, "required": ["name"] });
        assert_eq!(fill(&info, "show me the cubes", &scene(), None).missing, ["name"]);
        assert_eq!(fill(&info, "show me the default cube", &scene(), None).args["name"], "Cube");
    }

    #[test]
    fn it_is_the_previous_steps_object_unless_the_words_name_one() {
        let info = json!({ "properties": { "name": { "description": "The object", "type": "string" } }, "required": ["name"] });
        assert_eq!(fill(&info, "now move it up", &scene(), Some("Box")).args["name"], "Box");
        assert_eq!(fill(&info, "move the light", &scene(), Some("Box")).args["name"], "Light");
        assert_eq!(fill(&info, "move up", &scene(), Some("Box")).missing, ["name"], "no pronoun, no guess");
        let created = fill(&create(), "add a cube called Box", &scene(), None);
        assert_eq!(created.subject().as_deref(), Some("Box"));
    }

    #[test]
    fn a_property_named_for_a_kind_takes_an_object_of_that_kind() {
        let frame = json!({ "properties": { "camera": { "type": ["string", "null"] }, "margin": { "type": "number" }, "objects": { "type": "array" } }, "required": ["objects"] });
        let f = fill(&frame, "frame the cube in the camera", &scene(), None);
        assert_eq!(Value::Object(f.args), json!({ "camera": "Camera", "objects": ["Cube"] }));
        let f = fill(&frame, "frame the camera on the cube and the big box", &scene(), None);
        assert_eq!(Value::Object(f.args), json!({ "camera": "Camera", "objects": ["Cube", "Big Box"] }));
    }

    #[test]
    fn a_name_beside_an_object_property_is_not_the_object() {
        let modifier = json!({ "properties": { "name": { "type": "string" }, "object": { "type": "string" } }, "required": ["object"] });
        assert_eq!(Value::Object(fill(&modifier, "bevel the cube", &scene(), None).args), json!({ "object": "Cube" }));
        let uv = json!({ "properties": { "new_name": { "type": "string" }, "object": { "type": "string" } } });
        assert_eq!(Value::Object(fill(&uv, "add a second UV map to the cube", &scene(), None).args), json!({ "object": "Cube" }), "no new name \"the\"");
        let view = json!({ "properties": { "camera": { "type": "string" } } });
        assert!(fill(&view, "look at the big box", &scene(), None).args.is_empty(), "a mesh is not a camera");
    }

    #[test]
    fn to_is_a_new_name_only_in_a_rename_and_it_keeps_the_first_role() {
        let modify = json!({ "properties": { "name": { "description": "The object to change", "type": "string" }, "new_name": { "type": ["string", "null"] } }, "required": ["name"] });
        assert!(fill(&modify, "scale the cube to 2", &scene(), None).args.get("new_name").is_none());
        let place = json!({ "properties": { "object": { "type": "string" }, "target": { "type": "string" } }, "required": ["object", "target"] });
        let f = fill(&place, "put it on the big box", &scene(), Some("Mug"));
        assert_eq!(Value::Object(f.args), json!({ "object": "Mug", "target": "Big Box" }));
    }

    #[test]
    fn a_rename_takes_the_word_after_to() {
        let modify = json!({ "properties": { "name": { "description": "The object to change", "type": "string" }, "new_name": { "type": ["string", "null"] } }, "required": ["name"] });
        let f = fill(&modify, "rename the cube to Box", &scene(), None);
        assert_eq!(Value::Object(f.args), json!({ "name": "Cube", "new_name": "Box" }));
    }
}
