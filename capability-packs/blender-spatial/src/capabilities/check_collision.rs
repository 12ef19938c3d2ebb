use capstan_blender::{CheckOverlap, CheckOverlapParams, CheckOverlapParamsMethod as Method, check_overlap};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CollisionArgs {
    /// One object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub a: String,
    /// The other object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub b: String,
    /// bvh (default): the real surfaces cross, or one object is inside the other;
    /// aabb: the world bounding boxes overlap (fast, conservative).
    pub method: Option<Method>,
    /// Metres: contacts shallower than this count as touching, not colliding (default 0.001).
    #[schemars(range(min = 0.0, max = 10.0))]
    pub tolerance: Option<f64>,
}

/// Do two objects collide (interpenetrate)? Exact triangle test or bounding boxes.
///
/// Answers intersects (by the chosen method), aabb_intersects (always), and how: the
/// surfaces cross, one is inside the other, or only the boxes overlap. Objects resting
/// on or against each other touch and do not collide.
#[capability(
    key = "spatial.check_collision",
    family = "spatial",
    tags = ["collision", "collide", "overlap", "intersect", "interpenetration", "clipping", "bvh", "aabb"],
    aliases = ["check_collision", "check_overlap", "collision_check", "intersects"],
    examples = ["does the chair collide with the table", "are the two boxes overlapping", "is the cup clipping into the shelf"],
    uses = [CheckOverlap],
    cases = cases,
)]
fn check_collision(args: CollisionArgs) -> PackResult<Value> {
    if args.a == args.b {
        return Err(PackError::invalid("a and b must be two different objects"));
    }
    Ok(json!(check_overlap(&CheckOverlapParams { a: args.a, b: args.b, method: args.method, tolerance: args.tolerance })?))
}

fn cases() -> Vec<Case> {
    let far = json!({ "type": "cube", "name": "Far", "location": [3, 0, 0] });
    let near = json!({ "type": "cube", "name": "Near", "location": [1, 0.5, 0.2] });
    vec![
        Case::new("cubes a metre apart do not collide (bvh)")
            .setup("scene.create_object", far.clone())
            .args(json!({ "a": "Cube", "b": "Far" }))
            .result(json!({ "intersects": false, "aabb_intersects": false, "method": "bvh", "how": null })),
        Case::new("cubes a metre apart do not collide (aabb)")
            .setup("scene.create_object", far)
            .args(json!({ "a": "Cube", "b": "Far", "method": "aabb" }))
            .result(json!({ "intersects": false, "aabb_intersects": false, "method": "aabb" })),
        Case::new("overlapping cubes collide (bvh)")
            .setup("scene.create_object", near.clone())
            .args(json!({ "a": "Cube", "b": "Near" }))
            .result(json!({ "intersects": true, "aabb_intersects": true, "how": "surfaces_cross" })),
        Case::new("overlapping cubes collide (aabb)")
            .setup("scene.create_object", near)
            .args(json!({ "a": "Cube", "b": "Near", "method": "aabb" }))
            .result(json!({ "intersects": true, "how": "aabb_overlap" })),
        Case::new("a cube inside another collides")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Core", "size": 0.5 }))
            .args(json!({ "a": "Core", "b": "Cube" }))
            .result(json!({ "intersects": true, "how": "a_inside_b" })),
        Case::new("face to face is touching, not colliding")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Neighbour", "location": [2, 0, 0] }))
            .args(json!({ "a": "Cube", "b": "Neighbour" }))
            .result(json!({ "intersects": false })),
        Case::new("a camera has no surface").args(json!({ "a": "Cube", "b": "Camera" })).error("invalid_target"),
    ]
}
