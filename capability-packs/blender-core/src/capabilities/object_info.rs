use capstan_blender::{GetObjectInfo, GetObjectInfoParams, GetObjectInfoResult, get_object_info};
use capstan_sdk::prelude::*;

/// One object: transform, dimensions, parent and children, modifiers, constraints, materials, mesh counts, keyframes.
///
/// Read-only details of one object, by exact name (see `scene.info`): also how many faces
/// are shaded smooth, its rigid body and its asset mark when it has them. Long lists are
/// capped at 64 entries with their totals.
#[capability(
    key = "scene.object_info",
    family = "inspect",
    tags = ["object", "details", "transform", "inspect", "modifiers", "constraints"],
    aliases = ["blender_get_object_info", "get_object_info"],
    examples = ["tell me about the cube", "where is the camera", "object details"],
    uses = [GetObjectInfo],
    cases = cases,
    output = GetObjectInfoResult,
)]
fn object_info(args: GetObjectInfoParams) -> PackResult<GetObjectInfoResult> {
    Ok(get_object_info(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the default cube").args(json!({ "name": "Cube" })).result(json!({
            "name": "Cube", "type": "MESH", "dimensions": [2.0, 2.0, 2.0], "mesh": { "vertices": 8, "faces": 6 },
        })),
        Case::new("a rigid body, smooth faces and an asset mark are read back")
            .setup("physics.rigid_body", json!({ "object": "Cube", "type": "PASSIVE", "mass": 2.5 }))
            .setup("mutate.cleanup", json!({ "object": "Cube", "action": "shade_smooth" }))
            .setup("assets.mark", json!({ "target": "Cube", "kind": "object", "tags": ["crate"], "description": "a crate" }))
            .args(json!({ "name": "Cube" }))
            .result(json!({
                "mesh": { "smooth_faces": 6 },
                "rigid_body": { "type": "PASSIVE", "mass": 2.5, "enabled": true },
                "asset": { "tags": ["crate"], "description": "a crate" },
            })),
        Case::new("the factory cube is flat-shaded, no rigid body").args(json!({ "name": "Cube" })).result(json!({ "mesh": { "smooth_faces": 0 } })),
        Case::new("a missing object").args(json!({ "name": "Ghost" })).error("not_found"),
        Case::new("a name too long for Blender").args(json!({ "name": "x".repeat(64) })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
