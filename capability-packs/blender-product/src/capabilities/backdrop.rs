use capstan_blender::{ProductBackdrop, ProductBackdropParams, ProductBackdropParamsStyle as Style, product_backdrop};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BackdropArgs {
    /// shadow_catcher (an invisible plane that only catches shadows, Cycles), cyclorama (floor sweeping up into a wall) or plinth (a box to stand on). Default shadow_catcher.
    #[serde(default = "catcher")]
    pub style: Style,
    /// Put it under this object (default: under every visible mesh).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub under_object: Option<String>,
    /// Edge length in metres (default four times the products' bounding radius).
    #[schemars(range(min = 0.01, max = 1000.0))]
    pub size: Option<f64>,
    /// Backdrop colour, linear RGB 0..1 (default light grey; not used by the shadow catcher).
    #[schemars(inner(range(min = 0.0, max = 1.0)))]
    pub color: Option<[f64; 3]>,
}

fn catcher() -> Style {
    Style::ShadowCatcher
}

/// A backdrop under the product: shadow-catcher plane, seamless cyclorama sweep, or plinth.
///
/// Placed at the bottom of the product's world bounds, centred under it. The backdrop is
/// owned: another call (another style or size) rebuilds the same object in place, so
/// there is only ever one. The cyclorama and plinth get a matte "Product Backdrop" material.
#[capability(
    key = "product.backdrop",
    family = "product",
    tags = ["product", "backdrop", "shadow catcher", "cyclorama", "sweep", "infinity curve", "plinth", "pedestal", "floor", "packshot"],
    aliases = ["product_backdrop", "shadow_catcher", "cyclorama", "infinity_backdrop", "plinth"],
    examples = ["put a shadow catcher under the bottle", "add a seamless cyclorama backdrop behind the product", "stand the product on a plinth"],
    uses = [ProductBackdrop],
    cases = cases,
)]
fn backdrop(args: BackdropArgs) -> PackResult<Value> {
    Ok(json!(product_backdrop(&ProductBackdropParams {
        style: args.style,
        under_object: args.under_object,
        size: args.size,
        color: args.color.map(|c| c.to_vec()),
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a shadow catcher under the cube")
            .args(json!({ "under_object": "Cube" }))
            .added(&["Product Backdrop"]).changed(&[])
            .result(json!({ "style": "shadow_catcher", "created": true, "floor": -1.0, "location": [0.0, 0.0, -1.0], "faces": 1, "shadow_catcher": true, "material": null }))
            .reads("scene.object_info", json!({ "name": "Product Backdrop" }), json!({ "type": "MESH", "location": [0.0, 0.0, -1.0], "custom_properties": { "capstan_role": "product_backdrop" } })),
        Case::new("a cyclorama replaces it in place")
            .setup("product.backdrop", json!({ "under_object": "Cube" }))
            .args(json!({ "style": "cyclorama", "size": 8, "color": [0.2, 0.3, 0.4] }))
            .added(&[]).removed(&[]).changed(&["Product Backdrop"]).datablocks_added("materials", &["Product Backdrop"])
            .result(json!({ "created": false, "faces": 14, "size": 8.0, "shadow_catcher": false, "material": "Product Backdrop" }))
            .reads("material.list", json!({ "object": "Product Backdrop" }), json!({ "materials": [{ "name": "Product Backdrop", "base_color": [0.2, 0.3, 0.4, 1.0] }] })),
        Case::new("a plinth under the cube")
            .args(json!({ "style": "plinth", "under_object": "Cube", "size": 2 }))
            .added(&["Product Backdrop"])
            .result(json!({ "faces": 6, "vertices": 8, "floor": -1.0 }))
            .reads("spatial.bounds", json!({ "objects": ["Product Backdrop"] }), json!({ "min": [-1.0, -1.0, -1.4], "max": [1.0, 1.0, -1.0] })),
        Case::new("no such object").args(json!({ "under_object": "Ghost" })).error("not_found"),
        Case::new("an unknown style").args(json!({ "style": "podium" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
