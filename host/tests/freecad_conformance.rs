//! The conformance cases of every pack that declares the `freecad` server, against one
//! real headless FreeCAD started (confined) through the FreeCAD app unit, reset to an
//! empty document (`reset_document`) before each case. The Blender suite
//! (`tests/conformance.rs`) leaves these packs to this one.
//!
//! The bridge runs with `CAPSTAN_BRIDGE_VERIFY_DELTA=1`: tracked deltas are checked
//! against whole-document snapshots, answers against their result schemas, error codes
//! against the declarations.
//!
//! Never vacuous: when `capability-packs/freecad-core` is in the tree, its pack must be
//! loaded and at least one FreeCAD case must run; when it is not, the test asserts that
//! no official pack declares `freecad` and says loudly that no case ran. FreeCAD missing
//! fails the test with `CAPSTAN_REQUIRE_FREECAD=1` (the test command sets it).

mod support;

use capstan::app_unit::AppUnit;
use capstan::app_units::freecad::launch::{LaunchOptions, launch_with_env};
use capstan::app_units::freecad::{locate, unit::{FREECAD, SERVER}};
use capstan::bridge::{BridgeClient, HttpBridgeClient};
use capstan::conformance::Case;
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

/// The pack this suite exists for (written beside this test, by its own author).
const FREECAD_CORE: &str = "capability-packs/freecad-core";

/// The official packs whose manifest declares the FreeCAD server (read from the
/// manifests alone: nothing is compiled for the listing).
fn freecad_packs() -> Vec<&'static capstan::packs::OfficialPack> {
    capstan::packs::official()
        .iter()
        .filter(|p| serde_json::from_str::<serde_json::Value>(p.manifest).ok().is_some_and(|m| m["servers"].get(SERVER).is_some()))
        .collect()
}

/// A runtime with only the FreeCAD packs, calling through `client`.
fn runtime(home: &CapstanHome, client: Arc<dyn BridgeClient>) -> Runtime {
    let mut rt = Runtime::new(home, capstan::engine::AllocationPreference::PoolingIfAvailable, client).expect("runtime starts");
    for pack in freecad_packs() {
        rt.add(pack.source()).unwrap_or_else(|e| panic!("{}: {e}", pack.name));
    }
    rt
}

/// Every (key, case) of the runtime's capabilities.
fn cases(rt: &Runtime) -> Vec<(String, Case)> {
    rt.capabilities().flat_map(|(_, c)| c.conformance.iter().map(|case| (c.key.clone(), case.clone()))).collect()
}

fn reset(rt: &Runtime) -> Result<(), String> {
    let command = FREECAD.host_commands().reset.ok_or("the FreeCAD unit names no reset command")?;
    rt.send_host_command(SERVER, command, &json!({})).map(|_| ()).map_err(|e| format!("{command}: {e}"))
}

/// One case, as the Blender suite checks it (delta, result, reads, error).
fn run_case(rt: &Runtime, key: &str, case: &Case) -> Result<(), String> {
    reset(rt)?;
    support::case_run::run_and_check(rt, key, case, |_, _, problems| problems.push("a `png` expectation: FreeCAD renders no picture".into())).map(|_| ())
}

#[test]
fn freecad_packs_pass_their_conformance_cases_against_real_freecad() {
    let in_tree = support::workspace().join(FREECAD_CORE).join("pack.json").is_file();
    let packs: Vec<String> = freecad_packs().iter().map(|p| p.name.to_string()).collect();
    if !in_tree {
        assert!(packs.is_empty(), "{FREECAD_CORE} is not in the tree, yet these official packs declare {SERVER}: {packs:?}");
        eprintln!("freecad conformance: NO FreeCAD PACK ({FREECAD_CORE} is not in the tree): 0 FreeCAD cases ran");
        return;
    }
    assert!(packs.iter().any(|p| p == "freecad-core"), "{FREECAD_CORE} is in the tree but no official pack named freecad-core declares {SERVER} (those that do: {packs:?})");
    let offline_home = tempfile::tempdir().unwrap();
    let cases = cases(&runtime(&CapstanHome::at(offline_home.path()), Arc::new(capstan::bridge::Offline)));
    assert!(!cases.is_empty(), "the FreeCAD packs {packs:?} declare no conformance case");

    let install = match locate::find(None) {
        Ok(found) => found,
        Err(e) => {
            assert!(std::env::var("CAPSTAN_REQUIRE_FREECAD").as_deref() != Ok("1"), "CAPSTAN_REQUIRE_FREECAD=1 but there is no usable FreeCAD: {e}");
            eprintln!("NOT RUN: {} FreeCAD cases, no FreeCAD ({e}); set CAPSTAN_REQUIRE_FREECAD=1 to make this a failure", cases.len());
            return;
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let started = Instant::now();
    let running = launch_with_env(&home, &install, &LaunchOptions { private: true, ..Default::default() }, &[("CAPSTAN_BRIDGE_VERIFY_DELTA", "1")]).expect("FreeCAD launches confined");
    let client = Arc::new(HttpBridgeClient::for_runtime_file(&home, SERVER, running.runtime_file.clone()));
    let rt = runtime(&home, client);
    let mut failures = Vec::new();
    for (key, case) in &cases {
        if let Err(problem) = run_case(&rt, key, case) {
            failures.push(format!("{key} :: {}\n  {}", case.name, problem.replace('\n', "\n  ")));
        }
    }
    eprintln!("freecad conformance: {} cases of packs {packs:?} against FreeCAD {}, {} failed, in {:?}", cases.len(), install.version, failures.len(), started.elapsed());
    if !failures.is_empty() {
        let log = std::fs::read_to_string(&running.log_file).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(40).collect::<Vec<_>>().into_iter().rev().collect();
        panic!("{} of {} FreeCAD conformance cases failed:\n{}\n--- the end of FreeCAD's log ({}):\n{}", failures.len(), cases.len(), failures.join("\n"), running.log_file.display(), tail.join("\n"));
    }
}
