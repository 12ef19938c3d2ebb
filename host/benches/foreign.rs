//! Packs in Python and JavaScript beside the Rust pack, same work, one run: each
//! `count_objects` call is a fresh instance of the pack, one `get_scene_info` bridge
//! call (through the gate and the answer check) and the answer. The bridge is answered
//! in process with the recorded real answer (`tests/data/blender_factory_scene.json`),
//! so what differs between the three is the pack's own cost: instantiation and the
//! guest's run.
//!
//! Needs the foreign packs: `scripts/foreign_packs.sh` builds them once per cache
//! (componentize-py, componentize-js; Python 3.11 and Node.js 20). Without them the
//! bench says so and measures nothing. Run: `cargo bench -p capstan --bench foreign`.

#[path = "../tests/support/mod.rs"]
mod support;

use capstan::bridge::{BridgeClient, BridgeFailure, BridgeRequest};
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

const KEYS: &[(&str, &str)] = &[("rust", "hello.count_objects"), ("python", "pyhello.count_objects"), ("javascript", "jshello.count_objects")];
const ARGS: &str = r#"{"kind":"MESH"}"#;

/// The recorded `get_scene_info` result, answered in process.
struct RecordedClient(Value);

impl BridgeClient for RecordedClient {
    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
        match request.command {
            "get_scene_info" => {
                // The add-on filters by `type`, as Blender did when it was recorded.
                let mut answer = self.0.clone();
                if let Some(kind) = request.params.get("type") {
                    let kept: Vec<Value> = answer["objects"].as_array().unwrap().iter().filter(|o| &o["type"] == kind).cloned().collect();
                    answer["page"]["total"] = kept.len().into();
                    answer["objects"] = Value::Array(kept);
                    answer["filter"] = serde_json::json!({ "type": kind });
                }
                Ok(answer)
            }
            other => Err(BridgeFailure::Transport { reason: "offline".into(), detail: format!("not recorded: {other}") }),
        }
    }
}

fn foreign_packs() -> Option<PathBuf> {
    let out = Command::new("bash").arg(support::workspace().join("scripts/foreign_packs.sh")).output().ok()?;
    if !out.status.success() {
        eprintln!("foreign bench skipped: scripts/foreign_packs.sh failed: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).lines().last()?.trim());
    dir.join("python-hello/pack.json").is_file().then_some(dir)
}

fn runtime(tmp: &std::path::Path, packs: &std::path::Path) -> Runtime {
    let home = CapstanHome::at(tmp);
    // Compiled components kept between runs of this bench (a release build's own cache).
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| support::workspace().join("target"));
    let shared = target.join("capstan-foreign-cache-bench");
    capstan::fsutil::create_private_dir(&shared).unwrap();
    let cache = home.cache_dir();
    std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&shared, &cache).unwrap();
    let store = capstan::store::Store::new(&home);
    for pack in ["python-hello", "js-hello"] {
        store.install(&packs.join(pack), false).unwrap_or_else(|e| panic!("{pack}: {e}"));
    }
    let doc: Value = serde_json::from_str(include_str!("../tests/data/blender_factory_scene.json")).unwrap();
    let client = Arc::new(RecordedClient(doc["get_scene_info"]["result"].clone()));
    support::runtime(&home, client, &[support::built_pack("sdk/examples/hello-pack")])
}

fn median_us(v: &mut [Duration]) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e6
}

fn per_call(c: &mut Criterion) {
    let Some(packs) = foreign_packs() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let rt = runtime(tmp.path(), &packs);
    for (_, key) in KEYS {
        let out = rt.call(key, ARGS).unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_eq!(out.result["count"], 1, "{key}: {}", out.result);
    }
    // Alternated in one loop, so load on the shared machine falls on all three alike.
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); KEYS.len()];
    for _ in 0..200 {
        for (i, (_, key)) in KEYS.iter().enumerate() {
            let started = Instant::now();
            rt.call(key, ARGS).unwrap();
            times[i].push(started.elapsed());
        }
    }
    let medians: Vec<f64> = times.iter_mut().map(|t| median_us(t)).collect();
    for ((lang, key), m) in KEYS.iter().zip(&medians) {
        eprintln!("foreign side by side (200 alternated calls, median): {lang} {key} {m:.0} us, {:+.0} us against Rust", m - medians[0]);
    }
    let mut group = c.benchmark_group("foreign_per_call");
    for (lang, key) in KEYS {
        group.bench_function(*lang, |b| b.iter(|| rt.call(key, ARGS).unwrap()));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    targets = per_call
}
criterion_main!(benches);
