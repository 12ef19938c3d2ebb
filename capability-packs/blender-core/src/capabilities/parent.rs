use capstan_blender::{ParentObjects, ParentObjectsParams, parent_objects};
use capstan_sdk::prelude::*;

/// Parent objects to another, or unparent them, keeping where they are in the world.
///
/// Sets `parent` (an object name, or null to unparent) for every object in `children`.
/// With keep_transform (the default) nothing moves on screen; with keep_transform false the
/// children take their transform relative to the new parent. A parent cannot become its own
/// descendant.
#[capability(
    key = "object.parent",
    family = "object",
    tags = ["parent", "unparent", "child", "hierarchy", "attach", "group"],
    aliases = ["parent_objects", "set_parent", "blender_set_parent"],
    examples = ["parent the light to the cube", "attach the camera to the empty", "unparent the sphere"],
    uses = [ParentObjects],
    cases = cases,
)]
fn parent(args: ParentObjectsParams) -> PackResult<Value> {
    Ok(json!(parent_objects(&args)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the light under the cube, in place")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [1, 0, 0] }))
            .args(json!({ "parent": "Cube", "children": ["Light"] }))
            .changed(&["Light"]).fields("Light", &["parent"])
            .reads("scene.object_info", json!({ "name": "Light" }), json!({ "parent": "Cube", "location": [3.07625, 1.00545, 5.90386] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "children": ["Light"], "children_total": 1 })),
        Case::new("unparent").setup("object.parent", json!({ "parent": "Cube", "children": ["Camera"] }))
            .args(json!({ "parent": null, "children": ["Camera"] })).changed(&["Camera"])
            .reads("scene.object_info", json!({ "name": "Camera" }), json!({ "parent": null })),
        Case::new("a cycle is refused").setup("object.parent", json!({ "parent": "Cube", "children": ["Light"] }))
            .args(json!({ "parent": "Light", "children": ["Cube"] })).error("invalid_target"),
    ]
}
