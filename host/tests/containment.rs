//! The OS layer alone (DESIGN §3a): a real Blender launched by capstan, with the add-on's
//! runtime guard switched off (`CAPSTAN_TEST_UNGUARDED=1`) and scripts sent straight to
//! the bridge with a valid attestation but never through the checker, so the kernel's
//! wall (Landlock, seccomp, dropped privileges) is the only thing between each script
//! and the machine. Every script first takes `os`, `sys` and `importlib` the way native
//! code would (through `object.__subclasses__`, no import statement), then tries to read,
//! write, execute, connect and signal outside its folders. What counts is checked from
//! outside: files that must not exist, content that must not appear in any answer, a
//! listener that must see no connection, and Blender still answering afterwards.

mod support;

use capstan::bridge::{BridgeClient, BridgeRequest, HttpBridgeClient, endpoint};
use capstan::home::CapstanHome;
use serde_json::{Value, json};
use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

/// `os`, `sys`, `builtins` and `imp` (importlib.import_module) without an import
/// statement: what arbitrary code in the process reaches.
const PRELUDE: &str = r#"
_g = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__
sys = _g['sys']
os = sys.modules['os']
builtins = sys.modules['builtins']
imp = sys.modules['importlib'].import_module
attempts = {}
def attempt(name, f):
    try:
        attempts[name] = 'DID: ' + repr(f())[:300]
    except BaseException as e:
        attempts[name] = 'refused: %s: %s' % (type(e).__name__, str(e)[:200])
"#;

/// Python that gives `obj` a Geometry Nodes Import Text node reading `secret` into
/// geometry, and the scene a compositor File Output node writing into `outside` (the
/// compositor API of Blender 5.x, or 4.5's).
const LEAK_BUILDER: &str = r#"
def build_leak(bpy, obj, secret, outside):
    tree = bpy.data.node_groups.new('Leak', 'GeometryNodeTree')
    tree.interface.new_socket('Geometry', in_out='OUTPUT', socket_type='NodeSocketGeometry')
    out = tree.nodes.new('NodeGroupOutput')
    text = tree.nodes.new('GeometryNodeImportText')
    text.inputs['Path'].default_value = secret
    curves = tree.nodes.new('GeometryNodeStringToCurves')
    tree.links.new(text.outputs[0], curves.inputs['String'])
    real = tree.nodes.new('GeometryNodeRealizeInstances')
    tree.links.new(curves.outputs['Curve Instances'], real.inputs['Geometry'])
    tree.links.new(real.outputs['Geometry'], out.inputs[0])
    obj.modifiers.new('Leak', 'NODES').node_group = tree
    scene = bpy.context.scene
    if hasattr(scene, 'compositing_node_group'):
        comp = bpy.data.node_groups.new('Comp', 'CompositorNodeTree')
        scene.compositing_node_group = comp
    else:
        scene.use_nodes = True
        comp = scene.node_tree
    rl = comp.nodes.new('CompositorNodeRLayers')
    fo = comp.nodes.new('CompositorNodeOutputFile')
    if hasattr(fo, 'directory'):
        fo.directory = outside
    else:
        fo.base_path = outside
    comp.links.new(rl.outputs['Image'], fo.inputs[0])
"#;

fn launch(home: &Path, env: &[(&str, &str)]) -> Option<capstan::app_units::blender::launch::RunningBlender> {
    let blender = support::blender_under_test()?;
    let install = capstan::app_units::blender::locate::probe(&blender).unwrap();
    let options = capstan::app_units::blender::launch::LaunchOptions { background: true, ..Default::default() };
    Some(capstan::app_units::blender::launch::launch_with_env(&CapstanHome::at(home), &install, &options, env).expect("Blender launches confined"))
}

/// Send `code` to the bridge's execute_python with a valid attestation (the checker is
/// not asked: this is the layer-alone test).
fn run(client: &HttpBridgeClient, runtime_file: &Path, code: &str) -> String {
    let ep = endpoint::read(&endpoint::RuntimeFileSpec::at(runtime_file.to_path_buf())).unwrap();
    let key = ep.exec_key.expect("capstan's record carries the exec key");
    let code = format!("{PRELUDE}\n{code}\nresult = attempts");
    let checked = capstan::mcp::python_exec::attestation(key.expose(), &capstan::fsutil::sha256_hex(b"containment-test"), &code).unwrap();
    let params = json!({ "code": code, "checked": checked });
    let answer = client.call(BridgeRequest { server: "blender", command: "execute_python", params: &params, timeout: Duration::from_secs(120) });
    match answer {
        Ok(v) => v.to_string(),
        Err(e) => format!("bridge error: {e}"),
    }
}

fn attempts(answer: &str) -> Value {
    let v: Value = serde_json::from_str(answer).unwrap_or_else(|_| panic!("not JSON: {answer}"));
    v.pointer("/result").cloned().unwrap_or_else(|| panic!("no result in {answer}"))
}

#[test]
fn the_os_layer_alone_stops_reads_writes_processes_connections_and_signals() {
    let home = tempfile::tempdir().unwrap();
    // A descriptor capstan inherited without close-on-exec (as from a shell's `7>>file`).
    let leak_dir = tempfile::tempdir().unwrap();
    let leak_path = leak_dir.path().join("leak.txt");
    let leak_c = std::ffi::CString::new(leak_path.display().to_string()).unwrap();
    // SAFETY: a plain open; the descriptor is closed at the end of the test.
    let opened = unsafe { libc::open(leak_c.as_ptr(), libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND, 0o600) };
    assert!(opened > 2);
    // Moved to a number Blender never reaches by itself (its own files take the lowest
    // free ones), so a write that succeeds can only be this descriptor's.
    // SAFETY: duplicating a descriptor this test owns, then closing the original.
    let leaked_fd = unsafe { libc::fcntl(opened, libc::F_DUPFD, 900) };
    assert!(leaked_fd >= 900);
    unsafe { libc::close(opened) };
    let Some(blender) = launch(home.path(), &[("CAPSTAN_BRIDGE_ALLOW_EXEC", "1"), ("CAPSTAN_TEST_UNGUARDED", "1")]) else { return };
    assert!(blender.layers.os_layer_complete(), "this machine offers Landlock ABI 6+: {:?}", blender.layers);
    let client = HttpBridgeClient::for_runtime_file(&CapstanHome::at(home.path()), "blender", blender.runtime_file.clone());

    // Outside every folder of the instance: a secret to read, a folder to write into.
    let outside = tempfile::tempdir().unwrap();
    let secret_text = format!("CAPSTAN-SECRET-{}", std::process::id());
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, &secret_text).unwrap();
    let runtime_before = std::fs::read(&blender.runtime_file).unwrap();
    let addon_dir = home.path().join("addon");
    let venv_site = support::blender_under_test().unwrap().parent().unwrap().parent().unwrap().to_path_buf();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let out = outside.path().display().to_string();
    let addon_run_bridge = std::fs::read_dir(&addon_dir).unwrap().flatten().map(|e| e.path()).find(|p| p.join("run_bridge.py").is_file()).unwrap();

    let script = format!(
        r#"
bpy = imp('bpy')
attempt('read open', lambda: builtins.open({secret:?}).read())
attempt('read os', lambda: os.read(os.open({secret:?}, os.O_RDONLY), 100))
attempt('read texts.load', lambda: bpy.data.texts.load({secret:?}).as_string())
attempt('read runtime record', lambda: builtins.open({runtime:?}).read())
attempt('read /etc/passwd', lambda: builtins.open('/etc/passwd').read())
attempt('read /proc/1/environ', lambda: builtins.open('/proc/1/environ', 'rb').read())
attempt('read parent environ', lambda: builtins.open('/proc/%d/environ' % os.getppid(), 'rb').read())
attempt('list CAPSTAN_HOME', lambda: os.listdir({home:?}))
attempt('write outside', lambda: builtins.open({out:?} + '/written.txt', 'w').write('x'))
attempt('mkdir outside', lambda: os.mkdir({out:?} + '/made'))
attempt('write /tmp', lambda: builtins.open('/tmp/capstan-containment-{pid}.txt', 'w').write('x'))
attempt('plant in the add-on', lambda: builtins.open({addon:?} + '/shlex.py', 'w').write('import os'))
attempt('plant sitecustomize', lambda: builtins.open({venv:?} + '/sitecustomize.py', 'w').write('import os'))
attempt('chmod outside', lambda: os.chmod({secret:?}, 0o777))
attempt('symlink out of output', lambda: os.symlink({secret:?}, {output:?} + '/link.txt') or builtins.open({output:?} + '/link.txt').read())
attempt('system', lambda: os.system('touch ' + {out:?} + '/by-system'))
attempt('fork', lambda: os.fork())
attempt('execv', lambda: os.execv('/bin/sh', ['/bin/sh', '-c', 'touch ' + {out:?} + '/by-exec']))
attempt('subprocess', lambda: imp('subprocess').run(['/bin/sh', '-c', 'touch ' + {out:?} + '/by-subprocess']))
attempt('connect', lambda: imp('socket').create_connection(('127.0.0.1', {port}), timeout=2))
attempt('udp', lambda: imp('socket').socket(imp('socket').AF_INET, imp('socket').SOCK_DGRAM))
attempt('unix socket', lambda: imp('socket').socket(imp('socket').AF_UNIX, imp('socket').SOCK_STREAM))
attempt('bind another port', lambda: imp('socket').create_server(('127.0.0.1', 0)))
attempt('signal capstan', lambda: os.kill(os.getppid(), 0))
attempt('ctypes execve', lambda: imp('ctypes').CDLL(None).execv(b'/bin/sh', None))
attempt('render writes outside', lambda: (setattr(bpy.context.scene.render, 'filepath', {out:?} + '/render'), setattr(bpy.context.scene.render, 'resolution_x', 32), setattr(bpy.context.scene.render, 'resolution_y', 32), setattr(bpy.context.scene.render, 'engine', 'CYCLES'), setattr(bpy.context.scene.cycles, 'samples', 1), bpy.ops.render.render(write_still=True)))
attempt('keying set export into the add-on', lambda: bpy.ops.anim.keying_set_export(filepath={addon:?} + '/argparse.py'))
ctypes = imp('ctypes')
libc = ctypes.CDLL(None, use_errno=True)
def c(rc):
    if rc == -1:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return rc
attempt('fchmod a read-only file', lambda: os.fchmod(os.open({addon:?} + '/run_bridge.py', os.O_RDONLY), 0o777))
attempt('utime through a descriptor', lambda: os.utime(os.open({addon:?} + '/run_bridge.py', os.O_RDONLY), (1, 1)))
attempt('listen on every interface', lambda: imp('socket').socket().listen(5))
attempt('exec the loader', lambda: os.execv('/lib64/ld-linux-x86-64.so.2', ['ld.so', '/bin/sh', '-c', 'touch ' + {out:?} + '/by-loader']))
attempt('exec a memfd', lambda: c(libc.syscall(322, c(libc.memfd_create(b'x', 0)), b'', None, None, 0x1000)))
attempt('outlive capstan', lambda: c(libc.prctl(1, 17, 0, 0, 0)))
attempt('watch a folder outside', lambda: c(libc.inotify_add_watch(c(libc.inotify_init1(0)), {out:?}.encode(), 0xfff)))
attempt('write an inherited descriptor', lambda: os.write({leaked_fd}, b'leaked'))
"#,
        secret = secret.display().to_string(),
        runtime = blender.runtime_file.display().to_string(),
        home = home.path().display().to_string(),
        addon = addon_run_bridge.display().to_string(),
        venv = venv_site.display().to_string(),
        output = blender.instance.output.display().to_string(),
        pid = std::process::id(),
        leaked_fd = leaked_fd,
    );
    let answer = run(&client, &blender.runtime_file, &script);
    let results = attempts(&answer);
    eprintln!("{}", serde_json::to_string_pretty(&results).unwrap());

    // Nothing from outside appears in the answer.
    assert!(!answer.contains(&secret_text), "the secret leaked: {answer}");
    assert!(!answer.contains("root:x:0:0"), "/etc/passwd leaked");
    // Every attempt was refused (the ones that "did" something did nothing outside).
    // Calls that report failure by their return value instead of raising: os.system's
    // shell never ran (127 << 8), execv through ctypes returned -1.
    let failed_by_value = [("system", "DID: 32512"), ("ctypes execve", "DID: -1")];
    for (name, outcome) in results.as_object().unwrap() {
        let outcome = outcome.as_str().unwrap();
        match failed_by_value.iter().find(|(n, _)| n == name) {
            Some((_, failed)) => assert!(outcome == *failed || outcome.starts_with("refused"), "{name}: {outcome}"),
            None => assert!(outcome.starts_with("refused"), "{name}: {outcome}"),
        }
    }
    // Nothing was written outside, planted, or started.
    let left: Vec<_> = std::fs::read_dir(outside.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("secret.txt")], "files appeared outside the output folder");
    assert!(!Path::new(&format!("/tmp/capstan-containment-{}.txt", std::process::id())).exists());
    assert!(!addon_run_bridge.join("shlex.py").exists() && !addon_run_bridge.join("argparse.py").exists());
    assert!(!venv_site.join("sitecustomize.py").exists());
    assert_eq!(std::fs::read(&blender.runtime_file).unwrap(), runtime_before, "capstan's record is untouched");
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), secret_text);
    match listener.accept() {
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        other => panic!("a connection reached the listener: {other:?}"),
    }

    assert_eq!(std::fs::read(&leak_path).unwrap(), b"", "the inherited descriptor reached Blender");
    // SAFETY: closing the descriptor opened above.
    unsafe { libc::close(leaked_fd) };
    assert_eq!(blender.ping["layers"]["exec_forbidden"], json!(true), "{}", blender.ping);

    // A benign script still runs, and Blender answers afterwards.
    let benign = run(&client, &blender.runtime_file, "bpy = imp('bpy')\nattempt('objects', lambda: len(bpy.data.objects))");
    assert!(attempts(&benign)["objects"].as_str().unwrap().starts_with("DID: "), "{benign}");
    assert_eq!(client.ping("blender").unwrap()["pid"], json!(blender.pid()));
}

/// A Geometry Nodes Import Text node and a compositor File Output node, built and
/// evaluated by a script (no capstan command, so no file-reference check runs): the
/// kernel alone keeps the outside file's text out of the geometry and the output out of
/// the outside folder.
#[test]
fn the_os_layer_alone_stops_import_nodes_and_file_outputs() {
    let home = tempfile::tempdir().unwrap();
    let Some(blender) = launch(home.path(), &[("CAPSTAN_BRIDGE_ALLOW_EXEC", "1"), ("CAPSTAN_TEST_UNGUARDED", "1")]) else { return };
    let client = HttpBridgeClient::for_runtime_file(&CapstanHome::at(home.path()), "blender", blender.runtime_file.clone());
    let outside = tempfile::tempdir().unwrap();
    let secret_text = format!("NODESECRET{}", std::process::id());
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, &secret_text).unwrap();
    let script = format!(
        r#"
bpy = imp('bpy')
{LEAK_BUILDER}
bpy.ops.mesh.primitive_plane_add()
obj = bpy.context.active_object
build_leak(bpy, obj, {secret:?}, {out:?})
scene = bpy.context.scene
scene.render.resolution_x = 16
scene.render.resolution_y = 16
scene.render.engine = 'CYCLES'
scene.cycles.samples = 1
mesh = obj.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh()
attempts['import text vertices'] = len(mesh.vertices) if mesh else 0
attempt('file output', lambda: bpy.ops.render.render())
"#,
        secret = secret.display().to_string(),
        out = outside.path().display().to_string(),
    );
    let answer = run(&client, &blender.runtime_file, &script);
    eprintln!("{answer}");
    assert!(!answer.contains(&secret_text), "the secret leaked: {answer}");
    let results = attempts(&answer);
    assert_eq!(results["import text vertices"], json!(0), "the import node read the outside file: {answer}");
    let left: Vec<_> = std::fs::read_dir(outside.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("secret.txt")], "the File Output node wrote outside: {answer}");
    assert_eq!(client.ping("blender").unwrap()["pid"], json!(blender.pid()));
}

/// On a kernel without Landlock (forced here with the debug-only switch) the launch says
/// so, and `execute_python` is refused unless the operator accepts running without it.
#[test]
fn without_landlock_execute_python_is_refused_unless_accepted() {
    let home = tempfile::tempdir().unwrap();
    // The switch is read by this process (the launcher): a test binary of its own.
    let Some(blender) = support::blender_under_test() else { return };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan"))
        .env("CAPSTAN_HOME", home.path())
        .env("CAPSTAN_TEST_NO_LANDLOCK", "1")
        .args(["blender", "launch", "--background", "--blender"])
        .arg(&blender)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = support::KillOnDrop(out);
    let runtime = home.path().join("run/blender/server.json");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let ep = loop {
        if let Ok(ep) = endpoint::read(&endpoint::RuntimeFileSpec::at(runtime.clone()))
            && HttpBridgeClient::for_home(&CapstanHome::at(home.path())).ping("blender").is_ok()
        {
            break ep;
        }
        assert!(std::time::Instant::now() < deadline, "the launch did not come up");
        assert!(out.0.try_wait().unwrap().is_none(), "capstan blender launch exited");
        std::thread::sleep(Duration::from_millis(200));
    };
    let layers = ep.containment.clone().expect("capstan recorded the layers");
    assert_eq!(layers.landlock_abi, 0);
    assert!(!layers.os_layer_complete());
    let refusal = capstan::mcp::python_exec::unconfined_refusal("blender", &ep).expect("refused without the OS layer");
    assert!(refusal.contains("Landlock is off") && refusal.contains("CAPSTAN_ALLOW_UNCONFINED_EXEC=1"), "{refusal}");

    // doctor --json names each layer.
    let report = doctor_json(home.path(), &[("CAPSTAN_TEST_NO_LANDLOCK", "1")]);
    let c = &report["containment"]["blender"];
    assert_eq!(c["landlock"]["on"], json!(false), "{c}");
    assert_eq!(c["landlock"]["abi"], json!(0));
    assert_eq!(c["seccomp"]["on"], json!(true), "{c}");
    assert_eq!(c["checker"]["on"], json!(true), "{c}");
    assert_eq!(c["guard"]["on"], json!(true), "{c}");
    assert!(c["execute_python"].as_str().unwrap().starts_with("refused"), "{c}");
    out.0.kill().ok();
}

/// `capstan doctor --json` over `home`.
fn doctor_json(home: &Path, env: &[(&str, &str)]) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home).envs(env.iter().copied()).args(["doctor", "--json"]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("doctor --json: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn doctor_reports_every_layer_on_for_a_confined_blender() {
    let home = tempfile::tempdir().unwrap();
    let Some(blender) = launch(home.path(), &[]) else { return };
    let report = doctor_json(home.path(), &[]);
    let c = &report["containment"]["blender"];
    assert_eq!(c["landlock"]["on"], json!(true), "{c}");
    assert!(c["landlock"]["abi"].as_i64().unwrap() >= 6);
    for layer in ["seccomp", "privileges_dropped", "checker", "guard"] {
        assert_eq!(c[layer]["on"], json!(true), "{layer}: {c}");
    }
    assert_eq!(c["os_layer_complete"], json!(true));
    drop(blender);
}

/// Build, with an unconfined Blender of the test's own, a `.blend` holding no Python:
/// a Geometry Nodes Import Text node that reads `secret` into geometry, and a compositor
/// File Output node that writes into `outside`.
fn leaky_blend(blender: &Path, secret: &Path, blend: &Path, outside: &Path) {
    let script = format!(
        "import bpy, sys\n{LEAK_BUILDER}\nsecret, blend, outside = sys.argv[-3:]\nbpy.ops.wm.read_factory_settings(use_empty=False)\nbuild_leak(bpy, bpy.data.objects['Cube'], secret, outside)\nbpy.ops.wm.save_as_mainfile(filepath=blend)\n"
    );
    let out = std::process::Command::new(blender).arg("-c").arg(&script).arg(secret).arg(blend).arg(outside).output().unwrap();
    assert!(out.status.success() && blend.is_file(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Finding 3 with execute_python off: a `.blend` with no Python, opened and rendered
/// through the capabilities an agent uses. The file-reference check refuses it and says
/// why; opened with its outside references detached, it renders only into the output
/// folder, and the outside file's text appears in no answer.
#[test]
fn a_blend_that_reads_and_writes_outside_is_refused_or_detached_and_never_leaks() {
    use capstan::engine::AllocationPreference;
    use capstan::runtime::Runtime;
    let Some(blender_path) = support::blender_under_test() else { return };
    let home = tempfile::tempdir().unwrap();
    let roots = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret_text = format!("BLENDSECRET{}", std::process::id());
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, &secret_text).unwrap();
    let blend = roots.path().join("leaky.blend");
    leaky_blend(&blender_path, &secret, &blend, outside.path());

    let roots_value = roots.path().display().to_string();
    let Some(blender) = launch(home.path(), &[("CAPSTAN_READ_ROOTS", &roots_value)]) else { return };
    let chome = CapstanHome::at(home.path());
    let client = std::sync::Arc::new(HttpBridgeClient::for_runtime_file(&chome, "blender", blender.runtime_file.clone()));
    let mut rt = Runtime::new(&chome, AllocationPreference::PoolingIfAvailable, client).unwrap();
    rt.load_all(&chome);
    let mut answers = String::new();

    let refused = rt.call("io.open", &json!({ "path": blend }).to_string()).expect_err("the leaky file is refused");
    let message = refused.to_string();
    answers.push_str(&message);
    assert!(message.contains("outside") && message.contains(&secret.display().to_string()), "the refusal names the reference: {message}");

    let opened = rt.call("io.open", &json!({ "path": blend, "detach_outside_references": true }).to_string()).expect("opened with its references detached");
    answers.push_str(&opened.result.to_string());
    assert!(opened.result["detached"].as_array().is_some_and(|d| d.len() >= 2), "{}", opened.result);
    let rendered = rt.call("scene.render", &json!({ "filename": "leak.png", "resolution": [32, 24] }).to_string()).expect("renders");
    answers.push_str(&rendered.result.to_string());
    let png = std::path::PathBuf::from(rendered.result["path"].as_str().unwrap());
    assert!(png.starts_with(&blender.instance.output), "{}", png.display());
    let info = rt.call("scene.info", "{}").unwrap();
    answers.push_str(&info.result.to_string());

    assert!(!answers.contains(&secret_text), "the outside file's text reached an answer");
    let left: Vec<_> = std::fs::read_dir(outside.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("secret.txt")], "something was written outside the output folder");
}

/// Eval launches its own private instance: a live session's runtime file and answers
/// stay intact (finding 7).
#[test]
fn eval_beside_a_live_session_leaves_it_intact() {
    let Some(blender_path) = support::blender_under_test() else { return };
    let home = tempfile::tempdir().unwrap();
    let Some(live) = launch(home.path(), &[]) else { return };
    let published = home.path().join("run/blender/server.json");
    let before = std::fs::read(&published).unwrap();
    let suite = home.path().join("suite.json");
    std::fs::write(&suite, json!({ "version": 1, "description": "one task", "tasks": [ { "id": "cube", "goal": "add a cube called EvalCube", "family": "create", "capability": "scene.create_object", "trajectory": [ { "key": "scene.create_object", "args": { "type": "cube", "name": "EvalCube" } } ], "assertions": [ { "kind": "property", "object": "EvalCube", "path": "type", "equals": "MESH" } ] } ] }).to_string()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home.path()).env("CAPSTAN_BLENDER", &blender_path).args(["eval", "--suite"]).arg(&suite).output().unwrap();
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&published).unwrap(), before, "the live session's runtime file was touched");
    let client = HttpBridgeClient::for_home(&CapstanHome::at(home.path()));
    assert_eq!(client.ping("blender").unwrap()["pid"], json!(live.pid()), "the live session still answers");
    let info = client.call(BridgeRequest { server: "blender", command: "get_scene_info", params: &json!({}), timeout: Duration::from_secs(30) }).unwrap();
    assert!(!info.to_string().contains("EvalCube"), "eval worked in the live session's scene: {info}");
}
