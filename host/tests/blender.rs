//! The core dozen capabilities against a real Blender: each runs through the sandbox,
//! the gate, the HTTP client and the add-on, and the test reads the scene back.
//!
//! Needs `CAPSTAN_TEST_BLENDER` (a Blender executable or a Python with `bpy`);
//! `scripts/test` provisions one and sets it, together with `CAPSTAN_REQUIRE_BLENDER=1`
//! so that a missing Blender fails the run instead of skipping.

mod support;
#[path = "support/raw_mcp.rs"]
mod raw_mcp;

use capstan::app_units::blender::launch::{LaunchOptions, RunningBlender, launch};
use capstan::app_units::blender::locate;
use capstan::bridge::HttpBridgeClient;
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::{CallError, Runtime};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, OnceLock};

/// Tests that bind every free bridge port (decoys) or start a bridge of their own take
/// this, so one never finds all ports taken by the other.
static PORTS: Mutex<()> = Mutex::new(());

struct Shared {
    home: CapstanHome,
    runtime: Runtime,
    token: String,
}

fn blender_path() -> Option<std::path::PathBuf> {
    match std::env::var_os("CAPSTAN_TEST_BLENDER") {
        Some(p) if !p.is_empty() => Some(p.into()),
        _ => {
            assert!(
                std::env::var("CAPSTAN_REQUIRE_BLENDER").as_deref() != Ok("1"),
                "CAPSTAN_REQUIRE_BLENDER=1 but CAPSTAN_TEST_BLENDER is not set"
            );
            eprintln!("skipped: set CAPSTAN_TEST_BLENDER to a Blender or a Python with bpy (scripts/test does)");
            None
        }
    }
}

/// Launch a Blender from a thread that never exits, so the child's parent-death
/// signal (which follows the spawning thread) fires only when the test process ends.
fn launch_detached(home: CapstanHome) -> (CapstanHome, u16) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let install = locate::probe(&blender_path().unwrap()).expect("CAPSTAN_TEST_BLENDER is a Blender");
        let running = launch(&home, &install, &LaunchOptions { background: true, ..Default::default() }).expect("Blender launches");
        let port = running.port;
        tx.send((home, port)).unwrap();
        let _keep: RunningBlender = running;
        loop {
            std::thread::park();
        }
    });
    rx.recv().expect("the launcher thread reports")
}

fn shared() -> Option<&'static Shared> {
    static SHARED: OnceLock<Option<Shared>> = OnceLock::new();
    SHARED
        .get_or_init(|| {
            blender_path()?;
            // A fixed folder, emptied per run: the parked launcher never returns to clean up.
            let dir = support::workspace().join("target").join("blender-test-home");
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let (home, _port) = launch_detached(CapstanHome::at(dir));
            let client = Arc::new(HttpBridgeClient::for_home(&home));
            let mut runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client).unwrap();
            runtime.load_all(&home);
            let file: Value = serde_json::from_str(&std::fs::read_to_string(home.run_dir().join("blender/server.json")).unwrap()).unwrap();
            let token = file["token"].as_str().unwrap().to_string();
            Some(Shared { home, runtime, token })
        })
        .as_ref()
}

fn call(key: &str, args: Value) -> Value {
    let s = shared().unwrap();
    match s.runtime.call(key, &args.to_string()) {
        // The host's merged delta beside the capability's answer, as MCP reports it.
        Ok(out) => {
            let mut v = out.result;
            if let Some(d) = out.delta {
                v["delta"] = d.to_json();
            }
            v
        }
        Err(e) => panic!("{key} {args}: {e}"),
    }
}

fn info(name: &str) -> Value {
    call("scene.object_info", json!({ "name": name }))
}

fn close(a: &Value, b: &[f64]) -> bool {
    a.as_array().unwrap().iter().zip(b).all(|(x, y)| (x.as_f64().unwrap() - y).abs() < 1e-4)
}

macro_rules! need_blender {
    () => {
        if shared().is_none() {
            return;
        }
    };
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn scene_info_lists_the_default_scene() {
    need_blender!();
    let scene = call("scene.info", json!({}));
    assert!(scene["objects"].as_array().unwrap().iter().any(|o| o["type"] == "CAMERA"));
    assert!(scene["frame"]["end"].as_i64().unwrap() > 0);
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn create_object_puts_the_requested_object_in_the_scene() {
    need_blender!();
    let r = call("scene.create_object", json!({ "type": "cube", "name": "RsProbe", "location": [1, 2, 3], "rotation": [0, 0, 90], "size": 1 }));
    assert_eq!(r["delta"]["added"], json!(["RsProbe"]));
    let o = info("RsProbe");
    assert_eq!(o["type"], "MESH");
    assert!(close(&o["location"], &[1.0, 2.0, 3.0]), "{o}");
    assert!(close(&o["rotation"], &[0.0, 0.0, std::f64::consts::FRAC_PI_2]), "degrees became radians: {o}");
    assert!(close(&o["dimensions"], &[1.0, 1.0, 1.0]), "size 1: {o}");
    assert_eq!(o["mesh"]["faces"], 6);
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn modify_object_changes_only_what_was_asked() {
    need_blender!();
    call("scene.create_object", json!({ "type": "cone", "name": "RsMove" }));
    let r = call("scene.modify_object", json!({ "name": "RsMove", "location": [0, 0, 4], "scale": [2, 2, 2] }));
    assert_eq!(r["delta"]["changed"], json!(["RsMove"]));
    let o = info("RsMove");
    assert!(close(&o["location"], &[0.0, 0.0, 4.0]) && close(&o["scale"], &[2.0, 2.0, 2.0]), "{o}");
    assert!(close(&o["rotation"], &[0.0, 0.0, 0.0]));
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn delete_object_removes_it() {
    need_blender!();
    call("scene.create_object", json!({ "type": "plane", "name": "RsDoomed" }));
    let r = call("scene.delete_object", json!({ "name": "RsDoomed" }));
    assert_eq!(r["delta"]["removed"], json!(["RsDoomed"]));
    match shared().unwrap().runtime.call("scene.object_info", r#"{"name":"RsDoomed"}"#) {
        Err(CallError::Pack { failure, .. }) => assert!(failure.message.contains("not_found"), "{failure:?}"),
        other => panic!("{other:?}"),
    }
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn set_material_colour_is_the_requested_linear_colour() {
    need_blender!();
    call("scene.create_object", json!({ "type": "uv_sphere", "name": "RsPaint" }));
    let r = call("scene.set_material", json!({ "object": "RsPaint", "color": "#808080", "preset": "chrome", "roughness": 0.2 }));
    assert_eq!(r["delta"]["changed"], json!(["RsPaint"]));
    let m = &info("RsPaint")["material_details"][0];
    assert_eq!(m["name"], "RsPaint_material");
    assert!(close(&m["base_color"], &[0.215861, 0.215861, 0.215861, 1.0]), "sRGB #808080 in linear light: {m}");
    assert_eq!(m["metallic"], 1.0);
    assert!((m["roughness"].as_f64().unwrap() - 0.2).abs() < 1e-5);
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn lighting_presets_build_their_rigs_aimed_at_the_target() {
    need_blender!();
    call("scene.create_object", json!({ "type": "monkey", "name": "RsHero", "location": [2, 0, 1] }));
    let r = call("scene.lighting_preset", json!({ "preset": "three_point", "target": "RsHero", "distance": 6 }));
    let added = r["delta"]["added"].as_array().unwrap();
    assert_eq!(added.len(), 3, "{r}");
    for light in r["lights"].as_array().unwrap() {
        let o = info(light["name"].as_str().unwrap());
        assert_eq!(o["light"]["type"], "AREA");
        let p: Vec<f64> = o["location"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let d = ((p[0] - 2.0).powi(2) + p[1].powi(2) + (p[2] - 1.0).powi(2)).sqrt();
        assert!(d > 5.0 && d < 7.5, "{o}");
    }
    let r = call("scene.lighting_preset", json!({ "preset": "studio" }));
    assert_eq!(r["delta"]["added"].as_array().unwrap().len(), 3);
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn world_takes_a_colour_or_a_sky() {
    need_blender!();
    let r = call("scene.world", json!({ "color": "white", "strength": 0.25 }));
    assert_eq!(r["mode"], "color");
    assert!(close(&r["color"], &[1.0, 1.0, 1.0]) && r["strength"] == 0.25, "{r}");
    let r = call("scene.world", json!({ "sky": { "sun_elevation_degrees": 20 }, "strength": 1 }));
    assert_eq!(r["mode"], "sky");
    assert_eq!(r["delta"]["settings"], json!(["world"]));
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn camera_is_placed_aimed_and_focused() {
    need_blender!();
    call("scene.create_object", json!({ "type": "cube", "name": "RsSubject", "location": [0, 3, 0] }));
    call("scene.camera", json!({ "name": "RsCam", "location": [0, -5, 0], "look_at": "RsSubject", "lens": 85, "dof": { "enabled": true, "focus_object": "RsSubject", "fstop": 2 } }));
    let cam = info("RsCam");
    assert_eq!(cam["camera"]["lens"], 85.0);
    assert_eq!(cam["camera"]["active"], true);
    assert_eq!(cam["camera"]["dof"]["focus_object"], "RsSubject");
    // Looking along +Y from (0,-5,0): rotation x = 90 degrees, z = 0.
    assert!(close(&cam["rotation"], &[std::f64::consts::FRAC_PI_2, 0.0, 0.0]), "{cam}");
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn render_settings_and_render_write_the_requested_png() {
    need_blender!();
    let s = call("scene.render_settings", json!({ "engine": "cycles", "resolution": [80, 60], "samples": 2 }));
    assert_eq!(s["engine"], "CYCLES");
    let scene = call("scene.info", json!({}));
    assert_eq!(scene["render"]["resolution"], json!([80, 60]));
    let r = call("scene.render", json!({ "filename": "rs_test.png", "resolution": [64, 48], "transparent": true }));
    let path = std::path::PathBuf::from(r["path"].as_str().unwrap());
    let bytes = std::fs::read(&path).expect("the PNG exists");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((w, h), (64, 48));
    // The instance's own output folder (CAPSTAN_HOME/instances/<id>/output).
    assert!(path.starts_with(shared().unwrap().home.root().join("instances")) && path.parent().unwrap().ends_with("output"), "{}", path.display());
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn keyframes_exist_at_their_frames() {
    need_blender!();
    call("scene.create_object", json!({ "type": "torus", "name": "RsSpin" }));
    call("animation.keyframe", json!({ "object": "RsSpin", "property": "rotation", "frame": 1, "value": [0, 0, 0] }));
    let r = call("animation.keyframe", json!({ "object": "RsSpin", "property": "rotation", "frame": 48, "value": [0, 0, 180] }));
    assert_eq!(r["delta"]["changed"], json!(["RsSpin"]));
    let keys = info("RsSpin")["keyframes"].clone();
    let rot = keys.as_array().unwrap().iter().find(|k| k["property"] == "rotation_euler").expect("rotation keyed");
    let z = &rot["channels"][2];
    assert_eq!(z[0][0], 1.0);
    assert_eq!(z[1][0], 48.0);
    assert!((z[1][1].as_f64().unwrap() - std::f64::consts::PI).abs() < 1e-4);
    call("animation.keyframe", json!({ "object": "RsSpin", "property": "visible", "frame": 60, "value": false }));
    let props: Vec<String> = info("RsSpin")["keyframes"].as_array().unwrap().iter().map(|k| k["property"].as_str().unwrap().to_string()).collect();
    assert!(props.contains(&"hide_render".to_string()) && props.contains(&"hide_viewport".to_string()), "{props:?}");
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn the_token_appears_in_no_output() {
    need_blender!();
    let s = shared().unwrap();
    static SERIAL: Mutex<()> = Mutex::new(());
    let _g = SERIAL.lock();
    let mut captured = String::new();
    for (key, args) in [
        ("scene.info", "{}"),
        ("scene.create_object", r#"{"type":"cube","name":"RsTokenCheck"}"#),
        ("scene.object_info", r#"{"name":"NoSuchObject"}"#),
        ("scene.set_material", r#"{"object":"RsTokenCheck","color":"nope-colour"}"#),
        ("create_object", r#"{"type":"cube"}"#),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan"))
            .env("CAPSTAN_HOME", s.home.root())
            .env("CAPSTAN_LOG", "trace")
            .args(["call", key, "--args", args, "--json"])
            .output()
            .unwrap();
        captured.push_str(&String::from_utf8_lossy(&out.stdout));
        captured.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    assert!(captured.contains("RsTokenCheck") && captured.contains("not_found"), "the calls ran: {}", &captured[..captured.len().min(400)]);
    assert!(!captured.contains(&s.token), "the bridge token leaked into CLI output");
    for entry in std::fs::read_dir(s.home.root().join("logs")).unwrap() {
        let log = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
        assert!(!log.contains(&s.token), "the bridge token leaked into Blender's log");
    }
}

/// A Blender of the test's own (to kill), with a runtime over it.
fn own_blender(path: &std::path::Path, dir: &std::path::Path) -> (RunningBlender, Runtime) {
    let home = CapstanHome::at(dir);
    let install = locate::probe(path).unwrap();
    let running = launch(&home, &install, &LaunchOptions { background: true, ..Default::default() }).unwrap();
    let client = Arc::new(HttpBridgeClient::for_home(&home));
    let mut rt = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client).unwrap();
    rt.load_all(&home);
    (running, rt)
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn killing_blender_makes_the_next_call_report_it_with_no_other_address_tried() {
    let Some(path) = blender_path() else { return };
    // The shared Blender must have its port before the decoys below take the rest.
    shared();
    let _ports = PORTS.lock().unwrap_or_else(|p| p.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let (mut running, rt) = own_blender(&path, dir.path());
    rt.call("scene.info", "{}").expect("the fresh Blender answers");
    running.kill();
    let decoys: Vec<std::net::TcpListener> = (9876..=9885).filter_map(|p| std::net::TcpListener::bind(("127.0.0.1", p)).ok()).collect();
    for d in &decoys {
        d.set_nonblocking(true).unwrap();
    }
    match rt.call("scene.info", "{}") {
        Err(CallError::Pack { availability: Some(a), .. }) => {
            let state = serde_json::to_value(&a).unwrap()["state"].as_str().unwrap().to_string();
            assert!(state == "app_not_running" || state == "endpoint_unavailable", "{a:?}");
            assert!(a.user_action.contains("capstan blender launch"), "{a:?}");
        }
        other => panic!("{other:?}"),
    }
    for d in &decoys {
        assert!(d.accept().is_err(), "the client tried another address");
    }
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn killing_blender_in_the_middle_of_a_call_ends_the_call_with_a_typed_error() {
    let Some(path) = blender_path() else { return };
    shared();
    let _ports = PORTS.lock().unwrap_or_else(|p| p.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let (mut running, rt) = own_blender(&path, dir.path());
    let rt = Arc::new(rt);
    let worker = rt.clone();
    // A render that takes far longer than the moment we wait before killing Blender.
    let call = std::thread::spawn(move || {
        worker.call("scene.render", r#"{"filename":"never.png","engine":"cycles","resolution":[1024,1024],"samples":65536}"#)
    });
    std::thread::sleep(std::time::Duration::from_millis(1500));
    running.kill();
    match call.join().unwrap() {
        Err(CallError::Pack { failure, .. }) => {
            let code = failure.bridge_code.clone().unwrap_or_default();
            assert!(code == "transport" || code == "app_unavailable", "{failure:?}");
        }
        other => panic!("the render should have died with Blender: {other:?}"),
    }
    match rt.call("scene.info", "{}") {
        Err(CallError::Pack { availability: Some(a), .. }) => assert_eq!(serde_json::to_value(&a).unwrap()["state"], "app_not_running"),
        other => panic!("{other:?}"),
    }
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn install_addon_installs_and_enables_the_extension_which_then_starts_the_bridge() {
    let Some(path) = blender_path() else { return };
    shared();
    let _ports = PORTS.lock().unwrap_or_else(|p| p.into_inner());
    let home = tempfile::tempdir().unwrap();
    let env = |cmd: &mut std::process::Command| {
        cmd.env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join(".config"))
            .env("CAPSTAN_HOME", home.path().join(".capstan"))
            .env_remove("BLENDER_USER_CONFIG")
            .env_remove("BLENDER_USER_RESOURCES")
            .env_remove("BLENDER_USER_EXTENSIONS")
            .env_remove("CAPSTAN_BRIDGE_ALLOW_EXEC");
    };
    let mut install = std::process::Command::new(env!("CARGO_BIN_EXE_capstan"));
    install.args(["blender", "install-addon", "--blender"]).arg(&path);
    env(&mut install);
    let out = install.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    assert!(dir.join("blender_manifest.toml").is_file() && dir.join("commands.json").is_file(), "{}", dir.display());

    // A Blender that loads these preferences enables the extension, which starts the bridge.
    let install_kind = locate::probe(&path).unwrap().kind;
    let script = "import bpy, json, os, urllib.request\n\
        bpy.ops.wm.read_userpref()\n\
        assert 'bl_ext.user_default.capstan_bridge' in bpy.context.preferences.addons.keys()\n\
        d = json.load(open(os.path.join(os.environ['CAPSTAN_HOME'], 'run', 'blender', 'server.json')))\n\
        r = urllib.request.Request(d['http'] + '/ping', headers={'Authorization': 'Bearer ' + d['token']})\n\
        print('PING=' + json.loads(urllib.request.urlopen(r, timeout=10).read())['bridge'])\n\
        import importlib\n\
        pe = importlib.import_module('bl_ext.user_default.capstan_bridge.commands.python_exec')\n\
        prefs = bpy.context.preferences.addons['bl_ext.user_default.capstan_bridge'].preferences\n\
        assert prefs.allow_execute_python is False and not pe.allowed()\n\
        prefs.allow_execute_python = True\n\
        assert pe.allowed()\n\
        print('PREF=ok')\n";
    let mut check = std::process::Command::new(&path);
    match install_kind {
        locate::BlenderKind::PythonModule => check.args(["-c", script]),
        locate::BlenderKind::Executable => check.args(["-b", "--python-exit-code", "1", "--python-expr", script]),
    };
    env(&mut check);
    let out = check.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("PING=capstan") && text.contains("PREF=ok"), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(!home.path().join(".capstan/run/blender/server.json").exists(), "the runtime file is removed on clean exit");
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn demo_drives_a_guided_session_to_a_rendered_png() {
    let Some(path) = blender_path() else { return };
    shared();
    let _ports = PORTS.lock().unwrap_or_else(|p| p.into_inner());
    let home = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan"))
        .env("CAPSTAN_HOME", home.path())
        .env("CAPSTAN_BLENDER", &path)
        .args(["demo", "--size", "128x72", "--samples", "8"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("[added: Product]") && stdout.contains("[removed: Cube]"), "{stdout}");
    let png = stdout.lines().find_map(|l| l.strip_prefix("done: ")).expect("the demo names its PNG");
    let bytes = std::fs::read(png).expect("the PNG exists");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 128);
    for step in ["[added: Backdrop]", "bevel its edges", "frame the product"] {
        assert!(stdout.contains(step), "{step}: {stdout}");
    }
}

/// `capstan doctor --json` for `home`: exit code and document.
fn doctor(home: &std::path::Path) -> (i32, Value) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home).args(["doctor", "--json"]).output().unwrap();
    (out.status.code().unwrap_or(-1), serde_json::from_slice(&out.stdout).unwrap_or(Value::Null))
}

/// The state a guided search reports for blender (None when nothing is hidden).
fn searched_state(home: &std::path::Path) -> Option<String> {
    let mut c = raw_mcp::RawClient::start(home, false);
    let r = c.call_tool("search_capabilities", json!({ "query": "add a cube" }));
    // Blender's line: other apps (FreeCAD) not running here are hidden on their own lines.
    let hidden = r["result"]["structuredContent"]["hidden"].as_array().cloned().unwrap_or_default();
    hidden.iter().find(|h| h["server"] == "blender").and_then(|h| h["state"].as_str()).map(String::from)
}

#[test]
fn doctor_and_search_follow_blender_stopped_running_and_without_its_runtime_file() {
    let Some(path) = blender_path() else { return };
    // The headless Blender here is PyPI bpy in a venv: give this home the same
    // `bin/blender` version probe `capstan blender provision` writes, over that venv.
    let Some(venv) = path.parent().and_then(|bin| bin.parent()).filter(|v| v.join("pyvenv.cfg").is_file()) else { return };
    shared();
    let _ports = PORTS.lock().unwrap_or_else(|p| p.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(dir.path());
    std::fs::create_dir_all(dir.path().join("blender")).unwrap();
    // At the place its line's provisioned venv lives, so the packs' declared locations find it.
    let line = capstan::app_units::blender::line::BlenderLine::of_version(&locate::probe(&path).unwrap().version).expect("a tested LTS line");
    std::os::unix::fs::symlink(venv, capstan::app_units::blender::provision::venv_dir(&home, line)).unwrap();
    capstan::app_units::blender::provision::write_version_probe(&home, line).unwrap();
    // `capstan blender provision` would reuse this venv as it is (never re-create it).
    let python = capstan::app_units::blender::provision::venv_python(&home, line);
    assert_eq!(capstan::app_units::blender::provision::provisioned(&home, line), Some(python.clone()));
    assert_eq!(locate::find(&home, None).map(|found| found.path).ok(), Some(python), "the provisioned Blender is the one found");

    let (code, doc) = doctor(dir.path());
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["servers"][0]["state"]["state"], "app_not_running", "{doc}");
    assert!(doc["actions"][0].as_str().unwrap().contains("capstan blender launch"), "{doc}");
    assert_eq!(searched_state(dir.path()).as_deref(), Some("app_not_running"));

    let install = locate::probe(&path).unwrap();
    let mut running = launch(&home, &install, &LaunchOptions { background: true, ..Default::default() }).unwrap();
    let (code, doc) = doctor(dir.path());
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["healthy"], true);
    let steps: Vec<&str> = doc["servers"][0]["steps"].as_array().unwrap().iter().map(|s| s["status"].as_str().unwrap()).collect();
    assert!(steps.iter().all(|s| *s == "ok"), "{doc}");
    assert_eq!(searched_state(dir.path()), None, "nothing hidden while Blender runs");

    std::fs::remove_file(home.run_dir().join("blender/server.json")).unwrap();
    let (code, doc) = doctor(dir.path());
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["servers"][0]["state"]["state"], "endpoint_unavailable", "{doc}");
    assert_eq!(searched_state(dir.path()).as_deref(), Some("endpoint_unavailable"));
    running.kill();
}

/// An add-on older than the host (standing in: one that serves without `add_modifier`):
/// the capability that needs it is hidden and named, not failed mid-session.
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn capabilities_the_running_add_on_cannot_serve_are_hidden_and_named() {
    need_blender!();
    let _ports = PORTS.lock().unwrap_or_else(|p| p.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let install = locate::probe(&blender_path().unwrap()).unwrap();
    let options = LaunchOptions { background: true, ..Default::default() };
    let _blender = capstan::app_units::blender::launch::launch_with_env(&home, &install, &options, &[("CAPSTAN_BRIDGE_WITHOUT_COMMANDS", "add_modifier,execute_python")]).unwrap();
    let mut c = raw_mcp::RawClient::start(tmp.path(), true);
    let tools = c.request("tools/list", json!({}));
    let names: Vec<String> = tools["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect();
    assert!(names.contains(&"scene__create_object".to_string()), "{names:?}");
    assert!(!names.contains(&"mutate__modifier_add".to_string()), "the capability needing add_modifier is hidden: {names:?}");
    drop(c);

    let mut g = raw_mcp::RawClient::start(tmp.path(), false);
    let found = g.call_tool("search_capabilities", json!({ "query": "add a bevel modifier" }));
    let doc = &found["result"]["structuredContent"];
    assert!(doc["results"].as_array().unwrap().iter().all(|h| h["key"] != "mutate.modifier_add"), "{doc}");
    let line = doc["hidden"].as_array().unwrap().iter().find(|l| l["state"] == "addon_outdated").expect("a hidden line says why");
    assert_eq!(line["missing_commands"], json!(["add_modifier"]));
    assert!(line["capabilities"].as_array().unwrap().iter().any(|k| k == "mutate.modifier_add"));
    let run = g.call_tool("execute_capability", json!({ "key": "mutate.modifier_add", "arguments": { "object": "Cube", "type": "BEVEL" } }));
    let error = &run["result"]["structuredContent"]["error"];
    assert_eq!(error["code"], "APP_UNAVAILABLE", "{run}");
    assert_eq!(error["availability"]["state"], "addon_outdated");
    let ok = g.call_tool("execute_capability", json!({ "key": "scene.info", "arguments": {} }));
    assert_eq!(ok["result"]["isError"], false, "the rest still serves: {ok}");
    drop(g);

    // execute_python passes the same gate: an add-on without the exec command is
    // `addon_outdated`, said before any script is sent.
    let mut x = raw_mcp::RawClient::start_with_env(tmp.path(), true, &[("CAPSTAN_ALLOW_EXEC", "1")]);
    let run = x.call_tool("execute_python", json!({ "code": "result = 1\n" }));
    let error = &run["result"]["structuredContent"]["error"];
    assert_eq!(error["code"], "APP_UNAVAILABLE", "{run}");
    assert_eq!(error["availability"]["state"], "addon_outdated", "{run}");
    assert_eq!(error["availability"]["missing_commands"], json!(["execute_python"]));
}
