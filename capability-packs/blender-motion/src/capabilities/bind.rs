use capstan_blender::{BindArmature, BindArmatureParams, BindArmatureParamsMode as Mode, bind_armature};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BindArgs {
    /// The mesh to skin.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub mesh: String,
    /// The armature that deforms it.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub armature: String,
    /// AUTO (default): automatic heat weights; ENVELOPE: bone envelopes; EMPTY: one empty group per bone, to paint yourself.
    pub mode: Option<Mode>,
}

/// Skin a mesh to an armature so the bones deform it (automatic weights by default).
///
/// Parents the mesh to the armature (keeping its place), adds the Armature modifier and
/// one vertex group per deforming bone; answers each group's weighted vertex count and
/// largest weight, so a bone that got no weight shows.
#[capability(
    key = "rig.bind",
    family = "rigging",
    tags = ["bind", "skin", "skinning", "automatic weights", "parent to armature", "weights", "deform"],
    aliases = ["bind_armature", "skin_mesh", "parent_with_automatic_weights", "auto_weights"],
    examples = ["bind the character to the armature", "skin the mesh with automatic weights", "parent the body to the rig"],
    uses = [BindArmature],
    cases = cases,
)]
fn bind(args: BindArgs) -> PackResult<Value> {
    if args.mesh == args.armature {
        return Err(PackError::invalid("mesh and armature must be two objects"));
    }
    Ok(json!(bind_armature(&BindArmatureParams { mesh: args.mesh, armature: args.armature, mode: args.mode })?))
}

fn cases() -> Vec<Case> {
    let rig = json!({ "name": "Rig", "bones": super::armature::chain() });
    vec![
        Case::new("automatic weights give every bone weight")
            .setup("rig.armature", rig.clone())
            .args(json!({ "mesh": "Cube", "armature": "Rig" }))
            .changed(&["Cube"]).fields("Cube", &["parent", "modifiers", "vertex_groups"])
            .result(json!({ "mode": "AUTO", "modifier": "Armature", "groups": [{ "name": "Root", "vertices": 8, "max_weight": 0.85969 }, { "name": "Tip", "vertices": 8, "max_weight": 0.85969 }] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "parent": "Rig", "modifiers": [{ "type": "ARMATURE" }] })),
        Case::new("empty groups to paint")
            .setup("rig.armature", rig)
            .args(json!({ "mesh": "Cube", "armature": "Rig", "mode": "EMPTY" }))
            .changed(&["Cube"])
            .result(json!({ "groups": [{ "name": "Root", "vertices": 0 }, { "name": "Tip", "vertices": 0 }] })),
        Case::new("a camera is not an armature").args(json!({ "mesh": "Cube", "armature": "Camera" })).error("invalid_target"),
    ]
}
