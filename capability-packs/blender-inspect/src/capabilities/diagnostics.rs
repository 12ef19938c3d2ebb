use capstan_blender::{SceneDiagnostics, SceneDiagnosticsParams, scene_diagnostics};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiagnosticsArgs {}

/// Typed quality facts about the scene: camera and depth of field, lights, world and HDRI, render settings, ownership tags.
///
/// `schema_version` 2. The active camera (lens, sensor, location, DOF), every light's type,
/// energy (W) and colour, the world's background colour, strength and HDRI file, the render
/// engine, resolution, samples, transparency, file format, view transform and denoising,
/// and up to 2000 objects with their capstan ownership tags (`objects_truncated` past that).
#[capability(
    key = "inspect.diagnostics",
    family = "inspect",
    tags = ["diagnostics", "quality", "camera", "lights", "world", "hdri", "render settings", "samples", "audit", "check"],
    aliases = ["scene_diagnostics", "scene.diagnostics", "diagnose_scene", "scene_check"],
    examples = ["run diagnostics on the scene", "is the scene ready to render", "sanity check the camera and lights"],
    uses = [SceneDiagnostics],
    cases = cases,
)]
fn diagnostics(_args: DiagnosticsArgs) -> PackResult<Value> {
    Ok(json!(scene_diagnostics(&SceneDiagnosticsParams {})?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory scene's facts")
            .args(json!({}))
            .result(json!({
                "schema_version": 2, "lights_total": 1, "lights": [{ "name": "Light", "type": "POINT", "energy": 1000.0 }],
                "camera": { "name": "Camera", "lens": 50.0, "dof": { "enabled": false } },
                "objects_total": 3, "objects_truncated": false, "owned_objects": 0,
            })),
        Case::new("render settings show up")
            .setup("scene.render_settings", json!({ "engine": "cycles", "samples": 32, "resolution": [640, 360], "transparent": true }))
            .args(json!({}))
            .result(json!({ "render": { "engine": "CYCLES", "samples": 32, "resolution": [640, 360], "transparent": true } })),
        Case::new("depth of field on the camera")
            .setup("camera.dof", json!({ "camera": "Camera", "enabled": true, "focus_object": "Cube", "fstop": 2 }))
            .args(json!({}))
            .result(json!({ "camera": { "dof": { "enabled": true, "focus_object": "Cube", "fstop": 2.0 } } })),
        Case::new("no camera").setup("scene.delete_object", json!({ "name": "Camera" })).args(json!({})).result(json!({ "camera": null, "objects_total": 2 })),
        Case::new("no arguments taken").args(json!({ "verbose": true })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
