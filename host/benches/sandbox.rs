//! Per-call sandbox cost: fresh store + instantiate + execute, with and without the
//! pooling allocator; and loading a precompiled component from the cache.
//! Run: `cargo bench -p capstan --bench sandbox`. Figures go in host/BENCHMARKS.md.

#[path = "../tests/support/mod.rs"]
mod support;

use capstan::bridge::Offline;
use capstan::engine::{AllocationPreference, ComponentCache, SandboxEngine};
use capstan::home::CapstanHome;
use capstan::limits::DEFAULT_LIMITS;
use capstan::plugin::PackSource;
use capstan::runtime::Runtime;
use capstan::sandbox::CallSetup;
use criterion::{Criterion, criterion_group, criterion_main};
use std::sync::Arc;

fn runtime(home: &CapstanHome, allocation: AllocationPreference) -> Runtime {
    let mut rt = Runtime::new(home, allocation, Arc::new(Offline)).unwrap();
    rt.add(PackSource::from_dir(&support::built_pack("tests/hostile-packs/misbehave")).unwrap()).unwrap();
    rt
}

fn per_call(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let mut group = c.benchmark_group("per_call");
    for (label, allocation) in [("pooling", AllocationPreference::PoolingIfAvailable), ("on_demand", AllocationPreference::OnDemand)] {
        let rt = runtime(&home, allocation);
        let pack = &rt.packs()[0];
        // The sandbox alone: fresh Store, instantiate, execute, drop.
        group.bench_function(format!("sandbox_{label}"), |b| {
            b.iter(|| {
                let setup = CallSetup::offline("bench", DEFAULT_LIMITS);
                let (out, _) = pack.pre().execute(rt.sandbox(), setup, "hostile.ok", "{}", None);
                out.unwrap().unwrap()
            })
        });
        // The whole call path: resolve, validate arguments, gate, sandbox, parse result.
        group.bench_function(format!("runtime_call_{label}"), |b| b.iter(|| rt.call("hostile.ok", "{}").unwrap()));
    }
    group.finish();
}

fn precompiled_load(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let engine = SandboxEngine::new(AllocationPreference::PoolingIfAvailable).unwrap();
    let cache = ComponentCache::new(engine.engine(), tmp.path().join("cache"));
    let official = &capstan::packs::official()[0];
    let sha = capstan::fsutil::sha256_hex(official.component);
    cache.load_or_compile(engine.engine(), &sha, official.component).unwrap();
    c.bench_function("precompiled_load/blender_core", |b| {
        b.iter(|| cache.load_or_compile(engine.engine(), &sha, official.component).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).measurement_time(std::time::Duration::from_secs(4));
    targets = per_call, precompiled_load
}
criterion_main!(benches);
