use crate::paths;
use capstan_blender::{ApplyTextureSet, ApplyTextureSetParams, apply_texture_set};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextureSetArgs {
    /// The mesh whose material gets the maps (its first material, or a new one).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// One map file of the set (absolute under a read root, or a bare file name of the
    /// session output folder: the set is the maps beside it with the same name prefix), or
    /// a folder holding one set. Maps are found by name: diff/albedo/color, nor/normal,
    /// rough, metal, disp/height, ao.
    #[schemars(length(min = 1, max = 1024))]
    pub set_path: String,
    /// Texture repeats per UV unit (default 1).
    #[schemars(range(min = 0.001, max = 1000.0))]
    pub scale: Option<f64>,
    /// Also drive the material's displacement from the height map.
    #[serde(default)]
    pub displacement: bool,
}

/// Apply a local PBR texture set (diffuse, normal, roughness, metallic, AO, displacement maps) to an object.
///
/// `set_path` names one map of the set or its folder; the maps are found by their name
/// (diff/albedo/color, nor/normal, rough, metal, disp/height, ao) and wired into the
/// object's first material (or a new one). `scale` repeats the textures per UV unit;
/// `displacement` also drives the surface displacement from the height map.
#[capability(
    key = "assets.texture_set",
    family = "assets",
    tags = ["texture set", "pbr", "asset library", "diffuse", "normal", "roughness", "displacement", "ao", "local"],
    aliases = ["apply_texture_set", "pbr_texture", "apply_pbr", "polyhaven_texture", "set_texture_set"],
    examples = ["apply the brick pbr texture set to the wall", "use the wood floor texture set on the floor tiled 4 times", "put the rusty metal pbr maps on the barrel with displacement"],
    uses = [ApplyTextureSet],
    cases = cases,
)]
fn texture_set(args: TextureSetArgs) -> PackResult<Value> {
    paths::input(&args.set_path)?;
    Ok(json!(apply_texture_set(&ApplyTextureSetParams {
        object: args.object,
        path: args.set_path,
        scale: args.scale,
        displacement: Some(args.displacement),
    })?))
}

fn cases() -> Vec<Case> {
    // The set is baked in this session into the output folder: crate_diff.png + crate_rough.png.
    let maps = |c: Case| {
        c.setup("material.bake", json!({ "object": "Cube", "bake_type": "diffuse", "width": 16, "height": 16, "samples": 1, "filename": "crate_diff.png" }))
            .setup("material.bake", json!({ "object": "Cube", "bake_type": "roughness", "width": 16, "height": 16, "samples": 1, "filename": "crate_rough.png" }))
    };
    vec![
        maps(Case::new("a two-map set tiled 4 times"))
            .args(json!({ "object": "Cube", "set_path": "crate_rough.png", "scale": 4 }))
            .added(&[]).removed(&[])
            .result(json!({ "object": "Cube", "material": "Material", "maps": { "diffuse": "crate_diff", "roughness": "crate_rough" }, "scale": 4.0, "displacement": false })),
        Case::new("a path outside the read roots").args(json!({ "object": "Cube", "set_path": "/etc/brick_diff.png" })).error("path_refused"),
        Case::new("a map of no set").args(json!({ "object": "Cube", "set_path": "absent_diff.png" })).error("not_found"),
        maps(Case::new("not a mesh")).args(json!({ "object": "Light", "set_path": "crate_diff.png" })).error("invalid_target"),
        Case::new("a zero scale").args(json!({ "object": "Cube", "set_path": "x_diff.png", "scale": 0 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
