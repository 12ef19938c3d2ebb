use capstan_blender::{JoinObjects, JoinObjectsParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Join mesh objects into one.
///
/// The geometry of `objects` (2 to 256 meshes) goes into `into` (default the first),
/// staying where it is in the world; the others are removed. Materials, UV maps and vertex
/// groups are merged.
#[capability(
    key = "mutate.join",
    family = "mutate",
    tags = ["join", "combine", "merge objects", "unite", "single mesh"],
    aliases = ["join_objects", "modeling_join_objects", "combine_objects", "join"],
    examples = ["join the cube and the sphere", "combine all the wall pieces into one mesh", "merge these objects into the table"],
    uses = [JoinObjects],
    cases = cases,
)]
fn join(args: JoinObjectsParams) -> PackResult<impl Serialize> {
    Ok(forward::<JoinObjects>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("two cubes become one mesh")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Block", "location": [4, 0, 0] }))
            .args(json!({ "objects": ["Cube", "Block"] }))
            .changed(&["Cube"]).removed(&["Block"]).added(&[]).fields("Cube", &["data"])
            .result(json!({ "object": "Cube", "joined": ["Block"], "mesh": { "vertices": 16, "faces": 12 } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "dimensions": [6.0, 2.0, 2.0], "mesh": { "vertices": 16 } })),
        Case::new("into names the survivor")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Block", "location": [0, 0, 3] }))
            .args(json!({ "objects": ["Cube", "Block"], "into": "Block" }))
            .changed(&["Block"]).removed(&["Cube"]).result(json!({ "object": "Block", "joined": ["Cube"] })),
        Case::new("a camera does not join").args(json!({ "objects": ["Cube", "Camera"] })).error("invalid_target"),
        Case::new("one object is not a join").args(json!({ "objects": ["Cube"] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
