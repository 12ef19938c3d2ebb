//! Shared helpers of the host's integration tests: building packs from source, and a
//! recording bridge for mediation tests (what reaches the bridge, and what does not).
//! The recording bridge is fault injection and bookkeeping only; tests that claim a
//! capability works against Blender use a real Blender.
#![allow(dead_code)]

use capstan::bridge::{BridgeClient, BridgeFailure, BridgeRequest};
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::plugin::PackSource;
use capstan::runtime::Runtime;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

#[path = "canned.rs"]
pub mod canned;
#[path = "case_run.rs"]
pub mod case_run;

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace().join("target"))
}

/// Build the pack crate in `crate_dir` (relative to the workspace) for wasm32-wasip2 and
/// return a folder holding its sealed manifest and component. Built once per process.
pub fn built_pack(crate_dir: &str) -> PathBuf {
    static BUILT: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(Default::default);
    let mut built = built.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(dir) = built.get(crate_dir) {
        return dir.clone();
    }
    let src = workspace().join(crate_dir);
    let crate_name = src.file_name().unwrap().to_str().unwrap().to_string();
    let cargo_toml = std::fs::read_to_string(src.join("Cargo.toml")).unwrap();
    let package = cargo_toml
        .lines()
        .find_map(|l| l.strip_prefix("name = \"").and_then(|r| r.strip_suffix('"')))
        .unwrap_or(&crate_name)
        .to_string();
    let packs_target = target_dir().join("capstan-packs");
    let status = Command::new(env!("CARGO"))
        .current_dir(workspace())
        .args(["rustc", "--quiet", "--lib", "-p", &package, "--profile", "pack", "--target", "wasm32-wasip2"])
        .args(["--crate-type", "cdylib", "--target-dir"])
        .arg(&packs_target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building {package} for wasm32-wasip2 failed");
    let wasm_name = format!("{}.wasm", package.replace('-', "_"));
    let bytes = std::fs::read(packs_target.join("wasm32-wasip2/pack").join(&wasm_name)).unwrap();
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(src.join("pack.json")).unwrap()).unwrap();
    manifest["sha256"] = json!(capstan::fsutil::sha256_hex(&bytes));
    let out = target_dir().join("capstan-test-packs").join(&package);
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join(manifest["component"].as_str().unwrap()), &bytes).unwrap();
    std::fs::write(out.join("pack.json"), serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    built.insert(crate_dir.to_string(), out.clone());
    out
}

/// One call as the bridge received it.
#[derive(Debug, Clone, PartialEq)]
pub struct Received {
    pub server: String,
    pub command: String,
    pub params: Value,
}

/// Records every call that reaches it and answers from a small in-memory scene.
#[derive(Default)]
pub struct RecordingBridge {
    pub received: Mutex<Vec<Received>>,
}

impl RecordingBridge {
    pub fn count(&self) -> usize {
        self.received.lock().unwrap().len()
    }
    pub fn commands(&self) -> Vec<String> {
        self.received.lock().unwrap().iter().map(|r| r.command.clone()).collect()
    }
}

impl BridgeClient for RecordingBridge {
    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
        self.received.lock().unwrap().push(Received {
            server: request.server.into(),
            command: request.command.into(),
            params: request.params.clone(),
        });
        Ok(canned::answer(request.command, request.params))
    }
}

/// A runtime over a fresh `CAPSTAN_HOME` with the official packs plus `extra` folders.
pub fn runtime(home: &CapstanHome, bridge: Arc<dyn BridgeClient>, extra: &[PathBuf]) -> Runtime {
    loaded(Runtime::new(home, AllocationPreference::PoolingIfAvailable, bridge).expect("runtime starts"), home, extra)
}

/// As [`runtime`], with the compiled components in the home's own cache even when the
/// test command shares one (`CAPSTAN_COMPONENT_CACHE`): for tests that count what was
/// compiled or tamper with the cache.
pub fn runtime_with_own_cache(home: &CapstanHome, bridge: Arc<dyn BridgeClient>, extra: &[PathBuf]) -> Runtime {
    loaded(Runtime::with_cache_dir(AllocationPreference::PoolingIfAvailable, bridge, home.cache_dir()).expect("runtime starts"), home, extra)
}

fn loaded(mut rt: Runtime, home: &CapstanHome, extra: &[PathBuf]) -> Runtime {
    rt.load_all(home);
    assert!(rt.refused().is_empty(), "official packs refused: {:?}", rt.refused());
    for dir in extra {
        let source = PackSource::from_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        rt.add(source).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    rt
}

/// A headless Blender with the bridge for `home` (launched in the background), or
/// None when CAPSTAN_TEST_BLENDER is unset (a failure if CAPSTAN_REQUIRE_BLENDER=1).
/// Call from a multi-thread tokio test or plain code; launching blocks until the
/// bridge's runtime file is up.
pub fn headless_blender(home: &Path) -> Option<capstan::app_units::blender::launch::RunningBlender> {
    let install = capstan::app_units::blender::locate::probe(&blender_under_test()?).unwrap();
    let options = capstan::app_units::blender::launch::LaunchOptions { background: true, ..Default::default() };
    Some(capstan::app_units::blender::launch::launch(&CapstanHome::at(home), &install, &options).unwrap())
}

/// The Blender the tests run against (`CAPSTAN_TEST_BLENDER`), or None when unset (a
/// failure if CAPSTAN_REQUIRE_BLENDER=1).
pub fn blender_under_test() -> Option<PathBuf> {
    let Some(blender) = std::env::var_os("CAPSTAN_TEST_BLENDER").filter(|p| !p.is_empty()) else {
        assert!(std::env::var("CAPSTAN_REQUIRE_BLENDER").as_deref() != Ok("1"), "CAPSTAN_REQUIRE_BLENDER=1 but CAPSTAN_TEST_BLENDER is not set");
        eprintln!("skipped: set CAPSTAN_TEST_BLENDER");
        return None;
    };
    Some(PathBuf::from(blender))
}

/// A child process killed when the test ends, however it ends.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// How many capabilities the official packs declare plus the official workflows (one
/// expert tool each).
pub fn official_capability_count() -> usize {
    let tmp = tempfile::tempdir().unwrap();
    let rt = runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    rt.capabilities().count() + rt.workflows().count()
}

/// [`official_capability_count`] of the capabilities whose pack talks to `server` (a
/// surface shows only those while only that app is up), plus the official workflows
/// whose steps all talk to `server` (one across two apps needs both up).
pub fn official_capability_count_of(server: &str) -> usize {
    let tmp = tempfile::tempdir().unwrap();
    let rt = runtime(&CapstanHome::at(tmp.path()), Arc::new(capstan::bridge::Offline), &[]);
    let only_this_app = |w: &&capstan::workflow::Workflow| w.steps.iter().filter_map(|s| s.capability()).all(|k| rt.server_of(k).is_none_or(|s| s == server));
    rt.capabilities().filter(|(pack, _)| pack.manifest.servers.contains_key(server)).count() + rt.workflows().filter(only_this_app).count()
}

/// How many official packs the host embeds (one compiled component each).
pub fn official_pack_count() -> u64 {
    capstan::packs::official().len() as u64
}
