use capstan_blender::{CameraFraming, CameraFramingParams, camera_framing as bridge_camera_framing};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CameraFramingArgs {
    /// The object to look for in the shot (exact name).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// The camera (exact name; default the scene camera).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub camera: Option<String>,
}

/// Where an object lands in a camera's frame, how much of the frame it fills, and whether it is fully in the shot.
///
/// Projects the object's evaluated world-space geometry (its vertices, or the corners
/// of its box above 50,000 vertices) through the camera at the current frame, honouring
/// the render resolution, pixel aspect, sensor fit, lens shift and orthographic cameras.
/// Answers `bounds` in frame fractions (x from the left, y from the bottom; 0..1 is
/// inside, values beyond are outside; null when nothing is in front of the camera),
/// `width_fraction` / `height_fraction` of the visible part, `coverage` (the larger),
/// `fully_inside`, `in_front`, `visible`, `within_clip` and the camera-to-object
/// `distance` in metres. Occlusion by other objects is not considered. Pass `bounds`
/// to render.image_stats as its region to measure the object's pixels in a render.
#[capability(
    key = "spatial.camera_framing",
    family = "spatial",
    tags = ["camera", "framing", "in frame", "in shot", "camera view", "fits in view", "composition", "coverage", "frame fill", "fraction of the frame", "takes up", "cropped", "cut off", "visible", "critic"],
    aliases = ["camera_framing", "in_frame", "framing_check", "object_in_frame", "shot_coverage"],
    examples = ["is the bottle fully in the shot", "how much of the frame does the product fill", "is the cube cut off by the edge of the frame", "is the chair visible from the camera"],
    uses = [CameraFraming],
    cases = cases,
)]
fn camera_framing(args: CameraFramingArgs) -> PackResult<Value> {
    let framing = bridge_camera_framing(&CameraFramingParams { object: args.object, camera: args.camera })?;
    let mut out = json!(framing);
    out["units"] = json!({ "bounds": "frame fractions, y up", "distance": "metres" });
    Ok(out)
}

fn cases() -> Vec<Case> {
    // The factory camera at (7.36, -6.93, 4.96) sees the 2 m factory cube whole, filling
    // two thirds of the frame's height (1920x1080, 50 mm lens, 36 mm sensor).
    let factory = json!({
        "camera": "Camera", "object": "Cube", "frame": 1, "in_front": true, "visible": true, "fully_inside": true, "within_clip": true,
        "bounds": { "x_min": 0.31801, "x_max": 0.681221, "y_min": 0.153417, "y_max": 0.824031 },
        "width_fraction": 0.363211, "height_fraction": 0.670613, "coverage": 0.670613, "distance": 11.256318,
        "points": 8, "source": "vertices",
    });
    vec![
        Case::new("the factory cube is fully in the factory camera's shot")
            .args(json!({ "object": "Cube" }))
            .result(factory)
            .reads("spatial.assert", json!({ "constraints": [{ "type": "in_frame", "object": "Cube", "min_coverage": 0.6, "max_coverage": 0.75 }] }), json!({ "passed": true })),
        Case::new("raised by 2 m the cube's top leaves the frame")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [0, 0, 2] }))
            .args(json!({ "object": "Cube", "camera": "Camera" }))
            .result(json!({ "fully_inside": false, "visible": true, "in_front": true, "bounds": { "y_max": 1.245114 }, "height_fraction": 0.415677 })),
        Case::new("an object moved behind the camera")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [14.72, -13.86, 9.92] }))
            .args(json!({ "object": "Cube" }))
            .result(json!({ "in_front": false, "visible": false, "fully_inside": false, "bounds": null, "coverage": 0.0, "distance": 11.264437 })),
        Case::new("the light is a point outside the frame")
            .args(json!({ "object": "Light" }))
            .result(json!({ "source": "origin", "points": 1, "visible": false, "in_front": true, "coverage": 0.0 })),
        Case::new("a missing object").args(json!({ "object": "Ghost" })).error("not_found"),
        Case::new("a camera that is not a camera").args(json!({ "object": "Light", "camera": "Cube" })).error("invalid_target"),
        Case::new("no scene camera")
            .setup("scene.delete_object", json!({ "name": "Camera" }))
            .args(json!({ "object": "Cube" })).error("no_camera"),
        Case::new("an unknown argument").args(json!({ "object": "Cube", "zoom": 2 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
