//! The example from `sdk/README.md`: a complete pack in about 30 lines.

use capstan_sdk::prelude::*;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CountArgs {
    /// Blender object type to count, such as MESH, LIGHT or CAMERA.
    #[schemars(length(min = 1, max = 32))]
    kind: String,
}

#[derive(Deserialize)]
struct Scene {
    objects: Vec<Object>,
}

#[derive(Deserialize)]
struct Object {
    #[serde(rename = "type")]
    kind: String,
}

fn count(args: CountArgs) -> PackResult<Value> {
    let scene: Scene = bridge::call("get_scene_info", &json!({}))?;
    let n = scene.objects.iter().filter(|o| o.kind.eq_ignore_ascii_case(&args.kind)).count();
    log::info(&format!("{n} objects of type {}", args.kind));
    Ok(json!({ "kind": args.kind.to_uppercase(), "count": n }))
}

fn capabilities() -> Vec<Capability> {
    vec![Capability::new("hello.count_objects", "inspect", count)
        .summary("Count the scene's objects of one type")
        .examples(&["how many lights are there"])
        .bridge(&["get_scene_info"])]
}

capstan_sdk::export_pack!(capabilities);
