use capstan_blender::{MarkSeams, MarkSeamsParams, MarkSeamsParamsAction as Action, mark_seams};
use capstan_sdk::prelude::*;

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("mark", &["edges"]), ("from_sharp", &["angle"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct SeamsArgs {
    /// The mesh.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// mark or clear the given edges (clear without edges clears every seam), or mark
    /// every edge sharper than `angle`.
    pub action: Action,
    /// Edge indices.
    #[schemars(length(min = 1, max = 100000))]
    pub edges: Option<Vec<u32>>,
    /// from_sharp: the angle between face normals, in degrees, from which an edge is a seam.
    #[schemars(range(min = 0.0, max = 180.0))]
    pub angle: Option<f64>,
}

/// Mark or clear UV seams by edge index, or mark every edge sharper than an angle.
///
/// Seams are where an unwrap cuts the mesh open (angle_based and conformal unwraps follow
/// them). Answers the seam edges afterwards.
#[capability(
    key = "uv.seams",
    family = "uv",
    tags = ["uv", "seam", "seams", "edges", "cut", "sharp"],
    aliases = ["mark_seams", "uv_create_seam", "mark_seam", "clear_seams"],
    examples = ["mark seams on the sharp edges", "mark edges 0 3 and 5 as seams", "clear all seams"],
    uses = [MarkSeams],
    cases = cases,
)]
fn seams(args: SeamsArgs) -> PackResult<Value> {
    Ok(json!(mark_seams(&MarkSeamsParams {
        object: args.object.clone(),
        action: args.action,
        edges: args.edges.as_ref().map(|e| e.iter().map(|&i| i64::from(i)).collect()),
        angle: args.angle.map(f64::to_radians),
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("three seams by index")
            .args(json!({ "object": "Cube", "action": "mark", "edges": [0, 3, 5] }))
            .changed(&["Cube"]).fields("Cube", &["data"]).added(&[]).settings(&[])
            .result(json!({ "seams": [0, 3, 5], "total": 3 })),
        Case::new("every cube edge is sharper than 60 degrees")
            .args(json!({ "object": "Cube", "action": "from_sharp", "angle": 60 }))
            .changed(&["Cube"]).result(json!({ "total": 12 })),
        Case::new("one seam cleared")
            .setup("uv.seams", json!({ "object": "Cube", "action": "mark", "edges": [1, 2] }))
            .args(json!({ "object": "Cube", "action": "clear", "edges": [1] }))
            .changed(&["Cube"]).result(json!({ "seams": [2], "total": 1 })),
        Case::new("an edge that does not exist").args(json!({ "object": "Cube", "action": "mark", "edges": [40] })).error("invalid_params"),
        Case::new("from_sharp needs an angle").args(json!({ "object": "Cube", "action": "from_sharp" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
