use super::*;
use serde_json::json;

fn base() -> Value {
    json!({
        "schema": 1,
        "name": "sculptor-core",
        "version": "0.1.0",
        "description": "Core",
        "component": "sculptor_core.wasm",
        "sha256": "a".repeat(64),
        "platforms": ["linux", "macos", "windows"],
        "limits": { "memory_mib": 64, "timeout_ms": 10000, "max_bridge_calls": 64 },
        "servers": { "sculptor": { "commands": ["get_scene_info", "create_object"] } }
    })
}

fn parse_value(v: &Value) -> Result<Manifest, ManifestErrors> {
    parse(&v.to_string())
}

fn errors_of(v: Value) -> ManifestErrors {
    parse_value(&v).expect_err("manifest should be rejected")
}

#[test]
fn a_complete_manifest_parses() {
    let m = parse_value(&base()).unwrap();
    assert_eq!(m.name, "sculptor-core");
    assert_eq!(m.version, semver::Version::new(0, 1, 0));
    assert_eq!(m.platforms, vec![Platform::Linux, Platform::Darwin, Platform::Win32]);
    assert_eq!(m.servers["sculptor"].commands, vec!["get_scene_info", "create_object"]);
    assert_eq!(m.server_of("create_object"), Some("sculptor"));
    assert_eq!(m.server_of("delete_object"), None);
    assert_eq!(m.limits().max_bridge_calls, 64);
}

#[test]
fn unknown_keys_are_errors_at_every_level() {
    let mut v = base();
    v["colour"] = json!("red");
    v["limits"]["cpu"] = json!(2);
    v["servers"]["sculptor"]["port"] = json!(9876);
    let e = errors_of(v);
    assert!(e.has("colour", "unknown key"), "{e}");
    assert!(e.has("limits.cpu", "unknown key"), "{e}");
    assert!(e.has("servers.sculptor.port", "unknown key"), "{e}");
}

#[test]
fn required_fields_are_named() {
    let mut v = base();
    let obj = v.as_object_mut().unwrap();
    obj.remove("name");
    obj.remove("component");
    obj.remove("servers");
    let e = errors_of(v);
    for key in ["name", "component", "servers"] {
        assert!(e.has(key, "is required"), "{key}: {e}");
    }
}

#[test]
fn component_must_be_a_plain_wasm_file_name() {
    for bad in ["../evil.wasm", "dir/pack.wasm", "pack.so", ".hidden.wasm", "C:\\x.wasm", ""] {
        let mut v = base();
        v["component"] = json!(bad);
        assert!(errors_of(v).has("component", "plain file name"), "{bad}");
    }
}

#[test]
fn sha256_must_be_lowercase_hex() {
    for bad in ["abc", &"A".repeat(64), &"g".repeat(64)] {
        let mut v = base();
        v["sha256"] = json!(bad);
        assert!(errors_of(v).has("sha256", "64 lowercase hex"), "{bad}");
    }
}

#[test]
fn sha256_may_be_absent_in_a_source_folder() {
    let mut v = base();
    v.as_object_mut().unwrap().remove("sha256");
    assert_eq!(parse_value(&v).unwrap().sha256, None);
}

#[test]
fn names_versions_and_schema_are_checked() {
    let mut v = base();
    v["name"] = json!("Sculptor Core");
    v["version"] = json!("1.0");
    v["schema"] = json!(2);
    let e = errors_of(v);
    assert!(e.has("name", "a-z"), "{e}");
    assert!(e.has("version", "semantic version"), "{e}");
    assert!(e.has("schema", "schema 1"), "{e}");
}

#[test]
fn platforms_accept_aliases_and_refuse_others() {
    let mut v = base();
    v["platforms"] = json!(["darwin", "macos"]);
    assert!(errors_of(v).has("platforms[1]", "already listed"));
    let mut v = base();
    v["platforms"] = json!(["linux", "beos"]);
    assert!(errors_of(v).has("platforms[1]", "unknown platform"));
    let mut v = base();
    v["platforms"] = json!([]);
    assert!(errors_of(v).has("platforms", "at least one"));
}

#[test]
fn limits_must_be_positive_whole_numbers() {
    let mut v = base();
    v["limits"] = json!({ "memory_mib": 0, "timeout_ms": -1, "max_bridge_calls": 1.5 });
    let e = errors_of(v);
    assert!(e.has("limits.memory_mib", "whole number"), "{e}");
    assert!(e.has("limits.timeout_ms", "whole number"), "{e}");
    assert!(e.has("limits.max_bridge_calls", "whole number"), "{e}");
}

#[test]
fn limits_above_the_ceiling_are_clamped_not_refused() {
    let mut v = base();
    v["limits"] = json!({ "memory_mib": 100000 });
    let m = parse_value(&v).unwrap();
    let limits = m.limits();
    assert_eq!(limits.memory_bytes, crate::limits::CEILING_LIMITS.memory_bytes);
    assert_eq!(limits.timeout, crate::limits::DEFAULT_LIMITS.timeout);
    assert_eq!(m.limits.effective().lowered.len(), 1);
}

#[test]
fn server_commands_are_checked() {
    let mut v = base();
    v["servers"] = json!({
        "sculptor": { "commands": ["get_scene_info", "get_scene_info", "Bad-Name", 7] },
        "viewer": { "commands": ["get_scene_info"] },
        "empty": { "commands": [] }
    });
    let e = errors_of(v);
    assert!(e.has("servers.sculptor.commands[1]", "listed twice"), "{e}");
    assert!(e.has("servers.sculptor.commands[2]", "not a bridge command name"), "{e}");
    assert!(e.has("servers.sculptor.commands[3]", "expected a string"), "{e}");
    assert!(e.has("servers.viewer.commands[0]", "already declared by server"), "{e}");
    assert!(e.has("servers.empty.commands", "at least one"), "{e}");
}

#[test]
fn a_manifest_must_be_a_json_object() {
    assert!(parse("[]").unwrap_err().has("", "expected an object"));
    assert!(parse("{").unwrap_err().has("", "not valid JSON"));
}

#[test]
fn every_error_is_reported_in_one_pass() {
    let e = errors_of(json!({ "schema": 1, "name": "x", "version": "nope", "component": "a", "servers": {}, "extra": 1 }));
    assert!(e.iter().count() >= 4, "{e}");
}

#[test]
fn roles_map_known_role_names_to_capability_keys() {
    use crate::roles::Role;
    assert!(parse_value(&base()).unwrap().roles.is_empty(), "roles are optional");
    let mut v = base();
    v["roles"] = json!({ "lists-objects": "scene.info", "measures-spatial": "spatial.assert" });
    let m = parse_value(&v).unwrap();
    assert_eq!(m.roles.get(&Role::ListsObjects).map(String::as_str), Some("scene.info"));
    assert_eq!(m.roles.get(&Role::MeasuresSpatial).map(String::as_str), Some("spatial.assert"));

    v["roles"] = json!({ "reads-minds": "x.y", "reads-object": 7, "lists-objects": "" });
    let e = errors_of(v.clone());
    assert!(e.has("roles.reads-minds", "unknown role"), "{e}");
    assert!(e.has("roles.reads-object", "expected a capability key"), "{e}");
    assert!(e.has("roles.lists-objects", "expected a capability key"), "{e}");
    v["roles"] = json!(["lists-objects"]);
    assert!(errors_of(v).has("roles", "expected an object"));
}
