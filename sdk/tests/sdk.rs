//! The SDK itself: what `#[capability]` produces, effects derived from the commands
//! used, conformance cases as the host reads them, and the mock bridge.

use capstan_sdk::blender::*;
use capstan_sdk::prelude::*;
use capstan_sdk::testing::MockBridge;

/// Delete objects by name.
///
/// Destructive: they are gone.
#[capability(key = "test.delete", family = "mutate", tags = ["delete"], aliases = ["remove_it"], uses = [DeleteObject, GetSceneInfo], cases = cases)]
fn delete(args: DeleteObjectParams) -> PackResult<Value> {
    Ok(json!(delete_object(&args)?))
}

fn cases() -> Vec<Case> {
    vec![Case::new("the cube").args(json!({ "name": "Cube" })).removed(&["Cube"]).fields("Light", &["parent"]).reads("scene.info", json!({}), json!({ "object_count": 2 }))]
}

mod reader {
    use super::*;

    /// Read the scene.
    #[capability(key = "test.read", family = "inspect", uses = [GetSceneInfo])]
    pub fn read(args: GetSceneInfoParams) -> PackResult<Value> {
        Ok(json!(get_scene_info(&args)?))
    }
}

#[test]
fn the_attribute_takes_the_doc_comment_and_derives_effects() {
    let cap = capability();
    assert_eq!((cap.key(), cap.family()), ("test.delete", "mutate"));
    assert_eq!(cap.summary_text(), "Delete objects by name.");
    assert!(cap.mutates_state() && cap.is_destructive(), "a destroying command makes it destructive");
    assert_eq!(cap.bridge_commands(), ["delete_object", "get_scene_info"]);
    let read = reader::capability();
    assert!(!read.mutates_state() && !read.is_destructive());
}

#[test]
fn pass_through_arguments_carry_the_catalogs_exact_schema() {
    let schema: Value = serde_json::from_str(&reader::capability().input_schema()).unwrap();
    assert_eq!(schema["properties"]["limit"]["maximum"], 200, "ranges survive: {schema}");
    assert_eq!(schema["additionalProperties"], false);
    let delete: Value = serde_json::from_str(&capability().input_schema()).unwrap();
    assert_eq!(delete["properties"]["name"]["maxLength"], 63);
}

#[test]
fn cases_serialise_in_the_hosts_language() {
    let case: Value = serde_json::from_str(&capability().conformance_cases()[0].to_json()).unwrap();
    assert_eq!(case["name"], "the cube");
    assert_eq!(case["expect"]["delta"]["removed"], json!(["Cube"]));
    assert_eq!(case["expect"]["delta"]["fields"]["Light"], json!(["parent"]));
    assert_eq!(case["expect"]["reads"][0]["key"], "scene.info");
}

#[test]
fn the_mock_bridge_answers_typed_records_calls_and_refuses_the_unknown() {
    let bridge = MockBridge::install();
    bridge.on::<DeleteObject, _>(|p| {
        Ok(serde_json::from_value(json!({
            "deleted": [p.name.unwrap()], "not_found": [], "delta": { "added": [], "removed": ["Cube"], "changed": [], "settings": [] },
        })).unwrap())
    });
    let out: Value = serde_json::from_str(&capability().run_json(r#"{"name": "Cube"}"#).unwrap()).unwrap();
    assert_eq!(out["deleted"], json!(["Cube"]));
    assert_eq!(bridge.calls()[0].1, json!({ "name": "Cube" }), "absent optional params are not sent");
    match reader::capability().run_json("{}") {
        Err(PackError::Bridge(e)) => assert_eq!(e.code, BridgeErrorCode::PermissionDenied, "{e}"),
        other => panic!("{other:?}"),
    }
    drop(bridge);
    match reader::capability().run_json("{}") {
        Err(PackError::Bridge(e)) => assert!(e.message.contains("MockBridge"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn application_codes_are_typed() {
    let e = BridgeError::app(AppErrorCode::InvalidTarget, "a camera holds no material");
    assert_eq!(e.app_error(), Some(AppErrorCode::InvalidTarget));
    assert_eq!(AppErrorCode::parse("something_new"), AppErrorCode::Unknown);
    assert_eq!(AppErrorCode::NotFound.as_str(), "not_found");
    assert!(<DeleteObject as Command>::ERRORS.contains(&AppErrorCode::NotFound));
    assert_eq!(<DeleteObject as Command>::EFFECT, Effect::Destroy);
}

/// The crate as `cargo package` would publish it carries the contract its bindings read
/// (`wit/pack@0.2.0`, linked from the repository's frozen folder) and its README.
#[test]
fn the_packaged_crate_carries_its_contract() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["package", "-p", "capstan-sdk", "--list", "--allow-dirty", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo package --list: {}", String::from_utf8_lossy(&out.stderr));
    let files = String::from_utf8_lossy(&out.stdout);
    for needed in ["wit/pack@0.2.0/pack.wit", "README.md", "src/bindings.rs"] {
        assert!(files.lines().any(|l| l == needed), "{needed} is not in the package: {files}");
    }
    let packaged = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/wit/pack@0.2.0/pack.wit")).unwrap();
    assert!(packaged.contains("package capstan:pack@0.2.0;") && packaged.contains("FROZEN"));
}
