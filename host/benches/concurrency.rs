//! Throughput as MCP clients are added, against one real headless Blender: 1, 2, 4 and
//! 8 clients calling at once, as stdio sessions (each its own `capstan serve`) and as
//! HTTP sessions (on one `capstan serve --http`). Each client alternates a read
//! (`scene.info`) and a mutation (`scene.modify_object` on its own object); criterion
//! reports calls per second. Every HTTP request opens its own connection
//! (`Connection: close`), which the figures include.
//!
//! Needs a real Blender: `CAPSTAN_TEST_BLENDER` (a Blender or a Python with bpy), else
//! the provisioned one. Run: `cargo bench -p capstan --bench concurrency`.

#[path = "../tests/support/http_mcp.rs"]
mod http_mcp;
#[path = "../tests/support/mcp_client.rs"]
mod mcp_client;
#[path = "../tests/support/raw_mcp.rs"]
mod raw_mcp;

use capstan::app_units::blender::launch::{LaunchOptions, launch};
use capstan::app_units::blender::locate;
use capstan::home::CapstanHome;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcp_client::McpClient;
use serde_json::json;
use std::sync::Mutex;
use std::time::Duration;

/// Calls each client makes per measured iteration.
const CALLS_PER_CLIENT: usize = 10;
const CLIENT_COUNTS: [usize; 4] = [1, 2, 4, 8];

fn ok(response: serde_json::Value) {
    assert_eq!(response["result"]["isError"], false, "{response}");
}

fn execute(c: &mut McpClient, key: &str, arguments: serde_json::Value) {
    ok(c.call_tool("execute_capability", json!({ "key": key, "arguments": arguments })));
}

fn throughput(c: &mut Criterion) {
    let explicit = std::env::var_os("CAPSTAN_TEST_BLENDER").map(std::path::PathBuf::from);
    let Ok(install) = locate::find(&CapstanHome::from_env().unwrap(), explicit.as_deref()) else {
        eprintln!("concurrency benchmark skipped: no Blender (set CAPSTAN_TEST_BLENDER or run `capstan blender provision`)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let _blender = launch(&home, &install, &LaunchOptions { background: true, ..Default::default() }).expect("Blender launches");
    let server = http_mcp::HttpMcpServer::start(tmp.path());
    let most = *CLIENT_COUNTS.iter().max().unwrap();

    let mut group = c.benchmark_group("concurrency");
    for transport in ["stdio", "http"] {
        let clients: Vec<Mutex<McpClient>> = (0..most)
            .map(|_| match transport {
                "stdio" => McpClient::Stdio(raw_mcp::RawClient::start(tmp.path(), false)),
                _ => McpClient::Http(server.session()),
            })
            .map(Mutex::new)
            .collect();
        for (n, client) in clients.iter().enumerate() {
            execute(&mut client.lock().unwrap(), "scene.create_object", json!({ "type": "empty", "name": format!("Bench{transport}{n}") }));
        }
        for count in CLIENT_COUNTS {
            group.throughput(Throughput::Elements((count * CALLS_PER_CLIENT) as u64));
            group.bench_function(format!("{transport}_{count}_clients"), |b| {
                b.iter(|| {
                    std::thread::scope(|scope| {
                        for (n, client) in clients.iter().take(count).enumerate() {
                            scope.spawn(move || {
                                let mut c = client.lock().unwrap();
                                for k in 0..CALLS_PER_CLIENT {
                                    if k % 2 == 0 {
                                        execute(&mut c, "scene.info", json!({}));
                                    } else {
                                        execute(&mut c, "scene.modify_object", json!({ "name": format!("Bench{transport}{n}"), "location": [k as f64, 0, 0] }));
                                    }
                                }
                            });
                        }
                    })
                })
            });
        }
        for (n, client) in clients.iter().enumerate() {
            execute(&mut client.lock().unwrap(), "scene.delete_object", json!({ "name": format!("Bench{transport}{n}") }));
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(2));
    targets = throughput
}
criterion_main!(benches);
