use super::render_settings::{RenderSettingsArgs, params};
use capstan_blender::{RenderImage, RenderImageParams, SetRenderSettings, render_image, set_render_settings};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderArgs {
    /// File name inside the session's output directory (default `render`); the extension of the scene's format
    /// (`.png` unless file_format says otherwise) is added when missing; another format's extension is refused.
    #[schemars(length(min = 1, max = 128), regex(pattern = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$"))]
    pub filename: Option<String>,
    /// Render only this picture small and quick: at most 480 px on its longer side and at most 16 samples.
    /// The scene's own settings are kept as they are (a preview changes nothing but the file it writes).
    pub preview: Option<bool>,
    /// Settings to apply first (same as scene.render_settings).
    #[serde(flatten)]
    pub settings: RenderSettingsArgs,
}

/// Render the active camera to an image file (PNG unless the format is set) in the session's output folder.
///
/// Optionally applies render settings first (file_format among them), then renders a
/// still to <output dir>/<filename><extension of the format> and returns its path, size
/// and format. A scene set to FFMPEG video is refused: render.animation writes video.
#[capability(
    key = "scene.render",
    family = "render",
    tags = ["render", "image", "png", "jpeg", "exr", "picture", "still", "final", "output"],
    aliases = ["blender_render", "render_image", "render"],
    examples = ["render a png", "render the final image", "make a picture"],
    uses = [SetRenderSettings, RenderImage],
    cases = cases,
)]
fn render(args: RenderArgs) -> PackResult<Value> {
    let settings = params(&args.settings).map(|p| set_render_settings(&p)).transpose()?;
    let filename = args.filename.unwrap_or_else(|| "render".into());
    let mut image = json!(render_image(&RenderImageParams { filename, preview: args.preview })?);
    if let Some(s) = settings {
        image["settings"] = json!(s);
    }
    Ok(image)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a tiny transparent Cycles render").args(json!({
            "filename": "conformance.png", "engine": "cycles", "resolution": [64, 48], "samples": 2, "transparent": true,
        })).png(64, 48).settings(&["render"]).result(json!({ "width": 64, "height": 48, "engine": "CYCLES" })),
        Case::new("a JPEG render writes a .jpg")
            .args(json!({ "filename": "shot", "file_format": "JPEG", "engine": "cycles", "resolution": [40, 30], "samples": 1 }))
            .settings(&["render"])
            .result(json!({ "file": "shot.jpg", "format": "JPEG", "width": 40, "height": 30, "settings": { "output": { "file_format": "JPEG" } } })),
        Case::new("the default is a PNG named render.png")
            .args(json!({ "resolution": [24, 16], "engine": "cycles", "samples": 1 }))
            .png(24, 16).result(json!({ "file": "render.png", "format": "PNG" })),
        Case::new("a preview is small and leaves the scene's settings as they were")
            .setup("scene.render_settings", json!({ "engine": "cycles", "resolution": [1920, 1080], "samples": 64 }))
            .args(json!({ "filename": "preview", "preview": true }))
            .png(480, 270)
            .result(json!({ "width": 480, "height": 270, "preview": true }))
            .reads("render.audit", json!({}), json!({ "config": { "resolution": [1920, 1080], "percentage": 100, "samples": 64 } })),
        Case::new("a .png name while the scene writes JPEG")
            .setup("scene.render_settings", json!({ "file_format": "JPEG" }))
            .args(json!({ "filename": "shot.png" })).error("invalid_params"),
        Case::new("no camera")
            .setup("scene.delete_object", json!({ "name": "Camera" }))
            .args(json!({ "filename": "none.png", "resolution": [16, 16] })).error("no_camera"),
        Case::new("a path instead of a file name").args(json!({ "filename": "../escape.png" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
