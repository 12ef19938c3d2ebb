use capstan_blender::{ListMaterials, ListMaterialsParams, ListMaterialsResult, list_materials};
use capstan_sdk::prelude::*;

/// List materials with their Principled BSDF values (colour, metallic, roughness, transmission, IOR, emission, alpha, subsurface, coat, sheen) and the objects using them.
///
/// All materials, or those of one object; `include_unassigned: false` leaves out
/// materials no object uses. The Principled values are read by input name from any
/// material, not only capstan's: transmission 1 is glass, an emission strength above 0
/// glows. `linked_inputs` names the inputs a texture or node drives (their number is the
/// unlinked default). `surface` lists the shader nodes feeding the output (through mix
/// and add shaders) with their unlinked inputs by name; without a Principled BSDF the
/// Principled fields are null and `surface` says what the material has instead (an
/// Emission node's Strength, a Glass BSDF's IOR). Changes nothing.
#[capability(
    key = "material.list",
    family = "material",
    tags = ["material", "list", "materials", "shader", "inspect", "transmission", "ior", "emission", "alpha", "glass", "glowing"],
    aliases = ["list_materials", "material_list", "material_list_by_object", "get_materials"],
    examples = ["which materials are in the scene", "what material does the cube use", "list the unused materials",
                "is the window material glass", "how strong is the lamp's emission"],
    uses = [ListMaterials],
    cases = cases,
    output = ListMaterialsResult,
)]
fn list(args: ListMaterialsParams) -> PackResult<ListMaterialsResult> {
    Ok(list_materials(&args)?)
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
        Case::new("glass reads back transmission 1 and its IOR")
            .setup("material.procedural", json!({ "preset": "glass", "name": "Window", "ior": 1.45 }))
            .args(json!({ "material": "Window" }))
            .result(json!({ "total": 1, "materials": [{ "name": "Window", "principled": true, "transmission": 1.0, "ior": 1.45,
                "linked_inputs": [], "surface": [{ "type": "ShaderNodeBsdfPrincipled" }] }] })),
        Case::new("a Principled emission reads back its colour and strength")
            .setup("scene.set_material", json!({ "object": "Cube", "material": "Glow", "emission": [1, 0.5, 0, 1], "emission_strength": 12 }))
            .args(json!({ "object": "Cube" }))
            .result(json!({ "materials": [{ "name": "Glow", "principled": true, "emission_strength": 12.0, "emission_color": [1.0, 0.5, 0.0, 1.0],
                "transmission": 0.0, "alpha": 1.0 }] })),
        Case::new("an emission shader without a Principled BSDF says what it has")
            .setup("material.procedural", json!({ "preset": "emissive", "name": "Lamp", "emission_strength": 9 }))
            .args(json!({ "material": "Lamp" }))
            .result(json!({ "materials": [{ "name": "Lamp", "principled": false, "emission_strength": null, "transmission": null,
                "surface": [{ "type": "ShaderNodeEmission", "inputs": { "Strength": 9.0 } }] }] })),
        Case::new("no such object").args(json!({ "object": "Ghost" })).error("not_found"),
    ]
}
