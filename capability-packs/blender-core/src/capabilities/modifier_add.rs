use capstan_blender::{AddModifier, AddModifierParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Add a non-destructive modifier (subdivision, bevel, mirror, array, solidify, ...) to an object.
///
/// `properties` sets the modifier's own settings by their Blender identifiers (e.g.
/// `{"levels": 2}` for SUBSURF, `{"width": 0.05, "segments": 3}` for BEVEL, `{"count": 4}` for
/// ARRAY); each is checked against Blender's RNA, and an unknown one is an error that lists
/// the valid ones. Object settings (an array's offset object, a boolean's cutter) take an
/// object name.
#[capability(
    key = "mutate.modifier_add",
    family = "mutate",
    tags = ["modifier", "subdivision", "subsurf", "bevel", "mirror", "array", "solidify", "decimate", "smooth"],
    aliases = ["add_modifier", "blender_add_modifier", "modifier_add"],
    examples = ["add a subdivision surface modifier", "bevel the edges of the cube", "mirror the mesh on x", "make an array of 5 cubes"],
    uses = [AddModifier],
    cases = cases,
)]
fn modifier_add(args: AddModifierParams) -> PackResult<impl Serialize> {
    Ok(forward::<AddModifier>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("subdivision level 2").args(json!({ "object": "Cube", "type": "SUBSURF", "properties": { "levels": 2 } }))
            .changed(&["Cube"]).fields("Cube", &["modifiers"]).added(&[])
            .result(json!({ "modifier": "Subsurf", "type": "SUBSURF", "properties": { "levels": 2 } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "modifiers": [{ "name": "Subsurf", "type": "SUBSURF" }], "modifiers_total": 1 })),
        Case::new("an array offset by an object")
            .setup("scene.create_object", json!({ "type": "empty", "name": "Offset", "location": [3, 0, 0] }))
            .args(json!({ "object": "Cube", "type": "ARRAY", "name": "Row", "properties": { "count": 4, "use_object_offset": true, "offset_object": "Offset" } }))
            .changed(&["Cube"]).result(json!({ "modifier": "Row", "properties": { "count": 4, "offset_object": "Offset" } })),
        Case::new("an unknown property is an error, not skipped")
            .args(json!({ "object": "Cube", "type": "BEVEL", "properties": { "widht": 0.1 } })).error("invalid_params"),
        Case::new("a camera takes no modifiers").args(json!({ "object": "Camera", "type": "BEVEL" })).error("invalid_target"),
    ]
}
