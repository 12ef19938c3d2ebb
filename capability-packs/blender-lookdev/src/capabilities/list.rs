use capstan_blender::{ListMaterials, ListMaterialsParams, list_materials};
use capstan_sdk::prelude::*;

/// List materials with their colour, metallic, roughness and the objects using them.
///
/// All materials, or those of one object; `include_unassigned: false` leaves out
/// materials no object uses. Changes nothing.
#[capability(
    key = "material.list",
    family = "material",
    tags = ["material", "list", "materials", "shader", "inspect"],
    aliases = ["list_materials", "material_list", "material_list_by_object", "get_materials"],
    examples = ["which materials are in the scene", "what material does the cube use", "list the unused materials"],
    uses = [ListMaterials],
    cases = cases,
)]
fn list(args: ListMaterialsParams) -> PackResult<Value> {
    Ok(json!(list_materials(&args)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory materials and their users")
            .args(json!({}))
            .result(json!({ "total": 2, "materials": [{ "name": "Dots Stroke", "objects": [] }, { "name": "Material", "objects": ["Cube"], "principled": true, "metallic": 0.0 }] })),
        Case::new("one material with its node graph")
            .args(json!({ "material": "Material", "include_graph": true }))
            .result(json!({ "total": 1, "materials": [{ "name": "Material", "graph": {
                "nodes": [{ "name": "Material Output", "type": "ShaderNodeOutputMaterial" }, { "name": "Principled BSDF", "type": "ShaderNodeBsdfPrincipled" }],
                "links": [{ "from_node": "Principled BSDF", "from_socket": "BSDF", "to_node": "Material Output", "to_socket": "Surface" }],
            } }] })),
        Case::new("the materials of one object")
            .setup("material.procedural", json!({ "object": "Cube", "preset": "metal", "roughness": 0.25 }))
            .args(json!({ "object": "Cube" }))
            .result(json!({ "total": 1, "materials": [{ "name": "Cube_metal", "metallic": 1.0, "preset": "metal" }] })),
        Case::new("unused materials can be left out")
            .setup("material.procedural", json!({ "preset": "glass", "name": "Spare" }))
            .args(json!({ "include_unassigned": false }))
            .result(json!({ "total": 1, "materials": [{ "name": "Material" }] })),
        Case::new("no such object").args(json!({ "object": "Ghost" })).error("not_found"),
    ]
}
