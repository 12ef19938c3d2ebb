use capstan_blender::{ProductCameraRig, ProductCameraRigParams, ProductCameraRigParamsStyle as Style, product_camera_rig};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductCameraArgs {
    /// turntable (a seamless 360 degree loop), hero_reveal (push in and zoom while turning the last 30 degrees) or detail_orbit (a close, eased swing).
    pub style: Style,
    /// The product to frame; the camera aims at its bounds centre.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub target_object: String,
    /// Length of the move in frames (default 240).
    #[schemars(range(min = 24, max = 2400))]
    #[serde(default = "frames")]
    pub frames: i64,
    /// Camera distance from the centre in metres (default 4, or what `frame_fill` gives).
    #[schemars(range(min = 0.51, max = 1000.0))]
    pub camera_distance: Option<f64>,
    /// Camera height above the centre in metres (default 1.2, or 0.3 x the distance with `frame_fill`).
    #[schemars(range(min = -1000.0, max = 1000.0))]
    pub camera_height: Option<f64>,
    /// Frame by size instead of a distance: the share of the frame's shorter side the
    /// product's bounding sphere spans at the last frame (0.05 to 0.95), whatever its size.
    #[schemars(range(min = 0.05, max = 0.95))]
    pub frame_fill: Option<f64>,
    /// Focal length in mm (default 50).
    #[schemars(range(min = 12.0, max = 300.0))]
    #[serde(default = "fifty")]
    pub focal_length: f64,
    /// Aperture f-stop (default 2.8).
    #[schemars(range(min = 0.5, max = 32.0))]
    #[serde(default = "fstop")]
    pub f_stop: f64,
    /// Depth of field focused on the centre (default true).
    #[serde(default = "yes")]
    pub use_dof: bool,
    /// Frames per second (default 24).
    #[schemars(range(min = 12, max = 120))]
    #[serde(default = "fps")]
    pub fps: i64,
    /// hero_reveal: distance at the first frame (default 1.5 x camera_distance).
    #[schemars(range(min = 0.51, max = 1000.0))]
    pub start_distance: Option<f64>,
    /// hero_reveal: distance at the last frame (default camera_distance).
    #[schemars(range(min = 0.51, max = 1000.0))]
    pub end_distance: Option<f64>,
    /// hero_reveal: focal length at the first frame (default 0.7 x focal_length).
    #[schemars(range(min = 12.0, max = 300.0))]
    pub start_focal: Option<f64>,
    /// hero_reveal: focal length at the last frame (default focal_length).
    #[schemars(range(min = 12.0, max = 300.0))]
    pub end_focal: Option<f64>,
    /// detail_orbit: degrees swept (default 90).
    #[schemars(range(min = 1.0, max = 360.0))]
    pub orbit_angle: Option<f64>,
}

fn frames() -> i64 {
    240
}
const DEFAULT_DISTANCE: f64 = 4.0;
const DEFAULT_HEIGHT: f64 = 1.2;
fn fifty() -> f64 {
    50.0
}
fn fstop() -> f64 {
    2.8
}
fn yes() -> bool {
    true
}
fn fps() -> i64 {
    24
}

/// An animated product camera: turntable, hero reveal or detail orbit around the product's centre.
///
/// An owned pivot at the target's bounds centre carries an owned camera that a Track To
/// constraint keeps aimed at it, focused on it (depth of field), made the scene camera;
/// the frame range becomes 1..frames at `fps`. A later call (any style) re-keys the same
/// camera and pivot. Angles in degrees, distances in metres.
#[capability(
    key = "product.camera",
    family = "product",
    tags = ["product", "camera", "turntable", "hero shot", "reveal", "orbit", "packshot", "animation", "dolly", "track to"],
    aliases = ["product_camera", "product_camera_rig", "turntable_camera", "hero_camera"],
    examples = ["a turntable product camera around the watch", "hero reveal camera on the bottle", "a slow detail orbit of the ring for the product video"],
    uses = [ProductCameraRig],
    cases = cases,
)]
fn camera(args: ProductCameraArgs) -> PackResult<Value> {
    if args.style != Style::HeroReveal && (args.start_distance.is_some() || args.end_distance.is_some() || args.start_focal.is_some() || args.end_focal.is_some()) {
        return Err(PackError::invalid("start/end distance and focal belong to the hero_reveal style"));
    }
    if args.frame_fill.is_some() && (args.camera_distance.is_some() || args.end_distance.is_some()) {
        return Err(PackError::invalid("frame_fill sets the distance: give frame_fill or camera_distance/end_distance, not both"));
    }
    if args.style != Style::DetailOrbit && args.orbit_angle.is_some() {
        return Err(PackError::invalid("orbit_angle belongs to the detail_orbit style"));
    }
    Ok(json!(product_camera_rig(&ProductCameraRigParams {
        style: args.style,
        target: args.target_object,
        frames: Some(args.frames),
        distance: if args.frame_fill.is_some() { None } else { Some(args.camera_distance.unwrap_or(DEFAULT_DISTANCE)) },
        height: if args.frame_fill.is_some() { args.camera_height } else { Some(args.camera_height.unwrap_or(DEFAULT_HEIGHT)) },
        fill: args.frame_fill,
        lens: Some(args.focal_length),
        fstop: Some(args.f_stop),
        use_dof: Some(args.use_dof),
        fps: Some(args.fps),
        start_distance: args.start_distance,
        end_distance: args.end_distance,
        start_lens: args.start_focal,
        end_lens: args.end_focal,
        orbit_angle: args.orbit_angle,
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a turntable around the cube")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [1, 2, 0.5] }))
            .args(json!({ "style": "turntable", "target_object": "Cube", "frames": 120, "camera_distance": 5, "camera_height": 1, "fps": 30 }))
            .added(&["Product Camera", "Product Camera Pivot"]).settings(&["render", "scene"])
            .result(json!({ "camera": "Product Camera", "center": [1.0, 2.0, 0.5], "frame_start": 1, "frame_end": 120, "fps": 30, "lens": 50.0, "created": true }))
            .reads("inspect.diagnostics", json!({}), json!({ "camera": { "name": "Product Camera", "lens": 50.0, "dof": { "enabled": true, "focus_object": "Product Camera Pivot", "fstop": 2.8 } } }))
            .reads("scene.info", json!({}), json!({ "frame": { "start": 1, "end": 120 }, "camera": "Product Camera" })),
        Case::new("a hero reveal starts wide and far")
            .args(json!({ "style": "hero_reveal", "target_object": "Cube", "frames": 96, "camera_distance": 4, "start_distance": 8, "start_focal": 35, "end_focal": 70 }))
            .result(json!({ "distance": 8.0, "lens": 35.0, "frame_end": 96 }))
            .reads("scene.object_info", json!({ "name": "Product Camera" }), json!({ "parent": "Product Camera Pivot", "location": [0.0, -8.0, 1.2] })),
        Case::new("a second rig re-keys the same camera")
            .setup("product.camera", json!({ "style": "turntable", "target_object": "Cube" }))
            .args(json!({ "style": "detail_orbit", "target_object": "Cube", "frames": 48, "orbit_angle": 60 }))
            .added(&[]).removed(&[])
            .result(json!({ "created": false, "frame_end": 48 })),
        Case::new("frame_fill frames the product by its size")
            .setup("scene.modify_object", json!({ "name": "Cube", "scale": [0.1, 0.1, 0.1] }))
            .args(json!({ "style": "turntable", "target_object": "Cube", "frame_fill": 0.5 }))
            .added(&["Product Camera", "Product Camera Pivot"])
            // A 0.2 m cube: bounding radius 0.1732 m; 1920x1080 gives a 20.25 mm short side,
            // so d = 0.1732 / (0.5 * 20.25 / 100) = 1.7107 m at 50 mm, 0.5132 m up.
            .result(json!({ "distance": 1.71067, "lens": 50.0 }))
            .reads("scene.object_info", json!({ "name": "Product Camera" }), json!({ "location": [0.0, -1.71067, 0.5132] })),
        Case::new("frame_fill or a distance, not both").args(json!({ "style": "turntable", "target_object": "Cube", "frame_fill": 0.5, "camera_distance": 3 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("orbit_angle is for detail_orbit").args(json!({ "style": "turntable", "target_object": "Cube", "orbit_angle": 45 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("no such product").args(json!({ "style": "turntable", "target_object": "Ghost" })).error("not_found"),
        Case::new("too short").args(json!({ "style": "turntable", "target_object": "Cube", "frames": 10 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
