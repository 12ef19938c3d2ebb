use capstan_blender::{AssignMaterial, AssignMaterialParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Put an existing material in an object's slot, or on some faces of a mesh.
///
/// Assigns a material that exists to slot `slot` (default 0; the next free index adds a
/// slot). With `faces`, only those polygons use that slot.
#[capability(
    key = "material.assign",
    family = "material",
    tags = ["material", "assign", "slot", "faces", "apply material"],
    aliases = ["assign_material", "material_assign", "use_material"],
    examples = ["assign the marble material to the floor", "use the red material on faces 0 and 2", "put the glass material in the second slot"],
    uses = [AssignMaterial],
    cases = cases,
)]
fn assign(args: AssignMaterialParams) -> PackResult<impl Serialize> {
    Ok(forward::<AssignMaterial>(&args)?)
}

fn cases() -> Vec<Case> {
    let wood = json!({ "preset": "wood", "name": "Oak" });
    vec![
        Case::new("an existing material in the first slot")
            .setup("material.procedural", wood.clone())
            .args(json!({ "object": "Cube", "material": "Oak" }))
            .changed(&["Cube"]).fields("Cube", &["materials"]).settings(&[])
            .result(json!({ "slots": ["Oak"] }))
            .reads("material.list", json!({ "object": "Cube" }), json!({ "materials": [{ "name": "Oak", "objects": ["Cube"] }] })),
        Case::new("a second slot on two faces")
            .setup("material.procedural", wood.clone())
            .args(json!({ "object": "Cube", "material": "Oak", "slot": 1, "faces": [0, 2] }))
            .changed(&["Cube"]).fields("Cube", &["materials", "data"])
            .result(json!({ "slot": 1, "slots": ["Material", "Oak"], "faces_assigned": 2 })),
        Case::new("a face that does not exist")
            .setup("material.procedural", wood.clone())
            .args(json!({ "object": "Cube", "material": "Oak", "faces": [6] })).error("invalid_params"),
        Case::new("a slot past the next one")
            .setup("material.procedural", wood)
            .args(json!({ "object": "Cube", "material": "Oak", "slot": 3 })).error("invalid_params"),
        Case::new("no such material").args(json!({ "object": "Cube", "material": "Ghost" })).error("not_found"),
    ]
}
