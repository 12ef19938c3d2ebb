//! `capstan eval` for real: a small suite (six tasks, tiny pictures) against a headless
//! Blender. True assertions pass, a task whose assertions are false in the scene is
//! failed with the measured values, a task with an unintended side effect (an object or
//! a settings domain) is failed, a task that cannot run (a key this capstan does not
//! have, a malformed assertion) is an error while the others still run, and the report
//! folder holds the JSON, the Markdown table and the contact sheet; with no Blender to
//! start every task is an error and the exit status is 1.

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
                "goal": "add a cylinder called Can",
                "family": "create",
                "assertions": [
                    { "kind": "property", "object": "Can", "path": "type", "equals": "MESH" },
                    { "kind": "read", "capability": "scene.info", "path": "counts.MESH", "equals": 2 },
                    { "kind": "delta", "added": 1, "removed": 0, "only_changed": [] }
                ]
            },
            {
                "id": "settings-changed",
                "goal": "frame the cube",
                "trajectory": [
                    { "key": "animation.frame_range", "args": { "frame_start": 1, "frame_end": 48 } },
                    { "key": "scene.create_object", "args": { "type": "cube", "name": 7 } },
                    { "key": "scene.create_object", "args": { "type": "cube", "name": "Second", "location": [0, 4, 0] } }
                ],
                "assertions": [
                    { "kind": "read", "capability": "scene.info", "path": "frame.end", "at_least": 24, "at_most": 60 },
                    { "kind": "object_exists", "name": "Second" }
                ]
            },
            {
                "id": "cannot-run",
                "goal": "nuke the scene",
                "trajectory": [{ "key": "blender_nuke_everything" }],
                "assertions": [{ "kind": "object_absent", "name": "Cube" }]
            },
            {
                "id": "malformed",
                "goal": "add a cube",
                "assertions": [{ "kind": "object_exists", "nmae": "Cube" }]
            }
        ]
    })
}

fn capstan(home: &std::path::Path, blender: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home).env("CAPSTAN_BLENDER", blender).args(args).output().unwrap()
}

#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn a_small_suite_runs_for_real_and_false_assertions_fail() {
    let blender = std::env::var("CAPSTAN_TEST_BLENDER").expect("CAPSTAN_TEST_BLENDER names Blender");
    let tmp = tempfile::tempdir().unwrap();
    let suite_path = tmp.path().join("suite.json");
    std::fs::write(&suite_path, suite().to_string()).unwrap();
    let report_dir = tmp.path().join("report");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    // Someone planted links in the report folder to a file and a folder outside it.
    let (victim, victim_dir) = plant_links(tmp.path(), &report_dir);
    let out = capstan(&home, &blender, &["eval", "--suite", suite_path.to_str().unwrap(), "--json", "--report", report_dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Two tasks cannot run: the run says so in its exit status, after running the rest.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let task = |id: &str| doc["tasks"].as_array().unwrap().iter().find(|t| t["id"] == id).unwrap().clone();

    let sphere = task("sphere");
    assert_eq!(sphere["status"], "passed", "{sphere:#}");
    assert_eq!(sphere["assertions_met"], 3);
    assert_eq!(sphere["visual_success"], true);
    assert_eq!(sphere["family_ok"], true);
    assert_eq!(sphere["tool_calls"], 1);
    let call = &sphere["calls"][0];
    assert_eq!(call["outcome"], "ok");
    assert!(call["bytes_received"].as_u64().unwrap() > call["bytes_sent"].as_u64().unwrap(), "{call}");
    assert_eq!(sphere["bytes"], call["bytes_sent"].as_u64().unwrap() + call["bytes_received"].as_u64().unwrap());

    let lies = task("false-claims");
    assert_eq!(lies["status"], "failed", "{lies:#}");
    assert_eq!(lies["assertions_met"], 0);
    assert_eq!(lies["constraint_success"], false);
    assert_eq!(lies["args_accepted_first_time"], 1, "the alias resolved and the arguments were accepted");
    assert_eq!(lies["calls"][0]["capability"], "scene.create_object");
    let measured = &lies["critique"]["checks"][1]["measured"];
    assert!((measured.as_f64().unwrap() - 5.0).abs() < 1e-4, "{measured}");

    let side = task("side-effect");
    assert_eq!(side["status"], "failed", "{side:#}");
    assert_eq!(side["assertions_met"], 1);
    assert_eq!(side["side_effects"], json!(["object Cube"]));

    // The planner's own plan, with arguments from the goal's words, measured in the scene.
    let planned = task("planned");
    assert_eq!(planned["status"], "passed", "{planned:#}");
    assert_eq!(planned["source"], "planner");
    assert_eq!(planned["plan"][1]["tool_hint"], "scene.create_object", "{planned:#}");

    // A settings domain the task did not declare is a side effect; a refused call then
    // its retry on the same capability counts as a retry, not as a first attempt.
    let settings = task("settings-changed");
    assert_eq!(settings["status"], "failed", "{settings:#}");
    assert_eq!(settings["assertions_met"], 2, "{settings:#}");
    assert_eq!(settings["side_effects"], json!(["settings scene"]));
    assert_eq!(settings["calls"][1]["outcome"], "refused");
    assert_eq!(settings["calls"][1]["code"], "INVALID_CAPABILITY_ARGUMENTS");
    assert_eq!((settings["retries"].as_u64(), settings["args_accepted_first_time"].as_u64(), settings["calls_failed"].as_u64()), (Some(1), Some(1), Some(1)));

    // What cannot run is an error with the reason, and nothing of it reached Blender.
    let cannot = task("cannot-run");
    assert_eq!(cannot["status"], "error", "{cannot:#}");
    assert!(cannot["error"].as_str().unwrap().contains("blender_nuke_everything"), "{cannot:#}");
    assert_eq!(cannot["tool_calls"], 0);
    let malformed = task("malformed");
    assert_eq!(malformed["status"], "error", "{malformed:#}");
    assert!(malformed["error"].as_str().unwrap().contains("nmae"), "{malformed:#}");

    assert_eq!(doc["totals"]["tasks"], 7);
    assert_eq!(doc["totals"]["passed"], 2);
    assert_eq!(doc["totals"]["failed"], 3);
    assert_eq!(doc["totals"]["errors"], 2);
    assert_eq!(doc["totals"]["retries"], 1);
    let md = std::fs::read_to_string(report_dir.join("report.md")).unwrap();
    assert!(md.contains("| false-claims | failed |"), "{md}");
    assert!(md.contains("measured 5"), "the Markdown says why a task failed: {md}");
    assert!(md.contains("side effect: settings scene"), "{md}");
    let sheet = std::fs::read(report_dir.join("contact-sheet.png")).unwrap();
    assert!(sheet.starts_with(b"\x89PNG"));
    let json_file: Value = serde_json::from_slice(&std::fs::read(report_dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json_file["totals"]["passed"], 2);
    links_were_replaced_not_followed(&report_dir, &victim, &victim_dir);
}

/// Every name the report writes planted in `report_dir` as a link to a file (or, for
/// `renders`, a folder) outside it; the file and the folder.
fn plant_links(tmp: &std::path::Path, report_dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let victim = tmp.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let victim_dir = tmp.join("victim-dir");
    std::fs::create_dir_all(&victim_dir).unwrap();
    std::fs::create_dir_all(report_dir).unwrap();
    #[cfg(unix)]
    {
        for name in ["report.json", "report.md", "contact-sheet.png", "contact-sheet.txt", ".contact_sheet.py"] {
            std::os::unix::fs::symlink(&victim, report_dir.join(name)).unwrap();
        }
        std::os::unix::fs::symlink(&victim_dir, report_dir.join("renders")).unwrap();
    }
    (victim, victim_dir)
}

fn links_were_replaced_not_followed(report_dir: &std::path::Path, victim: &std::path::Path, victim_dir: &std::path::Path) {
    assert_eq!(std::fs::read_to_string(victim).unwrap(), "precious", "the link's target is unchanged");
    assert_eq!(std::fs::read_dir(victim_dir).unwrap().count(), 0, "nothing was written into the linked folder");
    for name in ["report.json", "report.md", "contact-sheet.png", "contact-sheet.txt", "renders"] {
        assert!(!std::fs::symlink_metadata(report_dir.join(name)).unwrap().file_type().is_symlink(), "{name} was replaced");
    }
    let sheet_index = std::fs::read_to_string(report_dir.join("contact-sheet.txt")).unwrap();
    assert!(sheet_index.starts_with("row\tcolumn\trender\n"), "{sheet_index}");
    assert!(!report_dir.join(".contact_sheet.py").exists() || std::fs::symlink_metadata(report_dir.join(".contact_sheet.py")).unwrap().file_type().is_symlink(), "the script is not written into the report folder");
}

/// The report writer alone, with a real Blender making the contact sheet: it is made in a
/// private temporary folder, and links planted in the report folder are replaced.
#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn the_report_replaces_planted_links_and_makes_its_contact_sheet_elsewhere() {
    use capstan::eval::metrics::{Status, SuiteReport, TaskReport};
    let blender = std::env::var("CAPSTAN_TEST_BLENDER").expect("CAPSTAN_TEST_BLENDER names Blender");
    let install = capstan::app_units::blender::locate::probe(std::path::Path::new(&blender)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let report_dir = tmp.path().join("report");
    let (victim, victim_dir) = plant_links(tmp.path(), &report_dir);
    let mut passed = TaskReport::blank("cube", "add a cube", "trajectory");
    passed.status = Status::Passed;
    let report = SuiteReport::new(vec![passed, TaskReport::blank("broken", "do the impossible", "trajectory")]);
    let written = capstan::eval::report::write(&report_dir, &report, Some(&capstan::app_units::blender::contact_sheet::Sheets { install })).unwrap();
    assert_eq!(written.len(), 6, "{written:?}");
    assert!(std::fs::read(report_dir.join("contact-sheet.png")).unwrap().starts_with(b"\x89PNG"));
    let index = std::fs::read_to_string(report_dir.join("contact-sheet.txt")).unwrap();
    assert!(index.contains("001-cube.png") && index.contains("002-broken.png"), "{index}");
    links_were_replaced_not_followed(&report_dir, &victim, &victim_dir);
}

/// The shipped suite is a release gate: every task's trajectory passes its assertions in
/// a real Blender, and a task that could not fail (every assertion held before it
/// acted) is one that only reads or writes files (its call must still succeed).
#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn the_shipped_suite_passes_for_real() {
    let blender = std::env::var("CAPSTAN_TEST_BLENDER").expect("CAPSTAN_TEST_BLENDER names Blender");
    let tmp = tempfile::tempdir().unwrap();
    let out = capstan(tmp.path(), &blender, &["eval", "--json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let not_passed: Vec<String> = doc["tasks"].as_array().unwrap().iter().filter(|t| t["status"] != "passed").map(|t| format!("{:#}", t)).collect();
    assert!(not_passed.is_empty(), "{}", not_passed.join("\n"));
    assert_eq!(out.status.code(), Some(0));
    assert!(doc["totals"]["tasks"].as_u64().unwrap() >= 40);
    let rt = support::runtime(&capstan::home::CapstanHome::at(tmp.path()), std::sync::Arc::new(capstan::bridge::Offline), &[]);
    for t in doc["tasks"].as_array().unwrap().iter().filter(|t| t["held_before"] == t["assertions_total"]) {
        let keys: Vec<&str> = t["calls"].as_array().unwrap().iter().filter_map(|c| c["capability"].as_str()).collect();
        assert!(!keys.is_empty() && keys.iter().all(|k| !rt.capability(k).unwrap().mutates), "{} could not fail, yet it changes the scene: {keys:?}", t["id"]);
    }
}

/// The planner on the shipped suite (issue 28's acceptance, kept as a gate): it
/// completes at least 56 of the 85 tasks (56 measured; it completes none of the 12 image
/// goals, which it sees as words only), it never sends a call the
/// schema refuses (a step it cannot complete needs input and is held), it renders only
/// when the goal asks for a picture, and a goal that only asks changes nothing.
#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn the_planner_completes_the_shipped_suite_and_keeps_its_promises() {
    let blender = std::env::var("CAPSTAN_TEST_BLENDER").expect("CAPSTAN_TEST_BLENDER names Blender");
    let tmp = tempfile::tempdir().unwrap();
    let out = capstan(tmp.path(), &blender, &["eval", "--planner", "--json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let rt = support::runtime(&capstan::home::CapstanHome::at(tmp.path()), std::sync::Arc::new(capstan::bridge::Offline), &[]);
    let tasks = doc["tasks"].as_array().unwrap();
    let failed: Vec<&str> = tasks.iter().filter(|t| t["status"] != "passed").filter_map(|t| t["id"].as_str()).collect();
    let passed = doc["totals"]["passed"].as_u64().unwrap();
    assert!(passed >= 56, "the planner completed {passed} of {} (floor 56); not passed: {failed:?}", tasks.len());
    assert_planner_promises(&rt, tasks);
}

/// The suites written apart from the code: `host/eval/outsider.json` (40 requests
/// written from the README and the tools' own answers) and `host/eval/heldout.json`,
/// `heldout2.json`, `heldout3.json`, `heldout4.json` (40 more each, written the same way
/// by someone who never saw the planner, the router's phrases, the shipped suite or the
/// other suites; heldout4 by someone who read only the READMEs and the schemas).
/// Every task's trajectory passes, so what an outsider could do stays done.
#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn the_suites_written_apart_pass_for_real() {
    let blender = std::env::var("CAPSTAN_TEST_BLENDER").expect("CAPSTAN_TEST_BLENDER names Blender");
    let tmp = tempfile::tempdir().unwrap();
    for name in ["outsider", "heldout", "heldout2", "heldout3", "heldout4"] {
        let suite = support::workspace().join(format!("host/eval/{name}.json"));
        let out = capstan(tmp.path(), &blender, &["eval", "--suite", suite.to_str().unwrap(), "--json"]);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        let not_passed: Vec<String> = doc["tasks"].as_array().unwrap().iter().filter(|t| t["status"] != "passed").map(|t| format!("{:#}", t)).collect();
        assert!(not_passed.is_empty(), "{name}: {}", not_passed.join("\n"));
        assert_eq!(doc["totals"]["tasks"], 40, "{name}");
    }
}

/// The planner on the suites written apart from it (issue 28's acceptance measures an
/// independent suite): floors at what it completes (outsider 24 of 40, held-out 30, 27,
/// 29 and 28 of 40; the held-out suites' first, blind runs were 23, 24, 27 and 27), and the same promises as on the
/// shipped suite: no call the schema refuses, no picture unasked, no change for a goal
/// that only asks.
#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn the_planner_completes_the_suites_written_apart_and_keeps_its_promises() {
    let blender = std::env::var("CAPSTAN_TEST_BLENDER").expect("CAPSTAN_TEST_BLENDER names Blender");
    let tmp = tempfile::tempdir().unwrap();
    let rt = support::runtime(&capstan::home::CapstanHome::at(tmp.path()), std::sync::Arc::new(capstan::bridge::Offline), &[]);
    for (name, floor) in [("outsider", 24), ("heldout", 30), ("heldout2", 27), ("heldout3", 29), ("heldout4", 28)] {
        let suite = support::workspace().join(format!("host/eval/{name}.json"));
        let out = capstan(tmp.path(), &blender, &["eval", "--planner", "--suite", suite.to_str().unwrap(), "--json"]);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        let tasks = doc["tasks"].as_array().unwrap();
        let failed: Vec<&str> = tasks.iter().filter(|t| t["status"] != "passed").filter_map(|t| t["id"].as_str()).collect();
        let passed = doc["totals"]["passed"].as_u64().unwrap();
        assert!(passed >= floor, "{name}: the planner completed {passed} of {} (floor {floor}); not passed: {failed:?}", tasks.len());
        assert_planner_promises(&rt, tasks);
    }
}

/// What the planner promises on any suite: no call the schema refuses (a step it cannot
/// complete is held), a picture only when the goal asks for one, and no change for a
/// goal that only asks.
fn assert_planner_promises(rt: &capstan::runtime::Runtime, tasks: &[Value]) {
    let pictures = ["scene.render", "render.animation", "inspect.viewport"];
    for t in tasks {
        let goal = t["goal"].as_str().unwrap();
        let calls = t["calls"].as_array().unwrap();
        let refused: Vec<&Value> = calls.iter().filter(|c| c["outcome"] == "refused").collect();
        assert!(refused.is_empty(), "{}: sent calls the schema refuses: {refused:#?}", t["id"]);
        let keys: Vec<&str> = calls.iter().filter_map(|c| c["capability"].as_str()).collect();
        if !capstan::planner::plan::wants_render(goal) {
            assert!(keys.iter().all(|k| !pictures.contains(k)), "{}: {goal:?} asks for no picture, yet the plan made one: {keys:?}", t["id"]);
        }
        if capstan::router::intent::of(goal) == capstan::router::Intent::Read {
            assert!(keys.iter().all(|k| !rt.capability(k).is_some_and(|c| c.mutates)), "{}: {goal:?} only asks, yet the plan changed the scene: {keys:?}", t["id"]);
        }
    }
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
    assert_eq!(doc["totals"]["errors"], 7);
    assert!(doc["tasks"].as_array().unwrap().iter().all(|t| t["status"] == "error"));
    assert!(doc["tasks"][0]["error"].as_str().unwrap().contains("Blender did not start"), "{doc:#}");
    // A file that is not a suite is refused before anything starts.
    for bad in [r#"{"version": 2, "tasks": [{"id": "x", "goal": "g", "assertions": []}]}"#, r#"{"version": 1, "tasks": []}"#, "[]"] {
        std::fs::write(&suite_path, bad).unwrap();
        let out = capstan(tmp.path(), fake.to_str().unwrap(), &["eval", "--suite", suite_path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("not valid"), "{bad}");
    }
}

#[test]
fn check_lists_what_cannot_run_without_blender() {
    let tmp = tempfile::tempdir().unwrap();
    let suite_path = tmp.path().join("suite.json");
    std::fs::write(&suite_path, suite().to_string()).unwrap();
    let fake = tmp.path().join("not-blender");
    std::fs::write(&fake, "").unwrap();
    let out = capstan(tmp.path(), fake.to_str().unwrap(), &["eval", "--check", "--suite", suite_path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("cannot-run: cannot run: trajectory call 1 names \"blender_nuke_everything\""), "{stdout}");
    assert!(stdout.contains("malformed: cannot run: not valid"), "{stdout}");
    assert!(stdout.contains("settings-changed: note: call 2 (scene.create_object)"), "{stdout}");
    assert!(stdout.contains("5 of 7 tasks can run"), "{stdout}");
    // The shipped suite: every task can run.
    let out = capstan(tmp.path(), fake.to_str().unwrap(), &["eval", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
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
    use capstan::eval::metrics::Status;
    use capstan::eval::run::{Env, run_suite};
    let tmp = tempfile::tempdir().unwrap();
    let home = capstan::home::CapstanHome::at(tmp.path());
    let bridge: std::sync::Arc<dyn capstan::bridge::BridgeClient> = std::sync::Arc::new(DiesAfterReset);
    let rt = support::runtime(&home, bridge.clone(), &[]);
    let router = capstan::planner::Router::for_runtime(&rt);
    let env = Env { path: capstan::call::CallPath::ungated(&rt), client: bridge.as_ref(), router: &router, server: "blender", thumbnails: false, planner_only: false, agent: None };
    let suite = capstan::eval::Suite::parse(&suite().to_string()).unwrap();
    let report = run_suite(&env, &suite, false);
    for t in &report.tasks {
        assert_eq!(t.status, Status::Error, "{t:?}");
        let e = t.error.as_deref().unwrap();
        assert!(e.contains("Blender failed") || e.starts_with("cannot run") || e.starts_with("the task is not valid"), "{t:?}");
    }
    // The two tasks that cannot run are errors for their own reasons, before Blender.
    assert_eq!(report.totals.errors, 7);
    assert_eq!(report.totals.passed, 0);
}

/// Answers everything until the trajectory's object was made (and its undo step), then
/// dies: the assertions cannot be measured.
#[derive(Default)]
struct DiesBeforeTheChecks {
    made: std::sync::atomic::AtomicBool,
}

impl capstan::bridge::BridgeClient for DiesBeforeTheChecks {
    fn call(&self, request: capstan::bridge::BridgeRequest<'_>) -> Result<Value, capstan::bridge::BridgeFailure> {
        use std::sync::atomic::Ordering::SeqCst;
        if !self.made.load(SeqCst) || request.command == "undo_push" {
            self.made.fetch_or(request.command == "create_object", SeqCst);
            return Ok(support::canned::answer(request.command, request.params));
        }
        Err(capstan::bridge::BridgeFailure::Transport { reason: "connection_reset".into(), detail: "the bridge went away".into() })
    }
}

#[test]
fn blender_going_away_before_the_checks_is_an_error() {
    use capstan::eval::metrics::Status;
    use capstan::eval::run::{Env, run_task};
    let tmp = tempfile::tempdir().unwrap();
    let home = capstan::home::CapstanHome::at(tmp.path());
    let bridge: std::sync::Arc<dyn capstan::bridge::BridgeClient> = std::sync::Arc::new(DiesBeforeTheChecks::default());
    let rt = support::runtime(&home, bridge.clone(), &[]);
    let router = capstan::planner::Router::for_runtime(&rt);
    let env = Env { path: capstan::call::CallPath::ungated(&rt), client: bridge.as_ref(), router: &router, server: "blender", thumbnails: false, planner_only: false, agent: None };
    let suite = capstan::eval::Suite::parse(&suite().to_string()).unwrap();
    let t = run_task(&env, &suite.tasks[0]);
    assert_eq!(t.status, Status::Error, "{t:?}");
    assert!(t.error.as_deref().unwrap().contains("while the assertions were checked"), "{t:?}");
}

/// Image goals (issue: BlenderGym-style tasks): every image task of the shipped suite,
/// run for real with its reference trajectory as the trajectory, passes `visual_match`;
/// run with its near miss (one thing wrong), fails it. The measured scores are printed
/// (`--nocapture`) so the thresholds can be re-checked on each Blender line.
#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn every_image_task_passes_its_reference_and_fails_its_near_miss() {
    use capstan::eval::image::{ImageRun, run_image_task, visual_match_of};
    let blender = std::env::var("CAPSTAN_TEST_BLENDER").expect("CAPSTAN_TEST_BLENDER names Blender");
    let tmp = tempfile::tempdir().unwrap();
    // SAFETY: set before anything in this test reads the environment; the unit reads it to find Blender.
    unsafe { std::env::set_var("CAPSTAN_BLENDER", &blender) };
    let home = capstan::home::CapstanHome::at(tmp.path());
    let unit = capstan::app_units::all()[0];
    let instance = unit.start_headless(&home, &capstan::app_unit::HeadlessOptions { private: true, cpus: None }).unwrap_or_else(|e| panic!("Blender did not start: {e}"));
    let client = std::sync::Arc::new(capstan::bridge::HttpBridgeClient::for_runtime_file(&home, unit.server(), instance.runtime_file()));
    let mut rt = capstan::runtime::Runtime::new(&home, capstan::engine::AllocationPreference::PoolingIfAvailable, client.clone()).unwrap();
    rt.load_all(&home);
    let router = capstan::planner::Router::for_runtime(&rt);
    let gate = capstan::call::app_gate::AppGate::new(&rt, client.clone(), &home);
    let env = capstan::eval::run::Env { path: capstan::call::CallPath::new(&rt, &gate), client: client.as_ref(), router: &router, server: unit.server(), thumbnails: false, planner_only: false, agent: None };
    let suite = capstan::eval::Suite::parse(include_str!("../eval/suite.json")).unwrap();
    let images: Vec<_> = suite.tasks.iter().filter(|e| e.task.as_ref().is_ok_and(|t| t.is_image())).collect();
    assert!(images.len() >= 10, "{} image tasks (at least 10)", images.len());
    let mut wrong = Vec::new();
    for entry in images {
        for (which, must_pass) in [(ImageRun::Reference, true), (ImageRun::NearMiss, false)] {
            let report = run_image_task(&env, entry, which).unwrap();
            let verdict = visual_match_of(&report);
            println!("{} {which:?}: {:?} {}", entry.id, report.status, verdict.as_ref().map(|(_, m)| m.to_string()).unwrap_or_default());
            assert!(report.held_before == 0, "{}: visual_match held before the task acted: {report:?}", entry.id);
            match verdict {
                Some((passed, _)) if passed == must_pass && report.error.is_none() => {}
                _ => wrong.push(format!("{} {which:?}: {:?} {:?} {:?}", entry.id, report.status, report.error, report.critique)),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
