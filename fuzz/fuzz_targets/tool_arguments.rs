//! Arbitrary bytes as MCP tool-call arguments, through validation (see
//! fuzz/entry/tool_arguments.rs). The capabilities are blender-core's: embedded when
//! the host was built with its packs, otherwise read from the sealed pack folder named
//! by CAPSTAN_FUZZ_PACK (see README.md).
#![no_main]

#[path = "../entry/tool_arguments.rs"]
mod entry;

use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use std::sync::{Arc, OnceLock};

struct Fixture {
    runtime: Runtime,
    _home: tempfile::TempDir,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        let at = CapstanHome::at(home.path());
        let mut runtime = Runtime::new(&at, AllocationPreference::OnDemand, Arc::new(capstan::bridge::Offline)).unwrap();
        runtime.load_all(&at);
        if runtime.capability("scene.info").is_none() {
            let dir = std::env::var_os("CAPSTAN_FUZZ_PACK").expect("no official packs embedded: name blender-core's sealed folder in CAPSTAN_FUZZ_PACK");
            let source = capstan::plugin::PackSource::from_dir(std::path::Path::new(&dir)).unwrap();
            runtime.add(source).unwrap();
        }
        Fixture { runtime, _home: home }
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| entry::run(&fixture().runtime, data));
