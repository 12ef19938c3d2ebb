use capstan_blender::target::Target;
use capstan_blender::{AimCamera, AimCameraParams, aim_camera};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LookAtArgs {
    /// The camera to aim.
    #[schemars(length(min = 1, max = 63))]
    pub camera: String,
    /// An object (by name) or a point [x, y, z] in metres.
    pub target: Target,
    /// Keep it aimed as things move, with a Track To constraint (needs an object target).
    #[serde(default)]
    pub track: bool,
}

/// Aim a camera at an object or a point, optionally keeping it aimed with Track To.
///
/// Rotates the camera so it looks straight at the target; with `track`, adds (or updates)
/// a Track To constraint so it follows the object.
#[capability(
    key = "camera.look_at",
    family = "camera",
    tags = ["camera", "aim", "look at", "point", "track", "target"],
    aliases = ["aim_camera", "camera_look_at", "point_camera"],
    examples = ["aim the camera at the statue", "make the camera look at the origin", "have the camera follow the car"],
    uses = [AimCamera],
    cases = cases,
)]
fn look_at(args: LookAtArgs) -> PackResult<Value> {
    let (target_object, target_point) = args.target.split()?;
    Ok(json!(aim_camera(&AimCameraParams { camera: args.camera.clone(), target_object, target_point, track: Some(args.track) })?))
}

fn cases() -> Vec<Case> {
    vec![
        // The factory camera is at (7.36, -6.93, 4.96): the forward vector is the unit
        // vector towards the target.
        Case::new("aimed at the origin")
            .args(json!({ "camera": "Camera", "target": [0, 0, 0] }))
            .changed(&["Camera"]).fields("Camera", &["transform"]).added(&[]).settings(&[])
            .result(json!({ "forward": [-0.65376, 0.61528, -0.44049], "tracking": null, "target": [0.0, 0.0, 0.0] }))
            .reads("scene.object_info", json!({ "name": "Camera" }), json!({ "location": [7.35889, -6.92579, 4.95831] })),
        Case::new("following the cube")
            .args(json!({ "camera": "Camera", "target": "Cube", "track": true }))
            .changed(&["Camera"]).fields("Camera", &["constraints"])
            .result(json!({ "tracking": "Cube", "target": [0.0, 0.0, 0.0] })),
        Case::new("tracking a point is refused").args(json!({ "camera": "Camera", "target": [1, 2, 3], "track": true })).error("invalid_params"),
        Case::new("a light is not a camera").args(json!({ "camera": "Light", "target": "Cube" })).error("invalid_target"),
    ]
}
