use capstan_blender::{SetProductMaterial, SetProductMaterialParams, SetProductMaterialParamsPreset as Preset, set_product_material};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductMaterialArgs {
    /// The object to dress.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object_name: String,
    /// The product preset.
    pub preset: Preset,
    /// Material name (default `<object>_<preset>`; an existing material of that name is rebuilt).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub material_name: Option<String>,
    /// Replace the preset's base colour: linear RGBA in 0..1.
    #[schemars(inner(range(min = 0.0, max = 1.0)))]
    pub color_override: Option<[f64; 4]>,
    /// Replace the preset's roughness (0..1).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub roughness_override: Option<f64>,
    /// Break up the roughness with a fine noise (fingerprints, micro-scratches); default false.
    #[serde(default)]
    pub add_imperfections: bool,
}

/// Give an object one of 16 product PBR materials: plastics, metals, glass, ceramic, rubber, fabric, leather, satin.
///
/// A Principled BSDF with the preset's base colour, metallic, roughness, coat,
/// transmission, IOR, sheen, subsurface and anisotropy, assigned to the first slot; the
/// answer reads the values back. `color_override`, `roughness_override` and
/// `add_imperfections` adjust the preset. Re-running rebuilds the same material.
#[capability(
    key = "product.material",
    family = "product",
    tags = ["product", "material", "preset", "pbr", "plastic", "metal", "glass", "ceramic", "rubber", "fabric", "leather", "packshot"],
    aliases = ["product_material", "product_pbr", "apply_product_material", "set_product_material"],
    examples = ["make the bottle frosted glass for the product shot", "give the watch a brushed aluminum product material", "rose gold product finish on the ring"],
    uses = [SetProductMaterial],
    cases = cases,
)]
fn material(args: ProductMaterialArgs) -> PackResult<Value> {
    Ok(json!(set_product_material(&SetProductMaterialParams {
        object: args.object_name,
        preset: args.preset,
        material: args.material_name,
        color_override: args.color_override,
        roughness_override: args.roughness_override,
        add_imperfections: Some(args.add_imperfections),
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("gold on the cube")
            .args(json!({ "object_name": "Cube", "preset": "gold" }))
            .changed(&["Cube"]).fields("Cube", &["materials"]).added(&[]).datablocks_added("materials", &["Cube_gold"])
            .result(json!({ "material": "Cube_gold", "created": true, "metallic": 1.0, "roughness": 0.15, "base_color": [1.0, 0.766, 0.336, 1.0] }))
            .reads("material.list", json!({ "object": "Cube" }), json!({ "materials": [{ "name": "Cube_gold", "metallic": 1.0, "objects": ["Cube"] }] })),
        Case::new("clear glass transmits")
            .args(json!({ "object_name": "Cube", "preset": "clear_glass", "material_name": "Bottle Glass" }))
            .datablocks_added("materials", &["Bottle Glass"])
            .result(json!({ "material": "Bottle Glass", "roughness": 0.0, "inputs": { "Transmission Weight": 1.0, "IOR": 1.45 } })),
        Case::new("overrides and imperfections")
            .args(json!({ "object_name": "Cube", "preset": "glossy_plastic", "color_override": [0.1, 0.2, 0.8, 1.0], "roughness_override": 0.3, "add_imperfections": true }))
            .result(json!({ "base_color": [0.1, 0.2, 0.8, 1.0], "roughness": 0.3, "imperfections": true, "inputs": { "Coat Weight": 0.5 } })),
        Case::new("re-running rebuilds the same material")
            .setup("product.material", json!({ "object_name": "Cube", "preset": "copper" }))
            .args(json!({ "object_name": "Cube", "preset": "copper" }))
            .result(json!({ "material": "Cube_copper", "created": false })),
        Case::new("a light cannot hold a material").args(json!({ "object_name": "Light", "preset": "gold" })).error("invalid_target"),
        Case::new("an unknown preset").args(json!({ "object_name": "Cube", "preset": "wood" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a bad name is refused").args(json!({ "object_name": "Cube; import os", "preset": "gold" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
