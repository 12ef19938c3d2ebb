use capstan_blender::{
    GetObjectInfo, GetObjectInfoParams, InsertKeyframe, InsertKeyframeParams, InsertKeyframeParamsProperty as Property,
    InsertKeyframeParamsValue as KeyValue, SetInterpolation, SetInterpolationParams, SetInterpolationParamsExtrapolation as Extrapolation,
    SetInterpolationParamsInterpolation as Interpolation, get_object_info, insert_keyframe, set_interpolation,
};
use capstan_blender::angles;
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, JsonSchema)]
pub enum Axis {
    X,
    Y,
    Z,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurntableArgs {
    /// The object to spin.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// Frames per turn (default 120).
    #[schemars(range(min = 2, max = 2400))]
    #[serde(default = "frames")]
    pub frames: i64,
    /// Spin axis (default Z).
    #[serde(default = "z")]
    pub axis: Axis,
    /// Degrees per turn (default 360; negative spins the other way).
    #[schemars(range(min = -3600.0, max = 3600.0))]
    #[serde(default = "full")]
    pub degrees: f64,
    /// First frame (default 1).
    #[schemars(range(min = -100000, max = 1000000))]
    #[serde(default = "one")]
    pub start_frame: i64,
    /// Keep spinning past the last frame (default true).
    #[serde(default = "yes")]
    pub cyclic: bool,
}

fn frames() -> i64 {
    120
}
fn z() -> Axis {
    Axis::Z
}
fn full() -> f64 {
    360.0
}
fn one() -> i64 {
    1
}
fn yes() -> bool {
    true
}

/// The two rotation values of a turn from `start` (radians).
pub fn turn(start: [f64; 3], axis: Axis, degrees: f64) -> [f64; 3] {
    let mut end = start;
    end[axis as usize] += degrees.to_radians();
    end
}

/// Spin an object at constant speed: one turn over N frames, looping (a product turntable).
///
/// Keys the rotation at start_frame (as it is now) and start_frame + frames (plus
/// `degrees` about the axis), linear, and cyclic past the end.
#[capability(
    key = "animation.turntable",
    family = "animation",
    tags = ["turntable", "spin", "rotate 360", "orbit", "product spin", "loop", "rotation animation"],
    aliases = ["turntable", "spin_object", "rotate_360", "product_animation"],
    examples = ["make the product spin 360 degrees over 120 frames", "turntable the vase", "rotate the model once around"],
    uses = [GetObjectInfo, InsertKeyframe, SetInterpolation],
    cases = cases,
)]
fn turntable(args: TurntableArgs) -> PackResult<Value> {
    if args.degrees == 0.0 {
        return Err(PackError::invalid("degrees must not be 0"));
    }
    let start = get_object_info(&GetObjectInfoParams { name: args.object.clone() })?.rotation;
    let end_frame = args.start_frame + args.frames;
    let end = turn(start, args.axis, args.degrees);
    for (frame, value) in [(args.start_frame, start), (end_frame, end)] {
        insert_keyframe(&InsertKeyframeParams { object: args.object.clone(), property: Property::RotationEuler, frame, value: Some(KeyValue::Vec3(value)) })?;
    }
    set_interpolation(&SetInterpolationParams {
        object: args.object.clone(),
        data_path: Some("rotation_euler".into()),
        index: Some(args.axis as i64),
        interpolation: Some(Interpolation::Linear),
        easing: None,
        handle_type: None,
        extrapolation: Some(if args.cyclic { Extrapolation::Cyclic } else { Extrapolation::Constant }),
    })?;
    Ok(json!({
        "object": args.object, "axis": args.axis, "degrees": args.degrees, "frame_start": args.start_frame, "frame_end": end_frame,
        "rotation_start_deg": angles::degrees(start), "rotation_end_deg": angles::degrees(end), "cyclic": args.cyclic,
    }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("120 frames about Z")
            .args(json!({ "object": "Cube" }))
            .changed(&["Cube"]).fields("Cube", &["animation"]).datablocks_added("actions", &["CubeAction"])
            .result(json!({ "frame_start": 1, "frame_end": 121, "rotation_end_deg": [0.0, 0.0, 360.0] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "keyframes": [{ "property": "rotation_euler", "keys_total": 6,
                "channels": [[[1.0, 0.0], [121.0, 0.0]], [[1.0, 0.0], [121.0, 0.0]], [[1.0, 0.0], [121.0, 2.0 * std::f64::consts::PI]]] }] })),
        Case::new("a half turn back about X from frame 10")
            .args(json!({ "object": "Cube", "axis": "X", "degrees": -180, "frames": 48, "start_frame": 10, "cyclic": false }))
            .changed(&["Cube"])
            .result(json!({ "frame_end": 58, "rotation_end_deg": [-180.0, 0.0, 0.0] })),
        Case::new("a missing object").args(json!({ "object": "Ghost" })).error("not_found"),
        Case::new("too few frames").args(json!({ "object": "Cube", "frames": 1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_turn_adds_degrees_on_one_axis() {
        let end = super::turn([0.1, 0.0, 0.0], super::Axis::Y, 90.0);
        assert_eq!(end[0], 0.1);
        assert!((end[1] - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    }
}
