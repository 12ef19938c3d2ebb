//! Several MCP clients at once against one real Blender: stdio sessions (each its own
//! `capstan serve`) and HTTP sessions (on one `capstan serve --http`), all calling at
//! the same time. Each keeps its own router state (goal, executions), every answer is
//! the answer to its own call (each client reads back the objects it made), and no call
//! is lost (every client's executions are all counted, and the scene ends as it began).
//! Throughput as clients are added: `cargo bench -p capstan --bench concurrency`.
//! Needs `CAPSTAN_TEST_BLENDER` (scripts/test sets it).

mod support;
#[path = "support/http_mcp.rs"]
mod http_mcp;
#[path = "support/mcp_client.rs"]
mod mcp_client;
#[path = "support/raw_mcp.rs"]
mod raw_mcp;

use mcp_client::McpClient;
use serde_json::{Value, json};

const STDIO_CLIENTS: usize = 2;
const HTTP_CLIENTS: usize = 3;
const OBJECTS_PER_CLIENT: usize = 15;

fn structured(response: &Value) -> &Value {
    assert_eq!(response["result"]["isError"], false, "{response}");
    &response["result"]["structuredContent"]
}

fn execute(c: &mut McpClient, key: &str, arguments: Value) -> Value {
    structured(&c.call_tool("execute_capability", json!({ "key": key, "arguments": arguments }))).clone()
}

fn scene_objects(c: &mut McpClient) -> Vec<String> {
    let scene = execute(c, "scene.info", json!({}));
    scene["result"]["objects"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap().to_string()).collect()
}

/// One client's run: its own goal, then make, read, move and delete its own objects.
fn run_client(n: usize, mut c: McpClient) -> usize {
    let goal = format!("client {n} over {}: add a cube and look at it", c.transport());
    structured(&c.call_tool("router_set_goal", json!({ "goal": goal })));
    let mut executions = 0;
    for k in 0..OBJECTS_PER_CLIENT {
        let name = format!("Conc{n}x{k}");
        let made = execute(&mut c, "scene.create_object", json!({ "type": "cube", "name": name, "location": [n as f64, k as f64, 0] }));
        assert_eq!(made["delta"]["added"], json!([name]), "client {n} got another call's answer: {made}");
        let read = execute(&mut c, "scene.object_info", json!({ "name": name }));
        assert_eq!(read["result"]["name"], name.as_str(), "client {n} got another call's answer: {read}");
        assert_eq!(read["result"]["location"], json!([n as f64, k as f64, 0.0]), "{read}");
        let moved = execute(&mut c, "scene.modify_object", json!({ "name": name, "location": [n as f64, k as f64, 1] }));
        assert_eq!(moved["delta"]["changed"], json!([name]), "{moved}");
        let gone = execute(&mut c, "scene.delete_object", json!({ "name": name }));
        assert_eq!(gone["delta"]["removed"], json!([name]), "{gone}");
        executions += 4;
    }
    let status = structured(&c.call_tool("router_get_status", json!({}))).clone();
    assert_eq!(status["goal"], goal.as_str(), "client {n} sees another session's goal: {status}");
    assert_eq!(status["execution_count"], json!(executions), "client {n} lost or gained executions: {status}");
    let recorded = status["executions"].as_array().unwrap();
    assert!(recorded.iter().all(|e| e["status"] == "ok"), "{status}");
    assert!(recorded.iter().all(|e| e["key"].as_str().unwrap().starts_with("scene.")), "{status}");
    executions
}

#[test]
fn stdio_and_http_clients_at_once_keep_their_own_state_and_answers() {
    let home = tempfile::tempdir().unwrap();
    let Some(_blender) = support::headless_blender(home.path()) else { return };
    let server = http_mcp::HttpMcpServer::start(home.path());
    let mut clients: Vec<McpClient> = (0..STDIO_CLIENTS).map(|_| McpClient::Stdio(raw_mcp::RawClient::start(home.path(), false))).collect();
    clients.extend((0..HTTP_CLIENTS).map(|_| McpClient::Http(server.session())));
    let mut observer = McpClient::Http(server.session());
    let before = scene_objects(&mut observer);

    let barrier = std::sync::Arc::new(std::sync::Barrier::new(clients.len()));
    let runs: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(n, c)| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                run_client(n, c)
            })
        })
        .collect();
    let total: usize = runs.into_iter().map(|r| r.join().expect("a client failed")).sum();
    assert_eq!(total, (STDIO_CLIENTS + HTTP_CLIENTS) * OBJECTS_PER_CLIENT * 4);
    assert_eq!(scene_objects(&mut observer), before, "the scene does not end as it began: a call was lost or doubled");
    let status = structured(&observer.call_tool("router_get_status", json!({}))).clone();
    assert_eq!(status["execution_count"], json!(2), "the observer's session counted only its own two calls: {status}");
}
