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
    let kinds = create["input_schema"]["$defs"].as_object().unwrap().values().find_map(|d| d["enum"].as_array().filter(|e| e.iter().any(|k| k == "cube"))).expect("primitive types are an enum");
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

/// hello-pack, copied, with `app`/`requires` naming a fake Blender that prints `version`.
#[cfg(unix)]
fn pack_requiring_fake_blender(root: &std::path::Path, version: Option<&str>) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let built = built_pack("sdk/examples/hello-pack");
    let dir = root.join(format!("pack-{}", version.unwrap_or("missing")));
    std::fs::create_dir_all(&dir).unwrap();
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(built.join("pack.json")).unwrap()).unwrap();
    let component = manifest["component"].as_str().unwrap().to_string();
    std::fs::copy(built.join(&component), dir.join(&component)).unwrap();
    let app_dir = root.join(format!("app-{}", version.unwrap_or("missing")));
    std::fs::create_dir_all(&app_dir).unwrap();
    let exe = app_dir.join("blender");
    if let Some(v) = version {
        std::fs::write(&exe, format!("#!/bin/sh\necho 'Blender {v} LTS'\n")).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    manifest["servers"]["blender"]["app"] =
        serde_json::json!({ "linux": { "presence": "executable", "location": exe, "version": { "kind": "command", "args": ["--version"] } } });
    manifest["servers"]["blender"]["requires"] = serde_json::json!({ "app": true, "min_version": "4.2" });
    std::fs::write(dir.join("pack.json"), manifest.to_string()).unwrap();
    dir
}

#[cfg(target_os = "linux")]
#[test]
fn packs_validate_install_deps_reports_each_servers_app() {
    let tmp = tempfile::tempdir().unwrap();
    for (version, state) in [(Some("5.0.1"), "app_present"), (Some("3.4.1"), "version_too_old"), (None, "missing_app")] {
        let dir = pack_requiring_fake_blender(tmp.path(), version);
        let (code, doc, text) = capstan(tmp.path(), &["packs", "validate", dir.to_str().unwrap(), "--install-deps", "--json"]);
        assert_eq!(code, 0, "{text}");
        assert_eq!(doc["valid"], true);
        assert_eq!(doc["errors"], serde_json::json!([]));
        let line = &doc["availability"][0];
        assert_eq!((line["server"].as_str(), line["state"].as_str()), (Some("blender"), Some(state)), "{line}");
        if state != "app_present" {
            assert_eq!(line["retry"], "after_user_action");
            assert!(line["user_action"].as_str().unwrap().len() > 10);
        } else {
            assert_eq!(line["app"]["version"], "5.0.1");
        }
    }
}

#[test]
fn packs_validate_names_the_path_of_a_requirement_error_and_exit_2_for_io() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = serde_json::json!({
        "schema": 1, "name": "hostile", "version": "0.1.0", "component": "x.wasm",
        "servers": { "blender": { "commands": ["get_scene_info"],
            "liveness": { "kind": "server_json", "path": "$CAPSTAN_HOME/run/x.json", "endpoint_path": "@169.254.169.254/latest" } } }
    });
    std::fs::write(dir.join("pack.json"), manifest.to_string()).unwrap();
    let (code, doc, text) = capstan(tmp.path(), &["packs", "validate", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(doc["errors"][0]["path"], "servers.blender.liveness.endpoint_path");
    assert!(doc["errors"][0]["message"].as_str().unwrap().contains("plain absolute path"));
    let (code, doc, text) = capstan(tmp.path(), &["packs", "validate", tmp.path().join("nowhere").to_str().unwrap(), "--json"]);
    assert_eq!(code, 2, "{text}");
    assert_eq!(doc["valid"], false);
}
