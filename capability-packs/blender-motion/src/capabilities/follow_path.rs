use capstan_blender::{FollowPath, FollowPathParams, FollowPathParamsForwardAxis as Forward, follow_path as bridge_follow_path};
use capstan_sdk::prelude::*;

/// The object's axis that points along the curve when follow_curve is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum ForwardAxis {
    X,
    Y,
    Z,
    #[serde(rename = "-X")]
    NegX,
    #[serde(rename = "-Y")]
    NegY,
    #[serde(rename = "-Z")]
    NegZ,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FollowPathArgs {
    /// The object that moves.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// The curve object it moves along.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub curve: String,
    /// How many frames the trip takes.
    #[schemars(range(min = 1, max = 100000))]
    pub frames: i64,
    /// First frame of the trip (default the scene's start).
    #[schemars(range(min = -100000, max = 1000000))]
    pub start_frame: Option<i64>,
    /// Turn the object to follow the curve's direction.
    #[serde(default)]
    pub follow_curve: bool,
    /// Which axis of the object points forward along the curve (default Y).
    pub forward_axis: Option<ForwardAxis>,
}

/// Move an object along a curve over a number of frames, at constant speed.
///
/// Adds a Follow Path constraint targeting the curve and keys its offset linearly from
/// the start to the end of the path; with follow_curve the object turns with the curve.
#[capability(
    key = "animation.follow_path",
    family = "animation",
    tags = ["follow path", "along a curve", "path animation", "motion path", "camera path", "fly through"],
    aliases = ["follow_path", "path_animation", "animate_along_curve", "move_along_path"],
    examples = ["move the car along the curve over 100 frames", "make the camera fly along the path", "animate the ball following the road"],
    uses = [FollowPath],
    cases = cases,
)]
fn follow_path(args: FollowPathArgs) -> PackResult<Value> {
    if args.object == args.curve {
        return Err(PackError::invalid("an object cannot follow itself"));
    }
    let forward_axis = args.forward_axis.map(|a| match a {
        ForwardAxis::X => Forward::ForwardX,
        ForwardAxis::Y => Forward::ForwardY,
        ForwardAxis::Z => Forward::ForwardZ,
        ForwardAxis::NegX => Forward::TrackNegativeX,
        ForwardAxis::NegY => Forward::TrackNegativeY,
        ForwardAxis::NegZ => Forward::TrackNegativeZ,
    });
    Ok(json!(bridge_follow_path(&FollowPathParams {
        object: args.object,
        curve: args.curve,
        frames: args.frames,
        start_frame: args.start_frame,
        follow_curve: Some(args.follow_curve),
        forward_axis,
    })?))
}

fn cases() -> Vec<Case> {
    // No capability creates curves yet (create.curve is another pack's), so the positive
    // path is proven by the add-on's golden test (tests/test_keyframes.py); these cases
    // prove the refusals change nothing.
    vec![
        Case::new("a mesh is not a path").args(json!({ "object": "Camera", "curve": "Cube", "frames": 50 })).error("invalid_target"),
        Case::new("a missing curve").args(json!({ "object": "Cube", "curve": "Road", "frames": 50 })).error("not_found"),
        Case::new("zero frames").args(json!({ "object": "Cube", "curve": "Road", "frames": 0 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
