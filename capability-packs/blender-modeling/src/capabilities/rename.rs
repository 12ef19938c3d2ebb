use capstan_blender::{RenameDatablock, RenameDatablockParams, RenameDatablockResult, rename_datablock};
use capstan_sdk::prelude::*;

/// Rename any datablock: an object, material, collection, mesh, curve, image, node group, action, world, or camera or light data.
///
/// Blender's own name rules apply, read from the running Blender: a name is at most
/// `max_name_bytes` UTF-8 bytes (63 in Blender 4.5, 255 in 5.x); a longer one is refused
/// (`invalid_params`), never cut. A name another datablock of the same kind has gets
/// Blender's suffix (`.001`): the answer's `name` is the name it actually got, with
/// `clashed: true`. Everything that refers to the datablock keeps referring to it; the
/// delta lists those as changed.
#[capability(
    key = "object.rename",
    family = "object",
    tags = ["rename", "name", "datablock", "material name", "collection name", "mesh name", "fix names", "misspelt", "typo"],
    aliases = ["rename_datablock", "rename_material", "rename_collection", "rename_object", "rename_mesh", "set_name"],
    examples = ["rename the material Matrial to Material", "fix the misspelt collection name Furnitre", "rename the mesh data of the cube to CubeMesh",
                "call the world Studio", "rename the image texture to wood_albedo", "give the camera data the name MainLens"],
    uses = [RenameDatablock],
    cases = cases,
    output = RenameDatablockResult,
)]
fn rename(args: RenameDatablockParams) -> PackResult<RenameDatablockResult> {
    Ok(rename_datablock(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a material, and its users name it")
            .args(json!({ "kind": "material", "name": "Material", "new_name": "Paint" }))
            .changed(&["Cube"]).added(&[]).removed(&[])
            .result(json!({ "previous": "Material", "name": "Paint", "clashed": false }))
            .reads("material.list", json!({ "material": "Paint" }), json!({ "total": 1, "materials": [{ "name": "Paint", "objects": ["Cube"] }] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "materials": ["Paint"] })),
        Case::new("a clash answers the .001 name it got")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Crate" }))
            .args(json!({ "kind": "object", "name": "Crate", "new_name": "Cube" }))
            .changed(&["Cube.001"]).fields("Cube.001", &["name"])
            .result(json!({ "requested": "Cube", "name": "Cube.001", "clashed": true }))
            .reads("scene.object_info", json!({ "name": "Cube.001" }), json!({ "name": "Cube.001", "type": "MESH" })),
        Case::new("a collection, and the objects in it")
            .args(json!({ "kind": "collection", "name": "Collection", "new_name": "Props" }))
            .changed(&["Camera", "Cube", "Light"]).settings(&["scene"])
            .result(json!({ "name": "Props", "clashed": false }))
            .reads("scene.info", json!({}), json!({ "collections": [{ "name": "Props", "objects": 3 }] })),
        Case::new("camera data")
            .args(json!({ "kind": "camera", "name": "Camera", "new_name": "MainLens" }))
            .changed(&["Camera"]).fields("Camera", &["data"])
            .result(json!({ "previous": "Camera", "name": "MainLens" })),
        Case::new("longer than Blender keeps is refused, not cut")
            .args(json!({ "kind": "object", "name": "Cube", "new_name": "é".repeat(200) }))
            .error("invalid_params"),
        Case::new("an unknown image").args(json!({ "kind": "image", "name": "Nope", "new_name": "Wood" })).error("not_found"),
        Case::new("an unknown kind").args(json!({ "kind": "texture", "name": "Cube", "new_name": "X" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
