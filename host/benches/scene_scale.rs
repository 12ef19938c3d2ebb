//! How a mutation's cost grows with the scene: `scene.create_object` through the whole
//! capstan path (sandbox, gate, HTTP, the add-on's data-API creation and its tracked
//! delta) beside 10, 1,000 and 2,000 other objects, side by side in one run. The
//! target: at 1,000 objects at most 1.5x the figure at 10.
//!
//! Each measured call adds one cube; it is deleted again outside the measurement, so
//! the scene stays at its size. Needs a real Blender (`CAPSTAN_TEST_BLENDER`, or the
//! provisioned one). Run: `cargo bench -p capstan --bench scene_scale`.

use capstan::app_units::blender::launch::{LaunchOptions, launch};
use capstan::app_units::blender::locate;
use capstan::bridge::HttpBridgeClient;
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn scene_scale(c: &mut Criterion) {
    let explicit = std::env::var_os("CAPSTAN_TEST_BLENDER").map(std::path::PathBuf::from);
    let Ok(install) = locate::find(&CapstanHome::from_env().unwrap(), explicit.as_deref()) else {
        eprintln!("scene_scale benchmark skipped: no Blender (set CAPSTAN_TEST_BLENDER or run `capstan blender provision`)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let _blender = launch(&home, &install, &LaunchOptions { background: true, ..Default::default() }).expect("Blender launches");
    let client = Arc::new(HttpBridgeClient::for_home(&home));
    let mut rt = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client).unwrap();
    rt.load_all(&home);

    let mut group = c.benchmark_group("create_object_beside");
    group.measurement_time(Duration::from_secs(5)).sample_size(30);
    let mut present = 3; // the factory scene's cube, camera and light
    for size in [10usize, 1000, 2000] {
        while present < size {
            let args = json!({ "type": "empty", "name": format!("Filler{present:05}") }).to_string();
            rt.call("scene.create_object", &args).expect("filler");
            present += 1;
        }
        group.bench_with_input(BenchmarkId::from_parameter(size), &size, |b, _| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for _ in 0..iters {
                    let started = Instant::now();
                    rt.call("scene.create_object", r#"{"type": "cube", "name": "Probe"}"#).expect("create");
                    spent += started.elapsed();
                    rt.call("scene.delete_object", r#"{"name": "Probe"}"#).expect("delete");
                }
                spent
            })
        });
    }
    group.finish();
}

criterion_group!(benches, scene_scale);
criterion_main!(benches);
