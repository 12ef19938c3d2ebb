use crate::bones::{self, BoneSpec};
use capstan_blender::{CreateArmature, CreateArmatureParams, CreateArmatureParamsBonesItem as Bone, create_armature};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmatureArgs {
    /// Name of the new armature object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: String,
    /// Where the armature's origin goes, [x, y, z] metres.
    pub location: Option<[f64; 3]>,
    /// The bones, 1..256 (a chain, a spine, a limb ...).
    #[schemars(length(min = 1, max = 256))]
    pub bones: Vec<BoneSpec>,
}

/// Create an armature (skeleton) from a list of bones with heads, tails and parents.
///
/// Bones are in armature space, metres; roll in degrees. The list is checked first:
/// unique names, parents in the list, no cycles, no zero-length bones.
#[capability(
    key = "rig.armature",
    family = "rigging",
    tags = ["armature", "skeleton", "bones", "rig", "create rig", "spine", "chain"],
    aliases = ["create_armature", "armature", "add_armature", "create_skeleton"],
    examples = ["create an armature with a two-bone chain", "build a skeleton for the arm", "add a rig with a spine"],
    uses = [CreateArmature],
    cases = cases,
)]
fn armature(args: ArmatureArgs) -> PackResult<Value> {
    bones::check(&args.bones)?;
    let list = args.bones.into_iter().map(|b| Bone {
        name: b.name, head: b.head, tail: b.tail, parent: b.parent, connected: Some(b.connected), roll: b.roll.map(f64::to_radians),
    }).collect();
    Ok(json!(create_armature(&CreateArmatureParams { name: args.name, location: args.location, bones: list })?))
}

pub fn chain() -> Value {
    json!([{ "name": "Root", "head": [0, 0, -1], "tail": [0, 0, 0] }, { "name": "Tip", "head": [0, 0, 0], "tail": [0, 0, 1], "parent": "Root", "connected": true }])
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a two-bone chain")
            .args(json!({ "name": "Rig", "location": [0, 0, 0], "bones": chain() }))
            .added(&["Rig"]).changed(&[])
            .result(json!({ "name": "Rig", "bones": [
                { "name": "Root", "head": [0.0, 0.0, -1.0], "tail": [0.0, 0.0, 0.0], "parent": null, "connected": false },
                { "name": "Tip", "head": [0.0, 0.0, 0.0], "tail": [0.0, 0.0, 1.0], "parent": "Root", "connected": true }] }))
            .reads("scene.object_info", json!({ "name": "Rig" }), json!({ "type": "ARMATURE" })),
        Case::new("a zero-length bone").args(json!({ "name": "Rig", "bones": [{ "name": "A", "head": [0, 0, 0], "tail": [0, 0, 0] }] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a parent cycle").args(json!({ "name": "Rig", "bones": [
            { "name": "A", "head": [0, 0, 0], "tail": [0, 0, 1], "parent": "B" }, { "name": "B", "head": [0, 0, 1], "tail": [0, 0, 2], "parent": "A" }] }))
            .error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
