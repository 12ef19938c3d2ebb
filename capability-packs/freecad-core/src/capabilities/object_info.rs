use capstan_freecad::{ObjectInfo, ObjectInfoParams, object_info};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectInfoArgs {
    /// The object's exact name (as cad.objects lists it).
    #[schemars(length(min = 1, max = 63))]
    pub name: String,
}

/// Describe one FreeCAD object: type, placement, what it is built from and its measurements.
///
/// Position in mm and rotation in degrees about X, Y and Z; `inputs` are the objects it
/// is built from (a cut's base and tool, a fillet's solid) and `used_by` the features
/// built from it; `measure` holds its volume, area, bounds, centre of mass and counts of
/// solids, faces and edges when it has a shape. Reads only.
#[capability(
    key = "cad.object_info",
    family = "cad",
    tags = ["cad", "freecad", "object", "info", "placement", "inputs", "measure"],
    aliases = ["freecad_object_info", "cad_describe"],
    examples = ["tell me about the freecad part called Bracket", "what is the cad Cut made from", "where is the cylinder placed in freecad"],
    uses = [ObjectInfo],
    cases = cases,
)]
fn describe(args: ObjectInfoArgs) -> PackResult<Value> {
    Ok(json!(object_info(&ObjectInfoParams { name: args.name })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a cut names its inputs, and they name it")
            .setup("cad.primitive", json!({ "kind": "box", "length": 10, "width": 20, "height": 30 }))
            .setup("cad.primitive", json!({ "kind": "cylinder", "radius": 2, "height": 30, "position": [5, 10, 0] }))
            .setup("cad.boolean", json!({ "operation": "cut", "base": "Box", "tool": "Cylinder" }))
            .args(json!({ "name": "Cut" }))
            .result(json!({ "name": "Cut", "type": "Part::Cut", "visible": true, "has_shape": true, "inputs": ["Box", "Cylinder"], "used_by": [],
                "measure": { "volume_mm3": 5623.008881569224, "solids": 1, "faces": 7, "edges": 15 } }))
            .reads("cad.object_info", json!({ "name": "Box" }), json!({ "visible": false, "used_by": ["Cut"] })),
        Case::new("a placed and rotated box")
            .setup("cad.primitive", json!({ "kind": "box", "length": 1, "width": 2, "height": 3, "name": "Tile", "position": [1, 2, 3], "rotation": [0, 0, 45] }))
            .args(json!({ "name": "Tile" }))
            .result(json!({ "type": "Part::Box", "position": [1.0, 2.0, 3.0], "rotation": [0.0, 0.0, 45.0], "measure": { "volume_mm3": 6.0 } })),
        Case::new("a missing object").args(json!({ "name": "Ghost" })).error("not_found"),
        Case::new("an empty name").args(json!({ "name": "" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
