//! The Python safety checker inside the sandbox: a realistic 1,000-line script (the
//! benign corpus, concatenated, cut at 1,000 lines on a statement boundary) and a
//! pathological 10,000-deep nested expression, which must be rejected, not crash.
//! Run: `cargo bench -p capstan --bench checker`. Figures go in host/BENCHMARKS.md.

use capstan::bridge::Offline;
use capstan::checker::CheckerPolicy;
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use std::sync::Arc;

/// The benign corpus concatenated to 1,000+ lines. Files whose names collide with an
/// earlier file's in a way the checker rightly rejects in one script (a module alias
/// reused for a node, say) are skipped; the script must be allowed as a whole.
fn thousand_line_script(rt: &Runtime, policy: &CheckerPolicy) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../capability-packs/python-safety/tests/corpus/benign");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "py")).collect();
    files.sort();
    let mut script = String::new();
    for round in 0.. {
        let before = script.len();
        for f in &files {
            let candidate = format!("{script}{}\n", std::fs::read_to_string(f).unwrap());
            if rt.check_python(&candidate, policy).unwrap().allowed {
                script = candidate;
            }
            if script.lines().count() >= 1000 {
                return script;
            }
        }
        assert!(script.len() > before && round < 20, "the benign corpus cannot make a 1,000-line script");
    }
    unreachable!()
}

fn checker(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let rt = Runtime::new(&CapstanHome::at(tmp.path()), AllocationPreference::PoolingIfAvailable, Arc::new(Offline)).unwrap();
    let policy = CheckerPolicy::default();
    let script = thousand_line_script(&rt, &policy);
    let verdict = rt.check_python(&script, &policy).unwrap();
    assert!(verdict.allowed, "the benchmark script must be benign: {:?}", verdict.findings);
    eprintln!("script: {} lines, {} bytes", script.lines().count(), script.len());
    let deep = format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    let chain = format!("x = {}1\n", "1 + ".repeat(10_000));
    for pathological in [&deep, &chain] {
        let v = rt.check_python(pathological, &policy).unwrap();
        assert!(!v.allowed && v.findings[0].rule == "nesting-too-deep", "{v:?}");
    }
    let mut group = c.benchmark_group("checker");
    group.bench_function("realistic_1000_lines", |b| b.iter(|| rt.check_python(&script, &policy).unwrap()));
    group.bench_function("one_line", |b| b.iter(|| rt.check_python("x = 1\n", &policy).unwrap()));
    group.bench_function("nested_10000_deep_brackets", |b| b.iter(|| rt.check_python(&deep, &policy).unwrap()));
    group.bench_function("chained_10000_deep_binop", |b| b.iter(|| rt.check_python(&chain, &policy).unwrap()));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = checker
}
criterion_main!(benches);
