//! `capstan packs new` → `capstan packs build --install` → a guided MCP session that
//! finds and runs both scaffolded capabilities against a real Blender, the scaffold's
//! own conformance cases, and a hostile edit (an import of `wasi:sockets`) refused at
//! build, validate and install with the import named. The same for `--lang python`
//! and `--lang js` (new, the scaffold's own unit tests, build, install, guided MCP,
//! conformance cases).
//!
//! The Rust scaffold compiles once per test binary, in one shared target directory
//! (`<target>/capstan-scaffold`), so the SDK is compiled for wasm once and reused by
//! later runs. componentize-py and componentize-js come from the test cache's tools
//! folder (`$CAPSTAN_TEST_CACHE/tools`, shared with scripts/foreign_packs.sh; installed
//! there by `packs build` if missing). Needs `CAPSTAN_TEST_BLENDER` for the Blender half
//! (scripts/test sets it).

mod support;
#[path = "support/raw_mcp.rs"]
mod raw_mcp;

use capstan::bridge::{BridgeClient, BridgeRequest, HttpBridgeClient};
use capstan::conformance::check;
use capstan::engine::AllocationPreference;
use capstan::home::CapstanHome;
use capstan::runtime::{CallError, Runtime};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

const NAME: &str = "scaffold-demo";
const NS: &str = "scaffold_demo";
const COUNT: &str = "scaffold_demo.count_objects";
const MARKER: &str = "scaffold_demo.add_marker";

/// The tools folder the test command shares (componentize-py, componentize-js).
fn tools_dir() -> PathBuf {
    let cache = std::env::var_os("CAPSTAN_TEST_CACHE")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache/capstan"));
    cache.join("tools")
}

fn scaffold_target() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| support::workspace().join("target")).join("capstan-scaffold")
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Out {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}\n{}", self.stdout, self.stderr))
    }
    fn text(&self) -> String {
        format!("exit {}\nstdout:\n{}\nstderr:\n{}", self.code, self.stdout, self.stderr)
    }
}

fn capstan(home: &Path, args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_capstan"))
        .env("CAPSTAN_HOME", home)
        .env("CARGO_TARGET_DIR", scaffold_target())
        .env("CARGO", env!("CARGO"))
        .env("CAPSTAN_TOOLS_DIR", tools_dir())
        .args(args)
        .output()
        .unwrap();
    Out { code: out.status.code().unwrap_or(-1), stdout: String::from_utf8_lossy(&out.stdout).into(), stderr: String::from_utf8_lossy(&out.stderr).into() }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_bad_name_and_an_existing_folder_are_refused_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let parent = tmp.path().join("packs");
    std::fs::create_dir(&parent).unwrap();
    let dir = parent.to_str().unwrap();
    for bad in ["Demo", "9lives", "demo_pack", "demo pack", &"a".repeat(65)] {
        let out = capstan(tmp.path(), &["packs", "new", bad, "--dir", dir, "--json"]);
        assert_eq!(out.code, 1, "{bad}: {}", out.text());
        assert_eq!(out.json()["error"]["code"], "invalid_name", "{bad}");
        assert!(listing(&parent).is_empty(), "{bad}: nothing written");
    }
    let out = capstan(tmp.path(), &["packs", "new", "Demo", "--dir", dir]);
    assert_eq!(out.code, 2, "{}", out.text());
    assert!(out.stderr.contains("invalid pack name") && out.stderr.contains("a-z, 0-9 and '-'"), "{}", out.text());

    std::fs::create_dir(parent.join("taken")).unwrap();
    std::fs::write(parent.join("taken/notes.txt"), "mine").unwrap();
    let out = capstan(tmp.path(), &["packs", "new", "taken", "--dir", dir, "--json"]);
    assert_eq!(out.code, 1, "{}", out.text());
    let doc = out.json();
    assert_eq!(doc["created"], false);
    assert_eq!(doc["error"]["code"], "exists");
    assert!(doc["message"].as_str().unwrap().contains("nothing was written"), "{doc}");
    assert_eq!(listing(&parent), ["taken"], "no staging folder left behind");
    assert_eq!(listing(&parent.join("taken")), ["notes.txt"]);
    assert_eq!(std::fs::read_to_string(parent.join("taken/notes.txt")).unwrap(), "mine");

    let out = capstan(tmp.path(), &["packs", "new", "py-pack", "--lang", "python", "--sdk-version", "0.1.0", "--dir", dir]);
    assert_eq!(out.code, 2, "{}", out.text());
    assert!(out.stderr.contains("a python pack has none"), "{}", out.text());
    let out = capstan(tmp.path(), &["packs", "new", "js-pack", "--lang", "js", "--sdk-version", "0.1.0", "--dir", dir, "--json"]);
    assert_eq!(out.json()["error"]["code"], "sdk_for_lang");
    assert_eq!(listing(&parent), ["taken"]);
    std::fs::create_dir_all(parent.join("notes/src")).unwrap();
    std::fs::write(parent.join("notes/pack.json"), "{}").unwrap();
    std::fs::write(parent.join("notes/src/main.py"), "").unwrap();
    let out = capstan(tmp.path(), &["packs", "build", parent.join("notes").to_str().unwrap(), "--json"]);
    assert_eq!((out.code, out.json()["error"]["code"].as_str()), (2, Some("not_buildable")), "{}", out.text());
    assert!(out.json()["message"].as_str().unwrap().contains("src/app.py"), "{}", out.text());

    let out = capstan(tmp.path(), &["packs", "build", dir]);
    assert_eq!(out.code, 2, "{}", out.text());
    assert!(out.stderr.contains("no pack.json"), "{}", out.text());
}

/// The guided MCP tools (five) find and run both scaffolded capabilities of the pack
/// with namespace `ns`.
fn guided_session(home: &Path, ns: &str) {
    let (count, marker) = (format!("{ns}.count_objects"), format!("{ns}.add_marker"));
    let (count_key, marker_key) = (count.as_str(), marker.as_str());
    let mut c = raw_mcp::RawClient::start(home, false);
    let ok = |r: &Value| {
        assert_eq!(r["result"]["isError"], false, "{r}");
        r["result"]["structuredContent"].clone()
    };
    let found = ok(&c.call_tool("search_capabilities", json!({ "query": "count objects of a type", "limit": 10 })));
    let keys: Vec<&str> = found["results"].as_array().unwrap().iter().filter_map(|h| h["key"].as_str()).collect();
    assert!(keys.contains(&count_key), "search finds {count_key}: {found}");
    let found = ok(&c.call_tool("search_capabilities", json!({ "query": "add a named marker", "limit": 10 })));
    let keys: Vec<&str> = found["results"].as_array().unwrap().iter().filter_map(|h| h["key"].as_str()).collect();
    assert!(keys.contains(&marker_key), "search finds {marker_key}: {found}");

    let schema = ok(&c.call_tool("get_capability_schema", json!({ "key": marker_key })));
    assert_eq!(schema["mutates"], true);
    assert_eq!(schema["input_schema"]["required"], json!(["name"]));
    let schema = ok(&c.call_tool("get_capability_schema", json!({ "key": count_key })));
    assert_eq!(schema["mutates"], false);

    let counted = ok(&c.call_tool("execute_capability", json!({ "key": count_key, "arguments": { "kind": "MESH" } })));
    assert_eq!(counted["result"], json!({ "kind": "MESH", "count": 1 }), "the factory scene's cube: {counted}");
    let added = ok(&c.call_tool("execute_capability", json!({ "key": marker_key, "arguments": { "name": "ScaffoldMarker", "location": [0, 0, 2] } })));
    assert_eq!(added["delta"]["added"], json!(["ScaffoldMarker"]), "{added}");
    assert_eq!(added["result"]["name"], "ScaffoldMarker");
    let counted = ok(&c.call_tool("execute_capability", json!({ "key": count_key, "arguments": { "kind": "EMPTY" } })));
    assert_eq!(counted["result"]["count"], 1, "the marker is in Blender: {counted}");
    let info = ok(&c.call_tool("execute_capability", json!({ "key": "scene.object_info", "arguments": { "name": "ScaffoldMarker" } })));
    assert_eq!(info["result"]["type"], "EMPTY", "{info}");
    drop(c);

    // The read capability declares its answer (output schema): the expert surface lists
    // it as the tool's outputSchema and answers with structuredContent in that shape.
    let mut expert = raw_mcp::RawClient::start(home, true);
    let tool_name = count_key.replacen('.', "__", 1);
    let listed = expert.request("tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().expect("tools/list answers");
    let tool = tools.iter().find(|t| t["name"] == tool_name.as_str()).unwrap_or_else(|| panic!("{tool_name} is listed: {listed}"));
    assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
    let mut required: Vec<&str> = tool["outputSchema"]["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    required.sort();
    assert_eq!(required, ["count", "kind"], "{tool}");
    let marker_tool = tools.iter().find(|t| t["name"] == marker_key.replacen('.', "__", 1).as_str()).unwrap();
    assert!(marker_tool.get("outputSchema").is_none(), "add_marker declares none: {marker_tool}");
    let answer = expert.call_tool(&tool_name, json!({ "kind": "EMPTY" }));
    assert_eq!(answer["result"]["structuredContent"], json!({ "kind": "EMPTY", "count": 1 }), "{answer}");
}

/// The scaffold's conformance cases (from its own `describe`), as the conformance
/// suite runs them: factory scene, setup, call, expected result, delta, reads, error.
fn scaffold_cases_pass(home: &Path, ns: &str) {
    let (count, marker) = (format!("{ns}.count_objects"), format!("{ns}.add_marker"));
    let (count_key, marker_key) = (count.as_str(), marker.as_str());
    let capstan_home = CapstanHome::at(home);
    let client = Arc::new(HttpBridgeClient::for_home(&capstan_home));
    let mut runtime = Runtime::new(&capstan_home, AllocationPreference::PoolingIfAvailable, client.clone()).unwrap();
    runtime.load_all(&capstan_home);
    assert!(runtime.refused().is_empty(), "{:?}", runtime.refused());
    let mut ran = 0;
    let mut failures = Vec::new();
    for key in [count_key, marker_key] {
        let spec = runtime.capability(key).unwrap_or_else(|| panic!("{key} loaded from the store")).clone();
        assert!(spec.conformance.len() >= 2, "{key} declares its cases");
        for case in &spec.conformance {
            ran += 1;
            let params = json!({});
            let reset = runtime.bridge_command("blender", "reset_scene").unwrap();
            client.call(BridgeRequest { server: "blender", command: "reset_scene", params: &params, timeout: reset.timeout }).unwrap();
            for step in &case.setup {
                runtime.call(&step.key, &step.arguments.to_string()).unwrap();
            }
            let mut problems = Vec::new();
            match (&case.expect.error, runtime.call(key, &case.arguments.to_string())) {
                (Some(code), Err(e)) => {
                    let got = capstan::report::error_code(&e).as_str().to_string();
                    let app = if let CallError::Pack { failure, .. } = &e { failure.app_error.as_ref().map(|a| a.code.clone()) } else { None };
                    if &got != code && app.as_ref() != Some(code) {
                        problems.push(format!("failed with {got} ({app:?}), expected {code}: {e}"));
                    }
                }
                (Some(code), Ok(out)) => problems.push(format!("succeeded, expected {code}: {}", out.result)),
                (None, Err(e)) => problems.push(format!("failed: {e}")),
                (None, Ok(out)) => {
                    let delta = out.delta.clone().unwrap_or_default();
                    if !spec.mutates && !delta.is_empty() {
                        problems.push(format!("a read-only capability changed the scene: {}", delta.to_json()));
                    }
                    if let Some(want) = &case.expect.delta {
                        check::delta(&delta, want, &mut problems);
                    }
                    if let Some(want) = &case.expect.result {
                        check::contains(&out.result, want, "result", &mut problems);
                    }
                    for read in &case.expect.reads {
                        match runtime.call(&read.key, &read.arguments.to_string()) {
                            Ok(got) => check::contains(&got.result, &read.result, &read.key, &mut problems),
                            Err(e) => problems.push(format!("reads {}: {e}", read.key)),
                        }
                    }
                }
            }
            if !problems.is_empty() {
                failures.push(format!("{key} :: {}: {}", case.name, problems.join("; ")));
            }
        }
    }
    assert!(failures.is_empty(), "scaffold cases failed:\n{}", failures.join("\n"));
    assert!(ran >= 6, "{ran} cases ran");
    eprintln!("packs_new: {ns}: {ran} scaffold conformance cases passed against real Blender");
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn a_scaffolded_pack_builds_installs_and_runs_in_real_blender_and_a_socket_import_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let parent = tmp.path().join("src");
    std::fs::create_dir(&parent).unwrap();

    let out = capstan(&home, &["packs", "new", NAME, "--dir", parent.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 0, "{}", out.text());
    let made = out.json();
    let dir = parent.join(NAME);
    assert_eq!(made["pack"]["capabilities"], json!([COUNT, MARKER]));
    // Run inside a capstan checkout: the SDK is this checkout's, by path.
    let sdk = std::fs::canonicalize(support::workspace().join("sdk")).unwrap();
    assert_eq!(made["pack"]["sdk"], json!({ "kind": "path", "value": sdk }));
    let cargo_toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(cargo_toml.contains(&format!("capstan-sdk = {{ path = {:?} }}", sdk.to_str().unwrap())), "{cargo_toml}");
    for file in ["pack.json", "README.md", "rust-toolchain.toml", "src/lib.rs", "src/capabilities/count_objects.rs", "src/capabilities/add_marker.rs"] {
        assert!(dir.join(file).is_file(), "{file} scaffolded");
    }
    let template: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("pack.json")).unwrap()).unwrap();
    assert!(template.get("sha256").is_none(), "the template is unsealed until built");

    // The one scaffold build of this test binary.
    let out = capstan(&home, &["packs", "build", dir.to_str().unwrap(), "--install", "--json"]);
    assert_eq!(out.code, 0, "{}", out.text());
    let report = out.json();
    assert_eq!(report["validation"]["valid"], true, "{report}");
    assert_eq!(report["install"]["installed"], true, "{report}");
    assert_eq!(report["built"]["commands"], json!({ "blender": ["create_object", "get_scene_info"] }));
    let sealed: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("pack.json")).unwrap()).unwrap();
    let component = std::fs::read(dir.join("scaffold_demo.wasm")).expect("the component is next to pack.json");
    assert_eq!(sealed["sha256"], capstan::fsutil::sha256_hex(&component));
    assert_eq!(sealed["servers"]["blender"]["commands"], json!(["create_object", "get_scene_info"]));
    assert_eq!(sealed["description"], template["description"], "the author's keys are kept");
    let valid = capstan(&home, &["packs", "validate", dir.to_str().unwrap()]);
    assert_eq!(valid.code, 0, "the sealed folder validates as built: {}", valid.text());
    let listed = capstan(&home, &["packs", "list", "--json"]).json();
    let pack = listed["packs"].as_array().unwrap().iter().find(|p| p["name"] == NAME).expect("installed and loaded");
    let effects: Vec<(String, bool)> = pack["capabilities"].as_array().unwrap().iter().map(|c| (c["key"].as_str().unwrap().to_string(), c["mutates"].as_bool().unwrap())).collect();
    assert_eq!(effects, [(COUNT.to_string(), false), (MARKER.to_string(), true)]);

    // A hostile edit: the handler opens a TCP connection (std::net pulls in wasi:sockets).
    let hostile = tmp.path().join("hostile");
    copy_dir(&dir, &hostile);
    let source = hostile.join("src/capabilities/count_objects.rs");
    let text = std::fs::read_to_string(&source).unwrap();
    let edited = text.replace(
        "fn count_objects(args: CountArgs) -> PackResult<Counted> {",
        "fn count_objects(args: CountArgs) -> PackResult<Counted> {\n    let _ = std::net::TcpStream::connect(\"127.0.0.1:80\");",
    );
    assert_ne!(edited, text);
    std::fs::write(&source, edited).unwrap();
    let out = capstan(&home, &["packs", "build", hostile.to_str().unwrap(), "--install"]);
    assert_eq!(out.code, 1, "{}", out.text());
    assert!(out.stderr.contains("imports wasi:sockets/") && out.stderr.contains("no network access"), "build names the import: {}", out.text());
    // Sealed by hand, it is still refused by validate and by install, naming the import.
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(hostile.join("pack.json")).unwrap()).unwrap();
    let bytes = std::fs::read(hostile.join("scaffold_demo.wasm")).unwrap();
    assert_ne!(bytes, component, "the hostile component was written");
    manifest["sha256"] = json!(capstan::fsutil::sha256_hex(&bytes));
    std::fs::write(hostile.join("pack.json"), manifest.to_string()).unwrap();
    let out = capstan(&home, &["packs", "validate", hostile.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 1, "{}", out.text());
    assert!(out.json()["errors"][0]["message"].as_str().unwrap().contains("imports wasi:sockets/"), "{}", out.text());
    let out = capstan(&home, &["packs", "install", hostile.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 1, "{}", out.text());
    let refused = out.json();
    assert_eq!(refused["installed"], false);
    assert_eq!(refused["refused"], "forbidden_import", "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("wasi:sockets/") && message.contains("never given"), "{message}");
    let store = home.join("packs").join(NAME);
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(store.join("pack.json")).unwrap()).unwrap();
    assert_eq!(kept["sha256"], sealed["sha256"], "the installed version stays whole");

    // A build that does not compile: cargo's own message, then its exit code.
    std::fs::write(&source, "fn broken( {\n").unwrap();
    let out = capstan(&home, &["packs", "build", hostile.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.text());
    assert!(out.stderr.contains("error") && out.stderr.contains("count_objects.rs"), "cargo's message is shown: {}", out.text());
    assert!(out.stderr.contains("cargo failed (exit code 101)"), "{}", out.text());

    // Against real Blender: a guided MCP session, then the scaffold's own cases.
    let Some(_blender) = support::headless_blender(&home) else { return };
    guided_session(&home, NS);
    scaffold_cases_pass(&home, NS);
}

/// Building someone else's Rust pack runs its build code natively, before any sandbox
/// exists: the scaffold as generated (only the SDK's own macros and build scripts)
/// builds without asking; a pack with its own `build.rs` (here one that writes a file
/// outside its target folder), its own procedural macro or cargo configuration in its
/// folder is refused, naming each, before cargo compiles anything, unless
/// `--trust-build-code` is given.
#[test]
fn build_code_beyond_the_sdk_is_refused_unless_trusted() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let parent = tmp.path().join("src");
    let outside = tmp.path().join("outside");
    for d in [&home, &parent, &outside] {
        std::fs::create_dir(d).unwrap();
    }
    let out = capstan(&home, &["packs", "new", "trust-demo", "--dir", parent.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 0, "{}", out.text());
    let dir = parent.join("trust-demo");
    let build = |extra: &[&str]| {
        let mut args = vec!["packs", "build", dir.to_str().unwrap()];
        args.extend_from_slice(extra);
        capstan(&home, &args)
    };
    let out = build(&["--json"]);
    assert_eq!(out.code, 0, "the SDK's own build code is allowed: {}", out.text());
    assert_eq!(out.json()["validation"]["valid"], true);

    // A build script that writes outside the pack's target folder.
    let marker = outside.join("ran.txt");
    std::fs::write(dir.join("build.rs"), format!("fn main() {{ std::fs::write({:?}, \"build.rs ran\").unwrap(); }}\n", marker.to_str().unwrap())).unwrap();
    let out = build(&["--json"]);
    assert_eq!(out.code, 1, "{}", out.text());
    let refused = out.json();
    assert_eq!(refused["built"], false);
    assert_eq!(refused["error"]["code"], "untrusted_build_code", "{refused}");
    assert_eq!(refused["error"]["found"], json!([{ "what": "trust-demo 0.1.0", "source": "this pack", "kind": "build_script" }]), "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("--trust-build-code"), "{refused}");
    assert!(!marker.exists(), "the build script did not run");
    let out = build(&[]);
    assert_eq!(out.code, 1, "{}", out.text());
    assert!(out.stderr.contains("trust-demo 0.1.0 (this pack) has a build script (build.rs)") && out.stderr.contains("--trust-build-code"), "{}", out.text());
    assert!(!marker.exists());
    // Trusted: it builds, and the build script ran as the user (which is what the flag accepts).
    let out = build(&["--trust-build-code", "--json"]);
    assert_eq!(out.code, 0, "{}", out.text());
    assert!(out.stderr.contains("--trust-build-code: building") && out.stderr.contains("trust-demo 0.1.0"), "{}", out.text());
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "build.rs ran");
    std::fs::remove_file(&marker).unwrap();
    std::fs::remove_file(dir.join("build.rs")).unwrap();

    // A procedural macro of the pack's own: refused by name before anything compiles.
    let cargo_toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    std::fs::create_dir_all(dir.join("evil-macro/src")).unwrap();
    std::fs::write(dir.join("evil-macro/Cargo.toml"), "[package]\nname = \"evil-macro\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\nproc-macro = true\n").unwrap();
    std::fs::write(dir.join("evil-macro/src/lib.rs"), "compile_error!(\"never compiled\");\n").unwrap();
    std::fs::write(dir.join("Cargo.toml"), cargo_toml.replacen("[dependencies]\n", "[dependencies]\nevil-macro = { path = \"evil-macro\" }\n", 1)).unwrap();
    let out = build(&["--json"]);
    assert_eq!(out.code, 1, "{}", out.text());
    let found = out.json()["error"]["found"].clone();
    let macro_dir = std::fs::canonicalize(dir.join("evil-macro")).unwrap();
    assert_eq!(found, json!([{ "what": "evil-macro 0.1.0", "source": format!("path {}", macro_dir.display()), "kind": "proc_macro" }]), "{}", out.text());
    std::fs::write(dir.join("Cargo.toml"), &cargo_toml).unwrap();

    // Cargo configuration in the pack folder can name programs for cargo to run.
    std::fs::create_dir(dir.join(".cargo")).unwrap();
    std::fs::write(dir.join(".cargo/config.toml"), format!("[build]\nrustc-wrapper = {:?}\n", outside.join("wrapper.sh").to_str().unwrap())).unwrap();
    let out = build(&["--json"]);
    assert_eq!(out.code, 1, "{}", out.text());
    let found = &out.json()["error"]["found"];
    assert_eq!((found[0]["kind"].as_str(), found[0]["source"].as_str()), (Some("cargo_config"), Some("this pack")), "{found}");
    assert!(found[0]["what"].as_str().unwrap().ends_with(".cargo/config.toml"), "{found}");
}

/// `packs new demo-pack --lang python|js`, the scaffold's own unit tests, `packs build`,
/// `packs install`, then the guided MCP session and the conformance cases in Blender.
fn foreign_scaffold_end_to_end(lang: &str, unit_tests: &[&str], entry: &str, tool: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let parent = tmp.path().join("src");
    std::fs::create_dir(&parent).unwrap();
    let out = capstan(&home, &["packs", "new", "demo-pack", "--lang", lang, "--dir", parent.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 0, "{}", out.text());
    let made = out.json();
    assert_eq!(made["pack"]["lang"], lang);
    assert_eq!(made["pack"]["capabilities"], json!(["demo_pack.count_objects", "demo_pack.add_marker"]));
    assert_eq!(made["pack"]["sdk"], Value::Null);
    let dir = parent.join("demo-pack");
    assert!(dir.join(entry).is_file() && dir.join("README.md").is_file() && dir.join("tests").is_dir(), "{:?}", listing(&dir));

    // The scaffold's own tests pass as generated (a fake bridge, no compiler).
    let ran = Command::new(unit_tests[0]).args(&unit_tests[1..]).current_dir(&dir).output().unwrap();
    let report = format!("{}{}", String::from_utf8_lossy(&ran.stdout), String::from_utf8_lossy(&ran.stderr));
    assert!(ran.status.success(), "{unit_tests:?} in the scaffold: {report}");
    assert!(report.contains("OK") || report.contains("# pass 6"), "{unit_tests:?}: {report}");

    let out = capstan(&home, &["packs", "build", dir.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 0, "{}", out.text());
    let built = out.json();
    assert_eq!(built["built"]["lang"], lang, "{built}");
    assert!(built["built"]["profile"].as_str().unwrap().starts_with(tool), "{built}");
    assert_eq!(built["validation"]["valid"], true, "{built}");
    assert_eq!(built["install"], Value::Null, "not installed without --install");
    assert_eq!(built["built"]["commands"], json!({ "blender": ["create_object", "get_scene_info"] }));
    let sealed: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("pack.json")).unwrap()).unwrap();
    let component = std::fs::read(dir.join("demo_pack.wasm")).expect("the component is next to pack.json");
    assert_eq!(sealed["sha256"], capstan::fsutil::sha256_hex(&component));

    let out = capstan(&home, &["packs", "install", dir.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 0, "{}", out.text());
    assert_eq!(out.json()["installed"], true, "{}", out.text());
    let listed = capstan(&home, &["packs", "list", "--json"]).json();
    let pack = listed["packs"].as_array().unwrap().iter().find(|p| p["name"] == "demo-pack").expect("installed and loaded");
    let effects: Vec<(String, bool)> = pack["capabilities"].as_array().unwrap().iter().map(|c| (c["key"].as_str().unwrap().to_string(), c["mutates"].as_bool().unwrap())).collect();
    assert_eq!(effects, [("demo_pack.count_objects".to_string(), false), ("demo_pack.add_marker".to_string(), true)]);

    let Some(_blender) = support::headless_blender(&home) else { return };
    guided_session(&home, "demo_pack");
    scaffold_cases_pass(&home, "demo_pack");
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn a_python_scaffold_builds_installs_and_runs_in_real_blender() {
    foreign_scaffold_end_to_end("python", &["python3", "-m", "unittest", "discover", "-s", "tests"], "src/app.py", "componentize-py");
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn a_javascript_scaffold_builds_installs_and_runs_in_real_blender() {
    foreign_scaffold_end_to_end("js", &["node", "--test", "tests/"], "src/pack.js", "componentize-js");
}

/// The commands of the SDK guide's first block (`sdk/README.md`), comments dropped.
fn guide_commands() -> Vec<String> {
    let readme = include_str!("../../sdk/README.md");
    let start = readme.find("```sh\n").expect("the guide opens with a sh block") + "```sh\n".len();
    let end = start + readme[start..].find("```").expect("the block ends");
    readme[start..end].lines().map(|l| l.split("  #").next().unwrap_or("").trim().to_string()).filter(|l| !l.is_empty()).collect()
}

/// A newcomer's first ten minutes, as the guide writes them: every line of its first
/// block run by bash, in order, from a fresh home, with `capstan` on PATH. The one
/// Blender the test command provisions stands in for `capstan blender provision`'s
/// download (the home's `blender/` links to it, so provisioning finds it ready).
#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[test]
fn the_sdk_guide_runs_as_written() {
    use std::io::BufRead;
    let commands = guide_commands();
    assert!(commands.len() >= 6 && commands[0].starts_with("capstan packs new "), "{commands:?}");
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let provisioned = tools_dir().parent().unwrap().join("test-home/blender");
    assert!(provisioned.is_dir(), "the test command provisions Blender into {}", provisioned.display());
    #[cfg(unix)]
    std::os::unix::fs::symlink(&provisioned, home.join("blender")).unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_capstan")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let mut cwd = tmp.path().join("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let shell = |line: &str, cwd: &Path| {
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg(format!("exec {line}"))
            .current_dir(cwd)
            .env("PATH", &path)
            .env("CAPSTAN_HOME", &home)
            .env("CARGO_TARGET_DIR", scaffold_target())
            .env("CAPSTAN_TOOLS_DIR", tools_dir())
            .env_remove("CAPSTAN_BLENDER");
        cmd
    };
    let mut blender: Option<std::process::Child> = None;
    let mut outputs = Vec::new();
    for line in &commands {
        if let Some(dir) = line.strip_prefix("cd ") {
            cwd = cwd.join(dir.trim());
            continue;
        }
        if let Some(background) = line.strip_suffix('&') {
            // A long-running command: started, and read until it says it is ready.
            let mut child = shell(background.trim(), &cwd).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null()).spawn().unwrap();
            let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
            let mut first = String::new();
            stdout.read_line(&mut first).unwrap();
            assert!(first.contains("is up"), "{line}: {first:?}");
            std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
            blender = Some(child);
            continue;
        }
        let out = shell(line, &cwd).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout).to_string(), String::from_utf8_lossy(&out.stderr).to_string());
        assert!(out.status.success(), "{line}: exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}", out.status.code());
        outputs.push((line.clone(), stdout));
    }
    if let Some(mut child) = blender {
        // SIGTERM: capstan stops Blender cleanly.
        let _ = Command::new("kill").arg(child.id().to_string()).status();
        let _ = child.wait();
    }
    let (_, called) = outputs.iter().find(|(l, _)| l.starts_with("capstan call ")).expect("the guide calls the new capability");
    let answer: Value = serde_json::from_str(called).unwrap_or_else(|e| panic!("capstan call prints JSON ({e}): {called}"));
    assert_eq!(answer, json!({ "kind": "MESH", "count": 1 }), "the factory scene holds one mesh: {answer}");
    let (_, config) = outputs.iter().find(|(l, _)| l.starts_with("capstan mcp-config")).unwrap();
    assert!(config.contains("mcpServers") && config.contains("serve"), "{config}");
}
