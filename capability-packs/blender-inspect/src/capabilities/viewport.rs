use capstan_blender::{RenderPreview, RenderPreviewParams, RenderPreviewParamsEngine as Engine, render_preview};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewportArgs {
    /// Width in pixels (default 256).
    #[schemars(range(min = 16, max = 1024))]
    #[serde(default = "side")]
    pub width: i64,
    /// Height in pixels (default 256).
    #[schemars(range(min = 16, max = 1024))]
    #[serde(default = "side")]
    pub height: i64,
    /// Engine (default cycles, on the CPU; workbench and eevee need GL, which a headless Blender may lack).
    #[serde(default = "cycles")]
    pub engine: Engine,
    /// Samples per pixel (default 4).
    #[schemars(range(min = 1, max = 16))]
    #[serde(default = "four")]
    pub samples: i64,
    /// Look through this camera (default: the active camera, or a temporary one framing everything).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub camera: Option<String>,
}

fn side() -> i64 {
    256
}
fn cycles() -> Engine {
    Engine::Cycles
}
fn four() -> i64 {
    4
}

/// A small picture of the scene as a PNG (an image the client shows): the headless stand-in for a viewport screenshot.
///
/// Renders through the active camera (or `camera`); without one, a temporary camera frames
/// every visible object and is removed afterwards. Every render setting it uses is put
/// back and the temporary file is deleted, so the scene is exactly as before (an empty
/// delta). Small and cheap by design: at most 1024x1024 and 16 samples.
#[capability(
    key = "inspect.viewport",
    family = "inspect",
    tags = ["viewport", "preview", "thumbnail", "picture", "pixels", "visual check", "base64", "png"],
    aliases = ["viewport_capture", "get_viewport_screenshot", "render_preview", "scene_get_viewport", "render_thumbnail"],
    examples = ["what does the scene look like", "give me a quick look at the scene", "show me a preview image of the scene"],
    uses = [RenderPreview],
    cases = cases,
)]
fn viewport(args: ViewportArgs) -> PackResult<Value> {
    let out = render_preview(&RenderPreviewParams {
        width: Some(args.width),
        height: Some(args.height),
        engine: Some(args.engine),
        samples: Some(args.samples),
        camera: args.camera,
    })?;
    // The host's image convention (`result.image`): an MCP client gets the picture as an
    // image content block instead of base64 in the text.
    let mut out = json!(out);
    let data = out.as_object_mut().and_then(|o| o.remove("image_base64")).unwrap_or_default();
    out["image"] = json!({ "mime_type": "image/png", "data": data });
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a tiny preview through the factory camera")
            .args(json!({ "width": 48, "height": 32, "samples": 1 }))
            .result(json!({ "mime": "image/png", "width": 48, "height": 32, "engine": "CYCLES", "camera": "Camera", "temporary_camera": false }))
            .reads("inspect.diagnostics", json!({}), json!({ "camera": { "name": "Camera" }, "objects_total": 3 })),
        Case::new("without a camera a temporary one is used and removed")
            .setup("scene.delete_object", json!({ "name": "Camera" }))
            .args(json!({ "width": 32, "height": 32, "samples": 1 }))
            .result(json!({ "width": 32, "height": 32, "temporary_camera": true, "camera": "capstan_preview_camera" }))
            .reads("inspect.diagnostics", json!({}), json!({ "camera": null, "objects_total": 2 })),
        Case::new("render settings are put back")
            .setup("scene.render_settings", json!({ "engine": "cycles", "samples": 64, "resolution": [640, 360] }))
            .args(json!({ "width": 16, "height": 16, "samples": 2 }))
            .result(json!({ "width": 16, "samples": 2 }))
            .reads("inspect.diagnostics", json!({}), json!({ "render": { "engine": "CYCLES", "samples": 64, "resolution": [640, 360] } })),
        Case::new("a mesh is not a camera").args(json!({ "camera": "Cube", "width": 16, "height": 16 })).error("invalid_target"),
        Case::new("the size is bounded").args(json!({ "width": 2048 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
