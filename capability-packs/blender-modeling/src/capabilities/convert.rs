use capstan_blender::{
    ConvertObject, ConvertObjectParams, ConvertObjectParamsTarget as Target, DeleteObject, DeleteObjectParams, ModifyObject,
    ModifyObjectParams, convert_object, delete_object, modify_object,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConvertArgs {
    /// The curve, text, surface or metaball (or, with target CURVE, the mesh).
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// MESH (default) or CURVE.
    pub target: Option<Target>,
    /// Keep the source and add the result beside it (default false: the result replaces it).
    #[serde(default)]
    pub keep_original: bool,
    /// With keep_original: the result's name (default `<name>_mesh` / `<name>_curve`).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]+$"))]
    pub new_name: Option<String>,
}

/// A temporary name for the result while the source still has the name it will take.
pub fn temporary_name(source: &str) -> String {
    let stem: String = source.chars().take(50).collect();
    format!("{stem} converting")
}

/// Convert a curve, text, surface or metaball to a mesh (or a mesh's edges to a curve).
///
/// Modifiers are evaluated into the result, which sits where the source does (same parent,
/// transform and collections). Without keep_original it replaces the source: the source is
/// deleted and the result takes its name and its children. With keep_original the result is
/// added beside it as `new_name` (default `<name>_mesh` / `<name>_curve`).
#[capability(
    key = "create.convert",
    family = "create",
    tags = ["convert", "to mesh", "to curve", "text to mesh", "curve to mesh", "realize", "bake geometry"],
    aliases = ["convert_object", "convert_to_mesh", "text_to_mesh", "curve_to_mesh", "modeling_convert_to_mesh"],
    examples = ["convert the text to a mesh", "turn the curve into a mesh", "make a mesh copy of the logo text", "convert the mesh edges to a curve"],
    uses = [ConvertObject, DeleteObject, ModifyObject],
    cases = cases,
)]
fn convert(args: ConvertArgs) -> PackResult<Value> {
    if args.keep_original {
        let r = convert_object(&ConvertObjectParams { object: args.object, target: args.target, new_name: args.new_name, adopt_children: None })?;
        return Ok(json!({ "name": r.name, "type": r.r#type, "source": r.source, "kept_original": true, "mesh": r.mesh, "splines": r.splines }));
    }
    if args.new_name.is_some() {
        return Err(PackError::invalid("new_name names a kept copy; without keep_original the result takes the source's name"));
    }
    let r = convert_object(&ConvertObjectParams {
        object: args.object.clone(), target: args.target, new_name: Some(temporary_name(&args.object)), adopt_children: Some(true),
    })?;
    delete_object(&DeleteObjectParams { name: Some(args.object.clone()), names: None })?;
    modify_object(&ModifyObjectParams { name: r.name, new_name: Some(args.object.clone()), location: None, rotation: None, scale: None, visible: None })?;
    Ok(json!({ "name": args.object, "type": r.r#type, "source": args.object, "kept_original": false, "adopted": r.adopted, "mesh": r.mesh, "splines": r.splines }))
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
        Case::new("a mesh's edges become a curve, its child stays put")
            .setup("object.parent", json!({ "parent": "Cube", "children": ["Light"] }))
            .args(json!({ "object": "Cube", "target": "CURVE" }))
            .added(&["Cube"]).removed(&["Cube"]).changed(&["Light"])
            .result(json!({ "name": "Cube", "type": "CURVE", "adopted": ["Light"], "splines": 12 }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "type": "CURVE", "dimensions": [2.0, 2.0, 2.0], "children": ["Light"] }))
            .reads("scene.object_info", json!({ "name": "Light" }), json!({ "parent": "Cube", "location": [4.07625, 1.00545, 5.90386] })),
        Case::new("a camera does not convert").args(json!({ "object": "Camera" })).error("invalid_target"),
        Case::new("a missing object").args(json!({ "object": "Ghost" })).error("not_found"),
    ]
}
