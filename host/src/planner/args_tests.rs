//! The tests of [`super`]'s filling (`planner::args`): words, scene names and schemas in, arguments out.

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
fn a_hyphenated_word_chooses_a_value_by_its_parts() {
    let rig = json!({ "properties": { "preset": { "oneOf": [{ "const": "three_point" }, { "const": "studio" }, { "const": "rim" }] } }, "required": ["preset"] });
    assert_eq!(fill(&rig, "light the cube with a classic three-point setup", &scene(), None).args["preset"], "three_point");
    assert_eq!(fill(&rig, "a three point rig", &scene(), None).args["preset"], "three_point");
}

#[test]
fn a_verb_that_is_also_a_name_is_the_verb_before_what_it_acts_on() {
    let rig = json!({ "properties": { "target": { "type": "string" }, "preset": { "enum": ["three_point"] } }, "required": ["preset"] });
    assert_eq!(fill(&rig, "light the cube with a three-point setup", &scene(), None).args["target"], "Cube");
    let set = json!({ "properties": { "name": { "type": "string" } }, "required": ["name"] });
    assert_eq!(fill(&set, "make the Light brighter", &scene(), None).args["name"], "Light");
    let tint = json!({ "properties": { "name": { "type": "string" } }, "required": ["name"] });
    assert_eq!(fill(&tint, "give the light a warm orange tint", &scene(), None).args["name"], "Light", "not at a clause's start: a name");
}

#[test]
fn a_percentage_keeps_its_sign() {
    let out = json!({ "properties": { "percentage": { "type": ["integer", "null"], "minimum": 1, "maximum": 32767 }, "samples": { "type": ["integer", "null"] } } });
    assert_eq!(Value::Object(fill(&out, "Switch to Cycles with 128 samples, 1920x1080 but at 50% for now.", &scene(), None).args), json!({ "percentage": 50, "samples": 128 }));
}

#[test]
fn visibility_is_said_with_its_verbs() {
    let vis = json!({ "properties": { "name": { "type": "string" }, "visible": { "type": ["boolean", "null"] } }, "required": ["name"] });
    assert_eq!(fill(&vis, "hide the light, I don't want it in the render", &scene(), None).args["visible"], false);
    assert_eq!(fill(&vis, "show the cube again", &scene(), None).args["visible"], true);
    assert!(fill(&vis, "show me the cube", &scene(), None).args.get("visible").is_none());
    assert_eq!(fill(&vis, "please make the cube invisible", &scene(), None).args["visible"], false);
    assert!(fill(&vis, "raise the cube 50 cm so it's not hidden", &scene(), None).args.get("visible").is_none(), "not the instruction");
    assert!(fill(&vis, "move the cube up 1 m so it isn't hidden by the floor", &scene(), None).args.get("visible").is_none());
}

#[test]
fn of_two_values_named_alike_the_one_named_first_is_chosen() {
    assert_eq!(fill(&create(), "Add a cylinder and rest the cube on top of it", &scene(), None).args["type"], "cylinder");
    assert_eq!(fill(&create(), "add a cube next to the cylinder", &scene(), None).args["type"], "cube");
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
    // "it" after a preposition, with the first role named: the second role.
    let on = json!({ "properties": { "object": { "type": "string" }, "target": { "type": "string" } }, "required": ["object", "target"] });
    assert_eq!(Value::Object(fill(&on, "rest the cube on top of it", &scene(), Some("Plane")).args), json!({ "object": "Cube", "target": "Plane" }));
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
fn a_needed_input_names_its_schema_and_candidates() {
    let n = needed(&create(), "type", &scene());
    assert_eq!(n.candidates[0], "cube");
    assert_eq!(n.schema["enum"][1], "uv_sphere", "the $ref is followed");
    let cam = json!({ "properties": { "camera": { "type": "string" } } });
    assert_eq!(needed(&cam, "camera", &scene()).candidates, [json!("Camera")], "only objects of the kind the property names");
    let obj = json!({ "properties": { "object": { "type": "string" } } });
    assert_eq!(needed(&obj, "object", &scene()).candidates.len(), 4);
}

#[test]
fn a_text_says_what_is_quoted_or_what_follows_saying() {
    let t = json!({ "properties": { "text": { "type": "string" } }, "required": ["text"] });
    assert_eq!(fill(&t, "add 3d text saying hello", &scene(), None).args["text"], "hello");
    assert_eq!(fill(&t, "add a text that says 'Grand Opening'", &scene(), None).args["text"], "Grand Opening");
    assert_eq!(fill(&t, "add the text \"50% off\" above the cube", &scene(), None).args["text"], "50% off");
    assert_eq!(fill(&t, "add some text", &scene(), None).missing, ["text"]);
}

#[test]
fn a_value_the_rules_need_more_for_is_kept_and_the_more_is_missing() {
    let marker = json!({
        "properties": { "marker_type": { "enum": ["impact_point", "skid_mark"] }, "end": { "type": "array" } },
        "required": ["marker_type"],
        "allOf": [{ "if": { "properties": { "marker_type": { "const": "skid_mark" } }, "required": ["marker_type"] }, "then": { "required": ["end"] } }]
    });
    let f = fill(&marker, "mark skid marks leading to the impact", &scene(), None);
    assert_eq!(Value::Object(f.args), json!({ "marker_type": "skid_mark" }));
    assert_eq!(f.missing, ["end"]);
}

#[test]
fn an_action_is_named_by_a_verb_of_the_same_meaning() {
    let group = json!({ "properties": { "action": { "oneOf": [{ "const": "list" }, { "const": "create" }, { "const": "remove" }] } } });
    assert_eq!(fill(&group, "make a vertex group called top", &scene(), None).args["action"], "create");
    assert_eq!(fill(&group, "delete the group", &scene(), None).args["action"], "remove");
    assert_eq!(fill(&group, "remove the group", &scene(), None).args["action"], "remove", "its own word first");
}

#[test]
fn a_last_word_several_values_end_with_chooses_none() {
    let hero = json!({ "properties": {
        "lighting": { "enum": ["product_studio", "food_product"] },
        "material": { "enum": ["white_product", "polished_chrome"] } } });
    assert!(fill(&hero, "a product hero shot of a bottle", &scene(), None).args.is_empty());
    assert_eq!(fill(&hero, "a food product shot in polished chrome", &scene(), None).args, json!({ "lighting": "food_product", "material": "polished_chrome" }).as_object().unwrap().clone());
}

#[test]
fn everyday_names_choose_values_and_find_objects() {
    assert_eq!(fill(&create(), "add a small box", &scene(), None).args["type"], "cube");
    assert_eq!(fill(&create(), "add a ball", &scene(), None).args["type"], "uv_sphere");
    let info = json!({ "properties": { "name": { "description": "The object", "type": "string" } }, "required": ["name"] });
    let zoo = [SceneObject { name: "Suzanne".into(), kind: "MESH".into() }];
    assert_eq!(fill(&info, "show me the monkey", &zoo, None).args["name"], "Suzanne");
    let place = json!({ "properties": { "object": { "type": "string" }, "target": { "type": "string" } }, "required": ["object", "target"] });
    let f = fill(&place, "place a small box to the left of the cube", &scene(), None);
    assert_eq!(Value::Object(f.args), json!({ "target": "Cube" }), "the cube is where, not what");
    assert_eq!(f.missing, ["object"]);
    let rename = json!({ "properties": { "name": { "description": "Exact name of the object to change", "type": "string" }, "new_name": { "type": "string" } }, "required": ["name"] });
    assert_eq!(fill(&rename, "rename the teapot to Box", &scene(), None).missing, ["name"], "a new name is not an everyday word");
}

#[test]
fn an_abbreviated_value_is_read_from_the_words_it_shortens() {
    let modifier = json!({ "properties": { "type": { "enum": ["BEVEL", "SUBSURF", "SOLIDIFY"] } } });
    assert_eq!(fill(&modifier, "add a subdivision surface modifier", &scene(), None).args["type"], "SUBSURF");
    assert!(fill(&modifier, "add a sub surface", &scene(), None).args.get("type").is_none(), "a whole word is no beginning");
}

#[test]
fn a_name_after_called_goes_on_with_capitals_and_digits() {
    assert_eq!(super::super::names::called("place a sedan called Vehicle A, damaged at the front").as_deref(), Some("Vehicle A"));
    assert_eq!(super::super::names::called("build a road called Main Street, 40 metres long").as_deref(), Some("Main Street"));
    assert_eq!(super::super::names::called("a pedestrian called Pedestrian 1, 1.8 m tall").as_deref(), Some("Pedestrian 1"));
    assert_eq!(super::super::names::called("add two cubes called A and B").as_deref(), Some("A"));
    assert_eq!(super::super::names::called("make a vertex group called top on the cube").as_deref(), Some("top"));
    assert_eq!(super::super::names::called("add a cube named Box.").as_deref(), Some("Box"));
    let vehicle = json!({ "properties": { "name": { "description": "Name of the vehicle", "type": "string" }, "kind": { "oneOf": [{ "const": "sedan" }, { "const": "truck" }] } } });
    assert_eq!(Value::Object(fill(&vehicle, "place a sedan called Vehicle A, damaged", &scene(), None).args), json!({ "name": "Vehicle A", "kind": "sedan" }));
}

#[test]
fn a_flag_the_words_name_is_set_and_a_negation_clears_it() {
    let render = json!({ "properties": { "transparent": { "type": ["boolean", "null"] }, "self_collision": { "type": "boolean" }, "auto_render": { "type": "boolean" } } });
    assert_eq!(Value::Object(fill(&render, "render with a transparent background", &scene(), None).args), json!({ "transparent": true }));
    assert_eq!(Value::Object(fill(&render, "without a transparent background", &scene(), None).args), json!({ "transparent": false }));
    assert_eq!(Value::Object(fill(&render, "cloth with self collision, then render", &scene(), None).args), json!({ "self_collision": true }));
    assert!(fill(&render, "a collision shape", &scene(), None).args.is_empty(), "every word of the name, not one");
}

#[test]
fn a_rename_takes_the_word_after_to() {
    let modify = json!({ "properties": { "name": { "description": "The object to change", "type": "string" }, "new_name": { "type": ["string", "null"] } }, "required": ["name"] });
    let f = fill(&modify, "rename the cube to Box", &scene(), None);
    assert_eq!(Value::Object(f.args), json!({ "name": "Cube", "new_name": "Box" }));
}

#[test]
fn a_new_one_is_no_object_of_the_scene() {
    let aim = json!({ "properties": { "camera": { "type": "string" }, "target": { "type": "string" } }, "required": ["camera", "target"] });
    let f = fill(&aim, "new camera TopCam 10m straight above the cube looking down", &scene(), None);
    assert_eq!(f.args.get("camera"), None, "the Camera the scene has is not the new one: {:?}", f.args);
    assert_eq!(f.args["target"], "Cube");
    let set = json!({ "properties": { "name": { "type": "string" } }, "required": ["name"] });
    assert_eq!(fill(&set, "add another cube", &scene(), None).args.get("name"), None);
    assert_eq!(fill(&set, "point the camera at the cube", &scene(), None).args["name"], "Camera");
}
