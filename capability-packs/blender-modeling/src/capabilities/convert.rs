use capstan_sdk::blender::{ConvertObject, ConvertObjectParams, convert_object};
use capstan_sdk::prelude::*;

/// Convert a curve, text, surface or metaball to a mesh (or a mesh's edges to a curve).
///
/// Modifiers are evaluated into the result. Without keep_original the result replaces the
/// source (same name, transform, parent and collections; the delta shows the source removed
/// and the result added under the same name); with keep_original the result is added beside
/// it as `new_name` (default `<name>_mesh` / `<name>_curve`).
#[capability(
    key = "create.convert",
    family = "create",
    tags = ["convert", "to mesh", "to curve", "text to mesh", "curve to mesh", "realize", "bake geometry"],
    aliases = ["convert_object", "convert_to_mesh", "text_to_mesh", "curve_to_mesh", "modeling_convert_to_mesh"],
    examples = ["convert the text to a mesh", "turn the curve into a mesh", "make a mesh copy of the logo text", "convert the mesh edges to a curve"],
    uses = [ConvertObject],
    cases = cases,
)]
fn convert(args: ConvertObjectParams) -> PackResult<Value> {
    Ok(json!(convert_object(&args)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("text becomes a mesh in its place")
            .setup("create.text", json!({ "text": "AB", "name": "Logo", "extrude": 0.05, "location": [0, 3, 0] }))
            .args(json!({ "object": "Logo" }))
            .added(&["Logo"]).removed(&["Logo"]).changed(&[])
            .result(json!({ "name": "Logo", "type": "MESH", "source": "Logo", "kept_original": false }))
            .reads("scene.object_info", json!({ "name": "Logo" }), json!({ "type": "MESH", "location": [0.0, 3.0, 0.0] })),
        Case::new("keep the curve, add a mesh copy")
            .setup("create.curve", json!({ "curve_type": "CIRCLE", "name": "Hoop", "radius": 1 }))
            .args(json!({ "object": "Hoop", "keep_original": true, "new_name": "HoopMesh" }))
            .added(&["HoopMesh"]).removed(&[]).changed(&[])
            .result(json!({ "name": "HoopMesh", "type": "MESH", "kept_original": true }))
            .reads("scene.object_info", json!({ "name": "Hoop" }), json!({ "type": "CURVE" })),
        Case::new("a mesh's edges become a curve")
            .args(json!({ "object": "Cube", "target": "CURVE" }))
            .added(&["Cube"]).removed(&["Cube"])
            .result(json!({ "name": "Cube", "type": "CURVE" }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "type": "CURVE", "dimensions": [2.0, 2.0, 2.0] })),
        Case::new("a camera does not convert").args(json!({ "object": "Camera" })).error("invalid_target"),
        Case::new("a missing object").args(json!({ "object": "Ghost" })).error("not_found"),
    ]
}
