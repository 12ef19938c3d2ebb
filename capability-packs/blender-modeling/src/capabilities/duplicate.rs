use capstan_blender::{DuplicateObject, DuplicateObjectParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Duplicate an object, once or several times, each copy offset from the previous one.
///
/// A full copy (default) gets its own mesh or curve data; `linked` copies share the
/// original's data, so editing one edits all. `offset` [x, y, z] in metres steps each copy
/// from the last (copy i sits at location + i x offset); `count` is 1 to 100. Copies go into
/// the original's collections; `new_name` names the first (Blender suffixes the others).
#[capability(
    key = "object.duplicate",
    family = "object",
    tags = ["duplicate", "copy", "clone", "instance", "linked duplicate", "repeat"],
    aliases = ["duplicate_object", "copy_object", "scene_duplicate_object", "clone_object"],
    examples = ["duplicate the cube", "make 3 copies of the chair 2 metres apart", "make a linked duplicate of the lamp"],
    uses = [DuplicateObject],
    cases = cases,
)]
fn duplicate(args: DuplicateObjectParams) -> PackResult<impl Serialize> {
    Ok(forward::<DuplicateObject>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("three copies in a row")
            .args(json!({ "name": "Cube", "count": 3, "offset": [3, 0, 0] }))
            .added(&["Cube.001", "Cube.002", "Cube.003"]).changed(&[]).removed(&[])
            .result(json!({ "source": "Cube", "linked": false, "copies": [
                { "name": "Cube.001", "location": [3.0, 0.0, 0.0], "data": "Cube.001" },
                { "name": "Cube.002", "location": [6.0, 0.0, 0.0], "data": "Cube.002" },
                { "name": "Cube.003", "location": [9.0, 0.0, 0.0], "data": "Cube.003" } ] }))
            .reads("scene.object_info", json!({ "name": "Cube.003" }), json!({ "location": [9.0, 0.0, 0.0], "collections": ["Collection"], "mesh": { "vertices": 8 } })),
        Case::new("a named linked duplicate shares the mesh")
            .args(json!({ "name": "Cube", "new_name": "Twin", "linked": true }))
            .added(&["Twin"]).changed(&[])
            .result(json!({ "copies": [{ "name": "Twin", "data": "Cube" }], "linked": true })),
        Case::new("a missing source").args(json!({ "name": "Ghost" })).error("not_found"),
        Case::new("at most 100 copies").args(json!({ "name": "Cube", "count": 101 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
