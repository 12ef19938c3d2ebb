use capstan_blender::{EditBone, EditBoneParams, EditBoneParamsAction as BridgeAction, edit_bone};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Add,
    Remove,
    SetParent,
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("add", &["head", "tail"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct BoneArgs {
    /// The armature object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub armature: String,
    pub action: Action,
    /// The bone to add, remove or reparent.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub bone: String,
    /// add: head [x, y, z], metres in armature space.
    pub head: Option<[f64; 3]>,
    /// add: tail [x, y, z].
    pub tail: Option<[f64; 3]>,
    /// add, set_parent: the parent bone (set_parent without it clears the parent).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub parent: Option<String>,
    /// Join the head to the parent's tail.
    pub connected: Option<bool>,
    /// add: roll in degrees.
    #[schemars(range(min = -360.0, max = 360.0))]
    pub roll: Option<f64>,
}

/// Add a bone to an armature, remove one, or change its parent.
///
/// Removing is destructive (the bone, its pose and constraints go). A parent that would
/// make a cycle is refused.
#[capability(
    key = "rig.bone",
    family = "rigging",
    tags = ["bone", "add bone", "remove bone", "reparent bone", "armature", "skeleton"],
    aliases = ["edit_bone", "add_bone", "remove_bone", "bone"],
    examples = ["add a bone for the thumb", "remove the tail bone", "parent the hand bone to the forearm"],
    uses = [EditBone],
    cases = cases,
)]
fn bone(args: BoneArgs) -> PackResult<Value> {
    if args.action == Action::Add {
        let (Some(h), Some(t)) = (args.head, args.tail) else { return Err(PackError::invalid("add needs head and tail")) };
        if crate::bones::length(h, t) < 1e-6 {
            return Err(PackError::invalid("a bone needs a head and tail apart"));
        }
    } else if args.head.is_some() || args.tail.is_some() || args.roll.is_some() {
        return Err(PackError::invalid("head, tail and roll are for add"));
    }
    if args.parent.as_deref() == Some(args.bone.as_str()) {
        return Err(PackError::invalid("a bone cannot be its own parent"));
    }
    let action = match args.action {
        Action::Add => BridgeAction::Add,
        Action::Remove => BridgeAction::Remove,
        Action::SetParent => BridgeAction::SetParent,
    };
    Ok(json!(edit_bone(&EditBoneParams {
        armature: args.armature, action, bone: args.bone, head: args.head, tail: args.tail, parent: args.parent,
        connected: args.connected, roll: args.roll.map(f64::to_radians),
    })?))
}

fn cases() -> Vec<Case> {
    let rig = || json!({ "name": "Rig", "bones": super::armature::chain() });
    vec![
        Case::new("add a side bone under the root")
            .setup("rig.armature", rig())
            .args(json!({ "armature": "Rig", "action": "add", "bone": "Side", "head": [0, 0, 0], "tail": [1, 0, 0], "parent": "Root" }))
            .changed(&["Rig"]).fields("Rig", &["data"])
            .result(json!({ "total": 3, "bones": [{ "name": "Root" }, { "name": "Tip" }, { "name": "Side", "parent": "Root", "tail": [1.0, 0.0, 0.0] }] })),
        Case::new("remove the tip")
            .setup("rig.armature", rig())
            .args(json!({ "armature": "Rig", "action": "remove", "bone": "Tip" }))
            .changed(&["Rig"]).result(json!({ "total": 1, "bones": [{ "name": "Root" }] })),
        Case::new("unparent the tip")
            .setup("rig.armature", rig())
            .args(json!({ "armature": "Rig", "action": "set_parent", "bone": "Tip" }))
            .changed(&["Rig"]).result(json!({ "bones": [{ "name": "Root" }, { "name": "Tip", "parent": null, "connected": false }] })),
        Case::new("a cycle is refused")
            .setup("rig.armature", rig())
            .args(json!({ "armature": "Rig", "action": "set_parent", "bone": "Root", "parent": "Tip" })).error("invalid_target"),
        Case::new("not an armature").args(json!({ "armature": "Cube", "action": "remove", "bone": "Root" })).error("invalid_target"),
    ]
}
