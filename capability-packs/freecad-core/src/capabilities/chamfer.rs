use crate::edges::{edge_args, on_block};
use capstan_freecad::{Chamfer, ChamferParams, chamfer};
use capstan_sdk::prelude::*;

edge_args!(
    ChamferArgs,
    object: "The solid whose edges are bevelled (exact object name).",
    size: "Chamfer size: how far the cut runs back from the edge on both faces, mm.",
    name: "The new feature's name (default Chamfer)."
);

/// Chamfer a solid's edges (all of them or numbered ones) by a size in millimetres.
///
/// Makes a new parametric Chamfer feature from the solid, which is hidden: each edge
/// becomes a flat 45-degree face. The answer gives how many edges were cut, the new
/// volume in mm^3 and whether the result is a valid solid. A size too large for the
/// edges is refused and changes nothing.
#[capability(
    key = "cad.chamfer",
    family = "cad",
    tags = ["cad", "freecad", "chamfer", "bevel", "edges", "solid"],
    aliases = ["freecad_chamfer", "chamfer_edges"],
    examples = ["chamfer all edges of the plate by half a millimetre", "a 2 mm chamfer on edge 3 of the cad part", "break the sharp edges of the freecad block with chamfers"],
    uses = [Chamfer],
    cases = cases,
)]
fn bevel(args: ChamferArgs) -> PackResult<Value> {
    let out = chamfer(&ChamferParams { object: args.object, size: args.size, edges: Some(args.edges.for_chamfer()), name: args.name })?;
    Ok(json!(out))
}

fn cases() -> Vec<Case> {
    vec![
        on_block("two numbered edges chamfered by 1 mm")
            .args(json!({ "object": "Block", "size": 1, "edges": [1, 2] }))
            .added(&["Chamfer"])
            .changed(&["Block"])
            .result(json!({ "name": "Chamfer", "edges": 2, "valid": true, "volume": 5975.333333333333 })),
        on_block("every edge, and the result is a valid solid")
            .args(json!({ "object": "Block", "size": 0.5, "name": "Bevelled" }))
            .added(&["Bevelled"])
            .result(json!({ "name": "Bevelled", "edges": 12, "valid": true }))
            .reads("cad.object_info", json!({ "name": "Bevelled" }), json!({ "type": "Part::Chamfer", "inputs": ["Block"], "measure": { "solids": 1, "valid": true } })),
        on_block("a size larger than the block").args(json!({ "object": "Block", "size": 50 })).error("operation_failed"),
        Case::new("a missing object").args(json!({ "object": "Ghost", "size": 1 })).error("not_found"),
        Case::new("a negative size").args(json!({ "object": "Block", "size": -1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
