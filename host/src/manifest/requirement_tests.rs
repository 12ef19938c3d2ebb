//! The app requirement grammar (DESIGN.md section 5): every rule, accepted and refused,
//! each refusal at its JSON path.

use super::*;
use serde_json::{Value, json};

fn with_server(server: Value) -> Value {
    json!({
        "schema": 1, "name": "sculptor-core", "version": "0.1.0", "component": "sculptor_core.wasm",
        "servers": { "sculptor": server }
    })
}

fn design_example() -> Value {
    json!({
        "commands": ["get_scene_info", "create_object"],
        "app": {
            "darwin": { "presence": "bundle", "location": "/Applications/Sculptor.app", "version": { "kind": "plist" } },
            "win32": { "presence": "executable", "location": "%ProgramFiles%/Sculptor Foundation/Sculptor 4.5/sculptor.exe",
                       "version": { "kind": "uninstall_registry", "display_name_prefix": "Sculptor" } },
            "linux": { "presence": "executable", "location": "/usr/bin/sculptor", "version": { "kind": "command", "args": ["--version"] } }
        },
        "requires": { "app": true, "min_version": "4.2" },
        "liveness": { "kind": "server_json", "path": "$CAPSTAN_HOME/run/sculptor/server.json", "endpoint_path": "/bridge" }
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
    let s = &m.servers["sculptor"];
    let app = s.app.as_ref().unwrap();
    assert_eq!(app[&Platform::Darwin].presence, Presence::Bundle);
    assert_eq!(app[&Platform::Win32].version, VersionSource::UninstallRegistry { display_name_prefix: "Sculptor".into() });
    assert_eq!(app[&Platform::Linux].version, VersionSource::Command { args: vec!["--version".into()] });
    assert_eq!(app[&Platform::Linux].locations, vec!["/usr/bin/sculptor"]);
    assert!(s.requires.app && !s.requires.interactive_session);
    assert_eq!(s.requires.min_version.as_ref().unwrap().as_str(), "4.2");
    assert_eq!(
        s.liveness,
        Some(LivenessDecl::ServerJson { path: "$CAPSTAN_HOME/run/sculptor/server.json".into(), endpoint_path: "/bridge".into(), fields: FieldNames::default() })
    );
}

#[test]
fn location_lists_field_overrides_and_defaults_are_accepted() {
    let v = edit(|v| {
        v["app"]["linux"]["location"] = json!(["~/sculptor/sculptor", "/opt/sculptor/sculptor", "$HOME/bin/sculptor"]);
        v["app"]["win32"]["version"] = json!({ "kind": "pe_resource" });
        v["requires"]["interactive_session"] = json!(true);
        v["liveness"] = json!({ "kind": "server_json", "path": "~/.app/server.json", "fields": { "url": "address", "pid": "process" } });
    });
    let m = parse(&with_server(v).to_string()).unwrap();
    let s = &m.servers["sculptor"];
    assert_eq!(s.app.as_ref().unwrap()[&Platform::Linux].locations.len(), 3);
    assert!(s.requires.interactive_session);
    let Some(LivenessDecl::ServerJson { endpoint_path, fields, .. }) = &s.liveness else { panic!() };
    assert_eq!(endpoint_path, "/mcp", "the default endpoint path");
    assert_eq!((fields.url.as_str(), fields.token.as_str(), fields.pid.as_str()), ("address", "token", "process"));
    let flat = edit(|v| v["liveness"] = json!({ "kind": "server_json", "path": "/run/x.json", "url_key": "u", "token_key": "t", "pid_key": "p" }));
    assert!(parse(&with_server(flat).to_string()).is_ok());
    let none = edit(|v| v["liveness"] = json!({ "kind": "none" }));
    assert_eq!(parse(&with_server(none).to_string()).unwrap().servers["sculptor"].liveness, Some(LivenessDecl::None));
}

#[test]
fn os_blocks_are_checked() {
    assert_refused_at(edit(|v| v["app"]["freebsd"] = json!({})), "servers.sculptor.app.freebsd", "unknown OS key");
    assert_refused_at(edit(|v| v["app"]["macos"] = v["app"]["darwin"].clone()), "servers.sculptor.app.macos", "unknown OS key");
    assert_refused_at(edit(|v| v["app"] = json!({})), "servers.sculptor.app", "at least one OS block");
    assert_refused_at(edit(|v| v["app"] = json!(["linux"])), "servers.sculptor.app", "keyed by OS");
}

#[test]
fn locations_must_be_rooted_local_paths() {
    for (location, needle) in [
        ("sculptor", "relative"),
        ("bin/sculptor", "relative"),
        ("/opt/../usr/bin/sculptor", "'..'"),
        ("file:///usr/bin/sculptor", "URL"),
        ("https://example.com/sculptor", "URL"),
    ] {
        assert_refused_at(edit(|v| v["app"]["linux"]["location"] = json!(location)), "servers.sculptor.app.linux.location", needle);
    }
    assert_refused_at(
        edit(|v| v["app"]["linux"]["location"] = json!(["/usr/bin/sculptor", "../sculptor"])),
        "servers.sculptor.app.linux.location[1]",
        "'..'",
    );
    assert_refused_at(edit(|v| v["app"]["linux"]["location"] = json!([])), "servers.sculptor.app.linux.location", "at least one");
}

#[test]
fn presence_and_version_kinds_belong_to_their_os() {
    assert_refused_at(edit(|v| v["app"]["linux"]["presence"] = json!("bundle")), "servers.sculptor.app.linux.presence", "only allowed in the darwin block");
    assert_refused_at(edit(|v| v["app"]["linux"]["presence"] = json!("flatpak")), "servers.sculptor.app.linux.presence", "unknown presence");
    assert_refused_at(edit(|v| v["app"]["linux"]["version"] = json!({ "kind": "plist" })), "servers.sculptor.app.linux.version.kind", "only allowed in the darwin block");
    assert_refused_at(edit(|v| v["app"]["win32"]["version"] = json!({ "kind": "plist" })), "servers.sculptor.app.win32.version.kind", "darwin");
    assert_refused_at(
        edit(|v| v["app"]["linux"]["version"] = json!({ "kind": "uninstall_registry", "display_name_prefix": "Sculptor" })),
        "servers.sculptor.app.linux.version.kind",
        "only allowed in the win32 block",
    );
    assert_refused_at(
        edit(|v| v["app"]["win32"]["version"] = json!({ "kind": "uninstall_registry" })),
        "servers.sculptor.app.win32.version.display_name_prefix",
        "is required",
    );
    assert_refused_at(edit(|v| v["app"]["darwin"]["version"] = json!({ "kind": "pe_resource" })), "servers.sculptor.app.darwin.version.kind", "win32");
    assert_refused_at(edit(|v| v["app"]["linux"]["version"] = json!({ "kind": "guess" })), "servers.sculptor.app.linux.version.kind", "unknown version kind");
}

#[test]
fn a_min_version_needs_every_os_to_read_a_version() {
    assert_refused_at(
        edit(|v| v["app"]["linux"]["version"] = json!({ "kind": "none" })),
        "servers.sculptor.app.linux.version.kind",
        "\"none\" cannot read a version, but requires.min_version is set",
    );
    // Without a min_version, "none" is fine.
    let ok = edit(|v| {
        v["app"]["linux"]["version"] = json!({ "kind": "none" });
        v["requires"] = json!({ "app": true });
    });
    assert!(parse(&with_server(ok).to_string()).is_ok());
    for bad in [json!("4.x"), json!("latest"), json!(""), json!(4.2)] {
        assert_refused_at(edit(|v| v["requires"]["min_version"] = bad.clone()), "servers.sculptor.requires.min_version", "version");
    }
    assert_refused_at(edit(|v| v["requires"]["app"] = json!("yes")), "servers.sculptor.requires.app", "true or false");
    let no_app = edit(|v| {
        v.as_object_mut().unwrap().remove("app");
    });
    assert_refused_at(no_app, "servers.sculptor.requires.min_version", "needs an \"app\" block");
}

#[test]
fn liveness_is_checked() {
    assert_refused_at(edit(|v| v["liveness"] = json!({ "kind": "server_json" })), "servers.sculptor.liveness.path", "is required");
    assert_refused_at(edit(|v| v["liveness"]["path"] = json!("run/server.json")), "servers.sculptor.liveness.path", "relative");
    assert_refused_at(edit(|v| v["liveness"]["path"] = json!("$CAPSTAN_HOME/../x.json")), "servers.sculptor.liveness.path", "'..'");
    for hostile in ["@169.254.169.254/latest", "//host/x", "http://127.0.0.1/bridge", "/../x"] {
        assert_refused_at(edit(|v| v["liveness"]["endpoint_path"] = json!(hostile)), "servers.sculptor.liveness.endpoint_path", "plain absolute path");
    }
    assert_refused_at(
        edit(|v| {
            v["liveness"]["url_key"] = json!("u");
            v["liveness"]["fields"] = json!({ "url": "u" });
        }),
        "servers.sculptor.liveness.fields",
        "not both",
    );
    assert_refused_at(edit(|v| v["liveness"]["kind"] = json!("port_scan")), "servers.sculptor.liveness.kind", "unknown liveness kind");
    assert_refused_at(edit(|v| v["liveness"]["token_key"] = json!("a b")), "servers.sculptor.liveness.token_key", "not a field name");
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
        "servers.sculptor.app.linux.sha",
        "servers.sculptor.app.linux.version.regex",
        "servers.sculptor.app.darwin.version.args",
        "servers.sculptor.requires.gpu",
        "servers.sculptor.liveness.port",
    ] {
        assert!(e.has(path, "unknown key"), "{path}: {e}");
    }
    let e = refused(edit(|v| v["liveness"]["fields"] = json!({ "url": "u", "host": "h" })));
    assert!(e.has("servers.sculptor.liveness.fields.host", "unknown key"), "{e}");
}
