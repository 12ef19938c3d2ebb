//! The contracts of the capability architecture that need no Blender: one validator
//! semantics on both sides of the bridge, 0.1.0 packs loading unchanged beside 0.2.0
//! ones, one undo step per mutating call, and merged deltas kept when a later bridge
//! call fails.

mod support;

use capstan::bridge::catalog::BridgeCatalog;
use capstan::bridge::{BridgeClient, BridgeFailure, BridgeRequest};
use capstan::home::CapstanHome;
use capstan::plugin::abi::PackVersion;
use capstan::runtime::CallError;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use support::{RecordingBridge, built_pack, canned, runtime};

#[test]
fn the_hosts_validator_agrees_with_the_add_ons_on_the_shared_vectors() {
    let doc: Value = serde_json::from_str(include_str!("../../bridges/blender/schema_vectors.json")).unwrap();
    let catalog: Value = serde_json::from_str(capstan::app_units::blender::unit::CATALOG_JSON).unwrap();
    for v in doc["vectors"].as_array().unwrap() {
        let mut schema = v["schema"].clone();
        schema["$defs"] = catalog["$defs"].clone();
        let validator = jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{}: {e}", v["name"]));
        for ok in v["valid"].as_array().unwrap() {
            assert!(validator.is_valid(ok), "{}: {ok} should be valid", v["name"]);
        }
        for bad in v["invalid"].as_array().unwrap() {
            assert!(!validator.is_valid(bad), "{}: {bad} should be invalid", v["name"]);
        }
    }
}

#[test]
fn the_catalog_declares_results_errors_and_its_digest() {
    let c = BridgeCatalog::parse(capstan::app_units::blender::unit::CATALOG_JSON).unwrap();
    assert_eq!(c.sha256, capstan::fsutil::sha256_hex(capstan::app_units::blender::unit::CATALOG_JSON.as_bytes()));
    let info = c.command("get_object_info").unwrap();
    assert_eq!(info.errors, ["not_found"]);
    assert!(info.result_errors(&json!({ "name": "Cube" })).iter().any(|e| e.contains("required")));
    assert!(c.command("reset_scene").unwrap().host_only && c.command("undo_push").unwrap().host_only);
    assert!(c.error_codes.contains_key("invalid_target"));
}

#[test]
fn a_pack_built_for_0_1_0_loads_and_runs_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(RecordingBridge::default());
    let rt = runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[built_pack("tests/hostile-packs/legacy-v1")]);
    let legacy = rt.packs().iter().find(|p| p.name() == "legacy-v1").unwrap();
    assert_eq!(legacy.version, PackVersion::V1);
    assert_eq!(legacy.families.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["inspect"], "families are implied");
    assert_eq!(rt.packs().iter().find(|p| p.name() == "blender-core").unwrap().version, PackVersion::V2);
    let out = rt.call("legacy.scene_info", "{}").unwrap();
    assert_eq!(out.result["object_count"], 2);
    assert!(out.delta.is_none(), "read-only");
    assert_eq!(bridge.commands(), ["get_scene_info"]);
}

/// Answers like the recording bridge, but fails the `fail_at`-th call (1-based) as
/// Blender does when a mutating command fails half-way, and keeps undo steps.
struct Scripted {
    calls: Mutex<Vec<String>>,
    fail_at: usize,
    /// The application code the failing call answers with.
    code: &'static str,
}

impl BridgeClient for Scripted {
    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
        let mut calls = self.calls.lock().unwrap();
        calls.push(request.command.to_string());
        let n = calls.iter().filter(|c| *c != "undo_push").count();
        if request.command != "undo_push" && n == self.fail_at {
            let delta: capstan::delta::SceneDelta = serde_json::from_value(json!({
                "added": [], "removed": [], "changed": ["Cube"], "fields": { "Cube": ["animation"] }, "settings": [],
            })).unwrap();
            return Err(BridgeFailure::App { code: self.code.into(), message: "no object named 'Gone'".into(), delta: Some(Box::new(delta)) });
        }
        let mut answer = canned::answer(request.command, request.params);
        if request.command == "create_light" {
            let name = request.params["name"].as_str().unwrap();
            answer["delta"]["added"] = json!([name]);
        }
        Ok(answer)
    }

    fn keeps_undo_steps(&self, _: &str) -> bool {
        true
    }
}

#[test]
fn a_code_the_command_does_not_declare_is_a_bridge_error_not_a_refusal() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(Scripted { calls: Mutex::new(vec![]), fail_at: 1, code: "not_found" });
    let rt = runtime(&CapstanHome::at(tmp.path()), bridge, &[]);
    let err = rt.call("scene.lighting_preset", r#"{"preset": "studio"}"#).unwrap_err();
    let doc = capstan::report::error_json(&err);
    assert_eq!(doc["code"], "BRIDGE_ERROR", "create_light does not declare not_found: {doc}");
    assert_eq!(doc["app_error"]["code"], "not_found");
    assert_eq!(doc["app_error"]["declared"], false);
}

#[test]
fn a_mutating_call_is_one_undo_step_and_read_calls_are_none() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(Scripted { calls: Mutex::new(vec![]), fail_at: usize::MAX, code: "invalid_params" });
    let rt = runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[]);
    let out = rt.call("scene.lighting_preset", r#"{"preset": "three_point"}"#).unwrap();
    assert_eq!(out.delta.unwrap().objects.added.len(), 3, "three calls, one merged delta");
    rt.call("scene.info", "{}").unwrap();
    let calls = bridge.calls.lock().unwrap().clone();
    assert_eq!(calls, ["create_light", "create_light", "create_light", "undo_push", "get_scene_info"]);
}

#[test]
fn the_delta_of_earlier_calls_is_kept_when_a_later_one_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(Scripted { calls: Mutex::new(vec![]), fail_at: 3, code: "invalid_params" });
    let rt = runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[]);
    let err = rt.call("scene.lighting_preset", r#"{"preset": "studio"}"#).unwrap_err();
    let CallError::Pack { delta: Some(delta), failure, .. } = &err else { panic!("{err:?}") };
    assert_eq!(delta.objects.added.iter().collect::<Vec<_>>(), ["Softbox Left", "Softbox Right"]);
    assert_eq!(delta.objects.changed.iter().collect::<Vec<_>>(), ["Cube"], "the failed call's own partial delta");
    assert_eq!(failure.app_error.as_ref().unwrap().code, "invalid_params");
    let doc = capstan::report::error_json(&err);
    assert_eq!(doc["code"], "APP_REFUSED", "create_light declares invalid_params: a condition it checks");
    assert_eq!(doc["app_error"]["code"], "invalid_params");
    assert!(doc["app_error"]["meaning"].as_str().unwrap().contains("fix the arguments"));
    assert_eq!(doc["delta"]["added"], json!(["Softbox Left", "Softbox Right"]));
    assert_eq!(bridge.calls.lock().unwrap().last().unwrap(), "undo_push", "the partial change is still one undo step");
}

/// Answers `get_scene_info` with a valid but oversized document.
struct Oversized;

impl BridgeClient for Oversized {
    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
        let mut answer = canned::answer(request.command, request.params);
        answer["scene"] = json!("x".repeat(300 * 1024));
        Ok(answer)
    }
}

#[test]
fn a_read_answer_over_its_commands_ceiling_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = runtime(&CapstanHome::at(tmp.path()), Arc::new(Oversized), &[]);
    let ceiling = rt.bridge_command("blender", "get_scene_info").unwrap().max_result_bytes;
    assert_eq!(ceiling, 256 * 1024);
    let err = rt.call("scene.info", "{}").unwrap_err();
    assert!(err.to_string().contains("more than its ceiling"), "{err}");
    // Every answer has a ceiling, at most what a pack may return by default (8 MiB:
    // a 1024-pixel preview PNG in base64 is the largest; text answers page far below).
    for spec in BridgeCatalog::parse(capstan::app_units::blender::unit::CATALOG_JSON).unwrap().commands() {
        assert!(spec.max_result_bytes <= capstan::limits::DEFAULT_LIMITS.max_io_bytes, "{} has no bounded answer", spec.name);
    }
}
