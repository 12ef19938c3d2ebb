//! Arbitrary bytes as a Python script, through the host into the sandboxed checker
//! component: every input must end in allowed, rejected (with findings that have a
//! rule and a 1-based position), or a clean `checker-fault` rejection; the host never
//! crashes. Needs the checker component: build it with the stable toolchain first and
//! name it in CAPSTAN_CHECKER_WASM (see README.md).
#![no_main]

use capstan::checker::CheckerPolicy;
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

struct Fixture {
    runtime: Runtime,
    policy: CheckerPolicy,
    _home: tempfile::TempDir,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        let runtime = Runtime::new(&CapstanHome::at(home.path()), AllocationPreference::PoolingIfAvailable, Arc::new(capstan::bridge::Offline)).unwrap();
        Fixture { runtime, policy: CheckerPolicy::default(), _home: home }
    })
}

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    let f = fixture();
    let verdict = f.runtime.check_python(&source, &f.policy).expect("the checker component is built into this fuzz binary");
    if verdict.allowed {
        assert!(verdict.findings.is_empty());
    } else {
        assert!(!verdict.findings.is_empty(), "a rejection names at least one finding");
        for finding in &verdict.findings {
            assert!(!finding.rule.is_empty() && finding.line >= 1 && finding.column >= 1, "{finding:?}");
        }
    }
});
