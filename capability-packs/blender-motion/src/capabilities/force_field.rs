use capstan_blender::{AddForceField, AddForceFieldParams, AddForceFieldParamsFalloff as Falloff, AddForceFieldParamsType as Kind, add_force_field};
use capstan_blender::angles;
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForceFieldArgs {
    /// FORCE (push/pull), WIND, VORTEX, MAGNETIC, TURBULENCE, DRAG or HARMONIC.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// Name of the field object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// Where it sits, [x, y, z] metres.
    pub location: Option<[f64; 3]>,
    /// Its orientation in degrees (wind blows along its local Z).
    pub rotation: Option<[f64; 3]>,
    /// Strength -1000..1000 (default 5; negative pulls).
    #[schemars(range(min = -1000.0, max = 1000.0))]
    pub strength: Option<f64>,
    /// How it fades with distance: SPHERE (default), TUBE or CONE.
    pub falloff: Option<Falloff>,
    /// Random variation 0..10.
    #[schemars(range(min = 0.0, max = 10.0))]
    pub noise: Option<f64>,
}

/// Add a force field (wind, vortex, turbulence, ...) that pushes particles, cloth and rigid bodies.
///
/// A new empty carries the field: `kind`, `strength` (negative pulls), `falloff` shape and
/// `noise`. Wind blows along the empty's local Z, so `rotation` (degrees) aims it. Run
/// `physics.simulate` to see its effect.
#[capability(
    key = "physics.force_field",
    family = "physics",
    tags = ["force field", "wind", "vortex", "turbulence", "magnetic", "drag", "push", "attract"],
    aliases = ["force_field", "add_force_field", "wind", "effector"],
    examples = ["add wind blowing the cloth", "create a vortex above the particles", "add turbulence to the smoke"],
    uses = [AddForceField],
    cases = cases,
)]
fn force_field(args: ForceFieldArgs) -> PackResult<Value> {
    Ok(json!(add_force_field(&AddForceFieldParams {
        r#type: args.kind, name: args.name, location: args.location, rotation: args.rotation.map(angles::radians),
        strength: args.strength, falloff: args.falloff, noise: args.noise,
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a named wind")
            .args(json!({ "type": "WIND", "name": "Breeze", "location": [0, -4, 1], "rotation": [90, 0, 0], "strength": 12 }))
            .added(&["Breeze"]).changed(&[])
            .result(json!({ "name": "Breeze", "type": "WIND", "strength": 12.0, "falloff": "SPHERE", "location": [0.0, -4.0, 1.0] }))
            .reads("scene.object_info", json!({ "name": "Breeze" }), json!({ "type": "EMPTY", "rotation": [std::f64::consts::FRAC_PI_2, 0.0, 0.0] })),
        Case::new("a vortex with a tube falloff").args(json!({ "type": "VORTEX", "falloff": "TUBE", "noise": 1 }))
            .added(&["Vortex"]).result(json!({ "type": "VORTEX", "falloff": "TUBE", "noise": 1.0 })),
        Case::new("a magnetic field (Blender calls it MAGNET)").args(json!({ "type": "MAGNETIC", "name": "Magnet" }))
            .added(&["Magnet"]).result(json!({ "type": "MAGNETIC" })),
        Case::new("an unknown field").args(json!({ "type": "GRAVITY_WELL" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
