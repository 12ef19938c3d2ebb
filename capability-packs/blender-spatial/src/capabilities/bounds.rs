use capstan_blender::{BoundsWorld, BoundsWorldParams, bounds_world};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoundsArgs {
    /// Objects to measure together (default: every visible object with geometry).
    #[schemars(length(min = 1, max = 256), inner(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$")))]
    pub objects: Option<Vec<String>>,
}

/// World-space bounding box of objects, or of the whole scene, from evaluated geometry.
///
/// Answers min, max, center and dimensions in metres for the union, and per object the
/// same plus its origin and world axes. Measured on the evaluated mesh, so rotation and
/// modifiers are exact (not the loose box of an object's local bounds).
#[capability(
    key = "spatial.bounds",
    family = "spatial",
    tags = ["bounds", "bounding box", "aabb", "extent", "size", "dimensions", "measure", "height", "tall", "width", "wide", "depth", "length"],
    aliases = ["bounding_box", "bounds_world", "scene_bounds", "get_bounding_box"],
    examples = ["what is the bounding box of the table", "what is the bounding box of the whole scene", "where does the chair end"],
    uses = [BoundsWorld],
    cases = cases,
)]
fn bounds(args: BoundsArgs) -> PackResult<Value> {
    let mut out = json!(bounds_world(&BoundsWorldParams { objects: args.objects })?);
    out["units"] = json!("metres");
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory cube")
            .args(json!({ "objects": ["Cube"] }))
            .result(json!({ "min": [-1.0, -1.0, -1.0], "max": [1.0, 1.0, 1.0], "dimensions": [2.0, 2.0, 2.0], "objects_total": 1,
                            "objects": [{ "name": "Cube", "type": "MESH", "origin": [0.0, 0.0, 0.0], "axes": { "x": [1.0, 0.0, 0.0] } }] })),
        Case::new("the scene covers every object with geometry")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Far", "location": [5, 0, 0], "size": 1 }))
            .args(json!({}))
            .result(json!({ "min": [-1.0, -1.0, -1.0], "max": [5.5, 1.0, 1.0], "center": [2.25, 0.0, 0.0], "objects_total": 2 })),
        Case::new("a rotated cube's box is exact")
            .setup("scene.modify_object", json!({ "name": "Cube", "rotation": [0, 0, 45] }))
            .args(json!({ "objects": ["Cube"] }))
            .result(json!({ "max": [std::f64::consts::SQRT_2, std::f64::consts::SQRT_2, 1.0] })),
        Case::new("a missing object").args(json!({ "objects": ["Ghost"] })).error("not_found"),
    ]
}
