use capstan_blender::{AddRigidBody, AddRigidBodyParams, AddRigidBodyParamsShape as Shape, AddRigidBodyParamsType as Kind, add_rigid_body};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RigidBodyArgs {
    /// A mesh object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// ACTIVE (default): simulated, falls and collides; PASSIVE: static obstacle (a floor).
    #[serde(rename = "type")]
    pub kind: Option<Kind>,
    /// Mass in kg (default 1).
    #[schemars(range(min = 0.000001, max = 1000000.0))]
    pub mass: Option<f64>,
    /// Friction 0..1 (default 0.5).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub friction: Option<f64>,
    /// Bounciness 0..1 (default 0).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub restitution: Option<f64>,
    /// Collision shape (default CONVEX_HULL; MESH for concave static objects).
    pub shape: Option<Shape>,
    /// Moved by its animation instead of the simulation.
    pub kinematic: Option<bool>,
}

/// Make an object a rigid body (it falls and collides), or a passive obstacle such as a floor.
///
/// Creates the scene's rigid body world when there is none. Run physics.bake to simulate.
#[capability(
    key = "physics.rigid_body",
    family = "physics",
    tags = ["rigid body", "physics", "fall", "gravity", "collide", "passive", "active", "mass", "bounce"],
    aliases = ["rigid_body", "add_rigid_body", "rigidbody", "make_physical"],
    examples = ["make the cube a rigid body", "make the floor a passive rigid body", "give the ball a mass of 5 kg and make it bouncy"],
    uses = [AddRigidBody],
    cases = cases,
)]
fn rigid_body(args: RigidBodyArgs) -> PackResult<Value> {
    Ok(json!(add_rigid_body(&AddRigidBodyParams {
        object: args.object, r#type: args.kind, mass: args.mass, friction: args.friction, restitution: args.restitution,
        shape: args.shape, kinematic: args.kinematic,
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("an active box creates the world")
            .args(json!({ "object": "Cube", "shape": "BOX", "mass": 2, "restitution": 0.3 }))
            .changed(&["Cube"]).fields("Cube", &["physics"]).settings(&["scene"]).datablocks_added("collections", &["RigidBodyWorld"])
            .result(json!({ "type": "ACTIVE", "shape": "BOX", "mass": 2.0, "restitution": 0.3, "world_created": true })),
        Case::new("a passive floor joins the existing world")
            .setup("scene.create_object", json!({ "type": "plane", "name": "Floor", "size": 10 }))
            .setup("physics.rigid_body", json!({ "object": "Cube" }))
            .args(json!({ "object": "Floor", "type": "PASSIVE", "shape": "MESH" }))
            .changed(&["Floor"]).fields("Floor", &["physics"])
            .result(json!({ "type": "PASSIVE", "world_created": false })),
        Case::new("a camera cannot be a rigid body").args(json!({ "object": "Camera" })).error("invalid_target"),
    ]
}
