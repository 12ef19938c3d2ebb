use capstan_blender::{FrameObjects, FrameObjectsParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Move a camera so the given objects fill its frame.
///
/// Places the camera (keeping its direction by default) at the distance where the
/// objects' bounding boxes fit its field of view, leaving `margin` of the frame free
/// (default 0.1); an orthographic camera gets the ortho scale that fits.
#[capability(
    key = "camera.frame_objects",
    family = "camera",
    tags = ["camera", "frame", "fit", "framing", "zoom", "composition"],
    aliases = ["frame_objects", "frame_selected", "fit_camera", "camera_fit"],
    examples = ["frame the product in the camera", "fit the cube and the sphere in the shot", "zoom the camera to show everything"],
    uses = [FrameObjects],
    cases = cases,
)]
fn frame(args: FrameObjectsParams) -> PackResult<impl Serialize> {
    Ok(forward::<FrameObjects>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the cube framed along the camera's view")
            .args(json!({ "camera": "Camera", "objects": ["Cube"], "margin": 0.1 }))
            .changed(&["Camera"]).fields("Camera", &["transform"]).added(&[]).settings(&[])
            .result(json!({ "center": [0.0, 0.0, 0.0], "ortho_scale": null })),
        Case::new("a new view from the front right")
            .args(json!({ "camera": "Camera", "objects": ["Cube", "Light"], "keep_direction": false }))
            .changed(&["Camera"]).fields("Camera", &["transform"]),
        Case::new("a camera cannot frame itself").args(json!({ "camera": "Camera", "objects": ["Camera"] })).error("invalid_params"),
        Case::new("no objects").args(json!({ "camera": "Camera", "objects": [] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing object").args(json!({ "camera": "Camera", "objects": ["Ghost"] })).error("not_found"),
    ]
}
