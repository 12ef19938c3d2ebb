//! MCP-layer figures: the `execute_capability` round trip through `capstan serve` over
//! stdio with a raw JSON-RPC client against a loopback stub bridge; start to first
//! `tools/list` with a warm cache; search over 1,000 synthetic capabilities; and the
//! size of the guided `tools/list` answer. Run: `cargo bench -p capstan --bench mcp`.

#[path = "../tests/support/raw_mcp.rs"]
mod raw_mcp;
#[path = "../tests/support/stub_bridge.rs"]
mod stub_bridge;

use capstan::router::SearchIndex;
use capstan::router::search::CapabilityText;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::time::Duration;

fn round_trip(c: &mut Criterion) {
    let home = tempfile::tempdir().unwrap();
    let _bridge = stub_bridge::StubBridge::start(home.path());
    let mut client = raw_mcp::RawClient::start(home.path(), false);
    let list = client.request("tools/list", json!({}));
    eprintln!("guided tools/list result: {} bytes", list["result"].to_string().len());
    let mut group = c.benchmark_group("mcp");
    group.bench_function("execute_capability_scene_info_round_trip", |b| {
        b.iter(|| client.call_tool("execute_capability", json!({ "key": "scene.info", "arguments": {} })))
    });
    group.bench_function("search_capabilities_round_trip", |b| {
        b.iter(|| client.call_tool("search_capabilities", json!({ "query": "chrome material" })))
    });
    group.bench_function("start_to_first_tools_list_warm_cache", |b| {
        b.iter(|| {
            let mut fresh = raw_mcp::RawClient::start(home.path(), false);
            fresh.request("tools/list", json!({}))
        })
    });
    group.finish();
}

/// key, family, summary, tags, examples
type Synthetic = (String, String, String, Vec<String>, Vec<String>);

fn synthetic_search(c: &mut Criterion) {
    const FAMILIES: &[&str] = &["inspect", "create", "material", "lighting", "world", "camera", "render", "animation", "physics", "io"];
    const WORDS: &[&str] = &["cube", "sphere", "chrome", "gold", "soft", "light", "sky", "lens", "png", "keyframe", "cloth", "export", "bevel", "array", "glass", "studio", "rim", "noise", "scatter", "align"];
    let caps: Vec<Synthetic> = (0..1000)
        .map(|i| {
            let family = FAMILIES[i % FAMILIES.len()];
            let w = |k: usize| WORDS[(i * 7 + k * 13) % WORDS.len()];
            (
                format!("{family}.op_{i}_{}", w(0)),
                family.to_string(),
                format!("Do {} with {} and {} for object {i}", w(1), w(2), w(3)),
                vec![w(4).to_string(), w(5).to_string(), w(6).to_string()],
                vec![format!("{} the {}", w(7), w(8))],
            )
        })
        .collect();
    let none: Vec<String> = Vec::new();
    let index = SearchIndex::build(caps.iter().map(|(k, f, s, t, e)| CapabilityText {
        key: k,
        family: f,
        summary: s,
        mutates: f != "inspect",
        destructive: false,
        writes_files: false,
        tags: t,
        aliases: &none,
        examples: e,
    }), capstan::router::FamilyTable::default());
    assert_eq!(index.len(), 1000);
    c.bench_function("search/1000_capabilities", |b| b.iter(|| index.search("soft studio light with a gold sphere", None, Some("lighting"), 10)));
    // Words the index lacks are matched one edit away (typos): the cost of that scan.
    c.bench_function("search/1000_capabilities_with_typos", |b| b.iter(|| index.search("sofr studoi lihgt with a glod shpere", None, Some("lighting"), 10)));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(100).measurement_time(Duration::from_secs(5));
    targets = round_trip, synthetic_search
}
criterion_main!(benches);
