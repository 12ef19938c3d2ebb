//! A runtime file capstan does not trust is refused before anything is sent: one
//! owned by another user, or in a folder (or a `CAPSTAN_HOME`) others can write to,
//! ends `capstan call` in `APP_UNAVAILABLE` with a state that names the reason, and
//! the listener it names never receives a request. (The listener is a loopback stub:
//! here it plays the other user's listener, which is fault injection.)
#![cfg(unix)]

#[path = "support/stub_bridge.rs"]
mod stub_bridge;

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn call_scene_info(home: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home).args(["call", "scene.info", "--json"]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

fn refused_state(doc: &Value) -> String {
    assert_eq!(doc["ok"], false, "{doc}");
    assert_eq!(doc["error"]["code"], "APP_UNAVAILABLE", "{doc}");
    doc["error"]["availability"]["state"].as_str().unwrap_or_default().to_string()
}

#[test]
fn a_runtime_file_in_a_folder_others_can_write_is_refused_and_nothing_is_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let bridge = stub_bridge::StubBridge::start(&home);
    assert_eq!(call_scene_info(&home)["ok"], true, "a trusted runtime file works");
    let sent = bridge.bridge_requests();

    let folder = home.join("run/blender");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    let doc = call_scene_info(&home);
    assert_eq!(refused_state(&doc), "runtime_file_writable_by_others", "{doc}");
    let detail = doc["error"]["availability"]["detail"].as_str().unwrap();
    assert!(detail.contains(&folder.display().to_string()) && detail.contains("writable by other users"), "{detail}");
    assert!(doc["error"]["availability"]["user_action"].as_str().unwrap().contains("chmod go-w"), "{doc}");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();

    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o777)).unwrap();
    assert_eq!(refused_state(&call_scene_info(&home)), "runtime_file_writable_by_others");
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(bridge.bridge_requests(), sent, "a refused runtime file's listener received a request");
}

#[test]
fn a_runtime_file_owned_by_another_user_is_refused_and_nothing_is_sent() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: giving a file to another user needs root");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let bridge = stub_bridge::StubBridge::start(&home);
    let file = home.join("run/blender/server.json");
    std::os::unix::fs::chown(&file, Some(4242), Some(4242)).unwrap();
    let doc = call_scene_info(&home);
    assert_eq!(refused_state(&doc), "runtime_file_not_owned", "{doc}");
    assert!(doc["error"]["availability"]["detail"].as_str().unwrap().contains("owned by uid 4242"), "{doc}");
    assert_eq!(bridge.bridge_requests(), 0, "the other user's listener received a request");
}
