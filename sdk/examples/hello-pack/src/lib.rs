//! The example from `sdk/README.md`: a complete pack with one capability, typed bridge
//! calls, a routing family and a conformance case.

use capstan_blender::{GetSceneInfo, GetSceneInfoParams, GetSceneInfoParamsType, get_scene_info};
use capstan_sdk::prelude::*;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CountArgs {
    /// Blender object type to count.
    kind: GetSceneInfoParamsType,
}

/// Count the scene's objects of one type.
#[capability(
    key = "hello.count_objects",
    family = "inspect",
    examples = ["how many lights are there"],
    uses = [GetSceneInfo],
    cases = cases,
)]
fn count(args: CountArgs) -> PackResult<Value> {
    let scene = get_scene_info(&GetSceneInfoParams { r#type: Some(args.kind), limit: Some(1), ..Default::default() })?;
    log::info(&format!("{} objects of type {:?}", scene.page.total, args.kind));
    Ok(json!({ "kind": args.kind, "count": scene.page.total }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("one light in the factory scene").args(json!({ "kind": "LIGHT" })).result(json!({ "count": 1 })),
        // Change the scene through another capability, then read: the count must follow.
        Case::new("a sun added before counting")
            .setup("scene.create_object", json!({ "type": "light_sun", "name": "Sun" }))
            .args(json!({ "kind": "LIGHT" }))
            .result(json!({ "count": 2 })),
    ]
}

fn families() -> Vec<Family> {
    vec![Family::new("inspect", "Look at the scene").cues(3, &["how many", "count"])]
}

fn capabilities() -> Vec<Capability> {
    vec![capability()]
}

capstan_sdk::export_pack!(families = families, capabilities = capabilities);
