use capstan_blender::{SetWorldHdri, SetWorldHdriParams, set_world_hdri};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HdriArgs {
    /// The .hdr or .exr file: an absolute path under a read root (CAPSTAN_READ_ROOTS), or
    /// the bare file name of a file in the session output folder.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// Light strength (default 1).
    #[schemars(range(min = 0.0, max = 100.0))]
    pub strength: Option<f64>,
    /// Turn the environment about the vertical axis, in degrees.
    #[schemars(range(min = 0.0, max = 360.0))]
    pub rotation: Option<f64>,
    /// Show the HDRI behind the scene (default true); false keeps its light but shows black.
    pub background_visible: Option<bool>,
}

/// Light the scene with a local HDRI environment map (.hdr/.exr).
///
/// Loads an HDRI from the read roots (never a download) into the world: strength,
/// rotation in degrees, and whether the camera sees it or only its light.
#[capability(
    key = "world.hdri",
    family = "world",
    tags = ["world", "hdri", "environment", "image based lighting", "ibl", "exr", "hdr"],
    aliases = ["set_world_hdri", "hdri", "environment_texture", "world_hdri"],
    examples = ["use studio.hdr as the environment", "light the scene with this hdri turned 90 degrees", "hdri lighting but a black background"],
    uses = [SetWorldHdri],
    cases = cases,
)]
fn hdri(args: HdriArgs) -> PackResult<Value> {
    Ok(json!(set_world_hdri(&SetWorldHdriParams {
        path: args.path.clone(),
        strength: args.strength,
        rotation: args.rotation.map(f64::to_radians),
        background_visible: args.background_visible,
    })?))
}

fn cases() -> Vec<Case> {
    // The conformance scene has no files of its own: a float EXR baked in this session
    // (a bare file name of the output folder) is the environment.
    vec![
        Case::new("a baked EXR of this session as the environment")
            .setup("material.bake", json!({ "object": "Cube", "bake_type": "ao", "width": 16, "height": 16, "samples": 1, "filename": "env.exr" }))
            .args(json!({ "path": "env.exr", "strength": 2, "rotation": 90, "background_visible": false }))
            .settings(&["world"]).added(&[]).changed(&[])
            .result(json!({ "mode": "hdri", "image": "env", "strength": 2.0, "nodes": [
                "ShaderNodeBackground", "ShaderNodeBackground", "ShaderNodeLightPath", "ShaderNodeMapping", "ShaderNodeMixShader",
                "ShaderNodeOutputWorld", "ShaderNodeTexCoord", "ShaderNodeTexEnvironment",
            ] })),
        Case::new("a path outside the read roots").args(json!({ "path": "/etc/studio.hdr" })).error("path_refused"),
        Case::new("a relative path").args(json!({ "path": "hdri/studio.hdr" })).error("path_refused"),
        Case::new("a path that climbs out").args(json!({ "path": "/tmp/../etc/studio.exr" })).error("path_refused"),
        Case::new("not an HDRI").args(json!({ "path": "picture.png" })).error("path_refused"),
        Case::new("no such file in the output folder").args(json!({ "path": "absent.hdr" })).error("not_found"),
        Case::new("the strength is bounded").args(json!({ "path": "absent.hdr", "strength": 1000 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
