use capstan_blender::{SetRenderSettings, SetRenderSettingsParams, SetRenderSettingsParamsEngine, set_render_settings};
use capstan_sdk::prelude::*;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderSettingsArgs {
    /// cycles (path tracing, works headless on the CPU), eevee (real-time) or workbench (flat, fastest).
    pub engine: Option<SetRenderSettingsParamsEngine>,
    /// Output size [width, height] in pixels.
    #[schemars(inner(range(min = 4, max = 16384)))]
    pub resolution: Option<[u32; 2]>,
    /// Percentage of the resolution actually rendered (for quick previews).
    #[schemars(range(min = 1, max = 100))]
    pub percentage: Option<u32>,
    /// Samples per pixel (Cycles, EEVEE).
    #[schemars(range(min = 1, max = 65536))]
    pub samples: Option<u32>,
    /// Transparent background (film) instead of the world.
    pub transparent: Option<bool>,
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
    };
    (p != SetRenderSettingsParams::default()).then_some(p)
}

/// Choose the render engine, resolution, samples and transparent background.
///
/// Changes render settings only; nothing is rendered. Cycles renders on the CPU.
#[capability(
    key = "scene.render_settings",
    family = "render",
    tags = ["render", "settings", "engine", "cycles", "eevee", "resolution", "samples", "transparent"],
    aliases = ["blender_render_settings", "set_render_settings"],
    examples = ["use cycles", "render at 1080p", "transparent background render"],
    uses = [SetRenderSettings],
    cases = cases,
)]
fn render_settings(args: RenderSettingsArgs) -> PackResult<Value> {
    let p = params(&args).ok_or_else(|| PackError::invalid("nothing to set: give engine, resolution, percentage, samples or transparent"))?;
    Ok(json!(set_render_settings(&p)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("cycles at 80x60, 2 samples").args(json!({ "engine": "cycles", "resolution": [80, 60], "samples": 2 }))
            .settings(&["render"]).added(&[]).changed(&[])
            .result(json!({ "engine": "CYCLES", "resolution": [80, 60], "samples": 2 }))
            .reads("scene.info", json!({}), json!({ "render": { "engine": "CYCLES", "resolution": [80, 60] } })),
        Case::new("nothing to set").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
