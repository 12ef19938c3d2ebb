use capstan_blender::{ProductIsolate, ProductIsolateParams, product_isolate};
use capstan_sdk::prelude::*;

/// The products to keep, or isolate: false to bring the rest back: said in the schema.
fn products_or_restore(schema: &mut schemars::Schema) {
    let rule = json!({ "anyOf": [
        { "required": ["object_names"] },
        { "required": ["isolate"], "properties": { "isolate": { "const": false } } },
    ] });
    capstan_sdk::schema_rules::add_rule(schema, rule);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = products_or_restore)]
pub struct IsolateArgs {
    /// The products that stay in the render (exact names); required unless `isolate` is false.
    #[schemars(length(min = 1, max = 64), inner(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$")))]
    pub object_names: Option<Vec<String>>,
    /// true (default) takes every other geometry object out of the render; false puts
    /// back exactly what an earlier isolation took out.
    #[serde(default = "yes")]
    pub isolate: bool,
}

fn yes() -> bool {
    true
}

/// Render only the product: every other mesh, curve, text or volume leaves the render.
///
/// Lights, cameras, empties and the owned product rig (lights, shadow catcher, backdrop,
/// camera) stay. Nothing is deleted: the others get `hide_render` and a `capstan_isolated`
/// mark, and `isolate: false` shows exactly those again (what the user hid stays hidden).
/// Only the render changes; the viewport still shows everything.
#[capability(
    key = "product.isolate",
    family = "product",
    tags = ["product", "isolate", "solo", "hide others", "render visibility", "packshot", "hero shot", "clean render"],
    aliases = ["product_isolate", "isolate_product", "solo_object", "render_only"],
    examples = ["render only the bottle, hide everything else", "isolate the watch for the packshot", "show the other objects in the render again"],
    uses = [ProductIsolate],
    cases = cases,
)]
fn isolate(args: IsolateArgs) -> PackResult<Value> {
    if args.isolate && args.object_names.is_none() {
        return Err(PackError::invalid("name the products to keep (object_names), or set isolate to false"));
    }
    Ok(json!(product_isolate(&ProductIsolateParams { keep: args.object_names, isolate: Some(args.isolate) })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the cube leaves the render, the sphere stays")
            .setup("scene.create_object", json!({ "type": "uv_sphere", "name": "Ball", "size": 0.5 }))
            .args(json!({ "object_names": ["Ball"] }))
            .added(&[]).changed(&["Cube"]).fields("Cube", &["visibility", "custom_properties"])
            .result(json!({ "hidden": ["Cube"], "shown": [], "kept": ["Ball"] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "visible": false })),
        Case::new("isolate false shows exactly what was hidden")
            .setup("scene.create_object", json!({ "type": "uv_sphere", "name": "Ball", "size": 0.5 }))
            .setup("product.isolate", json!({ "object_names": ["Ball"] }))
            .args(json!({ "isolate": false }))
            .changed(&["Cube"])
            .result(json!({ "hidden": [], "shown": ["Cube"] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "visible": true })),
        Case::new("a product to keep is required").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing product").args(json!({ "object_names": ["Ghost"] })).error("not_found"),
    ]
}
