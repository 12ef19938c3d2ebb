use capstan_blender::angles;
use capstan_blender::{PoseBone, PoseBoneParams, pose_bone};
use capstan_sdk::prelude::*;

/// At least one part of the pose to set, said in the schema.
fn something_to_set(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &["location", "rotation", "scale"]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = something_to_set)]
pub struct PoseArgs {
    /// The armature object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub armature: String,
    /// The bone to pose.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub bone: String,
    /// Offset in the bone's own space, metres (its Y runs along the bone); a bone
    /// connected to its parent cannot move.
    pub location: Option<[f64; 3]>,
    /// Euler XYZ rotation in the bone's space, degrees (X bends, Y twists).
    pub rotation: Option<[f64; 3]>,
    /// Scale in the bone's space; every factor above 0.
    #[schemars(inner(range(min = 0.000001)))]
    pub scale: Option<[f64; 3]>,
    /// Key the posed channels at this frame.
    #[schemars(range(min = -100000, max = 1000000))]
    pub frame: Option<i64>,
}

/// Pose a bone: move, rotate (degrees) or scale it in its own space, optionally keyed at a frame.
///
/// The bound mesh follows at once. Rotation switches the bone to Euler XYZ.
#[capability(
    key = "rig.pose",
    family = "rigging",
    tags = ["pose", "pose bone", "bend", "rotate bone", "posing", "keyframe pose"],
    aliases = ["pose_bone", "set_pose", "rotate_bone", "pose"],
    examples = ["bend the elbow 45 degrees", "pose the head bone looking left", "key the arm pose at frame 10"],
    uses = [PoseBone],
    cases = cases,
)]
fn pose(args: PoseArgs) -> PackResult<Value> {
    if args.location.is_none() && args.rotation.is_none() && args.scale.is_none() {
        return Err(PackError::invalid("give location, rotation or scale"));
    }
    let mut out = json!(pose_bone(&PoseBoneParams {
        armature: args.armature, bone: args.bone, location: args.location, rotation: args.rotation.map(angles::radians),
        scale: args.scale, frame: args.frame,
    })?);
    if let Some(r) = out["rotation"].as_array().map(|r| r.iter().map(|v| v.as_f64().unwrap_or(0.0)).collect::<Vec<_>>())
        && r.len() == 3
    {
        out["rotation_deg"] = json!(angles::degrees([r[0], r[1], r[2]]).map(|v| (v * 1e3).round() / 1e3));
    }
    Ok(out)
}

fn cases() -> Vec<Case> {
    let rig = json!({ "name": "Rig", "bones": super::armature::chain() });
    let bind = json!({ "mesh": "Cube", "armature": "Rig" });
    vec![
        Case::new("moving the root bone lifts the whole bound cube")
            .setup("rig.armature", rig.clone()).setup("rig.bind", bind.clone())
            .args(json!({ "armature": "Rig", "bone": "Root", "location": [0, 0.5, 0] }))
            .changed(&["Rig"]).fields("Rig", &["pose"])
            .result(json!({ "bone": "Root", "location": [0.0, 0.5, 0.0], "keyed": [] }))
            .reads("spatial.bounds", json!({ "objects": ["Cube"] }), json!({ "min": [-1.0, -1.0, -0.5], "max": [1.0, 1.0, 1.5] })),
        Case::new("a keyed bend")
            .setup("rig.armature", rig.clone()).setup("rig.bind", bind)
            .args(json!({ "armature": "Rig", "bone": "Tip", "rotation": [45, 0, 0], "frame": 1 }))
            .changed(&["Rig"]).fields("Rig", &["pose", "animation"]).datablocks_added("actions", &["RigAction"])
            .result(json!({ "keyed": ["rotation_euler"], "rotation_deg": [45.0, 0.0, 0.0] })),
        Case::new("a connected bone cannot move").setup("rig.armature", rig.clone())
            .args(json!({ "armature": "Rig", "bone": "Tip", "location": [0, 1, 0] })).error("invalid_target"),
        Case::new("a missing bone").setup("rig.armature", rig.clone()).args(json!({ "armature": "Rig", "bone": "Ghost", "location": [0, 0, 1] })).error("not_found"),
        Case::new("nothing to pose").setup("rig.armature", rig).args(json!({ "armature": "Rig", "bone": "Tip" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
