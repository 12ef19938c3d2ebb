//! Soak: 10,000 guided calls through `capstan serve` against a loopback stub bridge,
//! with no error and no memory growth beyond a small bound.

#[path = "support/raw_mcp.rs"]
mod raw_mcp;
#[path = "support/stub_bridge.rs"]
mod stub_bridge;

use serde_json::json;

const CALLS: usize = 10_000;
const WARMUP: usize = 1_000;
/// Allowed RSS growth after warm-up (allocator noise, caches filling up).
const MAX_GROWTH_KIB: u64 = 24 * 1024;

#[test]
fn ten_thousand_guided_calls_without_errors_or_memory_growth() {
    let home = tempfile::tempdir().unwrap();
    let bridge = stub_bridge::StubBridge::start(home.path());
    let mut c = raw_mcp::RawClient::start(home.path(), false);
    let mut after_warmup = 0;
    for i in 0..CALLS {
        let response = match i % 4 {
            0 => c.call_tool("execute_capability", json!({ "key": "scene.info", "arguments": {} })),
            1 => c.call_tool("search_capabilities", json!({ "query": "add a cube" })),
            2 => c.call_tool("execute_capability", json!({ "key": "scene.create_object", "arguments": { "type": "cube" } })),
            _ => c.call_tool("router_get_status", json!({})),
        };
        assert_eq!(response["result"]["isError"], false, "call {i}: {response}");
        if i + 1 == WARMUP {
            after_warmup = c.rss_kib();
        }
    }
    let end = c.rss_kib();
    assert!(after_warmup > 0 && end > 0, "RSS is readable");
    assert!(end <= after_warmup + MAX_GROWTH_KIB, "RSS grew from {after_warmup} KiB to {end} KiB over {} calls", CALLS - WARMUP);
    assert_eq!(bridge.bridge_requests(), CALLS / 2, "every execution reached the bridge once");
}
