use capstan_blender::{
    AddParticleSystem, AddParticleSystemParams, AddParticleSystemParamsEmitFrom as EmitFrom, AddParticleSystemParamsRenderType as RenderType,
    AddParticleSystemParamsType as Kind, RemoveParticleSystem, RemoveParticleSystemParams, add_particle_system, remove_particle_system,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Add,
    Remove,
}

/// remove needs the system's name and an OBJECT render its object: said in the schema.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("remove", &["name"])]);
    let rule = json!({ "if": { "properties": { "render_type": { "const": "OBJECT" } }, "required": ["render_type"] }, "then": { "required": ["instance_object"] } });
    capstan_sdk::schema_rules::add_rule(schema, rule);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct ParticlesArgs {
    /// The emitting mesh.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// add (default) or remove (by name).
    #[serde(default = "add")]
    pub action: Action,
    /// The system's name (remove: required).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// EMITTER (default) or HAIR.
    #[serde(rename = "type")]
    pub kind: Option<Kind>,
    /// How many particles, 1..1000000 (default 1000).
    #[schemars(range(min = 1, max = 1000000))]
    pub count: Option<i64>,
    /// Frames each particle lives (default 50).
    #[schemars(range(min = 1.0, max = 10000.0))]
    pub lifetime: Option<f64>,
    /// Where they are born (default FACE).
    pub emit_from: Option<EmitFrom>,
    /// First frame of emission (default 1).
    #[schemars(range(min = -100000, max = 1000000))]
    pub frame_start: Option<i64>,
    /// Last frame of emission (default 200).
    #[schemars(range(min = -100000, max = 1000000))]
    pub frame_end: Option<i64>,
    /// How they render (OBJECT needs instance_object).
    pub render_type: Option<RenderType>,
    /// The object drawn for each particle.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub instance_object: Option<String>,
    /// Random seed: the same seed gives the same particles.
    #[schemars(range(min = 0, max = 2147483647))]
    pub seed: Option<i64>,
}

fn add() -> Action {
    Action::Add
}

/// Add a particle system (emitter or hair) to a mesh, or remove one.
///
/// Count, lifetime, emission source and frame range, render type (halo, line, path,
/// object instances) and a deterministic seed. Run physics.bake to emit.
#[capability(
    key = "physics.particles",
    family = "physics",
    tags = ["particles", "emitter", "hair", "sparks", "rain", "snow", "instances", "scatter"],
    aliases = ["particles", "add_particle_system", "particle_system", "emitter"],
    examples = ["emit 500 particles from the sphere", "add hair to the head", "make it rain with particles"],
    uses = [AddParticleSystem, RemoveParticleSystem],
    cases = cases,
)]
fn particles(args: ParticlesArgs) -> PackResult<Value> {
    if args.action == Action::Remove {
        let name = args.name.ok_or_else(|| PackError::invalid("remove needs the system's name"))?;
        return Ok(json!(remove_particle_system(&RemoveParticleSystemParams { object: args.object, name })?));
    }
    if let (Some(s), Some(e)) = (args.frame_start, args.frame_end)
        && e < s
    {
        return Err(PackError::invalid("frame_end is before frame_start"));
    }
    if args.kind == Some(Kind::Hair) && matches!(args.render_type, Some(RenderType::Halo | RenderType::Line)) {
        return Err(PackError::invalid("hair renders as PATH, OBJECT, COLLECTION or NONE"));
    }
    if args.render_type == Some(RenderType::Object) && args.instance_object.is_none() {
        return Err(PackError::invalid("render_type OBJECT needs instance_object"));
    }
    Ok(json!(add_particle_system(&AddParticleSystemParams {
        object: args.object, name: args.name, r#type: args.kind, count: args.count, lifetime: args.lifetime, emit_from: args.emit_from,
        frame_start: args.frame_start, frame_end: args.frame_end, render_type: args.render_type, instance_object: args.instance_object,
        seed: args.seed,
    })?))
}

fn cases() -> Vec<Case> {
    let sparks = json!({ "object": "Cube", "name": "Sparks", "count": 100, "frame_start": 1, "frame_end": 10, "lifetime": 100, "seed": 7 });
    vec![
        Case::new("an emitter of 100")
            .args(sparks.clone())
            .changed(&["Cube"]).fields("Cube", &["modifiers", "physics"])
            .result(json!({ "system": { "name": "Sparks", "type": "EMITTER", "count": 100, "lifetime": 100.0, "frame_end": 10.0, "seed": 7 } })),
        Case::new("hair")
            .args(json!({ "object": "Cube", "type": "HAIR", "count": 50, "emit_from": "FACE" }))
            .changed(&["Cube"]).result(json!({ "system": { "type": "HAIR", "count": 50, "render_type": "PATH" } })),
        Case::new("hair is not drawn as halos").args(json!({ "object": "Cube", "type": "HAIR", "render_type": "HALO" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("remove it again")
            .setup("physics.particles", sparks)
            .args(json!({ "object": "Cube", "action": "remove", "name": "Sparks" }))
            .changed(&["Cube"]).fields("Cube", &["modifiers"]).result(json!({ "removed": "Sparks", "remaining": 0 })),
        Case::new("removing a missing system").args(json!({ "object": "Cube", "action": "remove", "name": "Ghost" })).error("not_found"),
        Case::new("object instances need an object").args(json!({ "object": "Cube", "render_type": "OBJECT" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
