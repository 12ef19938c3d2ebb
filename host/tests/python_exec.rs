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
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_capstan")).configure(|c| {
        c.env("CAPSTAN_HOME", home).env_remove("CAPSTAN_ALLOW_EXEC").args(["serve", "--expert"]);
        if allow_exec {
            c.env("CAPSTAN_ALLOW_EXEC", "1");
        }
    });
    ().serve(TokioChildProcess::new(cmd).unwrap()).await.expect("capstan serve starts")
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
    assert_eq!(sent[0]["params"]["checked"]["sha256"], digest.as_str());
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
    // SAFETY: set before any thread of this test reads the environment for it.
    unsafe { std::env::set_var("CAPSTAN_BRIDGE_ALLOW_EXEC", "1") };
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

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../capability-packs/python-safety/tests/corpus").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "py")).collect();
    files.sort();
    files
}

#[test]
fn check_python_agrees_with_the_corpus_through_the_component() {
    let home = tempfile::tempdir().unwrap();
    let run = |path: &Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home.path()).args(["check-python", "--json"]).arg(path).output().unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (out.status.code(), doc)
    };
    for path in corpus("benign") {
        let (code, doc) = run(&path);
        assert_eq!(code, Some(0), "{}: {doc}", path.display());
        assert_eq!(doc, json!({ "allowed": true, "findings": [] }));
    }
    for path in corpus("hostile") {
        let (code, doc) = run(&path);
        assert_eq!(code, Some(1), "{}: {doc}", path.display());
        assert_eq!(doc["allowed"], false);
        let f = &doc["findings"][0];
        assert!(f["rule"].is_string() && f["message"].is_string() && f["line"].as_u64() >= Some(1) && f["column"].as_u64() >= Some(1), "{f}");
    }
    // The deepest inputs the nesting pre-scan admits: the parser's recursion at the
    // limit fits the guest's stack, so each ends in a verdict, not a checker fault.
    for path in corpus("deep") {
        let (code, doc) = run(&path);
        assert!(matches!(code, Some(0 | 1)), "{}: {doc}", path.display());
        let rules: Vec<&str> = doc["findings"].as_array().unwrap().iter().filter_map(|f| f["rule"].as_str()).collect();
        assert!(!rules.contains(&"checker-fault") && !rules.contains(&"nesting-too-deep"), "{}: {doc}", path.display());
    }
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
}
