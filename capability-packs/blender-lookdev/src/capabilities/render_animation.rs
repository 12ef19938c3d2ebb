use capstan_blender::{RenderFrames, RenderFramesParams, render_frames};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnimationArgs {
    /// First frame (default the scene's start frame is not assumed: give it).
    #[schemars(range(min = -100000, max = 1000000))]
    pub frame_start: i64,
    /// Last frame, at most frame_start + 2400.
    #[schemars(range(min = -100000, max = 1000000))]
    pub frame_end: i64,
    /// Render every step-th frame (default 1).
    #[schemars(range(min = 1, max = 100))]
    pub step: Option<i64>,
    /// File name with #s for the frame number, without extension (default `frame_####`).
    #[schemars(length(min = 1, max = 128), regex(pattern = r"^[A-Za-z0-9_-]{0,60}#{1,8}[A-Za-z0-9_-]{0,60}$"))]
    pub pattern: Option<String>,
}

/// Render a frame range of the active camera to an image sequence or a video.
///
/// Renders frames frame_start..frame_end (every `step`-th) with the current render
/// settings into the session output folder, in the scene's file format: an image
/// sequence named by `pattern` (`frame_0001.png`, `.jpg`, `.exr`... by format; PNG unless
/// scene.render_settings set another), or with file_format FFMPEG one video whose #s
/// become the frame range (`frame_0001-0048.mp4`). The current frame is restored.
#[capability(
    key = "render.animation",
    family = "render",
    tags = ["render", "animation", "sequence", "frames", "png", "turntable", "video", "ffmpeg", "mp4"],
    aliases = ["render_animation", "render_frames", "render_sequence"],
    examples = ["render frames 1 to 48", "render the turntable as an image sequence", "render every other frame from 1 to 20"],
    uses = [RenderFrames],
    cases = cases,
)]
fn animation(args: AnimationArgs) -> PackResult<Value> {
    if args.frame_end < args.frame_start {
        return Err(PackError::invalid("frame_end is before frame_start"));
    }
    if args.frame_end - args.frame_start > 2400 {
        return Err(PackError::invalid("at most 2400 frames past frame_start"));
    }
    Ok(json!(render_frames(&RenderFramesParams {
        frame_start: args.frame_start,
        frame_end: args.frame_end,
        step: args.step,
        pattern: args.pattern.clone(),
    })?))
}

fn small() -> Value {
    json!({ "engine": "cycles", "resolution": [32, 32], "samples": 1 })
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("three frames at 32x32")
            .setup("scene.render_settings", small())
            .args(json!({ "frame_start": 1, "frame_end": 3 }))
            .added(&[]).changed(&[]).settings(&[])
            .result(json!({ "files": ["frame_0001.png", "frame_0002.png", "frame_0003.png"], "frames": [1, 2, 3], "width": 32, "height": 32 }))
            .png(32, 32),
        Case::new("every other frame with a pattern")
            .setup("scene.render_settings", small())
            .args(json!({ "frame_start": 10, "frame_end": 14, "step": 2, "pattern": "turn_##" }))
            .result(json!({ "files": ["turn_10.png", "turn_12.png", "turn_14.png"] })),
        Case::new("a JPEG sequence")
            .setup("scene.render_settings", json!({ "engine": "cycles", "resolution": [32, 32], "samples": 1, "file_format": "JPEG" }))
            .args(json!({ "frame_start": 1, "frame_end": 2, "pattern": "jp_##" }))
            .result(json!({ "files": ["jp_01.jpg", "jp_02.jpg"], "format": "JPEG" })),
        Case::new("an MPEG-4 video")
            .setup("scene.render_settings", json!({ "engine": "cycles", "resolution": [32, 32], "samples": 1, "file_format": "FFMPEG", "video_container": "MPEG4", "video_codec": "H264" }))
            .args(json!({ "frame_start": 1, "frame_end": 3, "pattern": "clip_####" }))
            .result(json!({ "files": ["clip_0001-0003.mp4"], "format": "FFMPEG", "frames": [1, 2, 3] })),
        Case::new("too many frames").args(json!({ "frame_start": 1, "frame_end": 5000 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a pattern with a path").args(json!({ "frame_start": 1, "frame_end": 2, "pattern": "../f_##" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
