//! The fuzz corpora, replayed without fuzzing: every kept input of the cargo-fuzz
//! targets `bridge_response` and `tool_arguments` (fuzz/replay/<target>/) goes through
//! the same entry point the fuzzer drives (fuzz/entry/<target>.rs), so what the fuzzer
//! found stays fixed. Fuzzing itself: fuzz/README.md.

#[path = "../../fuzz/entry/bridge_response.rs"]
mod bridge_response;
#[path = "../../fuzz/entry/tool_arguments.rs"]
mod tool_arguments;

use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::Runtime;
use std::path::PathBuf;
use std::sync::Arc;

/// The kept inputs of `target`, sorted by name.
fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/replay").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 10, "{} holds only {} inputs", dir.display(), files.len());
    files.into_iter().map(|f| (f.clone(), std::fs::read(&f).unwrap())).collect()
}

fn replay(target: &str, run: impl Fn(&[u8])) {
    for (file, bytes) in corpus(target) {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&bytes)));
        assert!(outcome.is_ok(), "{} fails its fuzz invariants", file.display());
    }
}

#[test]
fn the_bridge_response_corpus_holds() {
    replay("bridge_response", bridge_response::run);
}

#[test]
fn the_tool_arguments_corpus_holds() {
    let home = tempfile::tempdir().unwrap();
    let at = CapstanHome::at(home.path());
    let mut runtime = Runtime::new(&at, AllocationPreference::OnDemand, Arc::new(capstan::bridge::Offline)).unwrap();
    runtime.load_all(&at);
    assert!(runtime.capability("scene.create_object").is_some(), "the official packs are loaded");
    replay("tool_arguments", |bytes| tool_arguments::run(&runtime, bytes));
}
