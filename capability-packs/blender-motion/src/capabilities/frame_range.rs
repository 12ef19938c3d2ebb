use capstan_blender::{SetFrameRange, SetFrameRangeParams, set_frame_range};
use capstan_sdk::prelude::*;

/// At least one setting to change, said in the schema.
fn something_to_set(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &["frame_start", "frame_end", "fps", "frame_current"]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = something_to_set)]
pub struct FrameRangeArgs {
    /// First frame.
    #[schemars(range(min = 0, max = 1048574))]
    pub frame_start: Option<i64>,
    /// Last frame (at least frame_start).
    #[schemars(range(min = 0, max = 1048574))]
    pub frame_end: Option<i64>,
    /// Frames per second.
    #[schemars(range(min = 1, max = 240))]
    pub fps: Option<i64>,
    /// Go to this frame (animation is evaluated there).
    #[schemars(range(min = -1048574, max = 1048574))]
    pub frame_current: Option<i64>,
}

/// Set the timeline: start and end frame, frames per second, current frame.
///
/// Only the given fields change. Going to a frame evaluates the animation there, so
/// animated objects take their values at that frame (and are reported changed).
#[capability(
    key = "animation.frame_range",
    family = "animation",
    tags = ["frame range", "timeline", "fps", "frame rate", "start frame", "end frame", "current frame", "duration"],
    aliases = ["set_frame_range", "frame_range", "set_fps", "set_frame"],
    examples = ["make the animation 120 frames long", "set the frame rate to 30 fps", "go to frame 48"],
    uses = [SetFrameRange],
    cases = cases,
)]
fn frame_range(args: FrameRangeArgs) -> PackResult<Value> {
    if args.frame_start.is_none() && args.frame_end.is_none() && args.fps.is_none() && args.frame_current.is_none() {
        return Err(PackError::invalid("give frame_start, frame_end, fps or frame_current"));
    }
    if let (Some(s), Some(e)) = (args.frame_start, args.frame_end)
        && e < s
    {
        return Err(PackError::invalid(format!("frame_end {e} is before frame_start {s}")));
    }
    Ok(json!(set_frame_range(&SetFrameRangeParams {
        frame_start: args.frame_start,
        frame_end: args.frame_end,
        fps: args.fps,
        frame_current: args.frame_current,
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("120 frames at 30 fps")
            .args(json!({ "frame_start": 1, "frame_end": 120, "fps": 30 }))
            .changed(&[]).settings(&["render", "scene"])
            .result(json!({ "frame_start": 1, "frame_end": 120, "fps": 30.0 }))
            .reads("scene.info", json!({}), json!({ "frame": { "start": 1, "end": 120 } })),
        Case::new("going to a frame evaluates a linear move")
            .setup("animation.keyframe", json!({ "object": "Cube", "property": "location", "frame": 1, "value": [0, 0, 0] }))
            .setup("animation.keyframe", json!({ "object": "Cube", "property": "location", "frame": 11, "value": [10, 0, 0] }))
            .setup("animation.interpolation", json!({ "object": "Cube", "interpolation": "LINEAR" }))
            .args(json!({ "frame_current": 4 }))
            .changed(&["Cube"]).settings(&["scene"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "location": [3.0, 0.0, 0.0] })),
        Case::new("a linear turntable is at 180 degrees half way")
            .setup("animation.turntable", json!({ "object": "Cube", "frames": 120 }))
            .args(json!({ "frame_current": 61 }))
            .changed(&["Cube"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "rotation": [0.0, 0.0, std::f64::consts::PI] })),
        Case::new("an end before the start").args(json!({ "frame_start": 50, "frame_end": 10 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("nothing to set").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
