use capstan_blender::{PlaceRelative, PlaceRelativeParams, PlaceRelativeParamsRelation as Relation, place_relative as bridge_place_relative};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceRelativeArgs {
    /// The object to move.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// The object it is placed relative to.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub target: String,
    /// Where: next_to (= right_of, +X), left_of (-X), in_front_of (-Y), behind (+Y),
    /// below, inside (centred, and it must fit).
    pub relation: Relation,
    /// Gap between the two in metres (default 0.05); for inside, the clearance needed on every side.
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub margin: Option<f64>,
    /// Only compute where it would go; change nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// Place an object next to, left or right of, in front of, behind, below or inside another.
///
/// Uses the evaluated world bounds of both. Beside, in front and behind keep the two on
/// the same floor (their bottoms level) and centred on the other axis; below and inside
/// centre it. Answers the new location, the move and its new bounds (metres).
#[capability(
    key = "spatial.place_relative",
    family = "spatial",
    tags = ["next to", "beside", "left of", "right of", "in front of", "behind", "below", "inside", "arrange", "layout"],
    aliases = ["place_relative", "semantic_place", "place_next_to", "arrange_relative"],
    examples = ["put the chair next to the table", "place the lamp to the left of the sofa", "move the box in front of the shelf"],
    uses = [PlaceRelative],
    cases = cases,
)]
fn place_relative(args: PlaceRelativeArgs) -> PackResult<Value> {
    if args.object == args.target {
        return Err(PackError::invalid("an object cannot be placed relative to itself"));
    }
    let mut out = json!(bridge_place_relative(&PlaceRelativeParams {
        object: args.object,
        target: args.target,
        relation: args.relation,
        margin: args.margin,
        dry_run: Some(args.dry_run),
    })?);
    out["units"] = json!("metres");
    Ok(out)
}

fn cases() -> Vec<Case> {
    let crate_ = json!({ "type": "cube", "name": "Crate", "location": [10, 10, 10], "size": 1 });
    vec![
        Case::new("right of the cube, half a metre away, on its floor")
            .setup("scene.create_object", crate_.clone())
            .args(json!({ "object": "Crate", "target": "Cube", "relation": "right_of", "margin": 0.5 }))
            .changed(&["Crate"]).fields("Crate", &["transform"])
            .result(json!({ "location": [2.0, 0.0, -0.5], "bounds": { "min": [1.5, -0.5, -1.0] } }))
            .reads("spatial.distance", json!({ "a": "Crate", "b": "Cube" }), json!({ "distance": 0.5 })),
        Case::new("in front of is -Y")
            .setup("scene.create_object", crate_.clone())
            .args(json!({ "object": "Crate", "target": "Cube", "relation": "in_front_of" }))
            .changed(&["Crate"])
            .result(json!({ "location": [0.0, -1.55, -0.5] })),
        Case::new("inside the cube")
            .setup("scene.create_object", crate_.clone())
            .args(json!({ "object": "Crate", "target": "Cube", "relation": "inside" }))
            .changed(&["Crate"])
            .result(json!({ "location": [0.0, 0.0, 0.0] }))
            .reads("spatial.check_collision", json!({ "a": "Crate", "b": "Cube" }), json!({ "how": "a_inside_b" })),
        Case::new("a dry run changes nothing")
            .setup("scene.create_object", crate_.clone())
            .args(json!({ "object": "Crate", "target": "Cube", "relation": "below", "margin": 0, "dry_run": true }))
            .changed(&[])
            .result(json!({ "location": [0.0, 0.0, -1.5] })),
        Case::new("too big to fit inside")
            .setup("scene.create_object", crate_)
            .args(json!({ "object": "Cube", "target": "Crate", "relation": "inside" }))
            .error("invalid_target"),
    ]
}
