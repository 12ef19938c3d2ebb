use capstan_blender::{SetCameraDof, SetCameraDofParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Depth of field: on or off, focus on an object or at a distance, and the f-stop.
///
/// Sets a camera's depth of field: `focus_object` or `focus_distance` (metres), and the
/// aperture f-stop (lower is blurrier).
#[capability(
    key = "camera.dof",
    family = "camera",
    tags = ["camera", "depth of field", "dof", "focus", "bokeh", "aperture", "fstop", "blur"],
    aliases = ["set_camera_dof", "depth_of_field", "camera_focus"],
    examples = ["focus the camera on the cup", "blur the background with f/1.8", "turn off depth of field"],
    uses = [SetCameraDof],
    cases = cases,
)]
fn dof(args: SetCameraDofParams) -> PackResult<impl Serialize> {
    Ok(forward::<SetCameraDof>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("focus on the cube at f/2")
            .args(json!({ "camera": "Camera", "enabled": true, "focus_object": "Cube", "fstop": 2 }))
            .changed(&["Camera"]).fields("Camera", &["data"]).added(&[]).settings(&[])
            .result(json!({ "enabled": true, "focus_object": "Cube", "fstop": 2.0 }))
            .reads("scene.object_info", json!({ "name": "Camera" }), json!({ "camera": { "dof": { "enabled": true, "focus_object": "Cube", "fstop": 2.0 } } })),
        Case::new("focus at 4 m")
            .args(json!({ "camera": "Camera", "enabled": true, "focus_distance": 4 }))
            .result(json!({ "focus_object": null, "focus_distance": 4.0 })),
        Case::new("object and distance at once").args(json!({ "camera": "Camera", "enabled": true, "focus_object": "Cube", "focus_distance": 2 })).error("invalid_params"),
        Case::new("the f-stop is bounded").args(json!({ "camera": "Camera", "enabled": true, "fstop": 0.1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
