//! The FreeCAD app unit against real FreeCAD (`freecadcmd`): a confined headless
//! instance started through the unit answers as FreeCAD, runs bridge calls through the
//! host's client pinned to it, cannot write outside its grants, and is gone, with its
//! records, once dropped.
//!
//! FreeCAD missing: with `CAPSTAN_REQUIRE_FREECAD=1` (the test command sets it) every
//! test fails; without it each says loudly that it did not run, as the Blender tests do
//! without `CAPSTAN_TEST_BLENDER`.

use capstan::app_unit::AppUnit;
use capstan::app_units::freecad::launch::{LaunchOptions, RunningFreecad, launch};
use capstan::app_units::freecad::locate::{self, FreecadInstall};
use capstan::app_units::freecad::unit::{FREECAD, SERVER};
use capstan::bridge::{BridgeClient, BridgeFailure, BridgeRequest, HttpBridgeClient, endpoint};
use capstan::home::CapstanHome;
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

/// The FreeCAD under test, or None (a failure when `CAPSTAN_REQUIRE_FREECAD=1`).
fn freecad_under_test() -> Option<FreecadInstall> {
    match locate::find(None) {
        Ok(found) => Some(found),
        Err(e) => {
            assert!(std::env::var("CAPSTAN_REQUIRE_FREECAD").as_deref() != Ok("1"), "CAPSTAN_REQUIRE_FREECAD=1 but there is no usable FreeCAD: {e}");
            eprintln!("NOT RUN: no FreeCAD ({e}); set CAPSTAN_REQUIRE_FREECAD=1 to make this a failure");
            None
        }
    }
}

fn start(home: &Path, options: &LaunchOptions) -> Option<RunningFreecad> {
    let install = freecad_under_test()?;
    Some(launch(&CapstanHome::at(home), &install, options).expect("FreeCAD launches confined"))
}

fn call(client: &HttpBridgeClient, command: &str, params: Value) -> Result<Value, BridgeFailure> {
    client.call(BridgeRequest { server: SERVER, command, params: &params, timeout: Duration::from_secs(60) })
}

#[test]
fn start_headless_gives_a_private_live_freecad_that_runs_bridge_calls() {
    let Some(_) = freecad_under_test() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let started = Instant::now();
    let app = FREECAD.start_headless(&home, &capstan::app_unit::HeadlessOptions { private: true, cpus: None }).expect("start_headless");
    eprintln!("started {} in {:?}", app.describe(), started.elapsed());
    assert!(app.describe().starts_with("FreeCAD 0."), "{}", app.describe());
    assert!(!home.run_dir().join(SERVER).join("server.json").exists(), "a private instance is not published");

    let client = HttpBridgeClient::for_runtime_file(&home, SERVER, app.runtime_file());
    let ping = client.ping(SERVER).expect("ping");
    assert_eq!(ping["app"], "freecad", "{ping}");
    assert_eq!(ping["protocol"], 1, "{ping}");
    assert!(ping["app_version"].as_str().is_some_and(locate::meets_minimum), "{ping}");
    let record: Value = serde_json::from_slice(&std::fs::read(app.runtime_file()).unwrap()).unwrap();
    assert_eq!(record["pid"], ping["pid"]);
    assert_eq!(record["app_version"], ping["app_version"]);
    assert!(record.get("exec_key").is_none(), "FreeCAD has no exec key: {record}");

    let made = call(&client, "create_primitive", json!({"kind": "box", "length": 10, "width": 20, "height": 30, "name": "Block"})).expect("create_primitive");
    assert_eq!(made["delta"]["added"], json!(["Block"]), "{made}");
    let listed = call(&client, "list_objects", json!({})).expect("list_objects");
    let names: Vec<&str> = listed["objects"].as_array().unwrap().iter().filter_map(|o| o["name"].as_str()).collect();
    assert_eq!(names, vec!["Block"], "{listed}");
    let reset = FREECAD.host_commands().reset.unwrap();
    call(&client, reset, json!({})).expect("reset");
    assert_eq!(call(&client, "list_objects", json!({})).unwrap()["objects"], json!([]));
}

#[test]
fn the_instance_is_confined_and_keeps_its_home_private() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(running) = start(tmp.path(), &LaunchOptions { private: true, ..Default::default() }) else { return };
    if capstan::containment::layers::kernel_abi() > 0 {
        assert!(running.layers.landlock_abi > 0 && running.layers.seccomp && running.layers.privileges_dropped, "{:?}", running.layers);
    }
    // FreeCAD wrote its user configuration into the instance's private HOME.
    let private_home = capstan::app_units::freecad::launch::private_home(&running.instance);
    assert!(private_home.join(".config/FreeCAD").is_dir() || private_home.join(".FreeCAD").is_dir(), "FreeCAD's configuration is not in {}", private_home.display());
    // A write the bridge allows lands in the instance's output folder.
    let client = HttpBridgeClient::for_runtime_file(&CapstanHome::at(tmp.path()), SERVER, running.runtime_file.clone());
    call(&client, "create_primitive", json!({"kind": "cylinder", "radius": 5, "height": 10, "name": "Rod"})).unwrap();
    let out = call(&client, "export_cad", json!({"file_name": "rod.stl", "format": "stl", "quality": "coarse"})).expect("export_cad");
    let path = Path::new(out["path"].as_str().unwrap());
    assert!(path.starts_with(std::fs::canonicalize(&running.instance.output).unwrap()) && path.is_file(), "{out}");
    let refused = call(&client, "export_cad", json!({"file_name": "../rod.stl", "format": "stl"})).unwrap_err();
    assert!(matches!(&refused, BridgeFailure::App { code, .. } if code == "path_refused"), "{refused}");
}

/// The kernel layer alone: the bridge is told to write into a folder outside the grants
/// (so its own path check passes), and the kernel refuses the write.
#[test]
fn the_kernel_refuses_a_write_outside_the_grants_that_the_bridge_allows() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let options = LaunchOptions { private: true, bridge_output_dir: Some(outside.path().to_path_buf()), ..Default::default() };
    let Some(running) = start(tmp.path(), &options) else { return };
    assert!(capstan::containment::layers::kernel_abi() > 0, "this test needs Landlock: the kernel offers none");
    let client = HttpBridgeClient::for_runtime_file(&CapstanHome::at(tmp.path()), SERVER, running.runtime_file.clone());
    assert_eq!(client.ping(SERVER).unwrap()["output_dir"].as_str().map(Path::new), Some(std::fs::canonicalize(outside.path()).unwrap().as_path()));
    call(&client, "create_primitive", json!({"kind": "box", "length": 1, "width": 1, "height": 1, "name": "Leak"})).unwrap();
    for (file, format) in [("leak.step", "step"), ("leak.stl", "stl")] {
        let answer = call(&client, "export_cad", json!({"file_name": file, "format": format}));
        assert!(answer.is_err(), "the kernel let FreeCAD write {file} outside its grants: {answer:?}");
        let refused = answer.unwrap_err();
        eprintln!("{file}: {refused}");
        assert!(matches!(&refused, BridgeFailure::App { code, .. } if code != "path_refused"), "the bridge itself refused, so the kernel was not tested: {refused}");
        assert!(!outside.path().join(file).exists(), "{file} was written outside the grants");
    }
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0, "nothing at all was written outside");
    // And FreeCAD still answers.
    assert_eq!(client.ping(SERVER).unwrap()["app"], "freecad");
}

#[test]
fn dropping_the_instance_kills_freecad_and_removes_its_records() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let Some(running) = start(tmp.path(), &LaunchOptions::default()) else { return };
    let pid = running.pid();
    let published = home.run_dir().join(SERVER).join("server.json");
    let (runtime_file, tmp_dir) = (running.runtime_file.clone(), running.instance.tmp.clone());
    assert!(published.is_file() && runtime_file.is_file());
    let record: Value = serde_json::from_slice(&std::fs::read(&published).unwrap()).unwrap();
    assert_eq!(record["pid"], json!(pid));
    // A client of the published record (what `serve` and `call` use) reaches it.
    assert_eq!(HttpBridgeClient::for_home(&home).ping(SERVER).unwrap()["pid"], json!(pid));
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
    assert!(comm.trim().starts_with("freecadcmd"), "pid {pid} is {comm:?}");
    let started = Instant::now();
    drop(running);
    eprintln!("stopped in {:?}", started.elapsed());
    assert!(!endpoint::pid_alive(pid), "freecadcmd (pid {pid}) outlived its instance");
    assert!(!published.exists() && !runtime_file.exists(), "the runtime records outlived the instance");
    assert!(!tmp_dir.exists(), "the private tmp folder (and HOME) outlived the instance");
}

#[test]
fn capstan_freecad_locate_reports_the_freecad_it_would_start() {
    let Some(install) = freecad_under_test() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).args(["freecad", "locate", "--json"]).env("CAPSTAN_HOME", tmp.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["found"], true, "{doc}");
    assert_eq!(doc["version"], json!(install.version));
    assert_eq!(doc["min_version"], "0.20");
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).args(["freecad", "locate", "--json", "--freecad", "/nonexistent/freecadcmd"]).env("CAPSTAN_HOME", tmp.path()).output().unwrap();
    assert_eq!(missing.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&missing.stdout).unwrap();
    assert_eq!(doc["found"], false, "{doc}");
    assert!(doc["user_action"].as_str().unwrap().contains("apt-get install freecad"), "{doc}");
}
