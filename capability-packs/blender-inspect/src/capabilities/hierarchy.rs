use capstan_blender::{SceneInspect, SceneInspectParams, SceneInspectParamsView as View, scene_inspect};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HierarchyArgs {
    /// Which view (default hierarchy: parents, children and depth, roots first, depth-first).
    #[serde(default = "hierarchy")]
    pub view: View,
    /// Only this object (default: every object of the scene, at most 500 entries).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: Option<String>,
}

fn hierarchy() -> View {
    View::Hierarchy
}

/// Scene graph views: the parent tree, or per object its modifiers, material slots, constraints or topology counts.
///
/// `hierarchy` lists objects roots first and each child right after its parent, with
/// `parent`, `depth` and `children`; `modifiers`, `materials` and `constraints` list each
/// object's stack in order; `topology` gives original and evaluated (after modifiers)
/// vertex and face counts. At most 500 entries, with the total and `truncated`.
#[capability(
    key = "inspect.hierarchy",
    family = "inspect",
    tags = ["hierarchy", "scene graph", "outliner", "tree", "parents", "children", "modifiers", "materials", "constraints", "topology"],
    aliases = ["scene_inspect", "scene.inspect", "scene_get_hierarchy", "get_hierarchy", "outliner"],
    examples = ["show me the scene graph", "which modifiers does the cube have", "what is parented to the car body", "which constraints are on the camera"],
    uses = [SceneInspect],
    cases = cases,
)]
fn hierarchy_view(args: HierarchyArgs) -> PackResult<Value> {
    let mut out = json!(scene_inspect(&SceneInspectParams { view: Some(args.view), object: args.object })?);
    if args.view == View::Hierarchy {
        // A root's parent is null, said explicitly (the typed client leaves out a null).
        for entry in out["entries"].as_array_mut().into_iter().flatten() {
            entry.as_object_mut().map(|e| e.entry("parent").or_insert(Value::Null));
        }
    }
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory scene is three roots")
            .args(json!({}))
            .result(json!({ "view": "hierarchy", "total": 3, "truncated": false, "entries": [
                { "name": "Camera", "parent": null, "depth": 0 }, { "name": "Cube", "parent": null }, { "name": "Light", "depth": 0 }] })),
        Case::new("a child follows its parent")
            .setup("object.parent", json!({ "parent": "Cube", "children": ["Light"] }))
            .args(json!({ "view": "hierarchy" }))
            .result(json!({ "entries": [{ "name": "Camera" }, { "name": "Cube", "children": ["Light"] }, { "name": "Light", "parent": "Cube", "depth": 1 }] })),
        Case::new("the modifier stack of one object")
            .setup("mutate.modifier_add", json!({ "object": "Cube", "type": "SUBSURF", "properties": { "levels": 1 } }))
            .args(json!({ "view": "modifiers", "object": "Cube" }))
            .result(json!({ "object": "Cube", "total": 1, "entries": [{ "name": "Cube", "items_total": 1, "items": [{ "name": "Subsurf", "type": "SUBSURF", "enabled": true }] }] })),
        Case::new("evaluated topology counts the modifier")
            .setup("mutate.modifier_add", json!({ "object": "Cube", "type": "SUBSURF", "properties": { "levels": 1 } }))
            .args(json!({ "view": "topology", "object": "Cube" }))
            .result(json!({ "entries": [{ "topology": { "vertices": 8, "faces": 6, "evaluated_vertices": 26, "evaluated_faces": 24 } }] })),
        Case::new("material slots")
            .args(json!({ "view": "materials", "object": "Cube" }))
            .result(json!({ "entries": [{ "items": [{ "name": "Material", "index": 0, "link": "DATA" }] }] })),
        Case::new("no such object").args(json!({ "view": "constraints", "object": "Ghost" })).error("not_found"),
    ]
}
