use capstan_blender::{AddCollision, AddCollisionParams, add_collision};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CollisionArgs {
    /// A mesh object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// Outer collision distance in metres 0.001..1 (default 0.02).
    #[schemars(range(min = 0.001, max = 1.0))]
    pub thickness_outer: Option<f64>,
    /// Friction for cloth sliding on it, 0..80 (default 5).
    #[schemars(range(min = 0.0, max = 80.0))]
    pub friction: Option<f64>,
    /// Damping of particles hitting it, 0..1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub damping: Option<f64>,
}

/// Make an object a collider for cloth and particles (thickness, friction, damping).
///
/// Rigid bodies collide through physics.rigid_body instead.
#[capability(
    key = "physics.collision",
    family = "physics",
    tags = ["collision", "collider", "obstacle", "cloth collision", "particle collision", "deflector"],
    aliases = ["collision", "add_collision", "collider", "make_collider"],
    examples = ["make the table a collider for the cloth", "let particles bounce off the floor", "add collision to the sphere"],
    uses = [AddCollision],
    cases = cases,
)]
fn collision(args: CollisionArgs) -> PackResult<Value> {
    Ok(json!(add_collision(&AddCollisionParams { object: args.object, thickness_outer: args.thickness_outer, friction: args.friction, damping: args.damping })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the cube becomes a collider")
            .args(json!({ "object": "Cube", "thickness_outer": 0.05, "friction": 10, "damping": 0.5 }))
            .changed(&["Cube"]).fields("Cube", &["modifiers", "physics"])
            .result(json!({ "modifier": "Collision", "thickness_outer": 0.05, "friction": 10.0, "damping": 0.5 })),
        Case::new("a light cannot collide").args(json!({ "object": "Light" })).error("invalid_target"),
        Case::new("too thick").args(json!({ "object": "Cube", "thickness_outer": 5 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
