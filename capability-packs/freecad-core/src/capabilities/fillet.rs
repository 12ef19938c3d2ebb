use crate::edges::{edge_args, on_block};
use capstan_freecad::{Fillet, FilletParams, fillet};
use capstan_sdk::prelude::*;

edge_args!(
    FilletArgs,
    object: "The solid whose edges are rounded (exact object name).",
    radius: "Fillet radius, mm.",
    name: "The new feature's name (default Fillet)."
);

/// Round a solid's edges (all of them or numbered ones) with a radius in millimetres.
///
/// Makes a new parametric Fillet feature from the solid, which is hidden. The answer
/// gives how many edges were rounded, the new volume in mm^3 and whether the result is
/// a valid solid. A radius too large for the edges is refused and changes nothing.
#[capability(
    key = "cad.fillet",
    family = "cad",
    tags = ["cad", "freecad", "fillet", "round", "edges", "radius", "solid"],
    aliases = ["freecad_fillet", "fillet_edges"],
    examples = ["round all the bracket's edges with a 1 mm fillet", "put a 3 mm fillet on edges 1 and 5", "soften the cad part's corners with fillets"],
    uses = [Fillet],
    cases = cases,
)]
fn round(args: FilletArgs) -> PackResult<Value> {
    let out = fillet(&FilletParams { object: args.object, radius: args.radius, edges: Some(args.edges.for_fillet()), name: args.name })?;
    Ok(json!(out))
}

fn cases() -> Vec<Case> {
    vec![
        on_block("a 1 mm fillet on every edge keeps a valid solid")
            .args(json!({ "object": "Block", "radius": 1 }))
            .added(&["Fillet"])
            .changed(&["Block"])
            .result(json!({ "name": "Fillet", "edges": 12, "valid": true, "volume": 5949.834793498635 }))
            .reads("cad.measure", json!({ "objects": ["Fillet"] }), json!({ "objects": [{ "valid": true, "solids": 1 }] })),
        on_block("two numbered edges")
            .args(json!({ "object": "Block", "radius": 1, "edges": [1, 2], "name": "Rounded" }))
            .added(&["Rounded"])
            .result(json!({ "name": "Rounded", "edges": 2, "valid": true })),
        on_block("a radius larger than the block").args(json!({ "object": "Block", "radius": 50 })).error("operation_failed"),
        on_block("an edge the block does not have").args(json!({ "object": "Block", "radius": 1, "edges": [99] })).error("invalid_params"),
        Case::new("a missing object").args(json!({ "object": "Ghost", "radius": 1 })).error("not_found"),
        Case::new("a zero radius").args(json!({ "object": "Block", "radius": 0 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("edge number zero").args(json!({ "object": "Block", "radius": 1, "edges": [0] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
