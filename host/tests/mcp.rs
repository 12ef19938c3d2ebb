//! `capstan serve` driven by rmcp's MCP client over stdio: the guided surface's five
//! tools, routing, search, schemas, every error code, and the expert surface.
//! A loopback stub bridge stands in for the app where only capstan's layers are tested.

mod support;
#[path = "support/stub_bridge.rs"]
mod stub_bridge;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::path::Path;
use stub_bridge::StubBridge;

async fn client(home: &Path, expert: bool) -> RunningService<RoleClient, ()> {
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_capstan")).configure(|c| {
        c.env("CAPSTAN_HOME", home).arg("serve");
        if expert {
            c.arg("--expert");
        }
    });
    ().serve(TokioChildProcess::new(cmd).unwrap()).await.expect("capstan serve starts and initializes")
}

async fn call<H: rmcp::ClientHandler>(c: &RunningService<RoleClient, H>, tool: &str, args: Value) -> CallToolResult {
    let Value::Object(map) = args else { panic!("arguments are an object") };
    c.call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map)).await.expect("the call is answered")
}

fn structured(r: &CallToolResult) -> &Value {
    r.structured_content.as_ref().expect("every result carries structuredContent")
}

fn error_code(r: &CallToolResult) -> String {
    assert_eq!(r.is_error, Some(true), "{r:?}");
    structured(r)["error"]["code"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_guided_surface_offers_exactly_five_tools_and_routes_the_floor() {
    let home = tempfile::tempdir().unwrap();
    let _bridge = StubBridge::start(home.path());
    let c = client(home.path(), false).await;
    let mut names: Vec<String> = c.list_all_tools().await.unwrap().into_iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(names, ["execute_capability", "get_capability_schema", "router_get_status", "router_set_goal", "search_capabilities"]);

    for (phrase, family) in [
        ("add a cube", "create"),
        ("three point lights", "lighting"),
        ("make it look like chrome", "material"),
        ("render a png", "render"),
        ("what's in the scene", "inspect"),
        ("move the camera", "camera"),
        ("delete the default cube", "mutate"),
        ("hdri background", "world"),
        ("make this feel more premium somehow", "inspect"),
    ] {
        let r = call(&c, "router_set_goal", json!({ "goal": phrase })).await;
        assert_eq!(structured(&r)["family"], family, "{phrase}");
        // The text content is the same JSON as structuredContent.
        let text = r.content[0].as_text().unwrap().text.clone();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), *structured(&r));
    }
    let r = call(&c, "router_set_goal", json!({ "goal": "add a cube" })).await;
    assert_eq!(structured(&r)["suggestions"][0]["key"], "scene.create_object");
    // A plain edit suggests the pack's transforms-object capability first, as the
    // planner plans it and `capstan eval` scores it; the family stays the router's.
    let r = call(&c, "router_set_goal", json!({ "goal": "Hide the camera, I don't want to see it." })).await;
    assert_eq!(structured(&r)["family"], "camera", "{}", structured(&r));
    assert_eq!(structured(&r)["suggestions"][0]["key"], "scene.modify_object", "{}", structured(&r));
    assert_eq!(structured(&r)["intent"], "change");
    // A goal that only asks: intent read, a reason, and no suggestion that changes anything
    // (this one was once answered with material.assign).
    for goal in ["Which objects use the material named Red?", "can the camera see the whole cube?", "make this feel more premium somehow"] {
        let r = call(&c, "router_set_goal", json!({ "goal": goal })).await;
        let doc = structured(&r);
        assert!(doc["why"].as_str().is_some_and(|w| !w.is_empty()), "{goal}: {doc}");
        if goal.ends_with('?') {
            assert_eq!(doc["intent"], "read", "{goal}");
            let suggestions = doc["suggestions"].as_array().unwrap();
            assert!(!suggestions.is_empty() && suggestions.iter().all(|h| h["mutates"] == false), "{goal}: {doc}");
        }
    }
    // Tidying is not a destruction: a purge is not the first suggestion unless named.
    let r = call(&c, "router_set_goal", json!({ "goal": "tidy up the data-blocks in the file" })).await;
    assert_ne!(structured(&r)["suggestions"][0]["key"], "mutate.cleanup", "{}", structured(&r));
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_schema_and_execute_work_and_every_error_has_its_code() {
    let home = tempfile::tempdir().unwrap();
    let bridge = StubBridge::start(home.path());
    let c = client(home.path(), false).await;

    let r = call(&c, "search_capabilities", json!({ "query": "chrome material", "limit": 3 })).await;
    let results = structured(&r)["results"].as_array().unwrap().clone();
    assert_eq!(results[0]["key"], "scene.set_material");
    assert!(results.len() <= 3);
    for hit in &results {
        let keys: Vec<&String> = hit.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["family", "key", "mutates", "score", "summary"], "summaries only");
    }
    let r = call(&c, "search_capabilities", json!({ "query": "light", "family": "lighting" })).await;
    assert!(structured(&r)["results"].as_array().unwrap().iter().all(|h| h["family"] == "lighting"));

    let r = call(&c, "get_capability_schema", json!({ "key": "scene.create_object" })).await;
    assert_eq!(structured(&r)["input_schema"]["required"], json!(["type"]));
    assert_eq!(structured(&r)["mutates"], true);

    let before = bridge.bridge_requests();
    assert_eq!(error_code(&call(&c, "execute_capability", json!({ "key": "blender_create_object", "arguments": { "type": "cube" } })).await), "NON_CANONICAL_CAPABILITY");
    assert_eq!(error_code(&call(&c, "get_capability_schema", json!({ "key": "create_object" })).await), "NON_CANONICAL_CAPABILITY");
    let r = call(&c, "execute_capability", json!({ "key": "scene.teleport", "arguments": {} })).await;
    assert_eq!(error_code(&r), "CAPABILITY_NOT_FOUND");
    assert!(structured(&r)["error"]["message"].as_str().unwrap().contains("search again"));
    let r = call(&c, "execute_capability", json!({ "key": "scene.create_object", "arguments": { "type": "teapot", "extra": 1 } })).await;
    assert_eq!(error_code(&r), "INVALID_CAPABILITY_ARGUMENTS");
    assert!(structured(&r)["error"]["errors"].as_array().unwrap().len() >= 2);
    assert_eq!(bridge.bridge_requests(), before, "no bridge call for bad input");

    let r = call(&c, "execute_capability", json!({ "key": "scene.info", "arguments": {} })).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(structured(&r)["result"]["objects"][0]["name"], "Cube");
    let r = call(&c, "execute_capability", json!({ "key": "scene.create_object", "arguments": { "type": "cube", "name": "Via" } })).await;
    assert_eq!(structured(&r)["delta"]["added"], json!(["Via"]), "the host merges the bridge's delta and lifts it to the top");
    assert_eq!(bridge.bridge_requests(), before + 2);

    let r = call(&c, "router_get_status", json!({})).await;
    let s = structured(&r);
    assert_eq!(s["executions"].as_array().unwrap().last().unwrap()["key"], "scene.create_object");
    assert_eq!(s["availability"][0]["state"], "available");
    c.cancel().await.unwrap();
}

/// The status lists the session's recent executions, newest last, and counts them all:
/// its size and cost do not grow with the session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_lists_the_recent_executions_and_counts_them_all() {
    let home = tempfile::tempdir().unwrap();
    let _bridge = StubBridge::start(home.path());
    let c = client(home.path(), false).await;
    let listed = capstan::mcp::session::MAX_EXECUTIONS;
    assert!(listed <= 25, "an agent reads the status into its context: {listed} executions listed is too many");
    let made = listed + 7;
    for i in 0..made - 1 {
        let r = call(&c, "execute_capability", json!({ "key": format!("scene.unknown_{i}"), "arguments": {} })).await;
        assert_eq!(error_code(&r), "CAPABILITY_NOT_FOUND");
    }
    let r = call(&c, "execute_capability", json!({ "key": "scene.info", "arguments": {} })).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");

    let r = call(&c, "router_get_status", json!({})).await;
    let s = structured(&r);
    assert_eq!(s["execution_count"], json!(made), "every execution is counted: {s}");
    let executions = s["executions"].as_array().unwrap();
    assert_eq!(executions.len(), listed, "only the recent ones are listed: {s}");
    assert_eq!(executions[0]["key"], format!("scene.unknown_{}", made - listed), "oldest listed first");
    assert_eq!(executions[listed - 2]["status"], "CAPABILITY_NOT_FOUND");
    assert_eq!(executions[listed - 1]["key"], "scene.info");
    assert_eq!(executions[listed - 1]["status"], "ok");
    c.cancel().await.unwrap();
}

/// A provisioned-looking Blender in `home`: `bin/blender --version` prints `version`.
#[cfg(unix)]
fn fake_installed_blender(home: &Path, version: &str) {
    use std::os::unix::fs::PermissionsExt;
    let bin = home.join("blender/bpy-5.2.4/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("blender"), format!("#!/bin/sh\necho 'Blender {version}'\n")).unwrap();
    std::fs::set_permissions(bin.join("blender"), std::fs::Permissions::from_mode(0o755)).unwrap();
}

async fn guided_state(home: &Path) -> Value {
    let c = client(home, false).await;
    let r = call(&c, "search_capabilities", json!({ "query": "add a cube" })).await;
    let hidden = structured(&r)["hidden"][0].clone();
    c.cancel().await.unwrap();
    hidden
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_broken_link_of_the_chain_has_its_own_state() {
    // Installed, nothing running for this home: app_not_running.
    let home = tempfile::tempdir().unwrap();
    fake_installed_blender(home.path(), "5.2.4");
    let line = guided_state(home.path()).await;
    assert_eq!(line["state"], "app_not_running", "{line}");
    assert!(line["user_action"].as_str().unwrap().contains("capstan blender launch"));

    // The app runs for this home, but its runtime file is gone: endpoint_unavailable.
    let mut running = std::process::Command::new("sh")
        .args(["-c", "sleep 60", "run_bridge.py"])
        .env("CAPSTAN_HOME", home.path())
        .spawn()
        .unwrap();
    let line = guided_state(home.path()).await;
    running.kill().unwrap();
    running.wait().unwrap();
    assert_eq!(line["state"], "endpoint_unavailable", "{line}");
    assert!(line["detail"].as_str().unwrap().contains("is running"), "{line}");

    // Only a too old install (when this machine has no Blender of its own that qualifies).
    let system = ["/usr/bin/blender", "/usr/local/bin/blender", "/snap/bin/blender"];
    if !system.iter().any(|p| Path::new(p).exists()) {
        let old = tempfile::tempdir().unwrap();
        fake_installed_blender(old.path(), "4.2.9");
        let line = guided_state(old.path()).await;
        assert_eq!(line["state"], "version_too_old", "{line}");
        assert_eq!((line["app"]["version"].as_str(), line["app"]["required"].as_str()), (Some("4.2.9"), Some("4.5")));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unavailable_app_is_a_state_and_its_tools_are_hidden() {
    let home = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    fake_installed_blender(home.path(), "5.2.4");
    let c = client(home.path(), false).await;
    let r = call(&c, "search_capabilities", json!({ "query": "add a cube" })).await;
    let s = structured(&r);
    assert!(s["results"].as_array().unwrap().is_empty(), "blender's capabilities are hidden");
    assert_eq!(s["hidden"][0]["server"], "blender");
    assert_eq!(s["hidden"][0]["retry"], "after_user_action");
    let r = call(&c, "execute_capability", json!({ "key": "scene.info", "arguments": {} })).await;
    assert_eq!(error_code(&r), "APP_UNAVAILABLE");
    assert_eq!(structured(&r)["error"]["availability"]["state"], "app_not_running");
    c.cancel().await.unwrap();

    let expert = client(home.path(), true).await;
    assert!(expert.list_all_tools().await.unwrap().is_empty(), "the expert surface omits tools of unavailable servers");
    expert.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_expert_surface_offers_every_capability_with_annotations() {
    let home = tempfile::tempdir().unwrap();
    let bridge = StubBridge::start(home.path());
    let c = client(home.path(), true).await;
    let tools = c.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), support::official_capability_count_of("blender"), "{:?}", tools.iter().map(|t| t.name.to_string()).collect::<Vec<_>>());
    let find = |n: &str| tools.iter().find(|t| t.name == n).unwrap_or_else(|| panic!("{n}"));
    let info = find("scene__info");
    assert_eq!(info.annotations.as_ref().unwrap().read_only_hint, Some(true));
    let delete = find("scene__delete_object");
    assert_eq!(delete.annotations.as_ref().unwrap().destructive_hint, Some(true));
    assert_eq!(delete.annotations.as_ref().unwrap().read_only_hint, Some(false));
    assert!(tools.iter().all(|t| t.name.len() <= 64));
    assert_eq!(find("scene__create_object").input_schema.get("required"), Some(&json!(["type"])));

    let before = bridge.bridge_requests();
    let r = call(&c, "scene__create_object", json!({ "type": "teapot" })).await;
    assert_eq!(error_code(&r), "INVALID_CAPABILITY_ARGUMENTS");
    assert_eq!(bridge.bridge_requests(), before);
    let r = call(&c, "scene__info", json!({})).await;
    assert_eq!(structured(&r)["result"]["objects"][0]["name"], "Cube");
    c.cancel().await.unwrap();
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execute_capability_creates_the_object_in_real_blender_with_its_delta() {
    let home = tempfile::tempdir().unwrap();
    let Some(_blender) = tokio::task::block_in_place(|| support::headless_blender(home.path())) else { return };
    let c = client(home.path(), false).await;
    let r = call(&c, "execute_capability", json!({ "key": "scene.create_object", "arguments": { "type": "monkey", "name": "RmcpMonkey" } })).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(structured(&r)["delta"]["added"], json!(["RmcpMonkey"]));
    let r = call(&c, "execute_capability", json!({ "key": "scene.object_info", "arguments": { "name": "RmcpMonkey" } })).await;
    assert_eq!(structured(&r)["result"]["type"], "MESH");
    c.cancel().await.unwrap();
}

/// A client that counts `notifications/tools/list_changed`.
#[derive(Clone, Default)]
struct ListWatcher(std::sync::Arc<tokio::sync::Notify>);

impl rmcp::ClientHandler for ListWatcher {
    async fn on_tool_list_changed(&self, _context: rmcp::service::NotificationContext<RoleClient>) {
        self.0.notify_one();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_expert_surface_tells_its_client_when_blender_comes_goes_or_lacks_a_command() {
    let home = tempfile::tempdir().unwrap();
    let watcher = ListWatcher::default();
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_capstan")).configure(|c| {
        c.env("CAPSTAN_HOME", home.path()).args(["serve", "--expert"]);
    });
    let c = watcher.clone().serve(TokioChildProcess::new(cmd).unwrap()).await.expect("capstan serve --expert starts");
    assert!(c.list_all_tools().await.unwrap().is_empty(), "no bridge yet: Blender's tools are hidden");

    let bridge = StubBridge::start(home.path());
    tokio::time::timeout(std::time::Duration::from_secs(15), watcher.0.notified()).await.expect("list_changed when the bridge came up");
    assert_eq!(c.list_all_tools().await.unwrap().len(), support::official_capability_count_of("blender"));

    // An older add-on takes the bridge's place: the tool needing what it lacks goes.
    let older = StubBridge::start_addon(home.path(), "addon-token-older-0123456789abcdef0", addon_commands(&["add_modifier"]));
    tokio::time::timeout(std::time::Duration::from_secs(15), watcher.0.notified()).await.expect("list_changed when the add-on lacks a command");
    let names: Vec<String> = c.list_all_tools().await.unwrap().into_iter().map(|t| t.name.to_string()).collect();
    assert!(!names.contains(&"mutate__modifier_add".to_string()), "{names:?}");
    assert!(names.contains(&"scene__info".to_string()), "what the add-on serves stays: {names:?}");
    assert!(names.len() < support::official_capability_count_of("blender"), "{names:?}");

    drop((bridge, older));
    std::fs::remove_file(home.path().join("run/blender/server.json")).unwrap();
    tokio::time::timeout(std::time::Duration::from_secs(15), watcher.0.notified()).await.expect("list_changed when the bridge went away");
    assert!(c.list_all_tools().await.unwrap().is_empty());
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_server_picks_up_installs_and_removals_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let _bridge = StubBridge::start(home.path());
    let watcher = ListWatcher::default();
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_capstan")).configure(|c| {
        c.env("CAPSTAN_HOME", home.path()).args(["serve", "--expert"]);
    });
    let c = watcher.clone().serve(TokioChildProcess::new(cmd).unwrap()).await.expect("capstan serve --expert starts");
    let names = |tools: Vec<rmcp::model::Tool>| tools.into_iter().map(|t| t.name.to_string()).collect::<Vec<_>>();
    assert!(!names(c.list_all_tools().await.unwrap()).iter().any(|n| n.starts_with("hello__")));

    let pack = support::built_pack("sdk/examples/hello-pack");
    let cli = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home.path()).args(args).output().unwrap();
    let out = cli(&["packs", "install", pack.to_str().unwrap(), "--force"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    tokio::time::timeout(std::time::Duration::from_secs(20), watcher.0.notified()).await.expect("list_changed after the install");
    assert!(names(c.list_all_tools().await.unwrap()).contains(&"hello__count_objects".to_string()));
    let r = call(&c, "hello__count_objects", json!({ "kind": "MESH" })).await;
    assert_ne!(r.is_error, Some(true), "the new pack runs: {r:?}");

    assert!(cli(&["packs", "remove", "hello-pack"]).status.success());
    tokio::time::timeout(std::time::Duration::from_secs(20), watcher.0.notified()).await.expect("list_changed after the removal");
    assert!(!names(c.list_all_tools().await.unwrap()).iter().any(|n| n.starts_with("hello__")));
    c.cancel().await.unwrap();
}

/// Oversized inputs: a 4 MB goal is refused on both goal tools with an error that names
/// the bound (and the session keeps no goal), and an error about a megabyte value quotes
/// only a preview of it (capability arguments, search, planner schemas).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_megabyte_goal_is_refused_naming_the_bound_and_errors_quote_only_a_preview() {
    let home = tempfile::tempdir().unwrap();
    let bridge = StubBridge::start(home.path());
    let c = client(home.path(), false).await;
    let huge = "g".repeat(4 * 1024 * 1024);
    let answer_size = |r: &CallToolResult| serde_json::to_string(r).unwrap().len();

    let r = call(&c, "router_set_goal", json!({ "goal": huge })).await;
    assert_eq!(error_code(&r), "INVALID_TOOL_ARGUMENTS");
    let error = &structured(&r)["error"];
    assert_eq!(error["limit"]["argument"], "goal", "{error}");
    assert_eq!(error["limit"]["max_chars"], 2000);
    assert_eq!(error["limit"]["chars"], 4 * 1024 * 1024);
    assert!(error["message"].as_str().unwrap().contains("the most accepted is 2000"), "{error}");
    assert!(answer_size(&r) < 4096, "the refusal is {} bytes", answer_size(&r));
    let status = call(&c, "router_get_status", json!({})).await;
    assert_eq!(structured(&status)["goal"], Value::Null, "a refused goal is not kept");
    // The bound itself is accepted.
    let r = call(&c, "router_set_goal", json!({ "goal": "g".repeat(2000) })).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");

    let r = call(&c, "search_capabilities", json!({ "query": huge })).await;
    assert_eq!(error_code(&r), "INVALID_TOOL_ARGUMENTS");
    assert_eq!(structured(&r)["error"]["limit"]["max_chars"], 500);
    let r = call(&c, "execute_capability", json!({ "key": huge, "arguments": {} })).await;
    assert_eq!(structured(&r)["error"]["limit"]["max_chars"], 64);
    assert!(answer_size(&r) < 4096);

    // A schema error about a megabyte value: a preview and the value's size, not the value.
    let before = bridge.bridge_requests();
    let r = call(&c, "execute_capability", json!({ "key": "scene.create_object", "arguments": { "type": "t".repeat(1024 * 1024) } })).await;
    assert_eq!(error_code(&r), "INVALID_CAPABILITY_ARGUMENTS");
    let errors = structured(&r)["error"]["errors"].to_string();
    assert!(errors.contains("ttt") && errors.contains("(1048578 bytes)"), "{errors}");
    assert!(answer_size(&r) < 8192, "the refusal is {} bytes", answer_size(&r));
    assert_eq!(bridge.bridge_requests(), before);
    c.cancel().await.unwrap();

    // The planner's goal tool refuses alike; its other schema errors quote a preview.
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_capstan")).configure(|c| {
        c.env("CAPSTAN_HOME", home.path()).args(["serve", "--planner"]);
    });
    let p = ().serve(TokioChildProcess::new(cmd).unwrap()).await.expect("capstan serve --planner starts");
    let r = call(&p, "planner_set_goal", json!({ "goal": huge })).await;
    assert_eq!(error_code(&r), "INVALID_TOOL_ARGUMENTS");
    assert_eq!(structured(&r)["error"]["limit"]["max_chars"], 2000);
    assert!(answer_size(&r) < 4096);
    let r = call(&p, "planner_plan", json!({ "custom_steps": ["s".repeat(1024 * 1024)] })).await;
    assert_eq!(error_code(&r), "INVALID_TOOL_ARGUMENTS");
    let message = structured(&r)["error"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("is longer than 500 characters") && message.contains("(1048578 bytes)"), "{message}");
    assert!(answer_size(&r) < 4096, "the refusal is {} bytes", answer_size(&r));
    p.cancel().await.unwrap();
}

/// The commands a real Blender add-on serves (its recorded ping), without `leave_out`.
fn addon_commands(leave_out: &[&str]) -> Vec<String> {
    let recorded: Value = serde_json::from_str(stub_bridge::Recorded::TEXT).unwrap();
    recorded["ping"]["commands"].as_array().unwrap().iter().filter_map(Value::as_str).filter(|c| !leave_out.contains(c)).map(String::from).collect()
}

fn lists(r: &CallToolResult, key: &str) -> bool {
    structured(r)["results"].as_array().unwrap().iter().any(|h| h["key"] == key)
}

/// The search's hidden lines about Blender (FreeCAD, not running here, has its own).
fn hidden_blender(r: &CallToolResult) -> Vec<Value> {
    structured(r)["hidden"].as_array().unwrap().iter().filter(|l| l["server"] == "blender").cloned().collect()
}

/// Add-on skew without a real Blender, over MCP: search hides what execution refuses, a
/// bridge replaced by an older add-on is found out (at once when the cached probe is
/// still young: its first `unknown_command`; or by the next probe), and an updated
/// add-on brings the capability back. The forget itself, whatever the machine's speed:
/// `an_unknown_command_makes_the_gate_forget_its_probe`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_hides_what_the_running_add_on_lacks_and_learns_it_from_an_unknown_command() {
    const KEY: &str = "mutate.modifier_add";
    let home = tempfile::tempdir().unwrap();
    let _current = StubBridge::start_addon(home.path(), "addon-token-current-0123456789abcdef", addon_commands(&[]));
    let c = client(home.path(), false).await;
    let bevel = json!({ "query": "add a bevel modifier", "limit": 10 });
    let r = call(&c, "search_capabilities", bevel.clone()).await;
    assert!(lists(&r, KEY), "the add-on serves add_modifier: {r:?}");
    assert!(hidden_blender(&r).is_empty(), "{r:?}");

    // An older add-on takes the bridge's place (a new token, no add_modifier). The call
    // may be admitted on the cached probe; the add-on then answers unknown_command.
    let older = StubBridge::start_addon(home.path(), "addon-token-older-0123456789abcdef0", addon_commands(&["add_modifier"]));
    let run = call(&c, "execute_capability", json!({ "key": KEY, "arguments": { "object": "Cube", "type": "BEVEL" } })).await;
    let code = error_code(&run);
    assert!(code == "BRIDGE_ERROR" || code == "APP_UNAVAILABLE", "{run:?}");
    if code == "BRIDGE_ERROR" {
        assert_eq!(older.bridge_requests(), 1, "the call reached the older add-on");
    }
    // Found out: hidden at once, named, and refused before any bridge work.
    let r = call(&c, "search_capabilities", bevel.clone()).await;
    assert!(!lists(&r, KEY), "{r:?}");
    let line = hidden_blender(&r).into_iter().find(|l| l["state"] == "addon_outdated").expect("a hidden line says why");
    assert_eq!(line["missing_commands"], json!(["add_modifier"]));
    assert!(line["capabilities"].as_array().unwrap().iter().any(|k| k == KEY), "{line}");
    let sent = older.bridge_requests();
    let run = call(&c, "execute_capability", json!({ "key": KEY, "arguments": { "object": "Cube", "type": "BEVEL" } })).await;
    assert_eq!(error_code(&run), "APP_UNAVAILABLE", "{run:?}");
    assert_eq!(structured(&run)["error"]["availability"]["missing_commands"], json!(["add_modifier"]));
    assert_eq!(older.bridge_requests(), sent, "refused before the bridge");

    // The add-on is updated: once the cached probe has aged out, it is offered again.
    let _updated = StubBridge::start_addon(home.path(), "addon-token-updated-0123456789abcdef", addon_commands(&[]));
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let r = call(&c, "search_capabilities", bevel).await;
    assert!(lists(&r, KEY), "{r:?}");
    assert!(hidden_blender(&r).is_empty(), "{r:?}");
    c.cancel().await.unwrap();
}

/// A bridge replaced by an older add-on while the probe that vouched for it still holds:
/// its `unknown_command` makes the call path forget that probe, so the very next skew
/// (what search hides) and admission see the older add-on. The probe is held for an
/// hour, so nothing but the forget can make the second answer differ from the first.
#[test]
fn an_unknown_command_makes_the_gate_forget_its_probe() {
    use capstan::bridge::HttpBridgeClient;
    use capstan::call::CallPath;
    use capstan::call::app_gate::AppGate;
    use capstan::engine::AllocationPreference;
    use capstan::home::CapstanHome;
    use capstan::runtime::Runtime;
    use std::sync::Arc;
    const KEY: &str = "mutate.modifier_add";
    const ARGS: &str = r#"{"object": "Cube", "type": "BEVEL"}"#;

    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let _current = StubBridge::start_addon(tmp.path(), "addon-token-current-0123456789abcdef", addon_commands(&[]));
    let client = Arc::new(HttpBridgeClient::for_home(&home));
    let mut runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client.clone()).unwrap();
    runtime.load_all(&home);
    client.adopt_declared(runtime.packs(), &home);
    let mut gate = AppGate::new(&runtime, client.clone(), &home);
    gate.availability.hold_probes_for(std::time::Duration::from_secs(3600));
    assert!(!gate.skew().keys.contains(KEY), "the current add-on serves add_modifier");
    assert!(gate.admit(KEY).is_ok());

    let older = StubBridge::start_addon(tmp.path(), "addon-token-older-0123456789abcdef0", addon_commands(&["add_modifier"]));
    let path = CallPath::new(&runtime, &gate);
    let failed = path.execute(KEY, ARGS, None).expect_err("the older add-on lacks add_modifier");
    assert!(failed.bridge_lacked_a_command(), "admitted on the held probe, answered unknown_command: {failed}");
    assert_eq!(older.bridge_requests(), 1);

    let skew = gate.skew();
    assert!(skew.keys.contains(KEY), "forgotten: the next probe asked the older add-on");
    assert_eq!(skew.missing.get("blender"), Some(&vec!["add_modifier".to_string()]));
    let refused = gate.admit(KEY).expect_err("refused before the bridge");
    assert_eq!(refused["availability"]["state"], "addon_outdated", "{refused}");
    assert_eq!(older.bridge_requests(), 1, "nothing more was sent");
}

/// A quick read on the stdio session's one thread makes its pack's next instance
/// after the answer (`runtime::spare`), and the next call runs in it. On a
/// multi-thread runtime (`serve --http`) no spare is made.
#[test]
fn a_quick_read_on_the_stdio_thread_leaves_a_spare_for_the_next_call() {
    use capstan::mcp::execute::{Shape, execute};
    let home = tempfile::tempdir().unwrap();
    let _bridge = StubBridge::start(home.path());
    let capstan_home = capstan::home::CapstanHome::at(home.path());
    let session = std::sync::Mutex::new(capstan::mcp::session::SessionState::default());
    let read = |core: std::sync::Arc<capstan::mcp::Core>| {
        let session = &session;
        async move {
            let r = execute(core, session, "scene.info", &json!({}), None, Shape::WholeAnswer).await;
            assert_eq!(r.is_error, Some(false), "{r:?}");
            // The answer is written by now; what follows it runs on the next turns.
            for _ in 0..3 {
                tokio::task::yield_now().await;
            }
        }
    };

    let core = std::sync::Arc::new(capstan::mcp::core(&capstan_home).unwrap());
    let stdio = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    stdio.block_on(read(core.clone()));
    assert!(core.runtime.has_spare_for("scene.info"), "a spare after the answer");
    assert_eq!(core.runtime.spares_taken(), 0);
    stdio.block_on(read(core.clone()));
    assert_eq!(core.runtime.spares_taken(), 1, "the second read ran in it");
    assert!(core.runtime.has_spare_for("scene.info"), "and left the next one");

    let core = std::sync::Arc::new(capstan::mcp::core(&capstan_home).unwrap());
    let http = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    http.block_on(read(core.clone()));
    http.block_on(read(core.clone()));
    assert!(!core.runtime.has_spare_for("scene.info"), "none on a multi-thread runtime");
    assert_eq!(core.runtime.spares_taken(), 0);
}
