use capstan_blender::{
    SetRenderSettings, SetRenderSettingsParams, SetRenderSettingsParamsColorDepth as ColorDepth, SetRenderSettingsParamsColorMode as ColorMode,
    SetRenderSettingsParamsDenoiser as Denoiser, SetRenderSettingsParamsEngine, SetRenderSettingsParamsExrCodec as ExrCodec,
    SetRenderSettingsParamsFileFormat as FileFormat, SetRenderSettingsParamsVideoCodec as VideoCodec,
    SetRenderSettingsParamsVideoContainer as VideoContainer, SetRenderSettingsParamsViewportDenoiser as ViewportDenoiser, set_render_settings,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderSettingsArgs {
    /// cycles (path tracing, works headless on the CPU), eevee (real-time) or workbench (flat, fastest).
    pub engine: Option<SetRenderSettingsParamsEngine>,
    /// Output size [width, height] in pixels.
    #[schemars(inner(range(min = 4, max = 16384)))]
    pub resolution: Option<[u32; 2]>,
    /// Percentage of the resolution actually rendered: below 100 for previews, above for larger output (Blender's range).
    #[schemars(range(min = 1, max = 32767))]
    pub percentage: Option<u32>,
    /// Render samples per pixel (Cycles, EEVEE).
    #[schemars(range(min = 1, max = 65536))]
    pub samples: Option<u32>,
    /// Viewport samples (Cycles preview samples, EEVEE viewport samples).
    #[schemars(range(min = 1, max = 65536))]
    pub viewport_samples: Option<u32>,
    /// Transparent background (film) instead of the world.
    pub transparent: Option<bool>,
    /// Denoise the final render (Cycles).
    pub denoise: Option<bool>,
    /// Denoise the viewport (Cycles).
    pub viewport_denoise: Option<bool>,
    /// Render denoiser; one this Blender lacks (OPTIX without an NVIDIA GPU) is refused naming what it offers.
    pub denoiser: Option<Denoiser>,
    pub viewport_denoiser: Option<ViewportDenoiser>,
    pub motion_blur: Option<bool>,
    /// Motion blur shutter in frames.
    #[schemars(range(min = 0.0, max = 100.0))]
    pub shutter: Option<f64>,
    /// Output file format (FFMPEG: video, for render.animation).
    pub file_format: Option<FileFormat>,
    /// Bits per channel the format offers (PNG 8/16, EXR 16/32).
    pub color_depth: Option<ColorDepth>,
    pub color_mode: Option<ColorMode>,
    pub exr_codec: Option<ExrCodec>,
    /// JPEG/WebP quality, or PNG compression.
    #[schemars(range(min = 0, max = 100))]
    pub quality: Option<u32>,
    /// FFMPEG container and codec.
    pub video_container: Option<VideoContainer>,
    pub video_codec: Option<VideoCodec>,
}

/// The settings one call may give; at least one of them (see `SettingsCall`).
const SETTINGS: [&str; 19] = [
    "engine", "resolution", "percentage", "samples", "viewport_samples", "transparent", "denoise", "viewport_denoise", "denoiser",
    "viewport_denoiser", "motion_blur", "shutter", "file_format", "color_depth", "color_mode", "exr_codec", "quality",
    "video_container", "video_codec",
];

/// scene.render_settings' arguments: the settings, at least one of them. `{}` could only
/// fail at run time ("nothing to set"), so the schema says so (`anyOf`); scene.render
/// flattens the settings without this rule (it renders with none).
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct SettingsCall(pub RenderSettingsArgs);

impl JsonSchema for SettingsCall {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RenderSettingsCall".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = RenderSettingsArgs::json_schema(generator);
        capstan_sdk::schema_rules::require_any(&mut schema, &SETTINGS);
        schema
    }
}

/// The bridge params of these settings, or None when they set nothing.
pub fn params(a: &RenderSettingsArgs) -> Option<SetRenderSettingsParams> {
    let p = SetRenderSettingsParams {
        engine: a.engine,
        resolution_x: a.resolution.map(|r| r[0] as i64),
        resolution_y: a.resolution.map(|r| r[1] as i64),
        resolution_percentage: a.percentage.map(i64::from),
        samples: a.samples.map(i64::from),
        transparent: a.transparent,
        viewport_samples: a.viewport_samples.map(i64::from),
        denoise: a.denoise,
        viewport_denoise: a.viewport_denoise,
        denoiser: a.denoiser,
        viewport_denoiser: a.viewport_denoiser,
        motion_blur: a.motion_blur,
        shutter: a.shutter,
        file_format: a.file_format,
        color_depth: a.color_depth,
        color_mode: a.color_mode,
        exr_codec: a.exr_codec,
        quality: a.quality.map(i64::from),
        video_container: a.video_container,
        video_codec: a.video_codec,
    };
    (p != SetRenderSettingsParams::default()).then_some(p)
}

/// Choose the render engine, resolution and percentage, samples, denoising, motion blur, transparency and output format.
///
/// Changes render settings only; nothing is rendered. Cycles renders on the CPU. The
/// output format's settings (colour depth, colour mode, EXR codec, quality) are checked
/// against what this Blender offers for that format; a refusal changes nothing.
#[capability(
    key = "scene.render_settings",
    family = "render",
    tags = ["render", "settings", "engine", "cycles", "eevee", "resolution", "samples", "transparent", "denoise", "motion blur", "output", "format", "exr", "jpeg"],
    aliases = ["blender_render_settings", "set_render_settings"],
    examples = ["use cycles", "render at 1080p", "transparent background render", "render to 32-bit EXR multilayer", "turn on motion blur"],
    uses = [SetRenderSettings],
    cases = cases,
)]
fn render_settings(call: SettingsCall) -> PackResult<Value> {
    let args = call.0;
    let p = params(&args).ok_or_else(|| PackError::invalid("nothing to set: give at least one setting (engine, resolution, percentage, samples, file_format, ...)"))?;
    Ok(json!(set_render_settings(&p)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("cycles at 80x60, 2 samples").args(json!({ "engine": "cycles", "resolution": [80, 60], "samples": 2 }))
            .settings(&["render"]).added(&[]).changed(&[])
            .result(json!({ "engine": "CYCLES", "resolution": [80, 60], "samples": 2 }))
            .reads("scene.info", json!({}), json!({ "render": { "engine": "CYCLES", "resolution": [80, 60] } })),
        Case::new("resolution percentage 200, in Blender's range above 100")
            .args(json!({ "percentage": 200 }))
            .settings(&["render"]).added(&[]).changed(&[])
            .result(json!({ "percentage": 200 }))
            .reads("render.audit", json!({ "profile": "preview" }), json!({ "config": { "percentage": 200 } })),
        Case::new("32-bit OpenEXR multilayer with the DWAA codec")
            .args(json!({ "file_format": "OPEN_EXR_MULTILAYER", "color_depth": "32", "exr_codec": "DWAA", "color_mode": "RGBA" }))
            .settings(&["render"]).added(&[]).changed(&[])
            .result(json!({ "output": { "file_format": "OPEN_EXR_MULTILAYER", "color_depth": "32", "exr_codec": "DWAA", "color_mode": "RGBA", "extension": ".exr" } }))
            .reads("render.audit", json!({ "profile": "preview" }), json!({ "config": { "file_format": "OPEN_EXR_MULTILAYER", "color_depth": "32" } })),
        Case::new("viewport samples, denoising and motion blur")
            .args(json!({ "engine": "cycles", "viewport_samples": 16, "denoise": false, "viewport_denoise": true,
                          "denoiser": "OPENIMAGEDENOISE", "motion_blur": true, "shutter": 0.25 }))
            .settings(&["render"])
            .result(json!({ "viewport_samples": 16, "denoise": false, "viewport_denoise": true, "denoiser": "OPENIMAGEDENOISE", "motion_blur": true, "shutter": 0.25 }))
            .reads("render.audit", json!({ "profile": "preview" }), json!({ "config": { "motion_blur": true, "denoising": false } })),
        Case::new("JPEG at quality 70 without alpha")
            .args(json!({ "file_format": "JPEG", "quality": 70, "color_mode": "RGB" }))
            .result(json!({ "output": { "file_format": "JPEG", "quality": 70, "color_mode": "RGB", "extension": ".jpg" } })),
        Case::new("a colour depth PNG does not offer").args(json!({ "file_format": "PNG", "color_depth": "32" })).error("invalid_params"),
        Case::new("a depth the scene's format (PNG) lacks").args(json!({ "color_depth": "32" })).error("unsupported"),
        Case::new("JPEG has no alpha").args(json!({ "file_format": "JPEG", "color_mode": "RGBA" })).error("invalid_params"),
        Case::new("a percentage past Blender's range").args(json!({ "percentage": 40000 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("nothing to set").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_asks_for_at_least_one_setting_and_names_only_real_ones() {
        let schema = serde_json::to_value(schemars::schema_for!(SettingsCall)).unwrap();
        let props = schema["properties"].as_object().unwrap();
        let any_of = schema["allOf"][0]["anyOf"].as_array().unwrap();
        assert_eq!(any_of.len(), props.len(), "every setting can be the one given");
        for alt in any_of {
            assert!(props.contains_key(alt["required"][0].as_str().unwrap()), "{alt}");
        }
    }

    #[test]
    fn the_percentage_reaches_past_100() {
        let schema = serde_json::to_value(schemars::schema_for!(SettingsCall)).unwrap();
        assert_eq!(schema["properties"]["percentage"]["maximum"], 32767);
    }
}
