//! The app requirement grammar (DESIGN.md section 5): every rule, accepted and refused,
//! each refusal at its JSON path.

use super::*;
use serde_json::{Value, json};

fn with_server(server: Value) -> Value {
    json!({
        "schema": 1, "name": "blender-core", "version": "0.1.0", "component": "blender_core.wasm",
        "servers": { "blender": server }
    })
}

fn design_example() -> Value {
    json!({
        "commands": ["get_scene_info", "create_object"],
        "app": {
            "darwin": { "presence": "bundle", "location": "/Applications/Blender.app", "version": { "kind": "plist" } },
            "win32": { "presence": "executable", "location": "%ProgramFiles%/Blender Foundation/Blender 4.5/blender.exe",
                       "version": { "kind": "uninstall_registry", "display_name_prefix": "Blender" } },
            "linux": { "presence": "executable", "location": "/usr/bin/blender", "version": { "kind": "command", "args": ["--version"] } }
        },
        "requires": { "app": true, "min_version": "4.2" },
        "liveness": { "kind": "server_json", "path": "$CAPSTAN_HOME/run/blender/server.json", "endpoint_path": "/bridge" }
    })
}

fn refused(server: Value) -> ManifestErrors {
    parse(&with_server(server).to_string()).expect_err("should be refused")
}

fn edit(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = design_example();
    f(&mut v);
    v
}

#[track_caller]
fn assert_refused_at(server: Value, path: &str, needle: &str) {
    let e = refused(server);
    assert!(e.has(path, needle), "expected {path}: ..{needle}.. in\n{e}");
}

#[test]
fn the_design_example_parses_completely() {
    let m = parse(&with_server(design_example()).to_string()).unwrap();
    let s = &m.servers["blender"];
    let app = s.app.as_ref().unwrap();
    assert_eq!(app[&Platform::Darwin].presence, Presence::Bundle);
    assert_eq!(app[&Platform::Win32].version, VersionSource::UninstallRegistry { display_name_prefix: "Blender".into() });
    assert_eq!(app[&Platform::Linux].version, VersionSource::Command { args: vec!["--version".into()] });
    assert_eq!(app[&Platform::Linux].locations, vec!["/usr/bin/blender"]);
    assert!(s.requires.app && !s.requires.interactive_session);
    assert_eq!(s.requires.min_version.as_ref().unwrap().as_str(), "4.2");
    assert_eq!(
        s.liveness,
        Some(LivenessDecl::ServerJson { path: "$CAPSTAN_HOME/run/blender/server.json".into(), endpoint_path: "/bridge".into(), fields: FieldNames::default() })
    );
}

#[test]
fn location_lists_field_overrides_and_defaults_are_accepted() {
    let v = edit(|v| {
        v["app"]["linux"]["location"] = json!(["~/blender/blender", "/opt/blender/blender", "$HOME/bin/blender"]);
        v["app"]["win32"]["version"] = json!({ "kind": "pe_resource" });
        v["requires"]["interactive_session"] = json!(true);
        v["liveness"] = json!({ "kind": "server_json", "path": "~/.app/server.json", "fields": { "url": "address", "pid": "process" } });
    });
    let m = parse(&with_server(v).to_string()).unwrap();
    let s = &m.servers["blender"];
    assert_eq!(s.app.as_ref().unwrap()[&Platform::Linux].locations.len(), 3);
    assert!(s.requires.interactive_session);
    let Some(LivenessDecl::ServerJson { endpoint_path, fields, .. }) = &s.liveness else { panic!() };
    assert_eq!(endpoint_path, "/mcp", "the default endpoint path");
    assert_eq!((fields.url.as_str(), fields.token.as_str(), fields.pid.as_str()), ("address", "token", "process"));
    let flat = edit(|v| v["liveness"] = json!({ "kind": "server_json", "path": "/run/x.json", "url_key": "u", "token_key": "t", "pid_key": "p" }));
    assert!(parse(&with_server(flat).to_string()).is_ok());
    let none = edit(|v| v["liveness"] = json!({ "kind": "none" }));
    assert_eq!(parse(&with_server(none).to_string()).unwrap().servers["blender"].liveness, Some(LivenessDecl::None));
}

#[test]
fn os_blocks_are_checked() {
    assert_refused_at(edit(|v| v["app"]["freebsd"] = json!({})), "servers.blender.app.freebsd", "unknown OS key");
    assert_refused_at(edit(|v| v["app"]["macos"] = v["app"]["darwin"].clone()), "servers.blender.app.macos", "unknown OS key");
    assert_refused_at(edit(|v| v["app"] = json!({})), "servers.blender.app", "at least one OS block");
    assert_refused_at(edit(|v| v["app"] = json!(["linux"])), "servers.blender.app", "keyed by OS");
}

#[test]
fn locations_must_be_rooted_local_paths() {
    for (location, needle) in [
        ("blender", "relative"),
        ("bin/blender", "relative"),
        ("/opt/../usr/bin/blender", "'..'"),
        ("file:///usr/bin/blender", "URL"),
        ("https://example.com/blender", "URL"),
    ] {
        assert_refused_at(edit(|v| v["app"]["linux"]["location"] = json!(location)), "servers.blender.app.linux.location", needle);
    }
    assert_refused_at(
        edit(|v| v["app"]["linux"]["location"] = json!(["/usr/bin/blender", "../blender"])),
        "servers.blender.app.linux.location[1]",
        "'..'",
    );
    assert_refused_at(edit(|v| v["app"]["linux"]["location"] = json!([])), "servers.blender.app.linux.location", "at least one");
}

#[test]
fn presence_and_version_kinds_belong_to_their_os() {
    assert_refused_at(edit(|v| v["app"]["linux"]["presence"] = json!("bundle")), "servers.blender.app.linux.presence", "only allowed in the darwin block");
    assert_refused_at(edit(|v| v["app"]["linux"]["presence"] = json!("flatpak")), "servers.blender.app.linux.presence", "unknown presence");
    assert_refused_at(edit(|v| v["app"]["linux"]["version"] = json!({ "kind": "plist" })), "servers.blender.app.linux.version.kind", "only allowed in the darwin block");
    assert_refused_at(edit(|v| v["app"]["win32"]["version"] = json!({ "kind": "plist" })), "servers.blender.app.win32.version.kind", "darwin");
    assert_refused_at(
        edit(|v| v["app"]["linux"]["version"] = json!({ "kind": "uninstall_registry", "display_name_prefix": "Blender" })),
        "servers.blender.app.linux.version.kind",
        "only allowed in the win32 block",
    );
    assert_refused_at(
        edit(|v| v["app"]["win32"]["version"] = json!({ "kind": "uninstall_registry" })),
        "servers.blender.app.win32.version.display_name_prefix",
        "is required",
    );
    assert_refused_at(edit(|v| v["app"]["darwin"]["version"] = json!({ "kind": "pe_resource" })), "servers.blender.app.darwin.version.kind", "win32");
    assert_refused_at(edit(|v| v["app"]["linux"]["version"] = json!({ "kind": "guess" })), "servers.blender.app.linux.version.kind", "unknown version kind");
}

#[test]
fn a_min_version_needs_every_os_to_read_a_version() {
    assert_refused_at(
        edit(|v| v["app"]["linux"]["version"] = json!({ "kind": "none" })),
        "servers.blender.app.linux.version.kind",
        "\"none\" cannot read a version, but requires.min_version is set",
    );
    // Without a min_version, "none" is fine.
    let ok = edit(|v| {
        v["app"]["linux"]["version"] = json!({ "kind": "none" });
        v["requires"] = json!({ "app": true });
    });
    assert!(parse(&with_server(ok).to_string()).is_ok());
    for bad in [json!("4.x"), json!("latest"), json!(""), json!(4.2)] {
        assert_refused_at(edit(|v| v["requires"]["min_version"] = bad.clone()), "servers.blender.requires.min_version", "version");
    }
    assert_refused_at(edit(|v| v["requires"]["app"] = json!("yes")), "servers.blender.requires.app", "true or false");
    let no_app = edit(|v| {
        v.as_object_mut().unwrap().remove("app");
    });
    assert_refused_at(no_app, "servers.blender.requires.min_version", "needs an \"app\" block");
}

#[test]
fn liveness_is_checked() {
    assert_refused_at(edit(|v| v["liveness"] = json!({ "kind": "server_json" })), "servers.blender.liveness.path", "is required");
    assert_refused_at(edit(|v| v["liveness"]["path"] = json!("run/server.json")), "servers.blender.liveness.path", "relative");
    assert_refused_at(edit(|v| v["liveness"]["path"] = json!("$CAPSTAN_HOME/../x.json")), "servers.blender.liveness.path", "'..'");
    for hostile in ["@169.254.169.254/latest", "//host/x", "http://127.0.0.1/bridge", "/../x"] {
        assert_refused_at(edit(|v| v["liveness"]["endpoint_path"] = json!(hostile)), "servers.blender.liveness.endpoint_path", "plain absolute path");
    }
    assert_refused_at(
        edit(|v| {
            v["liveness"]["url_key"] = json!("u");
            v["liveness"]["fields"] = json!({ "url": "u" });
        }),
        "servers.blender.liveness.fields",
        "not both",
    );
    assert_refused_at(edit(|v| v["liveness"]["kind"] = json!("port_scan")), "servers.blender.liveness.kind", "unknown liveness kind");
    assert_refused_at(edit(|v| v["liveness"]["token_key"] = json!("a b")), "servers.blender.liveness.token_key", "not a field name");
}

#[test]
fn unknown_keys_are_errors_at_every_level_of_the_grammar() {
    let e = refused(edit(|v| {
        v["app"]["linux"]["sha"] = json!("x");
        v["app"]["linux"]["version"]["regex"] = json!(".*");
        v["app"]["darwin"]["version"]["args"] = json!(["--version"]);
        v["requires"]["gpu"] = json!(true);
        v["liveness"]["port"] = json!(9876);
    }));
    for path in [
        "servers.blender.app.linux.sha",
        "servers.blender.app.linux.version.regex",
        "servers.blender.app.darwin.version.args",
        "servers.blender.requires.gpu",
        "servers.blender.liveness.port",
    ] {
        assert!(e.has(path, "unknown key"), "{path}: {e}");
    }
    let e = refused(edit(|v| v["liveness"]["fields"] = json!({ "url": "u", "host": "h" })));
    assert!(e.has("servers.blender.liveness.fields.host", "unknown key"), "{e}");
}
