use capstan_freecad::{ListObjects, ListObjectsParams, list_objects};
use capstan_sdk::prelude::*;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectsArgs {
    /// Only objects that are shown (the inputs of a boolean, fillet or chamfer are hidden).
    #[serde(default)]
    pub visible_only: bool,
    /// Only objects with a shape (solids, imported parts), not groups or sketches without one.
    #[serde(default)]
    pub shapes_only: bool,
}

/// List the FreeCAD document's objects: name, label, type, visibility, whether it has a shape.
///
/// In the order FreeCAD created them. The `name` is what every other capability takes;
/// the `type` is FreeCAD's (`Part::Box`, `Part::Cut`, `Part::Fillet`, `Part::Feature` for
/// an import). Reads only.
#[capability(
    key = "cad.objects",
    family = "cad",
    tags = ["cad", "freecad", "list", "objects", "document", "parts", "tree"],
    aliases = ["freecad_list_objects", "cad_list"],
    examples = ["what parts are in the freecad document", "list the cad objects", "which solids are shown in freecad"],
    uses = [ListObjects],
    cases = cases,
)]
fn objects(args: ObjectsArgs) -> PackResult<Value> {
    let mut listed = list_objects(&ListObjectsParams {})?;
    let total = listed.objects.len();
    listed.objects.retain(|o| (o.visible || !args.visible_only) && (o.has_shape || !args.shapes_only));
    Ok(json!({ "document": listed.document, "objects": listed.objects, "total": total }))
}

fn cases() -> Vec<Case> {
    let cut = |name: &str| {
        Case::new(name)
            .setup("cad.primitive", json!({ "kind": "box", "length": 10, "width": 20, "height": 30 }))
            .setup("cad.primitive", json!({ "kind": "cylinder", "radius": 2, "height": 30, "position": [5, 10, 0] }))
            .setup("cad.boolean", json!({ "operation": "cut", "base": "Box", "tool": "Cylinder" }))
    };
    let listed = |name: &str, ty: &str, visible: bool| json!({ "name": name, "label": name, "type": ty, "visible": visible, "has_shape": true });
    vec![
        Case::new("an empty document").args(json!({})).result(json!({ "objects": [], "total": 0 })),
        cut("a cut and its inputs, in creation order")
            .args(json!({}))
            .result(json!({ "total": 3, "objects": [listed("Box", "Part::Box", false), listed("Cylinder", "Part::Cylinder", false), listed("Cut", "Part::Cut", true)] })),
        cut("only what is shown").args(json!({ "visible_only": true })).result(json!({ "total": 3, "objects": [listed("Cut", "Part::Cut", true)] })),
        cut("shapes only keeps all three").args(json!({ "shapes_only": true })).result(json!({ "total": 3, "objects": [{ "name": "Box" }, { "name": "Cylinder" }, { "name": "Cut" }] })),
    ]
}
