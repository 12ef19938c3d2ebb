//! Packs written in Python (componentize-py) and JavaScript (componentize-js), built by
//! `scripts/foreign_packs.sh` once per cache, installed into a test home through the
//! store's gate, loaded beside the official packs, their conformance cases run against
//! real Blender, and each called once through the guided MCP `execute_capability`.
//!
//! The compiled CPython and SpiderMonkey components are shared by every test home of
//! this file (one `cache/components` folder under the target dir, linked into each
//! home), so each is compiled once per engine build, not once per home.
//!
//! Under `CAPSTAN_REQUIRE_BLENDER=1` (the test command) a missing toolchain or a failed
//! build fails the test; otherwise it is skipped with a message.
//! `CAPSTAN_FOREIGN_MEASURE=1` also measures a cold compile into a fresh cache and the
//! smallest memory limit `describe` and one call fit in (figures on stderr).

mod support;
#[path = "support/raw_mcp.rs"]
mod raw_mcp;

use capstan::bridge::{BridgeClient, BridgeRequest, HttpBridgeClient, Offline};
use capstan::conformance::{Case, check};
use capstan::engine::{CacheOutcome, ComponentCache};
use capstan::home::CapstanHome;
use capstan::limits;
use capstan::plugin::PackSource;
use capstan::runtime::{CallError, Runtime};
use capstan::sandbox::CallSetup;
use capstan::store::Store;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

const FOREIGN: &[(&str, &str)] = &[("python-hello", "pyhello."), ("js-hello", "jshello.")];

fn required() -> bool {
    std::env::var("CAPSTAN_REQUIRE_BLENDER").as_deref() == Ok("1")
}

/// The folder holding both sealed packs, built (or found in the cache) by the script.
/// None (skip) when the toolchains cannot be had and the test command did not ask for them.
fn built() -> Option<PathBuf> {
    static BUILT: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    match BUILT.get_or_init(build) {
        Ok(dir) => Some(dir.clone()),
        Err(failure) => {
            assert!(!required(), "CAPSTAN_REQUIRE_BLENDER=1 and the foreign packs did not build: {failure}");
            eprintln!("skipped: the foreign packs did not build ({failure})");
            None
        }
    }
}

fn build() -> Result<PathBuf, String> {
    let output = Command::new("bash").arg(support::workspace().join("scripts/foreign_packs.sh")).output();
    let failure = match output {
        Ok(o) if o.status.success() => {
            let stdout = String::from_utf8_lossy(&o.stdout);
            let dir = PathBuf::from(stdout.lines().last().unwrap_or("").trim());
            if dir.join("python-hello/pack.json").is_file() && dir.join("js-hello/pack.json").is_file() {
                return Ok(dir);
            }
            format!("the script named no folder with both packs: {stdout}")
        }
        Ok(o) => format!("exit {}: {}", o.status, String::from_utf8_lossy(&o.stderr)),
        Err(e) => format!("cannot run bash: {e}"),
    };
    Err(failure)
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| support::workspace().join("target"))
}

/// A test home whose compiled-component cache is the one shared folder.
fn home_with_shared_cache() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let shared = target_dir().join("capstan-foreign-cache");
    capstan::fsutil::create_private_dir(&shared).unwrap();
    let cache = CapstanHome::at(tmp.path()).cache_dir();
    std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&shared, &cache).unwrap();
    tmp
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn install_both(home: &CapstanHome, dir: &Path) {
    // One install at a time: the first compiles into the shared cache, the others hit it
    // (tests run in parallel, and the cache does not lock against a concurrent compile).
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = INSTALLING.lock().unwrap_or_else(|p| p.into_inner());
    let store = Store::new(home);
    for (pack, prefix) in FOREIGN {
        let started = Instant::now();
        let installed = store.install(&dir.join(pack), false).unwrap_or_else(|e| panic!("{pack}: install refused: {e}"));
        eprintln!("foreign packs: {pack} installed in {} (load: compile or cache hit, describe)", ms(started.elapsed()));
        assert_eq!(installed.capabilities.len(), 2, "{pack}: {:?}", installed.capabilities);
        assert!(installed.capabilities.iter().all(|k| k.starts_with(prefix)), "{:?}", installed.capabilities);
    }
}

/// The imports the host sees (its own reading of the component type), per pack.
fn imports_seen_by_the_host(rt: &Runtime, dir: &Path) -> Vec<(String, Vec<String>)> {
    let engine = rt.sandbox().engine().engine();
    FOREIGN
        .iter()
        .map(|(pack, _)| {
            let source = PackSource::from_dir(&dir.join(pack)).unwrap();
            let sha = capstan::fsutil::sha256_hex(&source.component);
            let (component, _) = rt.cache().load_or_compile(engine, &sha, &source.component).unwrap();
            let names = component.component_type().imports(engine).map(|(n, _)| n.to_string()).collect();
            (pack.to_string(), names)
        })
        .collect()
}

#[test]
fn foreign_packs_import_only_the_pack_contract_and_describe_within_the_limits() {
    let Some(dir) = built() else { return };
    let tmp = home_with_shared_cache();
    let home = CapstanHome::at(tmp.path());
    install_both(&home, &dir);
    let started = Instant::now();
    let rt = support::runtime(&home, Arc::new(Offline), &[]);
    eprintln!("foreign packs: a runtime with the official packs and both foreign ones loaded in {}", ms(started.elapsed()));
    for (pack, _) in FOREIGN {
        let loaded = rt.packs().iter().find(|p| p.name() == *pack).unwrap_or_else(|| panic!("{pack} is not loaded: {:?}", rt.refused()));
        assert_eq!(loaded.cache, CacheOutcome::Hit, "{pack}: the install compiled it into the shared cache");
        assert_eq!(loaded.version.as_str(), "0.2.0");
        // The read capability declares its answer's shape in Python and JavaScript alike.
        let (_, prefix) = FOREIGN.iter().find(|(p, _)| p == pack).unwrap();
        let counted = rt.capability(&format!("{prefix}count_objects")).unwrap();
        let output = counted.output_schema.as_ref().unwrap_or_else(|| panic!("{pack}: no output schema"));
        assert_eq!(output["required"], json!(["kind", "count"]), "{pack}");
        assert!(rt.capability(&format!("{prefix}create_marker")).unwrap().output_schema.is_none(), "{pack}: declared none");
    }
    for (pack, imports) in imports_seen_by_the_host(&rt, &dir) {
        eprintln!("foreign packs: {pack} imports {imports:?}");
        assert!(imports.iter().all(|i| i.starts_with("capstan:pack/") && i.ends_with("@0.2.0")), "{pack}: {imports:?}");
    }
    for (pack, _) in FOREIGN {
        let loaded = rt.packs().iter().find(|p| p.name() == *pack).unwrap();
        let mut times = Vec::new();
        for _ in 0..5 {
            let setup = CallSetup::offline(*pack, limits::DESCRIBE_LIMITS);
            let started = Instant::now();
            let (described, _) = loaded.pre().describe(rt.sandbox(), setup);
            times.push(started.elapsed());
            assert_eq!(described.unwrap().capabilities.len(), 2);
        }
        times.sort();
        eprintln!("foreign packs: {pack} describe() median {} (min {}, max {})", ms(times[2]), ms(times[0]), ms(times[4]));
    }
    if std::env::var("CAPSTAN_FOREIGN_MEASURE").as_deref() == Ok("1") {
        measure(&rt, &dir);
    }
}

/// Cold compile into a fresh cache, a warm load, and the smallest memory limit (MiB)
/// that `describe` and a call (its bridge refused, so no Blender needed) fit in.
fn measure(rt: &Runtime, dir: &Path) {
    let engine = rt.sandbox().engine().engine();
    let fresh = tempfile::tempdir().unwrap();
    let cache = ComponentCache::new(engine, fresh.path().join("components"));
    for (pack, prefix) in FOREIGN {
        let source = PackSource::from_dir(&dir.join(pack)).unwrap();
        let sha = capstan::fsutil::sha256_hex(&source.component);
        let started = Instant::now();
        let (_, outcome) = cache.load_or_compile(engine, &sha, &source.component).unwrap();
        let cold = started.elapsed();
        assert_eq!(outcome, CacheOutcome::Compiled);
        let started = Instant::now();
        let (_, outcome) = cache.load_or_compile(engine, &sha, &source.component).unwrap();
        assert_eq!(outcome, CacheOutcome::Hit);
        eprintln!(
            "foreign packs: {pack} ({} bytes) compiles in {} in this build, loads from the cache in {}",
            source.component.len(),
            ms(cold),
            ms(started.elapsed())
        );
        let loaded = rt.packs().iter().find(|p| p.name() == *pack).unwrap();
        let fits = |mib: u64, execute: bool| {
            let limits = limits::CallLimits { memory_bytes: mib << 20, ..limits::DESCRIBE_LIMITS };
            let setup = CallSetup::offline(*pack, limits);
            if execute {
                let key = format!("{prefix}count_objects");
                loaded.pre().execute(rt.sandbox(), setup, &key, r#"{"kind":"MESH"}"#, None).0.is_ok()
            } else {
                loaded.pre().describe(rt.sandbox(), setup).0.is_ok()
            }
        };
        for (what, execute) in [("describe", false), ("execute", true)] {
            let (mut lo, mut hi) = (1u64, 512u64);
            assert!(fits(hi, execute), "{pack} {what} does not fit in 512 MiB");
            while lo < hi {
                let mid = (lo + hi) / 2;
                if fits(mid, execute) { hi = mid } else { lo = mid + 1 }
            }
            eprintln!("foreign packs: {pack} {what} fits in {lo} MiB of linear memory");
        }
    }
}

fn reset(rt: &Runtime, client: &HttpBridgeClient) {
    let spec = rt.bridge_command("blender", "reset_scene").expect("the catalog has reset_scene");
    let params = json!({});
    client.call(BridgeRequest { server: "blender", command: "reset_scene", params: &params, timeout: spec.timeout }).expect("reset_scene");
}

/// One conformance case, as `tests/conformance.rs` runs it (setup, delta, result, reads, error).
fn run_case(rt: &Runtime, client: &HttpBridgeClient, key: &str, case: &Case) -> Result<Duration, String> {
    reset(rt, client);
    for step in &case.setup {
        rt.call(&step.key, &step.arguments.to_string()).map_err(|e| format!("setup {}: {e}", step.key))?;
    }
    let spec = rt.capability(key).ok_or("the capability vanished")?.clone();
    let started = Instant::now();
    let outcome = rt.call(key, &case.arguments.to_string());
    let took = started.elapsed();
    let mut problems = Vec::new();
    let e = &case.expect;
    match (&e.error, outcome) {
        (Some(code), Err(err)) => {
            let mut got = vec![capstan::report::error_code(&err).as_str().to_string()];
            if let CallError::Pack { failure, .. } = &err
                && let Some(app) = &failure.app_error
            {
                got.push(app.code.clone());
            }
            if !got.contains(code) {
                problems.push(format!("failed with {got:?}, expected {code}: {err}"));
            }
        }
        (Some(code), Ok(out)) => problems.push(format!("succeeded, expected {code}: {}", out.result)),
        (None, Err(err)) => problems.push(format!("failed: {}", capstan::report::error_json(&err))),
        (None, Ok(out)) => {
            let delta = out.delta.clone().unwrap_or_default();
            if !spec.mutates && !delta.is_empty() {
                problems.push(format!("a read-only capability reported changes: {}", delta.to_json()));
            }
            if let Some(want) = &e.delta {
                check::delta(&delta, want, &mut problems);
            }
            if let Some(want) = &e.result {
                check::contains(&out.result, want, "result", &mut problems);
            }
            for read in &e.reads {
                match rt.call(&read.key, &read.arguments.to_string()) {
                    Ok(got) => check::contains(&got.result, &read.result, &format!("{} {}", read.key, read.arguments), &mut problems),
                    Err(err) => problems.push(format!("reads: {} failed: {err}", read.key)),
                }
            }
        }
    }
    if problems.is_empty() { Ok(took) } else { Err(problems.join("\n")) }
}

#[test]
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
fn foreign_packs_pass_their_cases_in_real_blender_and_run_through_guided_mcp() {
    let Some(dir) = built() else { return };
    let tmp = home_with_shared_cache();
    let home = CapstanHome::at(tmp.path());
    install_both(&home, &dir);
    // Checked deltas, answers and error codes, as in the conformance suite.
    unsafe { std::env::set_var("CAPSTAN_BRIDGE_VERIFY_DELTA", "1") };
    let Some(_blender) = support::headless_blender(tmp.path()) else { return };
    let client = Arc::new(HttpBridgeClient::for_home(&home));
    // The Rust SDK example sends the same bridge command: the per-call figure beside it.
    let rt = support::runtime(&home, client.clone(), &[support::built_pack("sdk/examples/hello-pack")]);

    let mut failures = Vec::new();
    let mut passed = 0;
    for (pack, prefix) in FOREIGN {
        let caps: Vec<_> = rt.capabilities().filter(|(p, _)| p.name() == *pack).map(|(_, c)| c.clone()).collect();
        assert_eq!(caps.len(), 2, "{pack}");
        for cap in &caps {
            assert!(cap.key.starts_with(prefix));
            assert!(!cap.conformance.is_empty(), "{}: no conformance cases", cap.key);
            for case in &cap.conformance {
                match run_case(&rt, &client, &cap.key, case) {
                    Ok(took) => {
                        passed += 1;
                        eprintln!("foreign packs: ok {} :: {} ({})", cap.key, case.name, ms(took));
                    }
                    Err(e) => failures.push(format!("{} :: {}: {e}", cap.key, case.name)),
                }
            }
        }
        // Per-call cost (a bridge round trip included), beside the Rust hello-pack.
        for key in [format!("{prefix}count_objects"), "hello.count_objects".to_string()] {
            let args = json!({ "kind": "MESH" });
            let mut times: Vec<Duration> = (0..20)
                .map(|_| {
                    let started = Instant::now();
                    rt.call(&key, &args.to_string()).unwrap_or_else(|e| panic!("{key}: {e}"));
                    started.elapsed()
                })
                .collect();
            times.sort();
            eprintln!("foreign packs: {key} per call median {} (p90 {})", ms(times[10]), ms(times[18]));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), passed + failures.len(), failures.join("\n"));
    eprintln!("foreign packs: {passed} conformance cases passed against real Blender");

    // The guided MCP surface: search finds them, execute runs them in Blender.
    reset(&rt, &client);
    let mut mcp = raw_mcp::RawClient::start(tmp.path(), false);
    let r = mcp.call_tool("search_capabilities", json!({ "query": "marker empty python pack", "limit": 10 }));
    let hits = r["result"]["structuredContent"]["results"].as_array().cloned().unwrap_or_default();
    assert!(hits.iter().any(|h| h["key"] == "pyhello.create_marker"), "{r}");
    for (key, arguments, check) in [
        ("pyhello.create_marker", json!({ "name": "McpPyMarker" }), "added"),
        ("jshello.create_marker", json!({ "name": "McpJsMarker", "location": [0, 1, 0] }), "added"),
        ("jshello.count_objects", json!({ "kind": "EMPTY" }), "count"),
        ("pyhello.count_objects", json!({ "kind": "EMPTY" }), "count"),
    ] {
        let started = Instant::now();
        let r = mcp.call_tool("execute_capability", json!({ "key": key, "arguments": arguments }));
        let took = started.elapsed();
        let s = &r["result"]["structuredContent"];
        assert_eq!(r["result"]["isError"], json!(false), "{key}: {r}");
        match check {
            "added" => assert_eq!(s["delta"]["added"], json!([arguments["name"]]), "{key}: {r}"),
            _ => assert_eq!(s["result"]["count"], json!(2), "{key}: both markers are empties: {r}"),
        }
        eprintln!("foreign packs: MCP execute_capability {key} ok ({})", ms(took));
    }
}

/// The Python component built without `--stub-wasi` imports `wasi:sockets/*`; the same
/// pack sealed around it is refused at install, naming the import. (Built only when
/// `CAPSTAN_FOREIGN_MEASURE=1`: it is a second CPython build.)
#[test]
fn a_foreign_pack_importing_sockets_is_refused_at_install() {
    if std::env::var("CAPSTAN_FOREIGN_MEASURE").as_deref() != Ok("1") {
        return;
    }
    let Some(dir) = built() else { return };
    let cache = std::env::var_os("CAPSTAN_TEST_CACHE").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(std::env::var("HOME").unwrap()).join(".cache/capstan"));
    let cpy = std::fs::read_dir(cache.join("tools")).unwrap().flatten().map(|e| e.path()).find(|p| p.file_name().unwrap().to_string_lossy().starts_with("componentize-py-")).unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::copy(support::workspace().join("wit/pack@0.2.0/pack.wit"), work.path().join("pack.wit")).unwrap();
    let out = work.path().join("python_hello.wasm");
    let status = Command::new(cpy.join("bin/componentize-py"))
        .arg("-d").arg(work.path().join("pack.wit")).args(["-w", "capability-pack", "componentize", "-p"])
        .arg(support::workspace().join("foreign-packs/python-hello")).arg("app").arg("-o").arg(&out)
        .status().unwrap();
    assert!(status.success());
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("python-hello/pack.json")).unwrap()).unwrap();
    manifest["sha256"] = json!(capstan::fsutil::sha256_hex(&std::fs::read(&out).unwrap()));
    std::fs::write(work.path().join("pack.json"), manifest.to_string()).unwrap();
    let tmp = home_with_shared_cache();
    let e = Store::new(&CapstanHome::at(tmp.path())).install(work.path(), false).unwrap_err();
    assert!(e.to_string().contains("wasi:sockets/"), "{e}");
    eprintln!("foreign packs: refused as expected: {e}");
}
