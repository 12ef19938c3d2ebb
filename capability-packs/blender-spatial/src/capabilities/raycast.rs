use capstan_blender::{Raycast, RaycastParams, raycast as bridge_raycast};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RaycastArgs {
    /// Start of the ray [x, y, z] in metres (world space).
    pub origin: [f64; 3],
    /// Direction [x, y, z]; any length but zero.
    pub direction: [f64; 3],
    /// How far the ray reaches, metres (default 1000).
    #[schemars(range(min = 0.000001, max = 1000000.0))]
    pub max_distance: Option<f64>,
    /// Only these objects can be hit (default: every visible object).
    #[schemars(length(min = 1, max = 64), inner(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$")))]
    pub objects: Option<Vec<String>>,
}

/// Cast a ray into the evaluated scene and report the first surface it hits.
///
/// Answers hit, the hit location and surface normal (world space, metres), the object,
/// its face index and the distance travelled. Modifiers count: the ray sees what renders.
#[capability(
    key = "spatial.raycast",
    family = "spatial",
    tags = ["raycast", "ray", "hit test", "line of sight", "what is below", "surface", "measure"],
    aliases = ["raycast", "ray_cast", "scene_raycast", "spatial_query"],
    examples = ["what is directly below the lamp", "cast a ray down from above the table", "is there line of sight from the camera to the cube"],
    uses = [Raycast],
    cases = cases,
)]
fn raycast(args: RaycastArgs) -> PackResult<Value> {
    if args.direction.iter().all(|v| *v == 0.0) || !args.direction.iter().chain(&args.origin).all(|v| v.is_finite()) {
        return Err(PackError::invalid("direction must be a finite, non-zero vector and origin finite"));
    }
    let hit = bridge_raycast(&RaycastParams { origin: args.origin, direction: args.direction, max_distance: args.max_distance, objects: args.objects })?;
    let mut out = json!(hit);
    out["units"] = json!("metres");
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("straight down onto the factory cube")
            .args(json!({ "origin": [0, 0, 10], "direction": [0, 0, -1] }))
            .result(json!({ "hit": true, "object": "Cube", "location": [0.0, 0.0, 1.0], "normal": [0.0, 0.0, 1.0], "distance": 9.0 })),
        Case::new("a ray that points away misses")
            .args(json!({ "origin": [0, 0, 10], "direction": [0, 0, 1] }))
            .result(json!({ "hit": false, "object": null, "location": null })),
        Case::new("only the named objects can be hit")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Lid", "location": [0, 0, 3], "size": 1 }))
            .args(json!({ "origin": [0, 0, 10], "direction": [0, 0, -2], "objects": ["Cube"] }))
            .result(json!({ "hit": true, "object": "Cube", "location": [0.0, 0.0, 1.0] })),
        Case::new("a ray sees the cube as scaled just before")
            .setup("scene.modify_object", json!({ "name": "Cube", "scale": [1, 1, 2] }))
            .args(json!({ "origin": [0, 0, 10], "direction": [0, 0, -1] }))
            .result(json!({ "hit": true, "object": "Cube", "location": [0.0, 0.0, 2.0] })),
        Case::new("a zero direction").args(json!({ "origin": [0, 0, 0], "direction": [0, 0, 0] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
