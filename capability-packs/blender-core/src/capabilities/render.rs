use super::render_settings::{RenderSettingsArgs, params};
use capstan_blender::{RenderImage, RenderImageParams, SetRenderSettings, render_image, set_render_settings};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderArgs {
    /// PNG file name inside the session's output directory (default render.png).
    #[schemars(length(min = 5, max = 128), regex(pattern = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.png$"))]
    pub filename: Option<String>,
    /// Settings to apply first (same as scene.render_settings).
    #[serde(flatten)]
    pub settings: RenderSettingsArgs,
}

/// Render the active camera to a PNG in the session's output folder.
///
/// Optionally applies render settings first, then renders a still to
/// <output dir>/<filename> and returns its path and size.
#[capability(
    key = "scene.render",
    family = "render",
    tags = ["render", "image", "png", "picture", "still", "final", "output"],
    aliases = ["blender_render", "render_image", "render"],
    examples = ["render a png", "render the final image", "make a picture"],
    uses = [SetRenderSettings, RenderImage],
    cases = cases,
)]
fn render(args: RenderArgs) -> PackResult<Value> {
    let settings = params(&args.settings).map(|p| set_render_settings(&p)).transpose()?;
    let filename = args.filename.unwrap_or_else(|| "render.png".into());
    let mut image = json!(render_image(&RenderImageParams { filename })?);
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
        Case::new("no camera")
            .setup("scene.delete_object", json!({ "name": "Camera" }))
            .args(json!({ "filename": "none.png", "resolution": [16, 16] })).error("no_camera"),
        Case::new("a path instead of a file name").args(json!({ "filename": "../escape.png" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
