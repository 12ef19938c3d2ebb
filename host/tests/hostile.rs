//! Containment: packs written to misbehave end in the right typed error, and the same
//! host process then serves normal calls correctly.

mod support;

use capstan::home::CapstanHome;
use capstan::plugin::{PackLoadError, PackSource};
use capstan::runtime::{CallError, Runtime};
use capstan::sandbox::PackFault;
use serde_json::{Value, json};
use std::sync::Arc;
use support::{RecordingBridge, built_pack, runtime};

/// Prove the runtime still serves: the hostile pack's well-behaved capability, and a
/// blender-core capability that goes through the gate to the bridge.
fn assert_serves(rt: &Runtime, bridge: &RecordingBridge, after: &str) {
    let ok = rt.call("hostile.ok", "{}").unwrap_or_else(|e| panic!("after {after}: hostile.ok failed: {e}"));
    assert_eq!(ok.result, json!({ "ok": true }), "after {after}");
    let before = bridge.count();
    let info = rt.call("scene.info", "{}").unwrap_or_else(|e| panic!("after {after}: scene.info failed: {e}"));
    assert_eq!(info.result["objects"][0]["name"], "Cube", "after {after}");
    assert_eq!(bridge.count(), before + 1, "after {after}: scene.info reached the bridge once");
}

fn fault_of(result: Result<capstan::runtime::CallOutput, CallError>) -> PackFault {
    match result {
        Err(CallError::Fault { fault, .. }) => fault,
        other => panic!("expected a pack fault, got {other:?}"),
    }
}

fn bridge_code_of(result: Result<capstan::runtime::CallOutput, CallError>) -> String {
    match result {
        Err(CallError::Pack { failure, .. }) => failure.bridge_code.clone().unwrap_or_else(|| panic!("no bridge code in {failure:?}")),
        other => panic!("expected a pack failure, got {other:?}"),
    }
}

#[test]
fn every_hostile_case_is_contained_and_the_host_keeps_serving() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let bridge = Arc::new(RecordingBridge::default());
    let rt = runtime(&home, bridge.clone(), &[built_pack("tests/hostile-packs/misbehave")]);
    assert_serves(&rt, &bridge, "loading");

    let fault = fault_of(rt.call("hostile.spin", "{}"));
    assert_eq!(fault, PackFault::Timeout { limit_ms: 6000 });
    assert_eq!(fault.limit(), Some("timeout_ms"));
    assert_serves(&rt, &bridge, "an infinite loop");

    match fault_of(rt.call("hostile.memory_bomb", "{}")) {
        PackFault::MemoryLimit { limit_bytes, requested_bytes } => {
            assert_eq!(limit_bytes, 512 << 20);
            assert!(requested_bytes > limit_bytes);
        }
        other => panic!("memory bomb: {other:?}"),
    }
    assert_serves(&rt, &bridge, "a 1 GiB memory bomb");

    assert_eq!(fault_of(rt.call("hostile.recurse", "{}")), PackFault::StackOverflow);
    assert_serves(&rt, &bridge, "unbounded recursion");
    assert_eq!(fault_of(rt.call("hostile.recurse_big_frames", "{}")), PackFault::MemoryFault);
    assert_serves(&rt, &bridge, "unbounded recursion on the shadow stack");

    match fault_of(rt.call("hostile.panic", "{}")) {
        PackFault::Panic { message } => {
            let message = message.expect("the panic message is captured from the guest's stderr");
            assert!(message.contains("hostile pack panicked on purpose"), "{message}");
        }
        other => panic!("panic: {other:?}"),
    }
    assert_serves(&rt, &bridge, "a panic");

    match fault_of(rt.call("hostile.lying_output", "{}")) {
        PackFault::Contract { detail } => {
            assert!(detail.contains("outside the declared output schema") && detail.contains("at /count: fails /properties/count/type"), "{detail}");
            assert!(!detail.contains("a great many"), "the pack's value is not echoed: {detail}");
        }
        other => panic!("a result outside its output schema: {other:?}"),
    }
    assert_serves(&rt, &bridge, "a result outside its output schema");

    match fault_of(rt.call("hostile.huge_result", "{}")) {
        PackFault::OutputTooLarge { limit_bytes, size_bytes } => {
            assert_eq!(limit_bytes, 8 << 20);
            assert!(size_bytes >= 100 << 20);
        }
        other => panic!("huge result: {other:?}"),
    }
    assert_serves(&rt, &bridge, "a 100 MB result");

    let out = rt.call("hostile.huge_stdout", "{}").expect("stdout is captured and capped, not fatal");
    assert_eq!(out.result["printed_bytes"], json!(100u64 << 20));
    assert_serves(&rt, &bridge, "100 MB of stdout");

    let received = bridge.count();
    assert_eq!(bridge_code_of(rt.call("hostile.undeclared", "{}")), "permission_denied");
    assert_serves(&rt, &bridge, "an undeclared bridge command");
    assert_eq!(bridge_code_of(rt.call("hostile.other_server", "{}")), "permission_denied");
    assert_serves(&rt, &bridge, "a declared command sent to a server the manifest does not name");
    assert_eq!(bridge_code_of(rt.call("hostile.sneaky_mutation", "{}")), "permission_denied");
    assert_serves(&rt, &bridge, "a mutating call from a read-only capability");
    assert_eq!(bridge_code_of(rt.call("hostile.bad_params", "{}")), "invalid_bridge_params");
    assert_eq!(bridge_code_of(rt.call("hostile.raw_string_params", "{}")), "invalid_bridge_params");
    assert_serves(&rt, &bridge, "invalid bridge params");
    assert_eq!(bridge.count(), received + 4, "no refused call reached the bridge (4 = the assert_serves calls)");
    assert!(!bridge.commands().contains(&"delete_object".to_string()));

    let before = bridge.count();
    let flood = rt.call("hostile.flood", "{}").expect("a flood ends in refusals, not a fault");
    assert_eq!(flood.result["ok"], 64, "{}", flood.result);
    assert_eq!(flood.result["refused"], 10_000 - 64);
    assert_eq!(flood.result["last_error"], "BudgetExceeded");
    assert_eq!(bridge.count(), before + 64, "only the budget reached the bridge");
    assert_serves(&rt, &bridge, "10,000 bridge calls");

    let legit = rt.call("hostile.legit_create", "{}").expect("a declared mutating call passes the gate");
    assert_eq!(legit.result["name"], "Legit");
    let last = bridge.received.lock().unwrap().last().cloned().unwrap();
    assert_eq!((last.server.as_str(), last.command.as_str()), ("blender", "create_object"));
    assert_eq!(last.params, json!({ "type": "cube", "name": "Legit" }));
}

#[test]
fn a_pack_built_for_another_abi_version_is_refused_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let bridge = Arc::new(RecordingBridge::default());
    let mut rt = runtime(&home, bridge.clone(), &[]);
    let source = PackSource::from_dir(&built_pack("tests/hostile-packs/abi-mismatch")).unwrap();
    let err = rt.add(source).err().expect("refused");
    let message = err.to_string();
    assert!(matches!(err, PackLoadError::Abi(_)), "{err:?}");
    assert!(message.contains("capstan:pack@0.9.0") && message.contains("capstan:pack@0.1.0"), "{message}");
    let info = rt.call("scene.info", "{}").expect("the host keeps serving");
    assert!(info.result["objects"].is_array());
}

fn sealed_folder(dir: &std::path::Path, bytes: &[u8]) -> PackSource {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("junk.wasm"), bytes).unwrap();
    let manifest = json!({
        "schema": 1, "name": "junk", "version": "0.1.0", "component": "junk.wasm",
        "sha256": capstan::fsutil::sha256_hex(bytes),
        "servers": { "blender": { "commands": ["get_scene_info"] } }
    });
    std::fs::write(dir.join("pack.json"), manifest.to_string()).unwrap();
    PackSource::from_dir(dir).unwrap()
}

#[test]
fn truncated_and_garbage_components_are_refused_and_the_host_keeps_serving() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path().join("home"));
    let bridge = Arc::new(RecordingBridge::default());
    let mut rt = runtime(&home, bridge.clone(), &[]);
    let real = std::fs::read(built_pack("tests/hostile-packs/misbehave").join("hostile_misbehave.wasm")).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", real[..real.len() / 2].to_vec()),
        ("garbage", (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect()),
        ("empty", vec![]),
        ("a core module, not a component", b"\0asm\x01\0\0\0".to_vec()),
    ];
    for (what, bytes) in cases {
        let err = rt.add(sealed_folder(&tmp.path().join(what.replace(' ', "_")), &bytes)).err().unwrap_or_else(|| panic!("{what} loaded"));
        assert!(matches!(err, PackLoadError::Compile { .. }), "{what}: {err:?}");
        rt.call("scene.info", "{}").unwrap_or_else(|e| panic!("after {what}: {e}"));
    }
}

#[test]
fn a_component_that_does_not_match_its_manifest_digest_is_refused_before_compiling() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path().join("home"));
    let mut rt = support::runtime_with_own_cache(&home, Arc::new(RecordingBridge::default()), &[]);
    let dir = tmp.path().join("swapped");
    let mut source = sealed_folder(&dir, b"original bytes");
    source.component = Arc::from(&b"swapped bytes"[..]);
    let err = rt.add(source).err().unwrap();
    assert!(matches!(err, PackLoadError::DigestMismatch { .. }), "{err:?}");
    assert_eq!(rt.cache().stats.compiled_total(), support::official_pack_count(), "only the official packs were compiled");
}

#[test]
fn guest_output_never_reaches_the_process_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    let packs = tmp.path().join("packs").join("hostile-misbehave");
    std::fs::create_dir_all(&packs).unwrap();
    for entry in std::fs::read_dir(built_pack("tests/hostile-packs/misbehave")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), packs.join(entry.file_name())).unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan"))
        .env("CAPSTAN_HOME", tmp.path())
        .env("CAPSTAN_LOG", "info")
        .args(["call", "hostile.huge_stdout", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.len() < 4096, "stdout carries only the result ({} bytes)", out.stdout.len());
    let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is exactly one JSON document");
    assert_eq!(doc["ok"], true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("truncated=true"), "the capped guest output is logged to stderr: {}", &stderr[..stderr.len().min(500)]);
    assert!(stderr.len() < 1 << 20, "the log holds the capped prefix, not 100 MB");
    a_pack_cannot_forge_log_lines_or_send_escape_sequences(tmp.path());
}

/// What a pack logs or prints reaches capstan's log with its control characters
/// escaped: it cannot end capstan's line and forge the next, nor drive the terminal.
/// (Run from `guest_output_never_reaches_the_process_stdout`, in its home, so the pack
/// is compiled once: another compile in parallel would slow the time-limited cases.)
fn a_pack_cannot_forge_log_lines_or_send_escape_sequences(home: &std::path::Path) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan"))
        .env("CAPSTAN_HOME", home)
        .env("CAPSTAN_LOG", "info")
        .args(["call", "hostile.forge_log", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains('\u{1b}'), "an escape sequence reached the log: {stderr:?}");
    assert!(!stderr.contains('\r'), "a carriage return reached the log: {stderr:?}");
    let forged: Vec<&str> = stderr.lines().filter(|l| l.contains("FORGED")).collect();
    assert_eq!(forged.len(), 3, "the log line, stdout and stderr, each on one line: {stderr}");
    for line in forged {
        assert!(line.contains("innocent\\nWARN capstan: FORGED") && line.contains("hostile-misbehave"), "{line}");
        assert!(!line.trim_start().starts_with("WARN capstan"), "a forged line: {line}");
    }
}

/// A bridge that answers after `delay`, or gives up at the request's timeout when that
/// is shorter (as the real client does), recording each timeout it was given.
struct SlowBridge {
    delay: std::time::Duration,
    timeouts: std::sync::Mutex<Vec<std::time::Duration>>,
}

impl capstan::bridge::BridgeClient for SlowBridge {
    fn call(&self, request: capstan::bridge::BridgeRequest<'_>) -> Result<Value, capstan::bridge::BridgeFailure> {
        self.timeouts.lock().unwrap().push(request.timeout);
        if request.timeout < self.delay {
            std::thread::sleep(request.timeout);
            return Err(capstan::bridge::BridgeFailure::Transport { reason: "timeout".into(), detail: format!("no answer within {:?}", request.timeout) });
        }
        std::thread::sleep(self.delay);
        Ok(support::canned::answer(request.command, request.params))
    }
}

/// The misbehaving pack with `deadline_ms` set in its manifest.
fn misbehave_with_deadline(deadline_ms: u64) -> PackSource {
    let mut source = PackSource::from_dir(&built_pack("tests/hostile-packs/misbehave")).unwrap();
    let mut manifest: Value = serde_json::from_str(&source.manifest_text).unwrap();
    manifest["limits"]["deadline_ms"] = json!(deadline_ms);
    source.manifest_text = manifest.to_string();
    source
}

#[test]
fn the_whole_call_has_a_deadline_that_bridge_waits_cannot_stretch() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    // 400 ms per answer: the flood's 64-call budget alone would wait 26 s. Two answers
    // leave about 200 ms of the 1000 ms deadline, less the guest's own time between
    // calls, so the third wait is cut short unless each call's overhead passes 100 ms
    // (with 300 ms the margin was 33 ms, and a loaded machine ended the call in the
    // guest between waits instead).
    let delay = std::time::Duration::from_millis(400);
    let bridge = Arc::new(SlowBridge { delay, timeouts: Default::default() });
    let mut rt = Runtime::new(&home, capstan::engine::AllocationPreference::PoolingIfAvailable, bridge.clone()).unwrap();
    rt.add(misbehave_with_deadline(1000)).unwrap();

    // The pack catches every refused call and answers; the call still ends in the
    // deadline fault, named, because its answer was built on calls that never finished.
    let fault = fault_of(rt.call("hostile.flood", "{}"));
    assert_eq!(fault, PackFault::Deadline { limit_ms: 1000 });
    assert_eq!(fault.limit(), Some("deadline_ms"));
    assert!(fault.to_string().contains("1000 ms") && fault.to_string().contains("bridge waits included"), "{fault}");
    let timeouts = bridge.timeouts.lock().unwrap().clone();
    // Each wait may last only what is left of the call (not the command's 30 s): two
    // answered, the next was cut short of its answer, none was sent after it.
    let last = *timeouts.last().expect("the flood reached the bridge");
    assert!(timeouts.len() <= 4, "no call reached the bridge after the deadline: {timeouts:?}");
    assert!(timeouts.iter().all(|t| *t <= std::time::Duration::from_millis(1000)), "waits are cut to the time left: {timeouts:?}");
    assert!(timeouts.windows(2).all(|w| w[1] < w[0]), "the time left only shrinks: {timeouts:?}");
    assert!(last < delay, "the last wait ended at the deadline, before its answer: {timeouts:?}");

    // A guest that computes past the deadline (shorter than its guest-time limit here)
    // is interrupted at it, with the deadline named, not the guest-time limit.
    let mut rt = Runtime::new(&home, capstan::engine::AllocationPreference::PoolingIfAvailable, bridge.clone()).unwrap();
    rt.add(misbehave_with_deadline(400)).unwrap();
    assert_eq!(fault_of(rt.call("hostile.spin", "{}")), PackFault::Deadline { limit_ms: 400 });
    assert_eq!(rt.call("hostile.ok", "{}").unwrap().result, json!({ "ok": true }), "the host serves on");
}

/// A spare instance, made in idle time for the next call of the pack that last
/// answered (`runtime::spare`), is as fresh as one made for the call, serves one
/// call, and holds the call to the gate of the capability called (not of the one it
/// was made after) and to the pack's limits.
#[test]
fn a_spare_instance_is_fresh_serves_one_call_and_is_gated_and_limited_like_any() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let bridge = Arc::new(RecordingBridge::default());
    let rt = runtime(&home, bridge.clone(), &[built_pack("tests/hostile-packs/misbehave")]);
    let seen = |rt: &Runtime| rt.call("hostile.remember", "{}").unwrap().result["calls_seen"].clone();
    // Each call below must run in the spare made just before it.
    let in_a_spare = |rt: &Runtime, made_after: &str, call: &dyn Fn(&Runtime)| {
        let taken = rt.spares_taken();
        rt.refill_spare(made_after);
        assert!(rt.has_spare_for(made_after), "a spare after {made_after}");
        call(rt);
        assert_eq!(rt.spares_taken(), taken + 1, "the call after {made_after} ran in its spare");
    };

    assert!(!rt.has_spare_for("hostile.remember"), "none before a refill");
    assert_eq!(seen(&rt), json!(1));
    assert_eq!(rt.spares_taken(), 0);
    for round in 0..3 {
        in_a_spare(&rt, "hostile.remember", &|rt| assert_eq!(seen(rt), json!(1), "round {round}: the spare had seen no call before its own"));
        assert!(!rt.has_spare_for("hostile.remember"), "round {round}: a spare serves one call");
    }
    // One spare serves the whole pack; each pack keeps its own.
    rt.refill_spare("hostile.remember");
    rt.refill_spare("scene.info");
    assert!(rt.has_spare_for("hostile.ok") && rt.has_spare_for("scene.info"));
    assert_eq!(rt.call("hostile.ok", "{}").unwrap().result, json!({ "ok": true }));
    assert!(!rt.has_spare_for("hostile.ok") && rt.has_spare_for("scene.info"));

    // At most `MAX_SPARES`, one per pack: the one made longest ago gives way.
    let one_per_pack: Vec<String> = rt.packs().iter().filter_map(|p| p.capabilities.first().map(|c| c.key.clone())).collect();
    assert!(one_per_pack.len() > capstan::limits::MAX_SPARES, "{one_per_pack:?}");
    for key in &one_per_pack {
        rt.refill_spare(key);
    }
    let waiting: Vec<bool> = one_per_pack.iter().map(|k| rt.has_spare_for(k)).collect();
    let kept = one_per_pack.len() - capstan::limits::MAX_SPARES;
    assert!(waiting[..kept].iter().all(|w| !w) && waiting[kept..].iter().all(|w| *w), "{waiting:?}");

    // The gate is the called capability's: a spare made after a mutating capability
    // does not let a read-only one mutate, and one made after a read-only capability
    // does not stop a declared mutation.
    let received = bridge.count();
    in_a_spare(&rt, "hostile.legit_create", &|rt| assert_eq!(bridge_code_of(rt.call("hostile.sneaky_mutation", "{}")), "permission_denied"));
    in_a_spare(&rt, "hostile.legit_create", &|rt| assert_eq!(bridge_code_of(rt.call("hostile.undeclared", "{}")), "permission_denied"));
    assert_eq!(bridge.count(), received, "no refused call reached the bridge");
    in_a_spare(&rt, "hostile.sneaky_mutation", &|rt| assert_eq!(rt.call("hostile.legit_create", "{}").unwrap().result["name"], "Legit"));
    let last = bridge.received.lock().unwrap().last().cloned().unwrap();
    assert_eq!((last.command.as_str(), last.params.clone()), ("create_object", json!({ "type": "cube", "name": "Legit" })));
    // The limits are the pack's.
    in_a_spare(&rt, "hostile.ok", &|rt| assert!(matches!(fault_of(rt.call("hostile.memory_bomb", "{}")), PackFault::MemoryLimit { .. })));
    in_a_spare(&rt, "hostile.ok", &|rt| assert_eq!(fault_of(rt.call("hostile.recurse", "{}")), PackFault::StackOverflow));
    assert_serves(&rt, &bridge, "calls in spares");
}

/// A spare's clocks start with its call: the time it waited is not the call's, and
/// the call's own time is limited as ever.
#[test]
fn a_spare_that_waited_past_the_deadline_still_gets_its_whole_call() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let bridge = Arc::new(RecordingBridge::default());
    let mut rt = Runtime::new(&home, capstan::engine::AllocationPreference::PoolingIfAvailable, bridge).unwrap();
    rt.add(misbehave_with_deadline(300)).unwrap();
    // A bridge call is refused once the deadline has passed: this one is not.
    rt.refill_spare("hostile.legit_create");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(rt.call("hostile.legit_create", "{}").unwrap().result["name"], "Legit", "the wait was not counted");
    rt.refill_spare("hostile.spin");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let started = std::time::Instant::now();
    assert_eq!(fault_of(rt.call("hostile.spin", "{}")), PackFault::Deadline { limit_ms: 300 });
    assert!(started.elapsed() >= std::time::Duration::from_millis(250), "the deadline counted from the call, not from the spare's making");
    assert_eq!(rt.spares_taken(), 2, "both calls ran in their spares");
}

/// The overdeclare pack in `mode`: one build, the mode written into its component
/// (two digits after its marker) and the manifest resealed.
fn overdeclare(mode: u32) -> PackSource {
    let mut source = PackSource::from_dir(&built_pack("tests/hostile-packs/overdeclare")).unwrap();
    let marker = b"capstan-overdeclare-mode=00;";
    let mut bytes = source.component.to_vec();
    let at = bytes.windows(marker.len()).position(|w| w == marker).expect("the mode marker is in the component");
    bytes[at + 25..at + 27].copy_from_slice(format!("{mode:02}").as_bytes());
    let mut manifest: Value = serde_json::from_str(&source.manifest_text).unwrap();
    manifest["sha256"] = json!(capstan::fsutil::sha256_hex(&bytes));
    source.manifest_text = manifest.to_string();
    source.component = bytes.into();
    source
}

fn refusal_of(rt: &mut Runtime, mode: u32) -> String {
    match rt.add(overdeclare(mode)) {
        Err(PackLoadError::Contract(problems)) => {
            let text = problems.join("\n");
            assert!(problems.len() <= 41, "mode {mode}: refusals are capped: {} lines", problems.len());
            // What the host says about a hostile description can be printed as it is.
            assert!(!problems.iter().any(|p| p.chars().any(capstan::control_chars::needs_escape)), "mode {mode}: raw control characters in {text:?}");
            text
        }
        Err(other) => panic!("mode {mode}: expected a contract refusal, got {other}"),
        Ok(_) => panic!("mode {mode}: the pack loaded"),
    }
}

#[test]
fn a_pack_that_declares_past_any_bound_is_refused_with_the_bound_named() {
    let tmp = tempfile::tempdir().unwrap();
    let home = CapstanHome::at(tmp.path());
    let bridge = Arc::new(RecordingBridge::default());
    let mut rt = runtime(&home, bridge.clone(), &[]);

    let expect: &[(u32, &[&str])] = &[
        (1, &["50000 capabilities; at most 512 are allowed (limit: capabilities per pack)"]),
        (2, &["input-schema is 1000034 bytes; at most 65536 are allowed"]),
        (3, &[
            "the summary is 1000 bytes; at most 200",
            "the description is 100000 bytes; at most 8192",
            "1000 entries in its tag list; at most 32",
            "1000 entries in its example list; at most 16",
            "1000 entries in its alias list; at most 16",
            "1000 entries in its bridge command list; at most 64",
        ]),
        (4, &[
            "family \"inspect\": the summary holds the character U+001B",
            "the summary holds the character U+001B",
            "the description holds the character U+000D",
            "holds the character U+202E",
            "the tag \"a\\nb\" holds the character U+000A",
            "a string in input-schema holds the character U+001B",
        ]),
        (5, &["at most 4194304 are allowed (limit: description bytes)"]),
        (6, &["\"scene.info\" is already claimed by pack \"blender-core\"", "\"scene.create_object\" is already claimed by pack \"blender-core\""]),
        (7, &["capability \"overdeclare.\\u{1b}[31mred\": the key must be family.verb_noun", "input-schema is not JSON: recursion limit exceeded"]),
        (8, &["100 families; at most 64 are allowed"]),
        (9, &[
            "capability \"overdeclare.array_output\": output-schema must describe a JSON object",
            "capability \"overdeclare.broken_output\": output-schema does not compile",
            "capability \"overdeclare.huge_output\": output-schema is 100034 bytes; at most 65536 are allowed",
            "capability \"overdeclare.escape_output\": a string in output-schema holds the character U+001B",
        ]),
    ];
    for (mode, needles) in expect {
        let text = refusal_of(&mut rt, *mode);
        for needle in *needles {
            assert!(text.contains(needle), "mode {mode}: {needle:?} not in:\n{text}");
        }
        // The official capabilities stay theirs, and the host serves on.
        assert_eq!(rt.capabilities().find(|(_, c)| c.key == "scene.info").map(|(p, _)| p.name().to_string()).as_deref(), Some("blender-core"));
        let info = rt.call("scene.info", "{}").unwrap_or_else(|e| panic!("after mode {mode}: {e}"));
        assert_eq!(info.result["objects"][0]["name"], "Cube");
    }
    // The same build within every bound loads: the refusals above are the bounds'.
    rt.add(overdeclare(0)).expect("the well-behaved mode loads");
    assert_eq!(rt.call("overdeclare.ok", "{}").unwrap().result, json!({ "ok": true }));
}
