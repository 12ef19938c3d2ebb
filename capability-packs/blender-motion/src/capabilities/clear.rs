use capstan_blender::{ClearKeyframes, ClearKeyframesParams, clear_keyframes};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClearArgs {
    /// The animated object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// Only this property's keys (location, rotation_euler, scale, constraints["Name"].influence, ...); default all.
    #[schemars(length(min = 1, max = 256), regex(pattern = r#"^[A-Za-z_][A-Za-z0-9_]*(\["[A-Za-z0-9_. -]{1,63}"\]\.[A-Za-z_][A-Za-z0-9_]*)?$"#))]
    pub data_path: Option<String>,
}

/// Remove an object's keyframes: all of them, or those of one property.
///
/// Removes the F-curves (every channel of the property); when none are left the action
/// is unassigned from the object. Destructive: the keys are gone, re-key to restore.
#[capability(
    key = "animation.clear",
    family = "animation",
    tags = ["clear keyframes", "remove animation", "delete keys", "unanimate", "reset animation"],
    aliases = ["clear_keyframes", "clear_animation", "remove_keyframes", "delete_keyframes"],
    examples = ["remove the keyframes from the cube", "clear the rotation animation", "delete all keys on the camera"],
    uses = [ClearKeyframes],
    cases = cases,
    destructive,
)]
fn clear(args: ClearArgs) -> PackResult<Value> {
    Ok(json!(clear_keyframes(&ClearKeyframesParams { object: args.object, data_path: args.data_path })?))
}

fn cases() -> Vec<Case> {
    let loc = json!({ "object": "Cube", "property": "location", "frame": 1, "value": [0, 0, 0] });
    let rot = json!({ "object": "Cube", "property": "rotation", "frame": 10, "value": [0, 0, 90] });
    vec![
        Case::new("one property's keys go, the others stay")
            .setup("animation.keyframe", loc.clone()).setup("animation.keyframe", rot)
            .args(json!({ "object": "Cube", "data_path": "location" }))
            .changed(&["Cube"]).fields("Cube", &["animation"])
            .result(json!({ "remaining_fcurves": 3, "action_unassigned": false, "removed": [
                { "data_path": "location", "index": 0, "keys": 1 }, { "data_path": "location", "index": 1, "keys": 1 }, { "data_path": "location", "index": 2, "keys": 1 }] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "keyframes": [{ "property": "rotation_euler", "keys_total": 3 }] })),
        Case::new("everything goes and the action is unassigned")
            .setup("animation.keyframe", loc)
            .args(json!({ "object": "Cube" }))
            .changed(&["Cube"]).fields("Cube", &["animation"])
            .result(json!({ "remaining_fcurves": 0, "action_unassigned": true }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "keyframes": [] })),
        Case::new("nothing to clear").args(json!({ "object": "Cube" })).error("not_found"),
        Case::new("a bad data path").args(json!({ "object": "Cube", "data_path": "location; import os" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
