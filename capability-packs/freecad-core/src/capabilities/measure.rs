use capstan_freecad::{Measure, MeasureParams, measure};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeasureArgs {
    /// The objects to measure (exact names; default: every visible object with a shape).
    #[schemars(length(min = 1, max = 256), inner(length(min = 1, max = 63)))]
    pub objects: Option<Vec<String>>,
}

/// Measure solids: volume in mm^3, surface area in mm^2, bounds, centre of mass.
///
/// One or more named objects, or every visible shape. Each object also reports whether
/// its shape is valid and its counts of solids, faces and edges (edge numbers run from
/// 1 to that count, as fillets and chamfers take them); the answer adds the total volume
/// and the bounds of everything measured. Reads only.
#[capability(
    key = "cad.measure",
    family = "cad",
    tags = ["cad", "freecad", "measure", "volume", "area", "bounds", "centre of mass", "mm3", "solid", "validity"],
    aliases = ["freecad_measure", "cad_volume"],
    examples = ["what is the volume of the cad part in mm3", "bounds and centre of mass of the freecad bracket", "surface area of every solid"],
    uses = [Measure],
    cases = cases,
)]
fn measure_objects(args: MeasureArgs) -> PackResult<Value> {
    Ok(json!(measure(&MeasureParams { objects: args.objects })?))
}

fn cases() -> Vec<Case> {
    let block = json!({ "kind": "box", "length": 10, "width": 20, "height": 30 });
    vec![
        Case::new("one box of 10 x 20 x 30 mm")
            .setup("cad.primitive", block.clone())
            .args(json!({ "objects": ["Box"] }))
            .result(json!({ "total_volume_mm3": 6000.0, "objects": [{ "name": "Box", "volume_mm3": 6000.0, "area_mm2": 2200.0,
                "bounds_mm": { "min": [0.0, 0.0, 0.0], "max": [10.0, 20.0, 30.0], "size": [10.0, 20.0, 30.0] },
                "center_of_mass": [5.0, 10.0, 15.0], "valid": true, "solids": 1, "faces": 6, "edges": 12 }] })),
        Case::new("everything visible, bounds of all")
            .setup("cad.primitive", block.clone())
            .setup("cad.primitive", json!({ "kind": "sphere", "radius": 10, "position": [50, 0, 0] }))
            .args(json!({}))
            .result(json!({ "total_volume_mm3": 10188.790204786391, "total_bounds_mm": { "min": [0.0, -10.0, -10.0], "max": [60.0, 20.0, 30.0] } })),
        Case::new("an empty document measures nothing").args(json!({})).result(json!({ "objects": [], "total_volume_mm3": 0.0, "total_bounds_mm": null })),
        Case::new("a missing object").setup("cad.primitive", block).args(json!({ "objects": ["Ghost"] })).error("not_found"),
    ]
}
