//! `execute_python` end to end through `capstan serve --expert` with rmcp's client:
//! off unless CAPSTAN_ALLOW_EXEC=1, every script through the sandboxed checker, a
//! rejected script never reaching the bridge (a recording stub bridge sees every
//! request), and an accepted one running in real Blender. Also `check-python` on the
//! whole corpus through the component.

mod support;
#[path = "support/stub_bridge.rs"]
mod stub_bridge;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use stub_bridge::StubBridge;

async fn expert(home: &Path, allow_exec: bool) -> RunningService<RoleClient, ()> {
    expert_with(home, allow_exec, false).await
}

/// `unchecked`: the test-only switch that sends scripts the checker rejected, so the
/// add-on's containment is proven on its own.
async fn expert_with(home: &Path, allow_exec: bool, unchecked: bool) -> RunningService<RoleClient, ()> {
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_capstan")).configure(|c| {
        // The stub bridges here are not launched by capstan, so they carry no containment
        // record: the operator's consent stands in for the OS layer (tests/containment.rs
        // tests the refusal without it, and the wall itself).
        c.env("CAPSTAN_HOME", home).env_remove("CAPSTAN_ALLOW_EXEC").env_remove("CAPSTAN_TEST_UNCHECKED_PYTHON").env("CAPSTAN_ALLOW_UNCONFINED_EXEC", "1").args(["serve", "--expert"]);
        if allow_exec {
            c.env("CAPSTAN_ALLOW_EXEC", "1");
        }
        if unchecked {
            c.env("CAPSTAN_TEST_UNCHECKED_PYTHON", "1");
        }
    });
    ().serve(TokioChildProcess::new(cmd).unwrap()).await.expect("capstan serve starts")
}

/// Give the stub bridge's runtime file an attestation key, as the add-on's has.
fn publish_exec_key(home: &Path, key: &str) {
    let path = home.join("run/blender/server.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["exec_key"] = json!(key);
    std::fs::write(&path, doc.to_string()).unwrap();
}

fn hmac_hex(key_hex: &str, parts: &[&[u8]]) -> String {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&hex::decode(key_hex).unwrap()).unwrap();
    for p in parts {
        mac.update(p);
    }
    hex::encode(mac.finalize().into_bytes())
}

async fn call(c: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> CallToolResult {
    let Value::Object(map) = args else { panic!() };
    c.call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map)).await.expect("answered")
}

fn error(r: &CallToolResult) -> &Value {
    assert_eq!(r.is_error, Some(true), "{r:?}");
    &r.structured_content.as_ref().unwrap()["error"]
}

fn sent_python(stub: &StubBridge) -> Vec<Value> {
    stub.bodies.lock().unwrap().iter().filter(|b| b.to_string().contains("import bpy")).cloned().collect()
}

const GOOD: &str = "import bpy\nbpy.ops.mesh.primitive_cube_add(location=(0, 0, 1))\nresult = len(bpy.data.objects)\n";
const BAD: &str = "import bpy\nbpy.ops.wm.open_mainfile(filepath='/tmp/evil.blend')\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_switch_no_python_reaches_the_bridge() {
    let home = tempfile::tempdir().unwrap();
    let stub = StubBridge::start(home.path());
    let c = expert(home.path(), false).await;
    let tools = c.list_all_tools().await.unwrap();
    assert!(!tools.iter().any(|t| t.name == "execute_python"), "listed without CAPSTAN_ALLOW_EXEC");
    for code in [GOOD, BAD] {
        assert_eq!(error(&call(&c, "execute_python", json!({ "code": code })).await)["code"], "EXEC_DISABLED");
    }
    c.cancel().await.unwrap();
    assert!(sent_python(&stub).is_empty(), "{:?}", stub.bodies.lock().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_switch_rejected_scripts_never_reach_the_bridge() {
    let home = tempfile::tempdir().unwrap();
    let stub = StubBridge::start(home.path());
    let key = "5e".repeat(32);
    publish_exec_key(home.path(), &key);
    let c = expert(home.path(), true).await;
    let tools = c.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "execute_python"));

    let r = call(&c, "execute_python", json!({ "code": BAD })).await;
    let e = error(&r);
    assert_eq!(e["code"], "CODE_REJECTED", "{e}");
    let finding = &e["findings"][0];
    assert_eq!((finding["rule"].as_str(), finding["line"].as_u64()), (Some("blender-code-execution"), Some(2)), "{e}");
    assert!(sent_python(&stub).is_empty(), "a rejected script reached the bridge");

    let r = call(&c, "execute_python", json!({ "code": GOOD })).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let sent = sent_python(&stub);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["command"], "execute_python");
    assert_eq!(sent[0]["params"]["code"], GOOD);
    let digest = sha256_hex(GOOD.as_bytes());
    let checked = &sent[0]["params"]["checked"];
    assert_eq!(checked["sha256"], digest.as_str());
    // The attestation: an HMAC over the checker's digest, a fresh nonce and the script,
    // keyed by the runtime file's exec_key; the key itself is never sent.
    let (checker, nonce) = (checked["checker"].as_str().unwrap(), checked["nonce"].as_str().unwrap());
    assert_eq!(nonce.len(), 32);
    let expected = hmac_hex(&key, &[b"capstan-execute-python/1\n", checker.as_bytes(), b"\n", nonce.as_bytes(), b"\n", GOOD.as_bytes()]);
    assert_eq!(checked["mac"], expected.as_str());
    assert!(!sent[0].to_string().contains(&key), "the key went over the wire");
    let r = call(&c, "execute_python", json!({ "code": GOOD })).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let again = sent_python(&stub);
    assert_ne!(again[1]["params"]["checked"]["nonce"], again[0]["params"]["checked"]["nonce"], "a nonce is used once");
    assert_eq!(error(&call(&c, "execute_python", json!({ "code": 5 })).await)["code"], "INVALID_TOOL_ARGUMENTS");
    c.cancel().await.unwrap();
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

#[cfg_attr(not(capstan_blender), ignore = "needs a real Blender: set CAPSTAN_TEST_BLENDER (scripts/test does)")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accepted_script_runs_in_real_blender_and_returns_its_result() {
    let home = tempfile::tempdir().unwrap();
    // The add-on's own switch, in Blender's environment (launch passes ours on).
    // SAFETY: set before any thread of this test reads the environment for it (the
    // other real-Blender test sets the same values).
    unsafe {
        std::env::set_var("CAPSTAN_BRIDGE_ALLOW_EXEC", "1");
        std::env::set_var("CAPSTAN_BRIDGE_SCRIPT_TIMEOUT_S", "3");
    }
    let Some(_blender) = tokio::task::block_in_place(|| support::headless_blender(home.path())) else { return };
    let c = expert(home.path(), true).await;
    let script = "import bpy\nimport math\nbpy.ops.mesh.primitive_cylinder_add(radius=0.5)\nobj = bpy.context.active_object\nobj.name = 'ExecCylinder'\nobj.rotation_euler.x = math.radians(90)\nprint('made', obj.name)\nresult = sorted(o.name for o in bpy.data.objects)\n";
    let r = call(&c, "execute_python", json!({ "code": script })).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let doc = &r.structured_content.as_ref().unwrap()["result"];
    assert!(doc["result"].as_array().unwrap().iter().any(|n| n == "ExecCylinder"), "{doc}");
    assert_eq!(doc["stdout"], "made ExecCylinder\n");
    assert!(doc["delta"]["added"].as_array().unwrap().iter().any(|n| n == "ExecCylinder"), "{doc}");
    // A runtime error in an accepted script comes back as the app's error.
    let r = call(&c, "execute_python", json!({ "code": "import bpy\nresult = bpy.data.objects['Nope'].name\n" })).await;
    assert_eq!(error(&r)["app_code"], "script_error");
    c.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bridge_without_an_exec_key_gets_no_script() {
    let home = tempfile::tempdir().unwrap();
    let stub = StubBridge::start(home.path());
    let c = expert(home.path(), true).await;
    let e = error(&call(&c, "execute_python", json!({ "code": GOOD })).await).clone();
    assert_eq!(e["code"], "BRIDGE_ERROR", "{e}");
    assert!(e["message"].as_str().unwrap().contains("exec_key"), "{e}");
    c.cancel().await.unwrap();
    assert!(sent_python(&stub).is_empty());
}

/// Scripts that reach outside Blender, each naming the file it would create: a file
/// written directly, by a process it starts (`touch`), or by Blender's own operator
/// code. The last one connects to a socket the test listens on.
fn hostile_scripts(marker: &Path, port: u16) -> Vec<(String, PathBuf)> {
    let m = |n: &str| marker.join(n);
    let mut out = Vec::new();
    let p = m("toggle");
    out.push((format!("import bpy\nclass Props:\n    module = 'pathlib'\n    data_path = \"Path('{}').touch()\"\nbpy.types.WM_OT_context_toggle.execute(Props(), bpy.context)\n", p.display()), p));
    let p = m("set_value");
    out.push((format!("import bpy\nclass Props:\n    data_path = \"scene if bpy.context.scene.__setitem__('p', open('{}', 'w').write('x')) else None\"\n    value = '0'\nbpy.types.WM_OT_context_set_value.execute(Props(), bpy.context)\n", p.display()), p));
    let p = m("system");
    out.push((format!("import random\nrandom._os.system('touch {}')\n", p.display()), p));
    let p = m("popen");
    out.push((format!("import random\nrandom._os.popen('touch {}').read()\n", p.display()), p));
    let p = m("subprocess");
    out.push((format!("import random\nsp = random._os.sys.modules['subprocess']\nsp.run(['touch', '{}'])\n", p.display()), p));
    let p = m("open");
    out.push((format!("import json\nb = json.dumps.__globals__['__builtins__']\nb['open']('{}', 'w').write('x')\n", p.display()), p));
    let p = m("eval");
    out.push((format!("import json\nb = json.dumps.__globals__['__builtins__']\nb['eval'](\"open('{}', 'w')\")\n", p.display()), p));
    let p = m("from_import");
    out.push((format!("import bpy\nfrom bpy.types import WM_OT_context_toggle as T\nclass P:\n    module = 'pathlib'\n    data_path = \"Path('{}').touch()\"\nrun = T.execute\nrun(P(), bpy.context)\n", p.display()), p));
    let p = m("thread");
    out.push((format!("import random\nos = random._os\nth = os.sys.modules['threading']\nt = th.Thread(target=os.system, args=('touch {}',))\nt.start()\nt.join()\n", p.display()), p));
    let p = m("socket");
    out.push((format!("import random\ns = random._os.sys.modules['socket'].create_connection(('127.0.0.1', {port}))\ns.sendall(b'{}')\n", p.display()), p));
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_scripts_never_reach_outside_blender_whichever_layer_stops_them() {
    let home = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    // The add-on's own switch and a short script deadline, in Blender's environment.
    // SAFETY: set before any thread of this test reads the environment for it.
    unsafe {
        std::env::set_var("CAPSTAN_BRIDGE_ALLOW_EXEC", "1");
        std::env::set_var("CAPSTAN_BRIDGE_SCRIPT_TIMEOUT_S", "3");
    }
    let Some(_blender) = tokio::task::block_in_place(|| support::headless_blender(home.path())) else { return };
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let scripts = hostile_scripts(outside.path(), port);
    let checked = expert(home.path(), true).await;
    let unchecked = expert_with(home.path(), true, true).await;
    for (surface, client) in [("checker and guard", &checked), ("guard alone", &unchecked)] {
        for (code, marker) in &scripts {
            let r = call(client, "execute_python", json!({ "code": code })).await;
            let thread_case = surface == "guard alone" && marker.file_name().is_some_and(|n| n == "thread");
            let e = if thread_case { r.structured_content.clone().unwrap_or_default()["error"].clone() } else { error(&r).clone() };
            if surface == "checker and guard" {
                assert_eq!(e["code"], "CODE_REJECTED", "{surface}: {code}: {e}");
            } else if marker.file_name().is_some_and(|n| n == "thread") {
                // The refusal happens in the script's thread; the script itself ends well.
                assert!(r.is_error == Some(false) || e["app_code"].is_string(), "{surface}: {code}: {r:?}");
            } else {
                assert!(matches!(e["app_code"].as_str(), Some("script_refused" | "script_error")), "{surface}: {code}: {e}");
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
            assert!(!marker.exists(), "{surface}: {code} created {}", marker.display());
            assert!(listener.accept().is_err_and(|e| e.kind() == std::io::ErrorKind::WouldBlock), "{surface}: {code} opened a socket");
        }
        // The guard refused what the checker would have: the scripts did reach Blender.
        if surface == "guard alone" {
            let r = call(client, "execute_python", json!({ "code": scripts[0].0 })).await;
            assert_eq!(error(&r)["app_code"], "script_refused", "{r:?}");
        }
    }
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0, "a file appeared outside the output folder");

    // A benign script still runs and returns its result.
    let benign = "import bpy\nassert isinstance(bpy.context.scene, bpy.types.Scene)\nbpy.ops.mesh.primitive_cube_add()\nresult = [o.name for o in bpy.data.objects if isinstance(o.data, bpy.types.Mesh)]\n";
    let r = call(&checked, "execute_python", json!({ "code": benign })).await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert!(!r.structured_content.as_ref().unwrap()["result"]["result"].as_array().unwrap().is_empty(), "{r:?}");

    // An endless loop ends at the script's deadline, named, and Blender answers next.
    let started = std::time::Instant::now();
    let r = call(&checked, "execute_python", json!({ "code": "while True:\n    pass\n" })).await;
    let e = error(&r).clone();
    assert_eq!((e["code"].as_str(), e["limit"].as_str(), e["app_code"].as_str()), (Some("PACK_FAULT"), Some("script_timeout_s"), Some("script_timeout")), "{e}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
    let r = call(&checked, "execute_python", json!({ "code": GOOD })).await;
    assert_eq!(r.is_error, Some(false), "Blender did not answer after the deadline: {r:?}");
    checked.cancel().await.unwrap();
    unchecked.cancel().await.unwrap();
}

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../capability-packs/python-safety/tests/corpus").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "py")).collect();
    files.sort();
    files
}

#[test]
fn check_python_agrees_with_the_corpus_through_the_component() {
    let home = tempfile::tempdir().unwrap();
    // Each folder of the corpus in one `check-python` run (the checker loaded once): one
    // JSON line per file, in the order given, and the run's exit code.
    let run = |paths: &[PathBuf]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home.path()).args(["check-python", "--json"]).args(paths).output().unwrap();
        let docs: Vec<Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
        assert_eq!(docs.len(), paths.len(), "one verdict per file: {}", String::from_utf8_lossy(&out.stderr));
        for (doc, path) in docs.iter().zip(paths) {
            assert_eq!(doc["file"], path.display().to_string(), "verdicts come in the order given");
        }
        (out.status.code(), docs)
    };
    let benign = corpus("benign");
    let (code, docs) = run(&benign);
    for (path, doc) in benign.iter().zip(&docs) {
        assert_eq!((&doc["allowed"], &doc["findings"]), (&json!(true), &json!([])), "{}: {doc}", path.display());
    }
    assert_eq!(code, Some(0), "every benign script is allowed");
    let hostile = corpus("hostile");
    let (code, hostile_docs) = run(&hostile);
    assert_eq!(code, Some(1));
    for (path, doc) in hostile.iter().zip(&hostile_docs) {
        assert_eq!(doc["allowed"], false, "{}: {doc}", path.display());
        let f = &doc["findings"][0];
        assert!(f["rule"].is_string() && f["message"].is_string() && f["line"].as_u64() >= Some(1) && f["column"].as_u64() >= Some(1), "{f}");
        // The component names the rule the snippet's first line expects, as the native
        // corpus test does (`# expect: rule[,rule]`: any one of them).
        let source = std::fs::read_to_string(path).unwrap();
        let expected: Vec<&str> = source.lines().next().and_then(|l| l.strip_prefix("# expect: ")).unwrap_or_else(|| panic!("{} has no `# expect:` line", path.display())).split(',').map(str::trim).collect();
        let rules: Vec<&str> = doc["findings"].as_array().unwrap().iter().filter_map(|f| f["rule"].as_str()).collect();
        assert!(expected.iter().any(|r| rules.contains(r)), "{}: expected one of {expected:?}, got {rules:?}", path.display());
    }
    // The independent red-team set is rejected through the component too.
    let redteam = corpus("hostile-redteam");
    let (code, docs) = run(&redteam);
    assert_eq!(code, Some(1));
    for (path, doc) in redteam.iter().zip(&docs) {
        assert_eq!(doc["allowed"], false, "{}: {doc}", path.display());
    }
    // The deepest inputs the nesting pre-scan admits: the parser's recursion at the
    // limit fits the guest's stack, so each ends in a verdict, not a checker fault.
    let deep = corpus("deep");
    let (code, docs) = run(&deep);
    assert!(matches!(code, Some(0 | 1)), "{docs:?}");
    for (path, doc) in deep.iter().zip(&docs) {
        let rules: Vec<&str> = doc["findings"].as_array().unwrap().iter().filter_map(|f| f["rule"].as_str()).collect();
        assert!(!rules.contains(&"checker-fault") && !rules.contains(&"nesting-too-deep"), "{}: {doc}", path.display());
    }
    // One verdict of a run of several is the verdict of that file checked alone.
    let alone = std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home.path()).args(["check-python", "--json"]).arg(&hostile[0]).output().unwrap();
    let mut alone: Value = serde_json::from_slice(&alone.stdout).unwrap();
    alone["file"] = hostile[0].display().to_string().into();
    assert_eq!(alone, hostile_docs[0]);
}

#[test]
fn check_python_exit_codes_and_pathological_input() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str], stdin: Option<&[u8]>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_capstan"));
        cmd.env("CAPSTAN_HOME", home.path()).arg("check-python").args(args);
        cmd.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        {
            use std::io::Write;
            let mut input = child.stdin.take().unwrap();
            if let Some(bytes) = stdin {
                let _ = input.write_all(bytes);
            }
        }
        let out = child.wait_with_output().unwrap();
        (out.status.code(), serde_json::from_slice::<Value>(&out.stdout).unwrap_or(Value::Null), String::from_utf8_lossy(&out.stderr).to_string())
    };
    // Allowed from stdin, rejected from stdin.
    assert_eq!(run(&["-", "--json"], Some(b"import bpy\nprint(len(bpy.data.objects))\n")).0, Some(0));
    let (code, doc, _) = run(&["-", "--json"], Some(b"import os\n"));
    assert_eq!((code, doc["findings"][0]["rule"].as_str()), (Some(1), Some("import-not-allowed")));
    // Pathological inputs end in a rejection through the component, never a crash.
    let deep = format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    let (code, doc, _) = run(&["-", "--json"], Some(deep.as_bytes()));
    assert_eq!((code, doc["findings"][0]["rule"].as_str()), (Some(1), Some("nesting-too-deep")));
    let attributes = format!("import bpy\nx = bpy{}\n", ".b".repeat(50_000));
    let (code, doc, _) = run(&["-", "--json"], Some(attributes.as_bytes()));
    assert_eq!((code, doc["findings"][0]["rule"].as_str()), (Some(1), Some("nesting-too-deep")), "{doc}");
    let unary = format!("x = {}1\n", "not -".repeat(100_000));
    let (code, doc, _) = run(&["-", "--json"], Some(unary.as_bytes()));
    assert_eq!((code, doc["findings"][0]["rule"].as_str()), (Some(1), Some("nesting-too-deep")), "{doc}");
    let chain = format!("x = {}1\n", "a + ".repeat(200_000));
    let (code, doc, _) = run(&["-", "--json"], Some(chain.as_bytes()));
    assert_eq!((code, doc["findings"][0]["rule"].as_str()), (Some(1), Some("nesting-too-deep")), "{doc}");
    let ten_mb = "x = 1\n".repeat(10 * 1024 * 1024 / 6);
    let (code, doc, _) = run(&["-", "--json"], Some(ten_mb.as_bytes()));
    assert_eq!((code, doc["findings"][0]["rule"].as_str()), (Some(1), Some("source-too-large")));
    // Usage and I/O errors exit 2 and say why; a custom policy is honoured.
    let (code, _, err) = run(&["/nonexistent/script.py"], None);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot read"), "{err}");
    let policy = home.path().join("policy.json");
    std::fs::write(&policy, r#"{"allowed_modules": ["bpy"], "denied_names": ["cube"]}"#).unwrap();
    let (code, doc, _) = run(&["-", "--json", "--policy", policy.to_str().unwrap()], Some(b"import math\ncube = 1\n"));
    let rules: Vec<&str> = doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert_eq!((code, rules), (Some(1), vec!["import-not-allowed", "denied-name"]));
    std::fs::write(&policy, r#"{"modules": []}"#).unwrap();
    assert_eq!(run(&["-", "--policy", policy.to_str().unwrap()], Some(b"x = 1\n")).0, Some(2));
    assert_eq!(run(&["-"], Some(&[0xff, 0xfe, 0x00])).0, Some(2), "non-UTF-8 input is an error, not a verdict");
    // Several files: an unreadable one is named and exits 2, the others still get their
    // verdicts; standard input can be read once.
    let good = home.path().join("good.py");
    std::fs::write(&good, "import bpy\n").unwrap();
    let (code, _, err) = run(&[good.to_str().unwrap(), "/nonexistent/script.py", good.to_str().unwrap()], None);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("/nonexistent/script.py"), "{err}");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_capstan"));
    let out = cmd.env("CAPSTAN_HOME", home.path()).args(["check-python", "--json"]).arg(&good).arg("/nonexistent/script.py").arg(&good).output().unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "one line per file, in the order given: {lines:?}");
    assert_eq!((&lines[0]["allowed"], &lines[2]["allowed"]), (&json!(true), &json!(true)), "the readable files are still checked");
    assert!(lines[1]["error"].as_str().is_some_and(|e| e.contains("cannot read")) && lines[1]["file"] == "/nonexistent/script.py", "{}", lines[1]);
    // A rejected file among allowed ones: exit 1, and each its own verdict.
    let bad = home.path().join("bad.py");
    std::fs::write(&bad, "import os\n").unwrap();
    let (code, _, err) = run(&[good.to_str().unwrap(), bad.to_str().unwrap()], None);
    assert_eq!(code, Some(1), "{err}");
    let (code, _, err) = run(&[good.to_str().unwrap(), "x.py"], None);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = run(&["-", "-"], Some(b"x = 1\n"));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("once"), "{err}");
}
