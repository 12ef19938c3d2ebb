//! Host overhead per real bridge command: `scene.info` through the whole capstan path
//! (argument validation, fresh sandbox, gate, HTTP client) against the same bridge
//! command sent by the bare HTTP client. The difference is capstan's overhead.
//!
//! Needs a real Blender: `CAPSTAN_TEST_BLENDER` (a Blender or a Python with bpy), else
//! the provisioned one under CAPSTAN_HOME. Run: `cargo bench -p capstan --bench bridge`.

use capstan::app_units::blender::launch::{LaunchOptions, launch};
use capstan::app_units::blender::locate;
use capstan::bridge::{BridgeClient, BridgeRequest, HttpBridgeClient};
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use criterion::{Criterion, criterion_group, criterion_main};
use std::sync::Arc;
use std::time::Duration;

fn bridge_overhead(c: &mut Criterion) {
    let explicit = std::env::var_os("CAPSTAN_TEST_BLENDER").map(std::path::PathBuf::from);
    let Ok(install) = locate::find(&CapstanHome::from_env().unwrap(), explicit.as_deref()) else {
        eprintln!("bridge benchmark skipped: no Blender (set CAPSTAN_TEST_BLENDER or run `capstan blender provision`)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let _blender = launch(&home, &install, &LaunchOptions { background: true, ..Default::default() }).expect("Blender launches");
    let client = Arc::new(HttpBridgeClient::for_home(&home));
    let mut rt = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client.clone()).unwrap();
    rt.load_all(&home);
    let params = serde_json::json!({});
    let request = BridgeRequest { server: "blender", command: "get_scene_info", params: &params, timeout: Duration::from_secs(30) };

    let mut group = c.benchmark_group("bridge");
    group.bench_function("bare_http_get_scene_info", |b| b.iter(|| client.call(request).unwrap()));
    group.bench_function("capstan_call_scene_info", |b| b.iter(|| rt.call("scene.info", "{}").unwrap()));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(100).measurement_time(Duration::from_secs(5));
    targets = bridge_overhead
}
criterion_main!(benches);
