use capstan_blender::{BakeTexture, BakeTextureParams, BakeTextureParamsBakeType as BakeType, bake_texture};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BakeArgs {
    /// The mesh to bake (it needs a UV map and a material).
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// Which pass to bake.
    pub bake_type: BakeType,
    /// Image width in pixels (default 1024).
    #[schemars(range(min = 16, max = 8192))]
    pub width: Option<u32>,
    /// Image height in pixels (default 1024).
    #[schemars(range(min = 16, max = 8192))]
    pub height: Option<u32>,
    /// Pixels the islands are extended by (default 16).
    #[schemars(range(min = 0, max = 64))]
    pub margin: Option<u32>,
    /// Cycles samples (default 16).
    #[schemars(range(min = 1, max = 4096))]
    pub samples: Option<u32>,
    /// Selected-to-active: bake these objects' detail onto `object`.
    #[schemars(length(min = 1, max = 64))]
    pub source: Option<Vec<String>>,
    /// Selected-to-active ray distance in metres.
    #[schemars(range(min = 0.0, max = 10.0))]
    pub cage_extrusion: Option<f64>,
    /// File name in the session output folder: `.png` (8-bit) or `.exr` (32-bit float);
    /// default `<object>_<bake_type>.png`.
    #[schemars(length(min = 5, max = 128), regex(pattern = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.(png|exr)$"))]
    pub filename: Option<String>,
}

fn type_name(t: BakeType) -> String {
    serde_json::to_value(t).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// A file name made only of the allowed characters.
pub fn default_filename(object: &str, t: BakeType) -> String {
    let clean: String = object.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
    format!("{clean}_{}.png", type_name(t))
}

/// Bake a texture of a mesh with Cycles (diffuse, normal, roughness, AO, emission, combined, shadow, glossy).
///
/// Renders one pass of the mesh into a new image on its UV map with Cycles on the CPU
/// (the engine and samples are restored afterwards), saves it as a PNG in the session
/// output folder (or as a float EXR), and leaves it in an Image Texture node of each of the mesh's materials.
/// Optionally bakes other objects onto this one (selected-to-active).
#[capability(
    key = "material.bake",
    family = "material",
    tags = ["bake", "texture", "normal map", "ambient occlusion", "ao", "lightmap", "cycles"],
    aliases = ["texture_bake", "bake_texture", "bake_normal_map", "bake_ao", "bake_diffuse"],
    examples = ["bake the ambient occlusion of the statue", "bake a normal map from the high poly onto the low poly", "bake the cube's diffuse colour"],
    uses = [BakeTexture],
    cases = cases,
)]
fn bake(args: BakeArgs) -> PackResult<Value> {
    let filename = args.filename.clone().unwrap_or_else(|| default_filename(&args.object, args.bake_type));
    let p = BakeTextureParams {
        object: args.object.clone(),
        bake_type: args.bake_type,
        width: i64::from(args.width.unwrap_or(1024)),
        height: i64::from(args.height.unwrap_or(1024)),
        margin: args.margin.map(i64::from),
        samples: args.samples.map(i64::from),
        source: args.source.clone(),
        cage_extrusion: args.cage_extrusion,
        filename,
    };
    Ok(json!(bake_texture(&p)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the cube's AO baked at 32x32")
            .args(json!({ "object": "Cube", "bake_type": "ao", "width": 32, "height": 32, "samples": 1, "margin": 2 }))
            .added(&[]).changed(&[]).settings(&[]).datablocks_added("images", &["Cube_ao"])
            .result(json!({ "image": "Cube_ao", "width": 32, "height": 32, "materials": ["Material"] }))
            .png(32, 32)
            .reads("material.list", json!({ "material": "Material", "include_graph": true }), json!({ "materials": [{ "graph": { "nodes": [
                { "name": "Material Output" }, { "name": "Principled BSDF" }, { "name": "capstan_bake", "type": "ShaderNodeTexImage" },
            ] } }] })),
        Case::new("a procedural material baked to a named file")
            .setup("material.procedural", json!({ "object": "Cube", "preset": "wood" }))
            .args(json!({ "object": "Cube", "bake_type": "diffuse", "width": 16, "height": 24, "samples": 1, "filename": "wood_albedo.png" }))
            .datablocks_added("images", &["wood_albedo"]).png(16, 24),
        Case::new("a sphere's normals baked onto a plane (selected to active)")
            .setup("scene.create_object", json!({ "type": "uv_sphere", "name": "High" }))
            .setup("scene.create_object", json!({ "type": "plane", "name": "Low", "scale": [1.5, 1.5, 1.5] }))
            .setup("material.procedural", json!({ "object": "Low", "preset": "metal" }))
            .args(json!({ "object": "Low", "bake_type": "normal", "width": 32, "height": 32, "samples": 1, "source": ["High"], "cage_extrusion": 1.5 }))
            .added(&[]).changed(&[]).settings(&[]).datablocks_added("images", &["Low_normal"])
            .result(json!({ "materials": ["Low_metal"] })).png(32, 32),
        Case::new("a light cannot be baked").args(json!({ "object": "Light", "bake_type": "ao", "width": 16, "height": 16 })).error("invalid_target"),
        Case::new("the size is bounded").args(json!({ "object": "Cube", "bake_type": "ao", "width": 9000 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_file_names_are_plain() {
        assert_eq!(default_filename("My Statue.001", BakeType::Ao), "My_Statue_001_ao.png");
    }
}
