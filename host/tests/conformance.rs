//! The conformance suite: every conformance case of every capability of every pack,
//! against one real Blender, reset to its factory scene before each case.
//!
//! Cases come from the packs themselves (`describe`), so adding a capability adds its
//! tests by adding its cases. Blender runs with `CAPSTAN_BRIDGE_VERIFY_DELTA=1`: each
//! mutating command's tracked delta is checked against a whole-scene snapshot, read
//! commands must change nothing, answers must match their declared result schemas,
//! and error codes must be declared.
//!
//! Needs `CAPSTAN_TEST_BLENDER` (a Blender or a Python with bpy). Without it the cases
//! are listed as ignored; with `CAPSTAN_REQUIRE_BLENDER=1` (the test command) a
//! missing Blender fails the run.

#[path = "support/mod.rs"]
mod support;
#[path = "conformance/change_then_read.rs"]
mod change_then_read;
#[path = "conformance/sweeps.rs"]
mod sweeps;
#[path = "conformance/settings_sample.rs"]
mod settings_sample;
#[path = "conformance/required_args.rs"]
mod required_args;

use change_then_read::{change_then_read_cases_measure_the_change, every_read_has_a_change_then_read_case};
use sweeps::{empty_arguments, sweep_keys, wrong_target_cases, wrong_targets};

use capstan::bridge::{BridgeClient, BridgeRequest, HttpBridgeClient};
use capstan::conformance::{Case, check};
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::plugin::PackSource;
use capstan::report;
use capstan::runtime::{CallError, Runtime};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};

/// The extra packs whose cases run beside the official ones.
const EXTRA_PACKS: &[&str] = &["sdk/examples/hello-pack"];

struct Fixture {
    runtime: Runtime,
    client: Arc<HttpBridgeClient>,
    _blender: capstan::app_units::blender::launch::RunningBlender,
    _home: tempfile::TempDir,
}

fn fixture() -> Result<&'static Fixture, String> {
    static FIXTURE: OnceLock<Result<Fixture, String>> = OnceLock::new();
    FIXTURE
        .get_or_init(|| {
            let home = tempfile::tempdir().map_err(|e| e.to_string())?;
            let blender = support::headless_blender(home.path()).ok_or("CAPSTAN_TEST_BLENDER is not set")?;
            let capstan_home = CapstanHome::at(home.path());
            let client = Arc::new(HttpBridgeClient::for_home(&capstan_home));
            let mut runtime = Runtime::new(&capstan_home, AllocationPreference::PoolingIfAvailable, client.clone()).map_err(|e| e.to_string())?;
            runtime.load_all(&capstan_home);
            if !runtime.refused().is_empty() {
                return Err(format!("packs refused: {:?}", runtime.refused()));
            }
            for dir in EXTRA_PACKS {
                let source = PackSource::from_dir(&support::built_pack(dir)).map_err(|e| e.to_string())?;
                runtime.add(source).map_err(|e| format!("{dir}: {e}"))?;
            }
            Ok(Fixture { runtime, client, _blender: blender, _home: home })
        })
        .as_ref()
        .map_err(Clone::clone)
}

fn reset(f: &Fixture) -> Result<(), Failed> {
    let spec = f.runtime.bridge_command("blender", "reset_scene").ok_or("the catalog has no reset_scene")?;
    let params = json!({});
    let request = BridgeRequest { server: "blender", command: "reset_scene", params: &params, timeout: spec.timeout };
    f.client.call(request).map(|_| ()).map_err(|e| format!("reset_scene: {e}").into())
}

fn error_codes(e: &CallError) -> Vec<String> {
    let mut codes = vec![report::error_code(e).as_str().to_string()];
    if let Some(app) = e.app_code() {
        codes.push(app.to_string());
    }
    codes
}

fn png_size(path: &str) -> Result<(u32, u32), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" {
        return Err(format!("{path} is not a PNG"));
    }
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    Ok((be(16), be(20)))
}

/// Every PNG a passing case made (a render's `path`, or an image answer), copied out of
/// the session folder for the contact sheet.
static RENDERS: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

fn renders_dir() -> std::path::PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map(std::path::PathBuf::from).unwrap_or_else(|| support::workspace().join("target"));
    target.join("capstan-conformance")
}

fn keep_render(name: &str, result: &Value) {
    let bytes = match (result.get("path").and_then(Value::as_str), result.get("image")) {
        (Some(path), _) if path.ends_with(".png") => std::fs::read(path).ok(),
        (_, Some(image)) if image["mime_type"] == "image/png" => {
            use base64::Engine as _;
            image["data"].as_str().and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok())
        }
        _ => None,
    };
    let Some(bytes) = bytes.filter(|b| b.starts_with(b"\x89PNG")) else { return };
    let mut renders = RENDERS.lock().unwrap_or_else(|p| p.into_inner());
    let file: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).take(80).collect();
    let path = renders_dir().join("renders").join(format!("{:03}-{file}.png", renders.len() + 1));
    if std::fs::create_dir_all(path.parent().unwrap()).is_ok() && std::fs::write(&path, bytes).is_ok() {
        renders.push(path);
    }
}

/// One PNG of the suite's renders (scripts/contact_sheet.py, under Blender's Python).
fn contact_sheet() {
    let renders = RENDERS.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let Some(python) = std::env::var_os("CAPSTAN_TEST_BLENDER").filter(|_| !renders.is_empty()) else { return };
    let out = renders_dir().join("contact-sheet.png");
    let status = std::process::Command::new(python)
        .arg(support::workspace().join("scripts/contact_sheet.py"))
        .arg(&out)
        .args(&renders)
        .stdout(std::process::Stdio::null())
        .status();
    match status {
        Ok(s) if s.success() => eprintln!("conformance: contact sheet of {} renders: {}", renders.len(), out.display()),
        other => eprintln!("conformance: the contact sheet was not made: {other:?}"),
    }
}

fn run_case(key: &str, case: &Case) -> Result<(), Failed> {
    let f = fixture().map_err(Failed::from)?;
    reset(f)?;
    for step in &case.setup {
        f.runtime.call(&step.key, &step.arguments.to_string()).map_err(|e| format!("setup {}: {e}", step.key))?;
    }
    let spec = f.runtime.capability(key).ok_or("the capability vanished")?.clone();
    let outcome = f.runtime.call(key, &case.arguments.to_string());
    let mut problems = Vec::new();
    let mut rendered = None;
    let e = &case.expect;
    match (&e.error, outcome) {
        (Some(code), Err(err)) => {
            let got = error_codes(&err);
            if !got.contains(code) {
                problems.push(format!("failed with {got:?}, expected {code}: {err}"));
            }
            if !spec.mutates
                && let CallError::Pack { delta: Some(d), .. } = &err
            {
                problems.push(format!("a read-only capability reported changes: {}", d.to_json()));
            }
        }
        (Some(code), Ok(out)) => problems.push(format!("succeeded, expected {code}: {}", out.result)),
        (None, Err(err)) => problems.push(format!("failed: {}", report::error_json(&err))),
        (None, Ok(out)) => {
            rendered = Some(out.result.clone());
            let delta = out.delta.clone().unwrap_or_default();
            if !spec.mutates && !delta.is_empty() {
                problems.push(format!("a read-only capability reported changes: {}", delta.to_json()));
            }
            if let Some(want) = &e.delta {
                check::delta(&delta, want, &mut problems);
            }
            if !delta.incomplete.is_empty() {
                problems.push(format!("the bridge flagged its delta incomplete: {:?}", delta.incomplete));
            }
            if let Some(want) = &e.result {
                check::contains(&out.result, want, "result", &mut problems);
            }
            if let Some(png) = &e.png {
                match out.result.get("path").and_then(Value::as_str).map(png_size) {
                    Some(Ok(size)) if size == (png.width, png.height) => {}
                    Some(Ok(size)) => problems.push(format!("the PNG is {size:?}, expected {}x{}", png.width, png.height)),
                    Some(Err(e)) => problems.push(e),
                    None => problems.push("the answer names no path".into()),
                }
            }
            for read in &e.reads {
                let reader = f.runtime.capability(&read.key).ok_or_else(|| format!("reads: no capability {}", read.key))?;
                if reader.mutates {
                    problems.push(format!("reads: {} is not read-only", read.key));
                    continue;
                }
                match f.runtime.call(&read.key, &read.arguments.to_string()) {
                    Ok(got) => check::contains(&got.result, &read.result, &format!("{} {}", read.key, read.arguments), &mut problems),
                    Err(err) => problems.push(format!("reads: {} failed: {err}", read.key)),
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems.join("\n").into());
    }
    if let Some(result) = &rendered {
        keep_render(&format!("{key} {}", case.name), result);
    }
    Ok(())
}

/// The cases, read from the packs without Blender: building the list needs only the
/// packs, so it also works where Blender is missing (and the cases are ignored).
fn offline_runtime() -> (tempfile::TempDir, Runtime) {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let extra: Vec<_> = EXTRA_PACKS.iter().map(|d| support::built_pack(d)).collect();
    let rt = support::runtime(&home, Arc::new(capstan::bridge::Offline), &extra);
    (tmp, rt)
}

fn trials() -> Vec<(String, String, Case)> {
    let (_tmp, rt) = offline_runtime();
    let mut out = Vec::new();
    for cap in rt.capabilities().map(|(_, c)| c).chain(rt.workflows().map(|w| &w.spec)) {
        for case in &cap.conformance {
            out.push((cap.key.clone(), format!("{} :: {}", cap.key, case.name), case.clone()));
        }
    }
    out
}

fn main() {
    let mut args = Arguments::from_args();
    // One Blender, reset between cases: the cases run one at a time.
    args.test_threads = Some(1);
    let have_blender = std::env::var_os("CAPSTAN_TEST_BLENDER").is_some_and(|p| !p.is_empty());
    if !have_blender && std::env::var("CAPSTAN_REQUIRE_BLENDER").as_deref() == Ok("1") {
        eprintln!("CAPSTAN_REQUIRE_BLENDER=1 but CAPSTAN_TEST_BLENDER is not set: the conformance suite needs a real Blender");
        std::process::exit(1);
    }
    if have_blender {
        // The bridge checks every delta against a whole-scene snapshot, every answer
        // against its schema, every error code against the declaration. Set before any
        // thread exists (Blender inherits it).
        unsafe { std::env::set_var("CAPSTAN_BRIDGE_VERIFY_DELTA", "1") };
    }
    let cases = trials();
    let count = cases.len();
    let mut list: Vec<Trial> = cases
        .into_iter()
        .map(|(key, name, case)| Trial::test(name, move || run_case(&key, &case)).with_ignored_flag(!have_blender))
        .collect();
    eprintln!("conformance: {count} cases of {} capabilities", {
        let mut keys: Vec<&str> = list.iter().map(|t| t.name().split(" :: ").next().unwrap_or("")).collect();
        keys.dedup();
        keys.len()
    });
    for key in sweep_keys() {
        let name = format!("sweep :: {{}} :: {key}");
        list.push(Trial::test(name, move || empty_arguments(&key)).with_ignored_flag(!have_blender));
    }
    for (key, aim, case) in wrong_target_cases() {
        let name = format!("sweep :: wrong target :: {key}");
        list.push(Trial::test(name, move || wrong_targets(&key, &aim, &case)).with_ignored_flag(!have_blender));
    }
    required_args::add_trials(&mut list, have_blender);
    list.push(Trial::test("settings :: 200 RNA properties set and read back", settings_sample::sample_settings).with_ignored_flag(!have_blender));
    list.push(Trial::test("meta :: every read capability has a change-then-read case", || every_read_has_a_change_then_read_case(&offline_runtime().1)));
    list.push(Trial::test("meta :: change-then-read cases measure the change", change_then_read_cases_measure_the_change).with_ignored_flag(!have_blender));
    let conclusion = libtest_mimic::run(&args, list);
    contact_sheet();
    conclusion.exit();
}
