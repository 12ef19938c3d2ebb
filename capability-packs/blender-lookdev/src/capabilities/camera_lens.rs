use capstan_blender::{SetCameraLens, SetCameraLensParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Lens and sensor: perspective, orthographic or panoramic, focal length, sensor, shift, clipping.
///
/// Changes only the given fields of a camera's lens: type, focal length (mm), ortho scale,
/// sensor width (mm) and fit, lens shift, clip start and end (metres). Answers the field of
/// view in radians (`angle`).
#[capability(
    key = "camera.lens",
    family = "camera",
    tags = ["camera", "lens", "focal length", "orthographic", "perspective", "sensor", "shift", "clipping"],
    aliases = ["set_camera_lens", "camera_lens", "camera_settings"],
    examples = ["use a 35mm lens", "make the camera orthographic", "shift the lens up a little", "set the clip end to 500 m"],
    uses = [SetCameraLens],
    cases = cases,
)]
fn lens(args: SetCameraLensParams) -> PackResult<impl Serialize> {
    Ok(forward::<SetCameraLens>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a 35 mm lens with some shift")
            .args(json!({ "camera": "Camera", "lens": 35, "shift_y": 0.1, "clip_end": 500 }))
            .changed(&["Camera"]).fields("Camera", &["data"]).added(&[]).settings(&[])
            .result(json!({ "lens": 35.0, "shift_y": 0.1, "clip_end": 500.0, "type": "PERSP", "angle": 0.95002 }))
            .reads("scene.object_info", json!({ "name": "Camera" }), json!({ "camera": { "lens": 35.0 } })),
        Case::new("orthographic").args(json!({ "camera": "Camera", "type": "ORTHO", "ortho_scale": 12 })).result(json!({ "type": "ORTHO", "ortho_scale": 12.0 })),
        Case::new("clip end before clip start").args(json!({ "camera": "Camera", "clip_start": 10, "clip_end": 5 })).error("invalid_params"),
        Case::new("nothing to change").args(json!({ "camera": "Camera" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
