//! Soak: guided `execute_capability` calls through `capstan serve` (stdio) against a
//! real headless Blender, a mix of reads and mutations that clean up after themselves,
//! with zero errors and flat memory in both processes (RSS of capstan and of Blender
//! sampled over the run).
//!
//! The test command runs 1,000 calls; `scripts/soak` runs the full 10,000
//! (`CAPSTAN_SOAK_CALLS`) and prints the figures recorded in host/BENCHMARKS.md.
//! Needs `CAPSTAN_TEST_BLENDER` (scripts/test sets it).

mod support;
#[path = "support/raw_mcp.rs"]
mod raw_mcp;

use serde_json::{Value, json};
use std::time::Instant;

const DEFAULT_CALLS: usize = 1_000;
/// RSS is compared from the end of the warm-up (caches filled, allocator settled).
const WARMUP_FRACTION: usize = 10;
/// Allowed RSS growth after warm-up, per process.
const CAPSTAN_MAX_GROWTH_KIB: u64 = 24 * 1024;
/// Blender keeps the mesh of every deleted object as an orphan datablock (the add-on's
/// `delete_object` unlinks the object; Blender frees orphan data on save/reload), so its
/// growth is bounded per cube created, not flat: 64 MiB over 10,000 calls (2,000 objects
/// made and deleted, half of them cubes); measured: 9.2 MiB (host/BENCHMARKS.md).
const BLENDER_MAX_GROWTH_KIB: u64 = 64 * 1024;

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0)
}

fn object_names(scene: &Value) -> Vec<String> {
    scene["result"]["structuredContent"]["result"]["objects"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap().to_string()).collect()
}

#[test]
fn guided_calls_against_real_blender_without_errors_or_memory_growth() {
    let home = tempfile::tempdir().unwrap();
    let Some(blender) = support::headless_blender(home.path()) else { return };
    let calls: usize = std::env::var("CAPSTAN_SOAK_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_CALLS);
    let mut c = raw_mcp::RawClient::start(home.path(), false);
    let goal = c.call_tool("router_set_goal", json!({ "goal": "add objects, move them, look at them, delete them" }));
    assert_eq!(goal["result"]["isError"], false, "{goal}");
    let before = object_names(&c.call_tool("execute_capability", json!({ "key": "scene.info", "arguments": {} })));

    let (capstan_pid, blender_pid) = (c.pid(), blender.pid());
    let initial = (rss_kib(capstan_pid), rss_kib(blender_pid));
    let warmup = calls / WARMUP_FRACTION;
    let mut after_warmup = initial;
    let mut samples = Vec::new();
    let (mut errors, mut first_error) = (0usize, None);
    let started = Instant::now();
    for i in 0..calls {
        // Five steps per object: make it, read it, move it, read the scene, delete it.
        let name = format!("Soak{}", i / 5);
        let kind = if (i / 5) % 2 == 0 { "cube" } else { "empty" };
        let (key, arguments) = match i % 5 {
            0 => ("scene.create_object", json!({ "type": kind, "name": name, "location": [0, 0, (i % 7) as f64] })),
            1 => ("scene.object_info", json!({ "name": name })),
            2 => ("scene.modify_object", json!({ "name": name, "location": [1.5, -2.0, 0.25], "scale": [2, 2, 2] })),
            3 => ("scene.info", json!({})),
            _ => ("scene.delete_object", json!({ "name": name })),
        };
        let response = c.call_tool("execute_capability", json!({ "key": key, "arguments": arguments }));
        let answered = &response["result"]["structuredContent"];
        let right = response["result"]["isError"] == false
            && match i % 5 {
                0 => answered["delta"]["added"] == json!([name]),
                1 => answered["result"]["name"] == name.as_str(),
                4 => answered["delta"]["removed"] == json!([name]),
                _ => true,
            };
        if !right {
            errors += 1;
            first_error.get_or_insert_with(|| format!("call {i} ({key}): {response}"));
        }
        if i + 1 == warmup {
            after_warmup = (rss_kib(capstan_pid), rss_kib(blender_pid));
        }
        if (i + 1) % (calls / 20).max(1) == 0 {
            samples.push((i + 1, rss_kib(capstan_pid), rss_kib(blender_pid)));
        }
    }
    let elapsed = started.elapsed();
    let end = (rss_kib(capstan_pid), rss_kib(blender_pid));
    let after = object_names(&c.call_tool("execute_capability", json!({ "key": "scene.info", "arguments": {} })));
    let status = c.call_tool("router_get_status", json!({}));

    eprintln!("soak: {calls} calls in {:.1} s ({:.2} ms per call), {errors} errors", elapsed.as_secs_f64(), elapsed.as_secs_f64() * 1000.0 / calls as f64);
    eprintln!("soak: capstan RSS {} KiB at start, {} KiB after warm-up, {} KiB at the end", initial.0, after_warmup.0, end.0);
    eprintln!("soak: Blender RSS {} KiB at start, {} KiB after warm-up, {} KiB at the end", initial.1, after_warmup.1, end.1);
    for (at, capstan, blender) in &samples {
        eprintln!("soak: after {at:>6} calls: capstan {capstan} KiB, Blender {blender} KiB");
    }

    assert_eq!(errors, 0, "{errors} of {calls} calls failed; the first: {}", first_error.unwrap_or_default());
    assert_eq!(after, before, "the soak left objects behind");
    assert_eq!(status["result"]["structuredContent"]["execution_count"], json!(calls + 2), "every execution was counted");
    assert!(after_warmup.0 > 0 && end.0 > 0 && end.1 > 0, "RSS is readable");
    assert!(end.0 <= after_warmup.0 + CAPSTAN_MAX_GROWTH_KIB, "capstan's RSS grew from {} KiB to {} KiB", after_warmup.0, end.0);
    let blender_bound = BLENDER_MAX_GROWTH_KIB * (calls as u64).max(1_000) / 10_000;
    assert!(end.1 <= after_warmup.1 + blender_bound.max(16 * 1024), "Blender's RSS grew from {} KiB to {} KiB", after_warmup.1, end.1);
}
