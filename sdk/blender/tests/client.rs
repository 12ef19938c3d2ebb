//! The generated client: its params carry the catalog's exact schema, its application
//! codes are typed, each command knows its effect and errors, and it matches the
//! catalog the host embeds.

use capstan_blender::*;
use capstan_sdk::prelude::*;
use capstan_sdk::testing::MockBridge;

#[test]
fn pass_through_arguments_carry_the_catalogs_exact_schema() {
    let schema: Value = serde_json::from_str(&read_capability().input_schema()).unwrap();
    assert_eq!(schema["properties"]["limit"]["maximum"], 200, "ranges survive: {schema}");
    assert_eq!(schema["additionalProperties"], false);
    let delete: Value = serde_json::from_str(&delete_capability().input_schema()).unwrap();
    assert_eq!(delete["properties"]["name"]["maxLength"], 63);
}

fn read_capability() -> Capability {
    reader::capability()
}

fn delete_capability() -> Capability {
    deleter::capability()
}

// The attribute names each capability's constructor `capability()`: one module each.
mod reader {
    use super::*;
    /// Read the scene.
    #[capability(key = "test.read", family = "inspect", uses = [GetSceneInfo])]
    pub fn read(args: GetSceneInfoParams) -> PackResult<Value> {
        Ok(json!(get_scene_info(&args)?))
    }
}

mod deleter {
    use super::*;
    /// Delete objects by name.
    #[capability(key = "test.delete", family = "mutate", uses = [DeleteObject])]
    pub fn delete(args: DeleteObjectParams) -> PackResult<Value> {
        Ok(json!(delete_object(&args)?))
    }
}

#[test]
fn application_codes_are_typed() {
    let e = BridgeError::app(AppErrorCode::InvalidTarget, "a camera holds no material");
    assert_eq!(e.app_code.as_deref(), Some("invalid_target"));
    assert_eq!(e.app_error(), Some(AppErrorCode::InvalidTarget));
    assert_eq!(AppErrorCode::parse("something_new"), AppErrorCode::Unknown);
    assert_eq!(AppErrorCode::NotFound.as_str(), "not_found");
    assert!(<DeleteObject as Command>::ERRORS.contains(&AppErrorCode::NotFound));
    assert_eq!(<DeleteObject as Command>::EFFECT, Effect::Destroy);
    assert_eq!(<DeleteObject as Command>::SERVER, SERVER);
}

#[test]
fn a_typed_answer_reaches_the_capability_and_a_destroying_command_makes_it_destructive() {
    let bridge = MockBridge::install();
    bridge.on::<DeleteObject, _>(|p| {
        Ok(serde_json::from_value(json!({
            "deleted": [p.name.unwrap()], "not_found": [], "delta": { "added": [], "removed": ["Cube"], "changed": [], "settings": [] },
        })).unwrap())
    });
    let out: Value = serde_json::from_str(&delete_capability().run_json(r#"{"name": "Cube"}"#).unwrap()).unwrap();
    assert_eq!(out["deleted"], json!(["Cube"]));
    assert!(delete_capability().is_destructive() && !read_capability().mutates_state());
}

/// The command table matches the catalog the host embeds (`commands.json`, generated
/// by the same run of `scripts/bridgegen.py`): every command a pack may send, with its
/// effect, and the catalog's hash.
#[test]
fn the_client_is_the_catalogs() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bridges/blender/capstan_bridge/commands.json");
    let text = std::fs::read(path).unwrap();
    let catalog: Value = serde_json::from_slice(&text).unwrap();
    let mut want: Vec<(String, String)> = catalog["commands"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, c)| c["host_only"] != true)
        .map(|(name, c)| (name.clone(), c["effect"].as_str().unwrap().to_string()))
        .collect();
    want.sort();
    let effect = |e: Effect| match e {
        Effect::Read => "read",
        Effect::Write => "write",
        Effect::Mutate => "mutate",
        Effect::Destroy => "destroy",
    };
    let got: Vec<(String, String)> = COMMANDS.iter().map(|(n, e)| (n.to_string(), effect(*e).to_string())).collect();
    assert_eq!(got, want);
    assert_eq!(SERVER, catalog["app"]);
    use sha2::Digest;
    assert_eq!(CATALOG_SHA256, hex::encode(sha2::Sha256::digest(&text)), "regenerate with scripts/bridgegen.py");
}
