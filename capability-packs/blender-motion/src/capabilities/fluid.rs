use capstan_blender::{
    AddFluid, AddFluidParams, AddFluidParamsDomainType as DomainType, AddFluidParamsFlowBehavior as FlowBehavior,
    AddFluidParamsFlowType as FlowType, AddFluidParamsRole as Role, add_fluid,
};
use capstan_sdk::prelude::*;

/// Domain settings are for a domain, flow settings for a flow: said in the schema.
fn settings_need_their_role(schema: &mut schemars::Schema) {
    for (settings, role) in [(["domain_type", "resolution"], "domain"), (["flow_type", "flow_behavior"], "flow")] {
        for setting in settings {
            let rule = json!({ "if": { "required": [setting] }, "then": { "properties": { "role": { "const": role } } } });
            capstan_sdk::schema_rules::add_rule(schema, rule);
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = settings_need_their_role)]
pub struct FluidArgs {
    /// domain: the box the fluid lives in; flow: a source (or sink) of smoke, fire or liquid; effector: an obstacle.
    pub role: Role,
    /// A mesh object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// domain: GAS (smoke and fire, default) or LIQUID.
    pub domain_type: Option<DomainType>,
    /// domain: voxels along the longest side, 16..256 (default 32).
    #[schemars(range(min = 16, max = 256))]
    pub resolution: Option<i64>,
    /// flow: SMOKE (default), FIRE, BOTH or LIQUID.
    pub flow_type: Option<FlowType>,
    /// flow: INFLOW (keeps emitting), OUTFLOW (removes) or GEOMETRY (its volume, once; the liquid default).
    pub flow_behavior: Option<FlowBehavior>,
}

/// Mantaflow fluids: make an object a domain (smoke/fire or liquid), a flow source or an effector.
///
/// The domain's cache goes to the session output folder. Setting up only: stepping a
/// fluid is refused by physics.bake in this Blender build (see its description).
#[capability(
    key = "physics.fluid",
    family = "physics",
    tags = ["fluid", "smoke", "fire", "liquid", "water", "mantaflow", "domain", "flow", "effector"],
    aliases = ["fluid", "add_fluid", "smoke_sim", "liquid_sim", "mantaflow"],
    examples = ["make the box a smoke domain", "make the sphere emit fire", "set up a liquid simulation in the tank"],
    uses = [AddFluid],
    cases = cases,
)]
fn fluid(args: FluidArgs) -> PackResult<Value> {
    let domain_only = args.domain_type.is_some() || args.resolution.is_some();
    let flow_only = args.flow_type.is_some() || args.flow_behavior.is_some();
    if (domain_only && args.role != Role::Domain) || (flow_only && args.role != Role::Flow) {
        return Err(PackError::invalid("domain_type and resolution are for a domain; flow_type and flow_behavior for a flow"));
    }
    Ok(json!(add_fluid(&AddFluidParams {
        object: args.object, role: args.role, domain_type: args.domain_type, resolution: args.resolution, flow_type: args.flow_type,
        flow_behavior: args.flow_behavior,
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a smoke domain at resolution 24")
            .args(json!({ "role": "domain", "object": "Cube", "resolution": 24 }))
            .changed(&["Cube"]).fields("Cube", &["modifiers"])
            .result(json!({ "modifier": "Fluid", "role": "domain", "settings": { "domain_type": "GAS", "resolution": 24 } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "modifiers": [{ "type": "FLUID" }] })),
        Case::new("a fire source")
            .setup("scene.create_object", json!({ "type": "ico_sphere", "name": "Torch", "size": 0.5 }))
            .args(json!({ "role": "flow", "object": "Torch", "flow_type": "FIRE" }))
            .changed(&["Torch"]).result(json!({ "settings": { "flow_type": "FIRE", "flow_behavior": "INFLOW" } })),
        Case::new("a liquid source defaults to its geometry")
            .args(json!({ "role": "flow", "object": "Cube", "flow_type": "LIQUID" }))
            .changed(&["Cube"]).result(json!({ "settings": { "flow_type": "LIQUID", "flow_behavior": "GEOMETRY" } })),
        Case::new("a flow has no resolution").args(json!({ "role": "flow", "object": "Cube", "resolution": 32 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a camera cannot hold fluid").args(json!({ "role": "domain", "object": "Camera" })).error("invalid_target"),
    ]
}
