use capstan_blender::{ApplyModifier, ApplyModifierParams, RemoveModifier, RemoveModifierParams, apply_modifier, remove_modifier};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Bake the modifier's result into the mesh and remove it.
    #[default]
    Apply,
    /// Remove the modifier without applying it.
    Remove,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModifierApplyArgs {
    /// The object carrying the modifier.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// The modifier's name (as scene.object_info lists it, e.g. "Subsurf").
    #[schemars(length(min = 1, max = 63))]
    pub modifier: String,
    /// apply (default) or remove.
    #[serde(default)]
    pub action: Action,
}

/// Apply a modifier (bake its result into the mesh) or remove it.
///
/// Applying makes the modifier's result the object's mesh and removes the modifier; as in
/// Blender, only that modifier acts on the base mesh, the others stay. Meshes shared with
/// other objects or with shape keys are refused. Remove drops a modifier of any object
/// without applying it.
#[capability(
    key = "mutate.modifier_apply",
    family = "mutate",
    tags = ["apply modifier", "bake modifier", "remove modifier", "collapse", "finalize"],
    aliases = ["apply_modifier", "remove_modifier", "modeling_apply_modifier", "model.modifier"],
    examples = ["apply the subdivision modifier", "apply the bevel on the cube", "remove the mirror modifier"],
    uses = [ApplyModifier, RemoveModifier],
    cases = cases,
)]
fn modifier_apply(args: ModifierApplyArgs) -> PackResult<Value> {
    Ok(match args.action {
        Action::Apply => json!(apply_modifier(&ApplyModifierParams { object: args.object, modifier: args.modifier })?),
        Action::Remove => json!(remove_modifier(&RemoveModifierParams { object: args.object, modifier: args.modifier })?),
    })
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("subdivision level 1 on the cube gives 26 vertices")
            .setup("mutate.modifier_add", json!({ "object": "Cube", "type": "SUBSURF", "properties": { "levels": 1 } }))
            .args(json!({ "object": "Cube", "modifier": "Subsurf" }))
            .changed(&["Cube"]).fields("Cube", &["data", "modifiers"]).added(&[]).removed(&[])
            .result(json!({ "modifier": "Subsurf", "type": "SUBSURF", "before": { "vertices": 8 }, "after": { "vertices": 26, "faces": 24 }, "modifiers": [] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "modifiers": [], "modifiers_total": 0, "mesh": { "vertices": 26, "faces": 24 } })),
        Case::new("remove drops it unapplied")
            .setup("mutate.modifier_add", json!({ "object": "Cube", "type": "BEVEL" }))
            .args(json!({ "object": "Cube", "modifier": "Bevel", "action": "remove" }))
            .changed(&["Cube"]).fields("Cube", &["modifiers"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "modifiers_total": 0, "mesh": { "vertices": 8 } })),
        Case::new("a missing modifier").args(json!({ "object": "Cube", "modifier": "Nope" })).error("not_found"),
        Case::new("only meshes are applied").args(json!({ "object": "Camera", "modifier": "Any" })).error("invalid_target"),
    ]
}
