use capstan_blender::{
    CompositorGraphEdit, CompositorGraphEditParams, CompositorGraphEditParamsOp as Op, CompositorGraphEditParamsPreset as Effect,
    CompositorGraphInfo, CompositorGraphInfoParams, SetRenderQuality, SetRenderQualityParams, SetRenderQualityParamsFileFormat as Format,
    SetRenderSettings, SetRenderSettingsParams, SetRenderSettingsParamsEngine as Engine, compositor_graph_edit, compositor_graph_info,
    set_render_quality, set_render_settings,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    /// 128 samples, 6 bounces, noise threshold 0.1.
    Fast,
    /// 256 samples, 8 bounces, noise threshold 0.05.
    Balanced,
    /// 512 samples, 12 bounces, noise threshold 0.01.
    Premium,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, JsonSchema)]
pub enum Resolution {
    /// 1280x720.
    #[serde(rename = "720p")]
    Hd720,
    /// 1920x1080.
    #[serde(rename = "1080p")]
    Hd1080,
    /// 3840x2160.
    #[serde(rename = "4k")]
    Uhd4k,
    /// 1080x1080.
    #[serde(rename = "square_1080")]
    Square1080,
    /// 1080x1920 (stories, reels).
    #[serde(rename = "vertical")]
    Vertical,
    /// 1080x1350 (portrait feed post).
    #[serde(rename = "instagram")]
    Instagram,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderSetupArgs {
    /// Quality preset (default balanced).
    #[serde(default = "balanced")]
    pub quality: Quality,
    /// Resolution preset (default 1080p).
    #[serde(default = "hd")]
    pub resolution: Resolution,
    /// Transparent film, for compositing the product on any background (default true).
    #[serde(default = "yes")]
    pub transparent_bg: bool,
    /// A bloom glare in the compositor (default true).
    #[serde(default = "yes")]
    pub bloom: bool,
    /// A soft vignette in the compositor (default true).
    #[serde(default = "yes")]
    pub vignette: bool,
    /// Still-image format (default PNG).
    #[serde(default = "png")]
    pub output_format: Format,
}

fn balanced() -> Quality {
    Quality::Balanced
}
fn hd() -> Resolution {
    Resolution::Hd1080
}
fn yes() -> bool {
    true
}
fn png() -> Format {
    Format::Png
}

/// (samples, bounces, adaptive threshold) of a quality preset.
pub fn quality(q: Quality) -> (i64, i64, f64) {
    match q {
        Quality::Fast => (128, 6, 0.1),
        Quality::Balanced => (256, 8, 0.05),
        Quality::Premium => (512, 12, 0.01),
    }
}

pub fn resolution(r: Resolution) -> (i64, i64) {
    match r {
        Resolution::Hd720 => (1280, 720),
        Resolution::Hd1080 => (1920, 1080),
        Resolution::Uhd4k => (3840, 2160),
        Resolution::Square1080 => (1080, 1080),
        Resolution::Vertical => (1080, 1920),
        Resolution::Instagram => (1080, 1350),
    }
}

/// Product render settings: Cycles quality preset, resolution preset, transparent film, bloom and vignette, output format.
///
/// Sets samples, light bounces and the adaptive noise threshold per quality, the pixel
/// size per resolution preset, denoising on, and the file format; adds capstan's bloom
/// and vignette compositor presets when asked and not already there (a second call does
/// not stack them; `false` leaves an existing one in place). Nothing is rendered.
#[capability(
    key = "product.render_setup",
    family = "product",
    tags = ["product", "render", "quality", "resolution", "preset", "samples", "bounces", "bloom", "vignette", "packshot", "transparent"],
    aliases = ["product_render_setup", "product_render_settings", "packshot_render_settings"],
    examples = ["premium product render settings at square 1080", "set up a fast product render for instagram", "product render setup with a transparent background"],
    uses = [SetRenderSettings, SetRenderQuality, CompositorGraphInfo, CompositorGraphEdit],
    cases = cases,
)]
fn render_setup(args: RenderSetupArgs) -> PackResult<Value> {
    let (samples, bounces, threshold) = quality(args.quality);
    let (x, y) = resolution(args.resolution);
    let settings = set_render_settings(&SetRenderSettingsParams {
        engine: Some(Engine::Cycles),
        resolution_x: Some(x),
        resolution_y: Some(y),
        resolution_percentage: Some(100),
        samples: Some(samples),
        transparent: Some(args.transparent_bg),
        ..Default::default()
    })?;
    let quality_out = set_render_quality(&SetRenderQualityParams {
        max_bounces: Some(bounces),
        adaptive_threshold: Some(threshold),
        denoise: Some(true),
        file_format: Some(args.output_format),
    })?;
    let mut effects = Vec::new();
    let wanted: Vec<(Effect, &str)> = [(args.bloom, Effect::Bloom, "capstan_bloom"), (args.vignette, Effect::Vignette, "capstan_vignette")]
        .into_iter()
        .filter(|(on, _, _)| *on)
        .map(|(_, e, n)| (e, n))
        .collect();
    if !wanted.is_empty() {
        let graph = compositor_graph_info(&CompositorGraphInfoParams {})?;
        for (effect, node) in wanted {
            let present = graph.nodes.iter().any(|n| n.name == node);
            if !present {
                compositor_graph_edit(&CompositorGraphEditParams {
                    op: Op::Preset, preset: Some(effect), node_type: None, node: None, name: None, location: None, from_node: None,
                    from_socket: None, to_node: None, to_socket: None, input: None, value: None,
                })?;
            }
            effects.push(json!({ "node": node, "added": !present }));
        }
    }
    Ok(json!({
        "quality": args.quality, "resolution": args.resolution, "engine": settings.engine, "resolution_px": [x, y],
        "samples": settings.samples, "transparent": settings.transparent, "max_bounces": quality_out.max_bounces,
        "adaptive_threshold": quality_out.adaptive_threshold, "denoise": quality_out.denoise, "file_format": quality_out.file_format,
        "compositor": effects,
    }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("premium square with bloom and vignette")
            .args(json!({ "quality": "premium", "resolution": "square_1080" }))
            .added(&[]).changed(&[]).settings(&["render"])
            .result(json!({ "engine": "CYCLES", "resolution_px": [1080, 1080], "samples": 512, "max_bounces": 12, "adaptive_threshold": 0.01,
                            "transparent": true, "file_format": "PNG", "compositor": [{ "node": "capstan_bloom", "added": true }, { "node": "capstan_vignette", "added": true }] }))
            .reads("inspect.diagnostics", json!({}), json!({ "render": { "engine": "CYCLES", "samples": 512, "resolution": [1080, 1080], "transparent": true, "denoise": true } }))
            // Render Layers, the output, the bloom, and the vignette's mask, blur and multiply.
            .reads("render.audit", json!({ "profile": "product" }), json!({ "config": { "compositor_nodes": 6 } })),
        Case::new("a second call does not stack the effects")
            .setup("product.render_setup", json!({ "quality": "fast" }))
            .args(json!({ "quality": "balanced", "resolution": "instagram", "output_format": "JPEG", "transparent_bg": false }))
            .result(json!({ "samples": 256, "max_bounces": 8, "resolution_px": [1080, 1350], "file_format": "JPEG", "transparent": false,
                            "compositor": [{ "node": "capstan_bloom", "added": false }, { "node": "capstan_vignette", "added": false }] })),
        Case::new("fast 720p without compositing")
            .args(json!({ "quality": "fast", "resolution": "720p", "bloom": false, "vignette": false, "output_format": "OPEN_EXR" }))
            .settings(&["render"])
            .result(json!({ "samples": 128, "max_bounces": 6, "adaptive_threshold": 0.1, "resolution_px": [1280, 720], "file_format": "OPEN_EXR", "compositor": [] }))
            .reads("inspect.diagnostics", json!({}), json!({ "render": { "file_format": "OPEN_EXR", "samples": 128, "resolution": [1280, 720] } })),
        Case::new("an unknown resolution").args(json!({ "resolution": "8k" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
