use capstan_blender::{SceneSnapshot, SceneSnapshotParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Save, list, diff or drop hashed snapshots of the whole scene, to see what changed between two moments.
///
/// `save` fingerprints every object (transform, modifiers, materials, ...), datablock and
/// setting, hashed, under an `id` (or a new one); `diff` compares snapshot `a` with `b` or with
/// the scene now, aspect by aspect; `list` and `drop` manage them. The bridge keeps at most 16
/// (the oldest goes first) for as long as Blender runs; nothing is written to the file.
#[capability(
    key = "inspect.snapshot",
    family = "inspect",
    tags = ["snapshot", "diff", "compare", "changes", "history", "fingerprint"],
    aliases = ["scene_snapshot", "snapshot"],
    examples = ["take a snapshot of the scene", "what changed since the snapshot", "compare the scene with before"],
    uses = [SceneSnapshot],
    cases = cases,
)]
fn snapshot(args: SceneSnapshotParams) -> PackResult<impl Serialize> {
    Ok(forward::<SceneSnapshot>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("save then diff after a move")
            .setup("inspect.snapshot", json!({ "action": "save", "id": "before" }))
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [0, 0, 3] }))
            .args(json!({ "action": "diff", "a": "before" }))
            .result(json!({ "same": false, "diff": { "changed": ["Cube"], "fields": { "Cube": ["transform"] }, "added": [], "removed": [] } })),
        Case::new("an unchanged scene").setup("inspect.snapshot", json!({ "action": "save", "id": "s" }))
            .args(json!({ "action": "diff", "a": "s" })).result(json!({ "same": true })),
        Case::new("an unknown snapshot").args(json!({ "action": "diff", "a": "nope" })).error("not_found"),
    ]
}
