//! The `capstan` binary as scripts use it.

mod support;

use serde_json::Value;
use std::process::Command;
use support::built_pack;

fn capstan(home: &std::path::Path, args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json, format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn packs_list_json_shows_blender_core_with_schemas_and_mutates_flags() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, doc, text) = capstan(tmp.path(), &["packs", "list", "--json"]);
    assert_eq!(code, 0, "{text}");
    let core = doc["packs"].as_array().unwrap().iter().find(|p| p["name"] == "blender-core").expect("blender-core listed");
    let caps = core["capabilities"].as_array().unwrap();
    let find = |key: &str| caps.iter().find(|c| c["key"] == key).unwrap_or_else(|| panic!("{key} listed"));
    for key in ["scene.info", "scene.object_info", "scene.create_object", "scene.modify_object", "scene.delete_object", "scene.set_material"] {
        assert_eq!(find(key)["input_schema"]["type"], "object", "{key} has a real schema");
    }
    assert_eq!(find("scene.info")["mutates"], false);
    assert_eq!(find("scene.object_info")["mutates"], false);
    assert_eq!(find("scene.create_object")["mutates"], true);
    assert_eq!(find("scene.delete_object")["destructive"], true);
    let create = find("scene.create_object");
    let kinds = create["input_schema"]["$defs"]["Primitive"]["enum"].as_array().expect("primitive types are an enum");
    assert!(kinds.iter().any(|k| k == "cube") && kinds.iter().any(|k| k == "monkey"));
    assert_eq!(create["input_schema"]["required"], serde_json::json!(["type"]));
    assert!(find("scene.object_info")["input_schema"]["required"].as_array().unwrap().iter().any(|r| r == "name"));
}

#[test]
fn packs_validate_reports_every_manifest_error_with_its_path() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bad");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("pack.json"),
        r#"{"schema":1,"name":"Bad Name","version":"1","component":"../x.wasm","servers":{"blender":{"commands":[],"port":1}},"extra":true}"#,
    )
    .unwrap();
    let (code, doc, text) = capstan(tmp.path(), &["packs", "validate", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(doc["valid"], false);
    let paths: Vec<&str> = doc["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
    for p in ["name", "version", "component", "servers.blender.commands", "servers.blender.port", "extra"] {
        assert!(paths.contains(&p), "{p} missing from {paths:?}");
    }
}

#[test]
fn packs_validate_accepts_a_built_pack_and_reports_its_capabilities() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = built_pack("sdk/examples/hello-pack");
    let (code, doc, text) = capstan(tmp.path(), &["packs", "validate", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(doc["valid"], true);
    assert_eq!(doc["capabilities"][0]["key"], "hello.count_objects");
}

#[test]
fn call_reports_structured_errors_and_exit_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, doc, _) = capstan(tmp.path(), &["call", "create_object", "--args", r#"{"type":"cube"}"#, "--json"]);
    assert_eq!(code, 1);
    assert_eq!(doc["error"]["code"], "NON_CANONICAL_CAPABILITY");
    assert_eq!(doc["error"]["canonical"], "scene.create_object");
    let (code, doc, _) = capstan(tmp.path(), &["call", "scene.create_object", "--args", r#"{"type":"teapot"}"#, "--json"]);
    assert_eq!(code, 1);
    assert_eq!(doc["error"]["code"], "INVALID_CAPABILITY_ARGUMENTS");
    let (code, _, text) = capstan(tmp.path(), &["--version"]);
    assert_eq!(code, 0);
    assert!(text.starts_with("capstan "), "{text}");
}

#[test]
fn mcp_config_prints_a_pasteable_snippet_with_the_absolute_binary() {
    let tmp = tempfile::tempdir().unwrap();
    for client in ["claude-desktop", "cursor"] {
        let (code, doc, text) = capstan(tmp.path(), &["mcp-config", "--client", client]);
        assert_eq!(code, 0, "{text}");
        let server = &doc["mcpServers"]["capstan"];
        let command = std::path::PathBuf::from(server["command"].as_str().unwrap());
        assert!(command.is_absolute() && command.is_file(), "{}", command.display());
        assert_eq!(server["args"], serde_json::json!(["serve"]));
    }
    let (_, doc, _) = capstan(tmp.path(), &["mcp-config", "--client", "generic", "--expert"]);
    assert_eq!(doc["args"], serde_json::json!(["serve", "--expert"]));
}
