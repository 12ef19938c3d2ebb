//! `capstan eval` for real: a small suite (four tasks, tiny pictures) against a headless
//! Blender. True assertions pass, a task whose assertions are false in the scene is
//! failed with the measured values, a task with an unintended side effect is failed,
//! the report folder holds the JSON, the Markdown table and the contact sheet; and with
//! no Blender to start every task is an error and the exit status is 1.

#[path = "support/mod.rs"]
mod support;

use serde_json::{Value, json};
use std::process::Command;

fn suite() -> Value {
    json!({
        "version": 1,
        "tasks": [
            {
                "id": "sphere",
                "goal": "add a sphere called Ball",
                "family": "create",
                "trajectory": [{ "key": "scene.create_object", "args": { "type": "uv_sphere", "name": "Ball", "location": [0, 3, 0] } }],
                "assertions": [
                    { "kind": "object_exists", "name": "Ball" },
                    { "kind": "delta", "added": 1, "added_type": "MESH", "only_changed": [] },
                    { "kind": "visual", "size": 32 }
                ]
            },
            {
                "id": "false-claims",
                "goal": "add a cube on top of the default one",
                "trajectory": [{ "key": "add_object", "args": { "type": "cube", "name": "Box", "size": 1, "location": [5, 0, 0] } }],
                "assertions": [
                    { "kind": "spatial", "constraints": [{ "type": "on_top_of", "object": "Box", "support": "Cube" }] },
                    { "kind": "property", "object": "Box", "path": "location.0", "equals": 0 }
                ]
            },
            {
                "id": "side-effect",
                "goal": "add a cone",
                "trajectory": [
                    { "key": "scene.create_object", "args": { "type": "cone", "name": "Cone", "location": [0, -3, 0] } },
                    { "key": "scene.modify_object", "args": { "name": "Cube", "location": [0, 0, 4] } }
                ],
                "assertions": [{ "kind": "object_exists", "name": "Cone" }]
            },
            {
                "id": "planned",
                "goal": "what is in the scene",
                "family": "inspect",
                "assertions": [{ "kind": "object_exists", "name": "Cube" }, { "kind": "delta", "added": 0, "removed": 0 }]
            }
        ]
    })
}

fn capstan(home: &std::path::Path, blender: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home).env("CAPSTAN_BLENDER", blender).args(args).output().unwrap()
}

#[test]
fn a_small_suite_runs_for_real_and_false_assertions_fail() {
    let Some(blender) = std::env::var_os("CAPSTAN_TEST_BLENDER").filter(|p| !p.is_empty()) else {
        assert!(std::env::var("CAPSTAN_REQUIRE_BLENDER").as_deref() != Ok("1"), "CAPSTAN_REQUIRE_BLENDER=1 but CAPSTAN_TEST_BLENDER is not set");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let suite_path = tmp.path().join("suite.json");
    std::fs::write(&suite_path, suite().to_string()).unwrap();
    let report_dir = tmp.path().join("report");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let out = capstan(&home, blender.to_str().unwrap(), &["eval", "--suite", suite_path.to_str().unwrap(), "--json", "--report", report_dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let task = |id: &str| doc["tasks"].as_array().unwrap().iter().find(|t| t["id"] == id).unwrap().clone();

    let sphere = task("sphere");
    assert_eq!(sphere["status"], "passed", "{sphere:#}");
    assert_eq!(sphere["assertions_met"], 3);
    assert_eq!(sphere["visual_success"], true);
    assert_eq!(sphere["family_ok"], true);
    assert_eq!(sphere["tool_calls"], 1);
    assert!(sphere["bytes"].as_u64().unwrap() > 20);

    let lies = task("false-claims");
    assert_eq!(lies["status"], "failed", "{lies:#}");
    assert_eq!(lies["assertions_met"], 0);
    assert_eq!(lies["constraint_success"], false);
    assert_eq!(lies["args_accepted_first_time"], 1, "the alias resolved and the arguments were accepted");
    let measured = &lies["critique"]["checks"][1]["measured"];
    assert!((measured.as_f64().unwrap() - 5.0).abs() < 1e-4, "{measured}");

    let side = task("side-effect");
    assert_eq!(side["status"], "failed", "{side:#}");
    assert_eq!(side["assertions_met"], 1);
    assert_eq!(side["side_effects"], json!(["object Cube"]));

    let planned = task("planned");
    assert_eq!(planned["status"], "passed", "{planned:#}");
    assert_eq!(planned["source"], "planner");

    assert_eq!(doc["totals"]["tasks"], 4);
    assert_eq!(doc["totals"]["passed"], 2);
    assert_eq!(doc["totals"]["failed"], 2);
    assert_eq!(doc["totals"]["errors"], 0);
    let md = std::fs::read_to_string(report_dir.join("report.md")).unwrap();
    assert!(md.contains("| false-claims | failed |"), "{md}");
    let sheet = std::fs::read(report_dir.join("contact-sheet.png")).unwrap();
    assert!(sheet.starts_with(b"\x89PNG"));
    let json_file: Value = serde_json::from_slice(&std::fs::read(report_dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json_file["totals"]["passed"], 2);
}

#[test]
fn no_blender_means_every_task_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let suite_path = tmp.path().join("suite.json");
    std::fs::write(&suite_path, suite().to_string()).unwrap();
    let fake = tmp.path().join("not-blender");
    std::fs::write(&fake, "").unwrap();
    let out = capstan(tmp.path(), fake.to_str().unwrap(), &["eval", "--suite", suite_path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["totals"]["errors"], 4);
    assert!(doc["tasks"].as_array().unwrap().iter().all(|t| t["status"] == "error" && t["error"].as_str().unwrap().contains("Blender")));
    // A suite that is not valid is refused before anything starts.
    std::fs::write(&suite_path, r#"{"version": 1, "tasks": [{"id": "x", "goal": "g", "assertions": []}]}"#).unwrap();
    let out = capstan(tmp.path(), fake.to_str().unwrap(), &["eval", "--suite", suite_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

/// Resets the scene, then loses the connection on every other command (Blender died).
struct DiesAfterReset;

impl capstan::bridge::BridgeClient for DiesAfterReset {
    fn call(&self, request: capstan::bridge::BridgeRequest<'_>) -> Result<Value, capstan::bridge::BridgeFailure> {
        if request.command == "reset_scene" {
            return Ok(json!({ "result": {} }));
        }
        Err(capstan::bridge::BridgeFailure::Transport { reason: "connection_reset".into(), detail: "the bridge went away".into() })
    }
}

#[test]
fn blender_going_away_mid_task_is_an_error_not_a_failure_or_a_pass() {
    use capstan::eval::run::{Env, Status, run_suite};
    let tmp = tempfile::tempdir().unwrap();
    let home = capstan::home::CapstanHome::at(tmp.path());
    let bridge: std::sync::Arc<dyn capstan::bridge::BridgeClient> = std::sync::Arc::new(DiesAfterReset);
    let rt = support::runtime(&home, bridge.clone(), &[]);
    let router = capstan::planner::Router::for_runtime(&rt);
    let env = Env { runtime: &rt, client: bridge.as_ref(), router: &router, thumbnails: false, planner_only: false };
    let suite = capstan::eval::Suite::parse(&suite().to_string()).unwrap();
    let report = run_suite(&env, &suite, false);
    for t in &report.tasks {
        assert_eq!(t.status, Status::Error, "{t:?}");
        assert!(t.error.as_deref().unwrap().contains("Blender failed"), "{t:?}");
    }
    assert_eq!(report.totals.errors, 4);
    assert_eq!(report.totals.passed, 0);
}

/// Answers every command of a trajectory, then dies: the assertions cannot be measured.
struct DiesBeforeTheChecks {
    calls: std::sync::atomic::AtomicUsize,
}

impl capstan::bridge::BridgeClient for DiesBeforeTheChecks {
    fn call(&self, request: capstan::bridge::BridgeRequest<'_>) -> Result<Value, capstan::bridge::BridgeFailure> {
        // reset_scene, then create_object (and its undo step) answer; nothing after.
        if self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 3 {
            return Ok(support::canned::answer(request.command, request.params));
        }
        Err(capstan::bridge::BridgeFailure::Transport { reason: "connection_reset".into(), detail: "the bridge went away".into() })
    }
}

#[test]
fn blender_going_away_before_the_checks_is_an_error() {
    use capstan::eval::run::{Env, Status, run_task};
    let tmp = tempfile::tempdir().unwrap();
    let home = capstan::home::CapstanHome::at(tmp.path());
    let bridge: std::sync::Arc<dyn capstan::bridge::BridgeClient> = std::sync::Arc::new(DiesBeforeTheChecks { calls: 0.into() });
    let rt = support::runtime(&home, bridge.clone(), &[]);
    let router = capstan::planner::Router::for_runtime(&rt);
    let env = Env { runtime: &rt, client: bridge.as_ref(), router: &router, thumbnails: false, planner_only: false };
    let suite = capstan::eval::Suite::parse(&suite().to_string()).unwrap();
    let t = run_task(&env, &suite.tasks[0]);
    assert_eq!(t.status, Status::Error, "{t:?}");
    assert!(t.error.as_deref().unwrap().contains("while the assertions were checked"), "{t:?}");
}
