//! The SDK itself: what `#[capability]` produces, effects derived from the commands
//! used, conformance cases as the host reads them, the mock bridge, typed application
//! codes and the pack test helpers. The commands here are declared by hand, as an
//! application's client crate declares them (capstan-blender's are generated).

use capstan_sdk::prelude::*;
use capstan_sdk::testing::{MockBridge, assert_declared, assert_keys_in_family_namespace, assert_manifest_commands};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Code {
    NotFound,
    Unknown,
}

impl AppCode for Code {
    fn as_str(&self) -> &str {
        match self {
            Code::NotFound => "not_found",
            Code::Unknown => "unknown",
        }
    }
    fn parse(code: &str) -> Self {
        if code == "not_found" { Code::NotFound } else { Code::Unknown }
    }
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RemoveParams {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Removed {
    deleted: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct ListParams {}

/// A destroying command of an application `app`.
struct Remove;
impl Command for Remove {
    const SERVER: &'static str = "app";
    const NAME: &'static str = "remove";
    const EFFECT: Effect = Effect::Destroy;
    type AppCode = Code;
    const ERRORS: &'static [Code] = &[Code::NotFound];
    type Params = RemoveParams;
    type Result = Removed;
}

/// A reading command.
struct List;
impl Command for List {
    const SERVER: &'static str = "app";
    const NAME: &'static str = "list";
    const EFFECT: Effect = Effect::Read;
    type AppCode = Code;
    const ERRORS: &'static [Code] = &[];
    type Params = ListParams;
    type Result = Value;
}

/// Delete objects by name.
///
/// Destructive: they are gone.
#[capability(key = "test.delete", family = "mutate", tags = ["delete"], aliases = ["remove_it"], uses = [Remove, List], cases = cases)]
fn delete(args: RemoveParams) -> PackResult<Value> {
    Ok(json!(capstan_sdk::bridge::send::<Remove>(&args)?))
}

fn cases() -> Vec<Case> {
    vec![Case::new("the cube").args(json!({ "name": "Cube" })).removed(&["Cube"]).fields("Light", &["parent"]).reads("scene.info", json!({}), json!({ "object_count": 2 }))]
}

mod reader {
    use super::*;

    /// Read the scene.
    #[capability(key = "test.read", family = "inspect", uses = [List])]
    pub fn read(args: ListParams) -> PackResult<Value> {
        Ok(capstan_sdk::bridge::send::<List>(&args)?)
    }
}

#[test]
fn the_attribute_takes_the_doc_comment_and_derives_effects() {
    let cap = capability();
    assert_eq!((cap.key(), cap.family()), ("test.delete", "mutate"));
    assert_eq!(cap.summary_text(), "Delete objects by name.");
    assert!(cap.mutates_state() && cap.is_destructive(), "a destroying command makes it destructive");
    assert_eq!(cap.bridge_commands(), ["remove", "list"]);
    let read = reader::capability();
    assert!(!read.mutates_state() && !read.is_destructive());
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
    bridge.on::<Remove, _>(|p| Ok(Removed { deleted: vec![p.name.unwrap()] }));
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
fn application_codes_travel_as_strings_and_come_back_typed() {
    let e = BridgeError::app(Code::NotFound, "no such object");
    assert_eq!(e.app_code.as_deref(), Some("not_found"));
    assert_eq!(e.app_error(), Some(Code::NotFound));
    let newer = BridgeError { app_code: Some("something_new".into()), ..e.clone() };
    assert_eq!(newer.app_error(), Some(Code::Unknown), "a code the client does not know");
    assert_eq!(BridgeError::new(BridgeErrorCode::Transport, "down").app_error::<Code>(), None);
    assert!(<Remove as Command>::ERRORS.contains(&Code::NotFound));
    assert!(e.to_string().contains("(not_found)"), "{e}");
}

/// A pack folder of its own under the system's temporary folder.
fn pack_dir(test: &str, manifest: &Value) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("capstan-sdk-test-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pack.json"), serde_json::to_string_pretty(manifest).unwrap()).unwrap();
    dir
}

#[test]
fn the_manifest_check_passes_the_derived_list_and_names_what_a_stale_one_lacks() {
    let caps = [capability(), reader::capability()];
    let fresh = json!({ "name": "demo", "servers": { "app": { "commands": ["list", "remove"] } } });
    let dir = pack_dir("fresh", &fresh);
    assert_manifest_commands(dir.to_str().unwrap(), "app", &caps);
    let stale = json!({ "name": "demo", "servers": { "app": { "commands": ["list", "render"] } } });
    let dir = pack_dir("stale", &stale);
    let path = dir.to_str().unwrap().to_string();
    let failed = std::panic::catch_unwind(|| assert_manifest_commands(&path, "app", &[capability(), reader::capability()]));
    let message = *failed.expect_err("a stale list fails").downcast::<String>().unwrap();
    assert!(message.contains(r#"used but not listed ["remove"], listed but not used ["render"]"#), "{message}");
    assert!(message.contains("CAPSTAN_BLESS=1 cargo test -p demo"), "{message}");
    let other_server = std::panic::catch_unwind(|| assert_manifest_commands(&path, "elsewhere", &[capability()]));
    assert!(other_server.is_err(), "a server the manifest lacks fails");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_declaration_checks_name_the_capability_at_fault() {
    let families = [Family::new("mutate", "Change things"), Family::new("inspect", "Look")];
    assert_declared(&families, &[capability()], 1);
    let few = std::panic::catch_unwind(|| assert_declared(&[Family::new("mutate", "Change things"), Family::new("inspect", "Look")], &[capability()], 2));
    assert!(few.expect_err("one case is fewer than two").downcast::<String>().unwrap().contains("test.delete has 1 conformance cases"));
    let undeclared = std::panic::catch_unwind(|| assert_declared(&[Family::new("mutate", "Change things")], &[reader::capability()], 0));
    assert!(undeclared.expect_err("inspect is not declared").downcast::<String>().unwrap().contains("undeclared family inspect"));
    let namespaced = std::panic::catch_unwind(|| assert_keys_in_family_namespace(&[capability()]));
    assert!(namespaced.is_err(), "test.delete is not in namespace mutate");
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
