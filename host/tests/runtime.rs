//! The call path and the compiled-component cache, with a recording bridge.

mod support;

use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::{CallError, Resolution};
use serde_json::json;
use std::sync::Arc;
use support::{RecordingBridge, built_pack, runtime};

#[test]
fn invalid_arguments_are_refused_before_any_sandbox_or_bridge_work() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(RecordingBridge::default());
    let rt = runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[]);
    let cases = [
        json!({ "type": "teapot" }),
        json!({ "type": "cube", "scale": [1, 0, 1] }),
        json!({ "type": "cube", "location": [0, 0] }),
        json!({ "name": "NoType" }),
        json!({ "type": "cube", "python": "import os" }),
    ];
    for args in cases {
        match rt.call("scene.create_object", &args.to_string()) {
            Err(CallError::InvalidArguments { errors, .. }) => assert!(!errors.is_empty(), "{args}"),
            other => panic!("{args}: expected INVALID_CAPABILITY_ARGUMENTS, got {other:?}"),
        }
    }
    match rt.call("scene.create_object", "{not json") {
        Err(CallError::InvalidArguments { errors, .. }) => assert!(errors[0].contains("not JSON")),
        other => panic!("{other:?}"),
    }
    assert_eq!(bridge.count(), 0, "nothing reached the bridge");
    match rt.call("scene.set_material", &json!({ "object": "Cube", "color": [2.0, 0, 0] }).to_string()) {
        Err(CallError::InvalidArguments { .. }) => {}
        other => panic!("colour channel out of range: {other:?}"),
    }
    assert_eq!(bridge.count(), 0);
}

#[test]
fn aliases_resolve_but_do_not_execute_and_unknown_keys_say_search_again() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(RecordingBridge::default());
    let rt = runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[]);
    assert_eq!(rt.resolve("blender_create_object"), Resolution::Alias { canonical: "scene.create_object".into() });
    match rt.call("create_object", r#"{"type":"cube"}"#) {
        Err(e @ CallError::NonCanonical { .. }) => assert!(e.to_string().contains("scene.create_object"), "{e}"),
        other => panic!("{other:?}"),
    }
    match rt.call("scene.teleport", "{}") {
        Err(e @ CallError::NotFound { .. }) => assert!(e.to_string().contains("search again"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(bridge.count(), 0);
}

#[test]
fn blender_core_translates_agent_arguments_into_native_bridge_params() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(RecordingBridge::default());
    let rt = runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[]);
    rt.call("scene.create_object", &json!({ "type": "cube", "name": "Probe", "rotation": [0, 0, 180] }).to_string()).unwrap();
    rt.call("scene.set_material", &json!({ "object": "Probe", "preset": "chrome", "color": "#ffffff" }).to_string()).unwrap();
    let got = bridge.received.lock().unwrap().clone();
    assert_eq!(got[0].command, "create_object");
    let z = got[0].params["rotation"][2].as_f64().unwrap();
    assert!((z - std::f64::consts::PI).abs() < 1e-9, "degrees became radians: {z}");
    assert_eq!(got[1].command, "set_material");
    assert_eq!(got[1].params["base_color"], json!([1.0, 1.0, 1.0, 1.0]));
    assert_eq!(got[1].params["metallic"], json!(1.0));
    assert_eq!(got[1].params["material"], "Probe_material");
}

#[test]
fn the_sdk_example_pack_works_end_to_end() {
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(RecordingBridge::default());
    let rt = runtime(&CapstanHome::at(tmp.path()), bridge.clone(), &[built_pack("sdk/examples/hello-pack")]);
    let out = rt.call("hello.count_objects", r#"{"kind":"MESH"}"#).unwrap();
    assert_eq!(out.result, json!({ "kind": "MESH", "count": 1 }));
    assert_eq!(out.bridge_calls.len(), 1);
    assert_eq!(out.bridge_calls[0].outcome, "ok");
}

#[test]
fn a_warm_start_never_recompiles_and_a_tampered_artifact_is_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let bridge: Arc<RecordingBridge> = Arc::new(RecordingBridge::default());
    let cold = support::runtime_with_own_cache(&home, bridge.clone(), &[]);
    assert_eq!(cold.cache().stats.compiled_total(), support::official_pack_count());
    assert_eq!(cold.cache().stats.hits(), 0);
    drop(cold);

    let warm = support::runtime_with_own_cache(&home, bridge.clone(), &[]);
    assert_eq!(warm.cache().stats.compiled_total(), 0, "warm start compiled nothing");
    assert_eq!(warm.cache().stats.hits(), support::official_pack_count());
    warm.call("scene.info", "{}").unwrap();
    drop(warm);

    // Flip one byte of the artifact: the digest sidecar no longer matches.
    let artifact = std::fs::read_dir(home.cache_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .expect("an artifact was cached");
    let mut bytes = std::fs::read(&artifact).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&artifact, bytes).unwrap();
    let healed = support::runtime_with_own_cache(&home, bridge.clone(), &[]);
    assert_eq!(healed.cache().stats.replaced.load(std::sync::atomic::Ordering::Relaxed), 1);
    healed.call("scene.info", "{}").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(home.cache_dir()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "the cache directory is owner-only");
    }
}

/// A symlink planted in the cache (here: to a valid artifact kept outside it, with a
/// matching sidecar) is never loaded: the cache reads only files inside its folder.
#[cfg(unix)]
#[test]
fn a_cached_artifact_that_links_out_of_the_cache_is_never_loaded() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path().join("home"));
    let bridge: Arc<RecordingBridge> = Arc::new(RecordingBridge::default());
    drop(support::runtime_with_own_cache(&home, bridge.clone(), &[]));
    let artifact = std::fs::read_dir(home.cache_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .expect("an artifact was cached");
    let outside = tmp.path().join("planted.cwasm");
    std::fs::rename(&artifact, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &artifact).unwrap();
    let planted = std::fs::read(&outside).unwrap();

    let rt = support::runtime_with_own_cache(&home, bridge.clone(), &[]);
    // Every other official pack's artifact is a hit; the planted one is not.
    assert_eq!(rt.cache().stats.hits(), support::official_pack_count() - 1, "the planted artifact was loaded");
    assert_eq!(rt.cache().stats.replaced.load(std::sync::atomic::Ordering::Relaxed), 1);
    rt.call("scene.info", "{}").unwrap();
    assert_eq!(std::fs::read(&outside).unwrap(), planted, "the file outside was not written through the link");
    assert!(!std::fs::symlink_metadata(&artifact).unwrap().file_type().is_symlink(), "the link was replaced by a real artifact");
}

#[test]
fn on_demand_allocation_enforces_the_same_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let bridge: Arc<RecordingBridge> = Arc::new(RecordingBridge::default());
    let mut rt = capstan::runtime::Runtime::new(&home, AllocationPreference::OnDemand, bridge).unwrap();
    assert_eq!(rt.sandbox().engine().allocation(), capstan::engine::Allocation::OnDemand);
    rt.add(capstan::plugin::PackSource::from_dir(&built_pack("tests/hostile-packs/misbehave")).unwrap()).unwrap();
    match rt.call("hostile.memory_bomb", "{}") {
        Err(CallError::Fault { fault: capstan::sandbox::PackFault::MemoryLimit { .. }, .. }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(rt.call("hostile.ok", "{}").unwrap().result, json!({ "ok": true }));
}

/// A copy of a built pack's folder whose `pack.json` declares `roles`.
fn with_roles(built: &std::path::Path, into: &std::path::Path, roles: serde_json::Value) -> capstan::plugin::PackSource {
    roles_folder(built, into, roles).unwrap()
}

fn roles_folder(built: &std::path::Path, into: &std::path::Path, roles: serde_json::Value) -> Result<capstan::plugin::PackSource, String> {
    std::fs::create_dir_all(into).unwrap();
    for entry in std::fs::read_dir(built).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), into.join(entry.file_name())).unwrap();
    }
    let mut manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(into.join("pack.json")).unwrap()).unwrap();
    manifest["roles"] = roles;
    std::fs::write(into.join("pack.json"), manifest.to_string()).unwrap();
    capstan::plugin::PackSource::from_dir(into).map_err(|e| e.to_string())
}

/// The planner, the critic and eval reach scene reads, measures and pictures only
/// through roles the packs declare: the official packs fill every role, a role names a
/// capability of its own pack, a measuring role one that does not mutate, and the first
/// pack to declare a role keeps it.
#[test]
fn roles_name_capabilities_of_their_own_pack_and_measuring_roles_only_read() {
    use capstan::roles::Role;
    let tmp = tempfile::tempdir().unwrap();
    let bridge = Arc::new(RecordingBridge::default());
    let mut rt = runtime(&CapstanHome::at(tmp.path().join("home")), bridge.clone(), &[]);
    for role in Role::ALL {
        let key = rt.role(role).unwrap_or_else(|| panic!("no official pack declares {role}"));
        let spec = rt.capability(key).unwrap_or_else(|| panic!("{role} names {key}, which is not loaded"));
        assert!(role.may_mutate() || !spec.mutates, "{role} names {key}, which mutates");
    }
    let listing = rt.role(Role::ListsObjects).unwrap().to_string();

    let hello = built_pack("sdk/examples/hello-pack");
    let err = rt.add(with_roles(&hello, &tmp.path().join("ghost"), json!({ "reads-object": "hello.nope" }))).err().expect("refused");
    assert!(err.to_string().contains("roles.reads-object names \"hello.nope\", which is not a capability of this pack"), "{err}");
    let err = rt.add(with_roles(&hello, &tmp.path().join("borrow"), json!({ "lists-objects": listing }))).err().expect("refused");
    assert!(err.to_string().contains("not a capability of this pack"), "another pack's capability: {err}");

    let misbehave = built_pack("tests/hostile-packs/misbehave");
    let err = rt.add(with_roles(&misbehave, &tmp.path().join("mutating"), json!({ "reads-object": "hostile.legit_create" }))).err().expect("refused");
    assert!(err.to_string().contains("which mutates; the role only reads"), "{err}");
    assert!(rt.add(with_roles(&misbehave, &tmp.path().join("renders"), json!({ "renders-picture": "hostile.legit_create" }))).is_ok(), "the final render may mutate");

    let err = roles_folder(&hello, &tmp.path().join("unknown"), json!({ "reads-minds": "hello.count_objects" })).err().expect("refused");
    assert!(err.contains("roles.reads-minds") && err.contains("unknown role"), "{err}");
    rt.add(with_roles(&hello, &tmp.path().join("second"), json!({ "lists-objects": "hello.count_objects" }))).expect("a read-only capability of its own");
    assert_eq!(rt.role(Role::ListsObjects), Some(listing.as_str()), "the first pack to declare a role keeps it");
    assert_eq!(bridge.count(), 0, "loading runs no capability");
}
