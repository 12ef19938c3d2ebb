use crate::audit::{Profile, audit, passed, rules};
use capstan_blender::{RenderConfig, RenderConfigParams, render_config};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditArgs {
    /// The thresholds to check against (default cinema).
    #[serde(default)]
    pub profile: Profile,
    /// Override the profile's minimum sample count.
    #[schemars(range(min = 1, max = 65536))]
    pub min_samples: Option<i64>,
    pub require_dof: Option<bool>,
    pub require_exr: Option<bool>,
    pub require_motion_blur: Option<bool>,
    pub require_compositor: Option<bool>,
    /// Warnings fail the audit too (default false).
    #[serde(default)]
    pub strict: bool,
}

/// Check the render configuration against a profile: preview, cinema, animation or product.
///
/// Reads the engine, samples, effective resolution, output format, motion blur,
/// compositor, depth of field and colour management, and reports each check with its
/// severity; changes nothing.
#[capability(
    key = "render.audit",
    family = "render",
    tags = ["render", "audit", "check", "quality", "samples", "resolution", "settings review"],
    aliases = ["render_audit", "check_render_settings", "audit_render"],
    examples = ["is the scene ready for a final render", "audit the render settings for a product shot", "check the render config against the animation profile"],
    uses = [RenderConfig],
    cases = cases,
)]
fn render_audit(args: AuditArgs) -> PackResult<Value> {
    let config = render_config(&RenderConfigParams {})?;
    let mut r = rules(args.profile);
    if let Some(s) = args.min_samples {
        r.min_samples = s;
    }
    r.dof = args.require_dof.unwrap_or(r.dof);
    r.exr = args.require_exr.unwrap_or(r.exr);
    r.motion_blur = args.require_motion_blur.unwrap_or(r.motion_blur);
    r.compositor = args.require_compositor.unwrap_or(r.compositor);
    let checks = audit(&config, &r);
    let ok = passed(&checks, args.strict);
    let failed: Vec<&str> = checks.iter().filter(|c| !c.ok).map(|c| c.name).collect();
    Ok(json!({ "profile": args.profile, "passed": ok, "strict": args.strict, "failed": failed, "checks": checks, "config": config }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory scene is not a cinema render")
            .args(json!({}))
            // The factory engine is EEVEE: BLENDER_EEVEE from Blender 5.0, BLENDER_EEVEE_NEXT in 4.5 LTS.
            .result(json!({ "profile": "cinema", "passed": false, "config": { "camera": "Camera" } })),
        Case::new("a quick Cycles preview passes")
            .setup("scene.render_settings", json!({ "engine": "cycles", "resolution": [1280, 720], "samples": 32 }))
            .args(json!({ "profile": "preview" }))
            .result(json!({ "passed": true, "failed": [] })),
        Case::new("strict turns a missing depth of field into a failure")
            .setup("scene.render_settings", json!({ "engine": "cycles", "resolution": [1920, 1080], "samples": 256 }))
            .args(json!({ "profile": "cinema", "strict": true }))
            .result(json!({ "passed": false, "failed": ["depth_of_field"] })),
        Case::new("an unknown profile").args(json!({ "profile": "imax" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
