use capstan_blender::{SeparateObject, SeparateObjectParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Split a mesh into separate objects, by loose part or by material.
///
/// The original keeps the first part; each other part becomes a new object (a copy of the
/// original with only that geometry: same transform, modifiers, materials and collections).
/// At most 256 parts.
#[capability(
    key = "mutate.separate",
    family = "mutate",
    tags = ["separate", "split", "loose parts", "by material", "break apart", "detach"],
    aliases = ["separate_object", "modeling_separate_object", "split_mesh", "separate"],
    examples = ["separate the mesh by loose parts", "split the model into one object per material", "break the joined mesh apart"],
    uses = [SeparateObject],
    cases = cases,
)]
fn separate(args: SeparateObjectParams) -> PackResult<impl Serialize> {
    Ok(forward::<SeparateObject>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("two loose cubes become two objects")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Block", "location": [4, 0, 0] }))
            .setup("mutate.join", json!({ "objects": ["Cube", "Block"] }))
            .args(json!({ "object": "Cube", "mode": "LOOSE" }))
            .changed(&["Cube"]).added(&["Cube.001"]).removed(&[])
            .result(json!({ "new_objects": ["Cube.001"], "parts": [{ "name": "Cube", "mesh": { "vertices": 8 } }, { "name": "Cube.001", "mesh": { "vertices": 8 } }] }))
            .reads("scene.object_info", json!({ "name": "Cube.001" }), json!({ "collections": ["Collection"], "mesh": { "vertices": 8, "faces": 6 } })),
        Case::new("one material is one part").args(json!({ "object": "Cube", "mode": "MATERIAL" }))
            .changed(&[]).added(&[]).result(json!({ "new_objects": [] })),
        Case::new("an unknown mode").args(json!({ "object": "Cube", "mode": "COLOR" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a camera has no mesh").args(json!({ "object": "Camera", "mode": "LOOSE" })).error("invalid_target"),
    ]
}
