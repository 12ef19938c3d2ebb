use capstan_sdk::blender::{GetObjectInfo, GetObjectInfoParams, GetObjectInfoResult, get_object_info};
use capstan_sdk::prelude::*;

/// One object: transform, dimensions, parent and children, modifiers, constraints, materials, mesh counts, keyframes.
///
/// Read-only details of one object, by exact name (see `scene.info`). Long lists are capped
/// at 64 entries with their totals.
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
        Case::new("a missing object").args(json!({ "name": "Ghost" })).error("not_found"),
        Case::new("a name too long for Blender").args(json!({ "name": "x".repeat(64) })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
