use capstan_blender::{MinDistance, MinDistanceParams, min_distance};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DistanceArgs {
    /// One object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub a: String,
    /// The other object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub b: String,
}

/// Minimum distance between two objects: between their surfaces (exact, over their
/// triangles), or from the origin of an object that has no surface (a light, a camera,
/// an empty).
///
/// Answers the gap in metres, the two closest points (world space) and what was measured
/// on each side (`measured.a` / `measured.b`: surface or origin); 0 with intersects=true
/// when two surfaces interpenetrate. Vertex-to-face and edge-to-edge pairs are both
/// measured, so rotated objects are not overestimated.
#[capability(
    key = "spatial.distance",
    family = "spatial",
    tags = ["distance", "gap", "clearance", "how far", "closest points", "separation", "measure"],
    aliases = ["min_distance", "distance", "get_min_clearance", "measure_distance"],
    examples = ["how far is the chair from the table", "what is the gap between the two boxes", "measure the clearance between the car and the wall"],
    uses = [MinDistance],
    cases = cases,
)]
fn distance(args: DistanceArgs) -> PackResult<Value> {
    if args.a == args.b {
        return Err(PackError::invalid("a and b must be two different objects"));
    }
    let mut out = json!(min_distance(&MinDistanceParams { a: args.a, b: args.b })?);
    out["units"] = json!("metres");
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("cubes a metre apart")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Far", "location": [3, 0, 0] }))
            .args(json!({ "a": "Cube", "b": "Far" }))
            .result(json!({ "distance": 1.0, "intersects": false })),
        Case::new("a turned cube, corner edge to face")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Turned", "location": [4, 0, 0], "rotation": [0, 0, 45] }))
            .args(json!({ "a": "Turned", "b": "Cube" }))
            .result(json!({ "distance": 3.0 - std::f64::consts::SQRT_2, "intersects": false })),
        Case::new("overlapping cubes are 0 apart")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Near", "location": [1, 0.5, 0.2] }))
            .args(json!({ "a": "Cube", "b": "Near" }))
            .result(json!({ "distance": 0.0, "intersects": true, "point_a": null })),
        Case::new("a light is measured from its origin, to the cube's nearest face")
            .setup("scene.create_object", json!({ "type": "light_point", "name": "Lamp", "location": [0, 0, 4] }))
            .args(json!({ "a": "Lamp", "b": "Cube" }))
            .result(json!({ "distance": 3.0, "intersects": false, "contained": null, "point_a": [0, 0, 4], "point_b": [0, 0, 1],
                           "measured": { "a": "origin", "b": "surface" } })),
        Case::new("a light on the normal of a turned cube's face: to the face, not to the cube's box")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Diamond", "location": [10, 0, 0], "rotation": [0, 0, 45] }))
            .setup("scene.create_object", json!({ "type": "light_point", "name": "Beside", "location": [12, 2, 0] }))
            .args(json!({ "a": "Beside", "b": "Diamond" }))
            .result(json!({ "distance": 2.0 * std::f64::consts::SQRT_2 - 1.0, "contained": null, "measured": { "a": "origin", "b": "surface" } })),
        Case::new("an empty inside the cube is contained, 0.5 m from its nearest face")
            .setup("scene.create_object", json!({ "type": "empty", "name": "Inner", "location": [0.5, 0, 0] }))
            .args(json!({ "a": "Cube", "b": "Inner" }))
            .result(json!({ "distance": 0.5, "contained": "b_inside_a", "measured": { "a": "surface", "b": "origin" } })),
        Case::new("two origins: an empty and a camera")
            .setup("scene.create_object", json!({ "type": "empty", "name": "Mark", "location": [3, 4, 0] }))
            .setup("scene.create_object", json!({ "type": "camera", "name": "Cam", "location": [0, 0, 0] }))
            .args(json!({ "a": "Mark", "b": "Cam" }))
            .result(json!({ "distance": 5.0, "measured": { "a": "origin", "b": "origin" } })),
        Case::new("a missing object").args(json!({ "a": "Cube", "b": "Ghost" })).error("not_found"),
    ]
}
