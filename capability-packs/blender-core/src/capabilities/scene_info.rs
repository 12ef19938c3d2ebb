use capstan_blender::{GetSceneInfo, GetSceneInfoParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// The scene at a glance: object counts by type, collections, frame range, render engine, and one page of objects.
///
/// Read-only. Start here before changing anything. Lists at most `limit` objects (default 20)
/// from `offset`; filter by `type` (MESH, LIGHT, ...), `collection` or a `name` pattern with
/// * and ? wildcards. `page.next_offset` is the offset of the next page, or null.
#[capability(
    key = "scene.info",
    family = "inspect",
    tags = ["scene", "objects", "list", "overview", "inspect", "count"],
    aliases = ["blender_get_scene_info", "get_scene_info"],
    examples = ["what's in the scene", "list the objects", "show me the scene", "how many objects are there"],
    uses = [GetSceneInfo],
    cases = cases,
)]
fn scene_info(args: GetSceneInfoParams) -> PackResult<impl Serialize> {
    Ok(forward::<GetSceneInfo>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory scene").result(json!({
            "object_count": 3, "counts": { "MESH": 1, "CAMERA": 1, "LIGHT": 1 }, "camera": "Camera",
            "page": { "offset": 0, "total": 3, "next_offset": null },
        })),
        Case::new("a filtered page")
            .setup("scene.create_object", json!({ "type": "cube", "name": "PageA" }))
            .setup("scene.create_object", json!({ "type": "cube", "name": "PageB" }))
            .args(json!({ "type": "MESH", "limit": 2, "offset": 1 }))
            .result(json!({ "page": { "offset": 1, "limit": 2, "total": 3, "next_offset": null }, "filter": { "type": "MESH" } })),
        Case::new("a name pattern").args(json!({ "name": "Cam*" })).result(json!({ "objects": [{ "name": "Camera", "type": "CAMERA" }] })),
        Case::new("an unknown collection").args(json!({ "collection": "Nowhere" })).error("not_found"),
    ]
}
