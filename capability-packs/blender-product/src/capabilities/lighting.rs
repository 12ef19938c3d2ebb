use capstan_blender::{
    ProductLightRig, ProductLightRigParams, ProductLightRigParamsPreset as Preset, SetWorld, SetWorldGradient, SetWorldGradientParams,
    SetWorldHdri, SetWorldHdriParams, SetWorldParams, product_light_rig, set_world, set_world_gradient, set_world_hdri,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductLightingArgs {
    /// The rig: studio, jewelry (small hard sources), cosmetics (soft, warm), electronics (cool, strong rim), automotive (large panels), food (warm).
    pub preset: Preset,
    /// An owned shadow-catcher plane under the products (default: true, unless a product.backdrop is already the floor; false hides one placed earlier).
    pub shadow_catcher: Option<bool>,
    /// A vertical gradient world instead of the preset's flat ambient (default false).
    #[serde(default)]
    pub gradient_bg: bool,
    /// Gradient colour at the zenith, linear RGB (default a light grey).
    #[schemars(inner(range(min = 0.0, max = 1.0)))]
    pub gradient_top: Option<[f64; 3]>,
    /// Gradient colour at the nadir, linear RGB (default a dark grey).
    #[schemars(inner(range(min = 0.0, max = 1.0)))]
    pub gradient_bottom: Option<[f64; 3]>,
    /// A local .hdr/.exr under a read root (CAPSTAN_READ_ROOTS) as the world; not with gradient_bg.
    #[schemars(length(min = 1, max = 1024))]
    pub hdri_path: Option<String>,
    /// HDRI strength (default 1.5).
    #[schemars(range(min = 0.0, max = 100.0))]
    #[serde(default = "hdri_strength")]
    pub hdri_strength: f64,
    /// HDRI turn about the vertical axis, degrees (default 0).
    #[schemars(range(min = 0.0, max = 360.0))]
    #[serde(default)]
    pub hdri_rotation: f64,
}

fn hdri_strength() -> f64 {
    1.5
}

/// Ambient world colour and strength per preset, under the three area lights.
fn ambient(preset: Preset) -> ([f64; 3], f64) {
    match preset {
        Preset::ProductStudio => ([0.05, 0.05, 0.05], 1.0),
        Preset::Jewelry => ([0.02, 0.02, 0.02], 1.0),
        Preset::Cosmetics => ([0.1, 0.09, 0.085], 1.0),
        Preset::Electronics => ([0.01, 0.012, 0.015], 1.0),
        Preset::Automotive => ([0.05, 0.05, 0.055], 1.0),
        Preset::FoodProduct => ([0.08, 0.07, 0.06], 1.0),
    }
}

/// A product lighting rig: key, fill and rim area lights around the products plus the world, owned and replaceable.
///
/// Six presets with their own energies (W), colours and softness. The lights are tagged
/// as capstan's product rig, so a later call (another preset) updates the same three
/// lights in place instead of piling up lights; the same call twice changes nothing. The
/// world gets the preset's ambient colour, a gradient, or a local HDRI.
#[capability(
    key = "product.lighting",
    family = "product",
    tags = ["product", "lighting", "studio", "rig", "key light", "fill light", "rim light", "softbox", "packshot", "shadow catcher"],
    aliases = ["product_lighting", "product_light_rig", "studio_lighting", "product_studio_lights"],
    examples = ["set up product lighting for jewelry", "studio product lighting with a shadow catcher", "electronics product lighting on a gradient background"],
    uses = [ProductLightRig, SetWorld, SetWorldGradient, SetWorldHdri],
    cases = cases,
)]
fn lighting(args: ProductLightingArgs) -> PackResult<Value> {
    if args.hdri_path.is_some() && args.gradient_bg {
        return Err(PackError::invalid("choose hdri_path or gradient_bg, not both"));
    }
    if !args.gradient_bg && (args.gradient_top.is_some() || args.gradient_bottom.is_some()) {
        return Err(PackError::invalid("gradient_top and gradient_bottom need gradient_bg: true"));
    }
    let world = if let Some(path) = &args.hdri_path {
        let w = set_world_hdri(&SetWorldHdriParams {
            path: path.clone(),
            strength: Some(args.hdri_strength),
            rotation: Some(args.hdri_rotation.to_radians()),
            background_visible: None,
        })?;
        json!({ "kind": "hdri", "detail": w })
    } else if args.gradient_bg {
        let top = args.gradient_top.unwrap_or([0.8, 0.8, 0.82]);
        let bottom = args.gradient_bottom.unwrap_or([0.1, 0.1, 0.11]);
        let w = set_world_gradient(&SetWorldGradientParams { top: top.to_vec(), bottom: bottom.to_vec(), strength: Some(1.0) })?;
        json!({ "kind": "gradient", "top": top, "bottom": bottom, "detail": w })
    } else {
        let (color, strength) = ambient(args.preset);
        let w = set_world(&SetWorldParams { color: Some(color.to_vec()), strength: Some(strength), sky: None })?;
        json!({ "kind": "ambient", "color": color, "strength": strength, "detail": w })
    };
    let rig = product_light_rig(&ProductLightRigParams { preset: args.preset, shadow_catcher: args.shadow_catcher })?;
    let mut out = json!(rig);
    out["world"] = world;
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the studio rig adds three owned area lights and a shadow catcher")
            .args(json!({ "preset": "product_studio" }))
            .added(&["Product Fill", "Product Key", "Product Rim", "Product Shadow Catcher"]).changed(&[]).settings(&["world"])
            .result(json!({ "preset": "product_studio", "shadow_catcher": "Product Shadow Catcher", "world": { "kind": "ambient" }, "lights": [
                { "role": "key", "name": "Product Key", "energy": 1000.0 }, { "role": "fill", "energy": 400.0 }, { "role": "rim", "energy": 600.0 }] }))
            .reads("inspect.diagnostics", json!({}), json!({ "lights_total": 4 }))
            .reads("scene.object_info", json!({ "name": "Product Key" }), json!({ "type": "LIGHT", "custom_properties": { "capstan_role": "product_key" } })),
        Case::new("a second preset replaces the rig in place")
            .setup("product.lighting", json!({ "preset": "product_studio" }))
            .args(json!({ "preset": "jewelry", "shadow_catcher": false }))
            .added(&[]).removed(&[]).changed(&["Product Fill", "Product Key", "Product Rim", "Product Shadow Catcher"])
            .result(json!({ "lights": [{ "name": "Product Key", "energy": 1500.0, "size": 0.5 }, { "energy": 300.0 }, { "energy": 1200.0 }] }))
            .reads("inspect.diagnostics", json!({}), json!({ "lights_total": 4 })),
        Case::new("over a cyclorama backdrop, no catcher plane covers its floor")
            .setup("product.backdrop", json!({ "under_object": "Cube", "style": "cyclorama" }))
            .args(json!({ "preset": "product_studio" }))
            .added(&["Product Fill", "Product Key", "Product Rim"])
            .result(json!({ "shadow_catcher": null })),
        Case::new("the same preset twice changes nothing")
            .setup("product.lighting", json!({ "preset": "electronics" }))
            .args(json!({ "preset": "electronics" }))
            .added(&[]).removed(&[]).changed(&[]).settings(&[]),
        Case::new("on a gradient background")
            .args(json!({ "preset": "cosmetics", "gradient_bg": true, "gradient_top": [0.9, 0.9, 0.95], "gradient_bottom": [0.2, 0.2, 0.25] }))
            .result(json!({ "world": { "kind": "gradient", "top": [0.9, 0.9, 0.95] }, "lights": [{ "energy": 800.0 }, { "energy": 500.0 }, { "energy": 400.0 }] })),
        Case::new("an hdri outside the read roots is refused").args(json!({ "preset": "automotive", "hdri_path": "/etc/studio.hdr" })).error("path_refused"),
        Case::new("hdri and gradient at once").args(json!({ "preset": "automotive", "hdri_path": "/x/a.hdr", "gradient_bg": true })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("the preset is required").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
