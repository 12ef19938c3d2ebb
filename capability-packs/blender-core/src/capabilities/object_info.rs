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
    tags = ["object", "details", "transform", "inspect", "modifiers", "constraints", "location", "position", "rotation"],
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
        // Reads measure the evaluated scene at the current frame (issue 27): each of these
        // changes the scene through another capability and reads straight after.
        Case::new("a z scale of 2 reads back as 4 m tall")
            .setup("scene.modify_object", json!({ "name": "Cube", "scale": [1, 1, 2] }))
            .args(json!({ "name": "Cube" }))
            .result(json!({ "scale": [1.0, 1.0, 2.0], "dimensions": [2.0, 2.0, 4.0] })),
        Case::new("an array modifier reads back in dimensions and evaluated counts")
            .setup("mutate.modifier_add", json!({ "object": "Cube", "type": "ARRAY", "properties": { "count": 3 } }))
            .args(json!({ "name": "Cube" }))
            .result(json!({ "dimensions": [6.0, 2.0, 2.0], "mesh": { "vertices": 8, "faces": 6, "evaluated": { "vertices": 24, "faces": 18 } } })),
        Case::new("a turntable reads 0 deg at frame 1")
            .setup("animation.turntable", json!({ "object": "Cube" }))
            .args(json!({ "name": "Cube" }))
            .result(json!({ "rotation": [0.0, 0.0, 0.0], "keyframes": [{ "property": "rotation_euler" }] })),
        Case::new("a half turn reads 180 deg at its last frame")
            .setup("animation.turntable", json!({ "object": "Cube", "axis": "Z", "degrees": 180, "frames": 48, "start_frame": 1, "cyclic": false }))
            .setup("animation.frame_range", json!({ "frame_current": 49 }))
            .args(json!({ "name": "Cube" }))
            .result(json!({ "rotation": [0.0, 0.0, std::f64::consts::PI] })),
        Case::new("the factory cube is flat-shaded, no rigid body").args(json!({ "name": "Cube" })).result(json!({ "mesh": { "smooth_faces": 0 } })),
        Case::new("a missing object").args(json!({ "name": "Ghost" })).error("not_found"),
        Case::new("a name too long for Blender").args(json!({ "name": "x".repeat(64) })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
