use capstan_blender::angles::AngleUnit;
use capstan_blender::target::Target;
use capstan_blender::{GetObjectInfo, SetCamera, SetCameraParams, SetCameraParamsDof, set_camera};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DofArgs {
    pub enabled: bool,
    /// Keep this object in focus.
    #[schemars(length(min = 1, max = 63))]
    pub focus_object: Option<String>,
    /// Or focus at this distance in metres.
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub focus_distance: Option<f64>,
    /// Aperture f-stop: lower is blurrier.
    #[schemars(range(min = 0.1, max = 128.0))]
    pub fstop: Option<f64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CameraArgs {
    /// Camera to create or change; default the scene camera (or a new "Camera").
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// Camera position [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// Aim at an object (by name) or a point; overrides `rotation`.
    pub look_at: Option<Target>,
    /// Rotation [x, y, z] in `rotation_unit`, when not aiming with look_at.
    pub rotation: Option<[f64; 3]>,
    #[serde(default)]
    pub rotation_unit: AngleUnit,
    /// Focal length in millimetres (50 = normal, 85+ = portrait/product).
    #[schemars(range(min = 1.0, max = 5000.0))]
    pub lens: Option<f64>,
    /// Depth of field.
    pub dof: Option<DofArgs>,
    /// Make it the scene's active camera (default true).
    pub make_active: Option<bool>,
}

/// Place and aim the camera, set its lens and depth of field.
///
/// Creates or changes a camera: location, aim at an object or point (or rotation), focal
/// length, depth of field; makes it the active camera by default.
#[capability(
    key = "scene.camera",
    family = "camera",
    tags = ["camera", "view", "shot", "lens", "focus", "depth of field", "aim", "frame"],
    aliases = ["blender_set_camera", "set_camera", "camera_setup"],
    examples = ["move the camera", "point the camera at the cube", "use a 85mm lens", "blur the background"],
    uses = [SetCamera, GetObjectInfo],
    cases = cases,
)]
fn camera(args: CameraArgs) -> PackResult<Value> {
    if let Some(d) = &args.dof
        && d.focus_object.is_some()
        && d.focus_distance.is_some()
    {
        return Err(PackError::invalid("dof takes focus_object or focus_distance, not both"));
    }
    let (look_at, rotation) = match (&args.look_at, args.rotation) {
        (Some(t), _) => (Some(t.resolve()?), None),
        (None, Some(r)) => (None, Some(args.rotation_unit.to_radians(r))),
        (None, None) => (None, None),
    };
    let p = SetCameraParams {
        name: args.name.clone(),
        location: args.location,
        look_at,
        rotation,
        lens: args.lens,
        dof: args.dof.as_ref().map(|d| SetCameraParamsDof {
            enabled: d.enabled,
            focus_object: d.focus_object.clone(),
            focus_distance: d.focus_distance,
            fstop: d.fstop,
        }),
        make_active: Some(args.make_active.unwrap_or(true)),
    };
    Ok(json!(set_camera(&p)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a new camera aimed at an object, in focus")
            .args(json!({ "name": "Cam2", "location": [0, -5, 0], "look_at": "Cube", "lens": 85, "dof": { "enabled": true, "focus_object": "Cube", "fstop": 2 } }))
            .added(&["Cam2"]).changed(&[]).settings(&["scene"])
            .reads("scene.object_info", json!({ "name": "Cam2" }), json!({ "camera": { "lens": 85.0, "active": true, "dof": { "enabled": true, "focus_object": "Cube", "fstop": 2.0 } } })),
        Case::new("the scene camera moved, lens changed")
            .args(json!({ "location": [0, -8, 2], "lens": 35 }))
            .changed(&["Camera"]).fields("Camera", &["data", "transform"]).settings(&[]),
        Case::new("a mesh is not a camera").args(json!({ "name": "Cube", "lens": 50 })).error("invalid_target"),
    ]
}
