//! `capstan batch` on the local pool, against real confined headless Blenders:
//!
//! - a worker's Blender killed mid-batch loses nothing: every item ends with one record
//!   and its PNG, and the lost attempt is counted;
//! - after capstan itself is killed with SIGKILL, none of the Blenders it launched runs
//!   10 s later;
//! - a batch stopped with Ctrl-C (SIGINT) goes on with `--resume` without running a
//!   finished item again (its record stays byte for byte);
//! - a job that cannot run is refused before any Blender starts.
//!
//! Needs `CAPSTAN_TEST_BLENDER`; with `CAPSTAN_REQUIRE_BLENDER=1` (the test command sets
//! it) a missing Blender fails instead of skipping.

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn capstan(home: &Path, blender: &Path) -> Command {
    warm_component_cache();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_capstan"));
    cmd.env("CAPSTAN_HOME", home).env("CAPSTAN_BLENDER", blender).env("CAPSTAN_COMPONENT_CACHE", component_cache()).env_remove("CAPSTAN_READ_ROOTS");
    cmd
}

/// One folder of compiled packs for every capstan these tests start (each in its own
/// home), so each does not compile every pack again.
fn component_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("batch-component-cache")
}

/// Compile every pack into the shared cache once, before the tests' capstans (and their
/// Ray tasks) start side by side: otherwise each compiles them all at once on a cold
/// cache.
fn warm_component_cache() {
    static WARM: std::sync::Once = std::sync::Once::new();
    WARM.call_once(|| {
        let home = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_capstan")).env("CAPSTAN_HOME", home.path()).env("CAPSTAN_COMPONENT_CACHE", component_cache()).args(["packs", "list", "--json"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    });
}

/// A job of `n` items: Suzanne, subdivided with `cuts` (work on Blender's main thread),
/// then a 64 px workbench render named after the item.
fn write_job(dir: &Path, n: usize, cuts: u32) -> PathBuf {
    let items: Vec<Value> = (1..=n).map(|i| json!({ "id": format!("p{i}"), "name": format!("Part {i}"), "file": format!("p{i}.png") })).collect();
    let job = json!({
        "steps": [
            { "run": "scene.create_object", "arguments": { "type": "monkey", "name": { "$item": "name" } } },
            { "run": "mutate.mesh_edit", "arguments": { "object": { "$item": "name" }, "op": "subdivide", "params": { "cuts": cuts } } },
            { "run": "scene.render", "arguments": { "engine": "workbench", "resolution": [64, 64], "filename": { "$item": "file" } } }
        ],
        "items": items,
        "retries": 2
    });
    let path = dir.join("job.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&job).unwrap()).unwrap();
    path
}

/// The pids the runtime records of `home`'s instances name.
fn blender_pids(home: &Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir(home.join("instances")) else { return vec![] };
    entries
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("server.json")).ok())
        .filter_map(|b| serde_json::from_slice::<Value>(&b).ok())
        .filter_map(|d| d["pid"].as_u64().map(|p| p as u32))
        .collect()
}

/// Running (a zombie is not: its process has ended).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.rsplit(')').next().and_then(|r| r.split_whitespace().next()) != Some("Z"))
}

fn records(out: &Path) -> usize {
    std::fs::read_dir(out.join("items")).map(|d| d.flatten().count()).unwrap_or(0)
}

fn wait_for(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_exit(child: &mut Child, timeout: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "capstan batch did not end");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A process's CPUs, as the kernel lists them ("0", "0-3,6").
fn cpus_allowed(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).unwrap().trim().to_string()
}

fn manifest(out: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap()
}

fn signal(pid: u32, sig: i32) {
    assert_eq!(unsafe { libc::kill(pid as i32, sig) }, 0, "kill {pid}");
}

#[test]
fn a_worker_killed_mid_batch_loses_no_item() {
    let Some(blender) = support::blender_under_test() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (home, out) = (tmp.path().join("home"), tmp.path().join("out"));
    let job = write_job(tmp.path(), 8, 10);
    let mut child = support::KillOnDrop(capstan(&home, &blender).args(["batch"]).arg(&job).args(["--workers", "2", "--out"]).arg(&out).stdout(Stdio::null()).spawn().unwrap());
    wait_for("the first record", Duration::from_secs(180), || records(&out) >= 1);
    let victim = blender_pids(&home).into_iter().find(|p| alive(*p)).expect("a worker Blender runs");
    signal(victim, libc::SIGKILL);
    // A guard against a hang, not a timing: generous, as the machine may be busy.
    let status = wait_exit(&mut child.0, Duration::from_secs(600));
    assert!(status.success(), "{status:?}");
    let m = manifest(&out);
    assert_eq!((m["total"].as_u64(), m["ok"].as_u64(), m["pending"].as_u64(), m["complete"].as_bool()), (Some(8), Some(8), Some(0), Some(true)), "{m:#}");
    let mut attempts = 0;
    for i in 1..=8 {
        let record: Value = serde_json::from_slice(&std::fs::read(out.join(format!("items/p{i}.json"))).unwrap()).unwrap();
        assert_eq!(record["status"], "ok", "{record:#}");
        assert_eq!(record["outputs"], json!([format!("outputs/p{i}/p{i}.png")]), "one output per item: {record:#}");
        let png = std::fs::read(out.join(format!("outputs/p{i}/p{i}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "p{i}'s output is a PNG");
        assert_eq!(record["steps"].as_array().map(Vec::len), Some(3), "{record:#}");
        attempts += record["attempts"].as_u64().unwrap();
        if record["attempts"].as_u64() > Some(1) {
            assert!(!record["lost"].as_array().unwrap().is_empty(), "a repeated item says why: {record:#}");
        }
    }
    assert!(attempts > 8, "the killed worker's item was attempted again and counted");
    assert!(!alive(victim));
    wait_for("every worker Blender to stop", Duration::from_secs(20), || blender_pids(&home).iter().all(|p| !alive(*p)));
    let left: Vec<_> = std::fs::read_dir(home.join("instances")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "the workers' instance folders are gone, the lost attempt's too: {left:?}");
}

#[test]
fn a_worker_blender_that_hangs_is_ended_and_its_item_retried() {
    let Some(blender) = support::blender_under_test() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (home, out) = (tmp.path().join("home"), tmp.path().join("out"));
    let job = write_job(tmp.path(), 3, 14);
    let mut child = support::KillOnDrop(capstan(&home, &blender).args(["batch"]).arg(&job).args(["--workers", "1", "--out"]).arg(&out).stdout(Stdio::null()).spawn().unwrap());
    wait_for("the first record", Duration::from_secs(180), || records(&out) >= 1);
    let hung = blender_pids(&home).into_iter().find(|p| alive(*p)).expect("the worker Blender runs");
    signal(hung, libc::SIGSTOP);
    // The call's own timeout is minutes; the watchdog ends a stopped app in 15 s.
    let status = wait_exit(&mut child.0, Duration::from_secs(150));
    assert!(status.success(), "{status:?}");
    let m = manifest(&out);
    assert_eq!((m["ok"].as_u64(), m["complete"].as_bool()), (Some(3), Some(true)), "{m:#}");
    let lost: Vec<Value> = (1..=3).map(|i| serde_json::from_slice::<Value>(&std::fs::read(out.join(format!("items/p{i}.json"))).unwrap()).unwrap()).filter(|r| r["attempts"].as_u64() > Some(1)).collect();
    assert_eq!(lost.len(), 1, "one item was caught by the hang: {m:#}");
    assert!(lost[0]["lost"][0].as_str().unwrap().contains("stopped"), "{:#}", lost[0]);
    assert!(!alive(hung), "the hung Blender was ended");
}

#[test]
fn no_blender_outlives_capstan_killed_with_sigkill() {
    let Some(blender) = support::blender_under_test() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (home, out) = (tmp.path().join("home"), tmp.path().join("out"));
    let job = write_job(tmp.path(), 6, 20);
    let mut child = capstan(&home, &blender).args(["batch"]).arg(&job).args(["--workers", "2", "--out"]).arg(&out).stdout(Stdio::null()).spawn().unwrap();
    wait_for("two worker Blenders", Duration::from_secs(180), || blender_pids(&home).iter().filter(|p| alive(**p)).count() == 2);
    let pids = blender_pids(&home);
    // With at least as many CPUs as workers, each worker's Blender runs on its own share.
    let shares: Vec<String> = pids.iter().map(|p| cpus_allowed(*p)).collect();
    let mine = cpus_allowed(std::process::id());
    let count: u32 = mine.split(',').map(|r| r.split_once('-').map_or(1, |(a, b)| b.parse::<u32>().unwrap() - a.parse::<u32>().unwrap() + 1)).sum();
    if count >= 2 {
        assert_ne!(shares[0], shares[1], "two workers, two shares: {shares:?}");
        assert!(shares.iter().all(|s| s != &mine), "a share is not every CPU ({mine}): {shares:?}");
    }
    // One worker's Blender is stopped, as one deep in a long C call is as far as a
    // polite signal goes (its bridge handles SIGTERM only between Python bytecodes): it
    // must still die with capstan.
    signal(pids[0], libc::SIGSTOP);
    signal(child.id(), libc::SIGKILL);
    child.wait().unwrap();
    std::thread::sleep(Duration::from_secs(10));
    let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
    for p in &left {
        signal(*p, libc::SIGKILL);
    }
    assert!(left.is_empty(), "Blenders still running 10 s after capstan was killed: {left:?}");
}

#[test]
fn a_batch_stopped_with_ctrl_c_resumes_without_redoing_finished_items() {
    let Some(blender) = support::blender_under_test() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (home, out) = (tmp.path().join("home"), tmp.path().join("out"));
    let job = write_job(tmp.path(), 6, 12);
    // In its own process group, as a command in a terminal is: Ctrl-C there signals the
    // whole group, which must not reach the worker Blenders (the item running finishes).
    let mut cmd = capstan(&home, &blender);
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = support::KillOnDrop(cmd.args(["batch"]).arg(&job).args(["--workers", "1", "--out"]).arg(&out).stdout(Stdio::null()).spawn().unwrap());
    wait_for("two records", Duration::from_secs(180), || records(&out) >= 2);
    let before = records(&out);
    assert_eq!(unsafe { libc::kill(-(child.0.id() as i32), libc::SIGINT) }, 0, "Ctrl-C to the group");
    let status = wait_exit(&mut child.0, Duration::from_secs(120));
    assert_eq!(status.code(), Some(130), "a stopped batch says so");
    let stopped = manifest(&out);
    assert_eq!(stopped["interrupted"], true);
    let finished: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(out.join("items")).unwrap().flatten().map(|e| (e.path(), std::fs::read(e.path()).unwrap())).collect();
    assert!(finished.len() > before, "the item running at Ctrl-C finished and was recorded ({before} before, {} after)", finished.len());
    assert!(finished.len() >= 2 && finished.len() < 6, "stopped after {} items", finished.len());
    let again = capstan(&home, &blender).args(["batch"]).arg(&job).args(["--workers", "1", "--json", "--resume", "--out"]).arg(&out).output().unwrap();
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    let summary: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!((summary["skipped"].as_u64(), summary["ok"].as_u64(), summary["pending"].as_u64()), (Some(finished.len() as u64), Some(6), Some(0)), "{summary:#}");
    for (path, bytes) in finished {
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{} was run again", path.display());
    }
    // Without --resume the folder is refused, nothing touched.
    let refused = capstan(&home, &blender).args(["batch"]).arg(&job).args(["--out"]).arg(&out).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"), "{}", String::from_utf8_lossy(&refused.stderr));
}

#[test]
fn a_job_that_cannot_run_is_refused_before_any_blender_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let job = tmp.path().join("job.json");
    let cases = [
        (json!({ "run": "scene.no_such_thing", "items": [{}] }), "no capability"),
        (json!({ "run": "scene.create_object", "items": [{ "type": "monkey" }, { "type": "dragon" }] }), "item 0002"),
        (json!({ "run": "scene.create_object", "items": [{ "id": "../up" }] }), "id"),
    ];
    for (doc, words) in cases {
        std::fs::write(&job, doc.to_string()).unwrap();
        let out = tmp.path().join("out");
        let done = capstan(&home, Path::new("/nonexistent/blender")).args(["batch"]).arg(&job).args(["--out"]).arg(&out).output().unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(2), "{doc}: {stderr}");
        assert!(stderr.contains(words), "{doc}: {stderr}");
        assert!(!out.exists(), "{doc}: a refused job writes no results");
        assert!(!home.join("instances").exists(), "{doc}: no Blender started");
    }
}

#[test]
fn an_animation_splits_into_frame_ranges_and_an_eval_suite_into_tasks() {
    let Some(blender) = support::blender_under_test() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    // Frames 1-5 in ranges of 2: three items, each rendering its own frames.
    let frames = tmp.path().join("frames.json");
    let job = json!({
        "steps": [
            { "run": "scene.create_object", "arguments": { "type": "cube", "name": "Box" } },
            { "run": "scene.render_settings", "arguments": { "engine": "workbench", "resolution": [32, 32] } },
            { "run": "render.animation" }
        ],
        "frames": { "start": 1, "end": 5, "chunk": 2 }
    });
    std::fs::write(&frames, job.to_string()).unwrap();
    let out = tmp.path().join("frames.results");
    let done = capstan(&home, &blender).args(["batch"]).arg(&frames).args(["--workers", "2"]).output().unwrap();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let m = manifest(&out);
    let outputs: Vec<Value> = m["items"].as_array().unwrap().iter().map(|i| i["outputs"].clone()).collect();
    assert_eq!(
        outputs,
        vec![
            json!(["outputs/frames-0001-0002/frame_0001.png", "outputs/frames-0001-0002/frame_0002.png"]),
            json!(["outputs/frames-0003-0004/frame_0003.png", "outputs/frames-0003-0004/frame_0004.png"]),
            json!(["outputs/frames-0005-0005/frame_0005.png"]),
        ],
        "{m:#}"
    );
    // The shipped eval suite, one item per task, with the verdicts `capstan eval` gives
    // (every trajectory passes: tests/eval.rs).
    let suite = tmp.path().join("suite.json");
    std::fs::write(&suite, json!({ "eval": "shipped" }).to_string()).unwrap();
    let done = capstan(&home, &blender).args(["batch"]).arg(&suite).args(["--workers", "2", "--json"]).output().unwrap();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let m = manifest(&tmp.path().join("suite.results"));
    let total = m["total"].as_u64().unwrap();
    assert!(total >= 73, "{m:#}");
    assert_eq!(m["eval"], json!({ "passed": total, "failed": 0, "error": 0 }), "{:#}", m["eval"]);
}

/// A Ray cluster of a head and a worker node on 127.0.0.1, each `--num-cpus 1`, with
/// the smallest object store, its own ports and temporary folder; stopped (by pid,
/// never `ray stop`, which would end every Ray on the machine) when dropped.
struct RayCluster {
    root: tempfile::TempDir,
    address: String,
    env: Vec<(&'static str, String)>,
}

impl RayCluster {
    fn start(python: &Path) -> RayCluster {
        // A short folder: Ray's Unix socket paths must stay under 107 bytes.
        let root = tempfile::Builder::new().prefix("cr").tempdir_in("/tmp").unwrap();
        let base = free_port_block();
        let env = vec![
            ("RAY_USAGE_STATS_ENABLED", "0".to_string()),
            // Keeps the head and the driver on 127.0.0.1 (see data/ray_loopback.py).
            ("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0".to_string()),
            // A lost node is noticed in about 3 s instead of about 14.
            ("RAY_health_check_initial_delay_ms", "1000".to_string()),
            ("RAY_health_check_period_ms", "1000".to_string()),
            ("RAY_health_check_timeout_ms", "1000".to_string()),
            ("RAY_health_check_failure_threshold", "3".to_string()),
        ];
        let root_path = root.path().to_path_buf();
        let node_args = |offset: u16, dir: &str| -> Vec<String> {
            let p = |n: u16| (base + offset + n).to_string();
            let mut a: Vec<String> = ["--node-ip-address", "127.0.0.1", "--num-cpus", "1", "--object-store-memory", "78643200"].map(String::from).to_vec();
            for (flag, n) in [("--node-manager-port", 1), ("--object-manager-port", 2), ("--metrics-export-port", 4), ("--dashboard-agent-listen-port", 5), ("--dashboard-agent-grpc-port", 6), ("--runtime-env-agent-port", 7), ("--min-worker-port", 20), ("--max-worker-port", 39)] {
                a.push(flag.into());
                a.push(p(n));
            }
            a.extend(["--temp-dir".to_string(), root_path.join(dir).to_string_lossy().into_owned(), "--disable-usage-stats".to_string()]);
            a
        };
        let ray = python.parent().unwrap().join("ray");
        let mut head = Command::new(&ray);
        head.args(["start", "--head", "--port", &base.to_string(), "--include-dashboard=false", "--dashboard-host", "127.0.0.1", "--dashboard-port", &(base + 3).to_string()]).args(node_args(0, "h"));
        let cluster = RayCluster { address: format!("127.0.0.1:{base}"), env, root };
        cluster.run("ray start --head", head);
        let mut worker = Command::new(python);
        worker.arg(support::workspace().join("host/tests/data/ray_loopback.py")).args(["start", "--address", &cluster.address, "--include-log-monitor=false"]).args(node_args(100, "w"));
        cluster.run("the worker node's ray start", worker);
        cluster
    }

    fn run(&self, what: &str, mut cmd: Command) {
        let out = cmd.envs(self.env.iter().map(|(k, v)| (*k, v.as_str()))).stdin(Stdio::null()).output().unwrap();
        assert!(out.status.success(), "{what} failed:\n{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    }

    /// Every process of the cluster: those naming its folder, and their descendants
    /// (task workers rename themselves `ray::...`).
    fn pids(&self) -> Vec<u32> {
        let root = self.root.path().to_string_lossy().into_owned();
        let procs: Vec<(u32, u32, String)> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter_map(|pid| {
                let cmdline = String::from_utf8_lossy(&std::fs::read(format!("/proc/{pid}/cmdline")).ok()?).replace('\0', " ");
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                let ppid = stat.rsplit(')').next()?.split_whitespace().nth(1)?.parse().ok()?;
                Some((pid, ppid, cmdline))
            })
            .collect();
        let mut ours: Vec<u32> = procs.iter().filter(|(_, _, c)| c.contains(&root)).map(|(p, _, _)| *p).collect();
        loop {
            let more: Vec<u32> = procs.iter().filter(|(p, pp, _)| ours.contains(pp) && !ours.contains(p)).map(|(p, _, _)| *p).collect();
            if more.is_empty() {
                return ours;
            }
            ours.extend(more);
        }
    }

    fn worker_raylet(&self) -> u32 {
        let marker = self.root.path().join("w").to_string_lossy().into_owned();
        self.pids()
            .into_iter()
            .find(|p| std::fs::read(format!("/proc/{p}/cmdline")).is_ok_and(|c| {
                let c = String::from_utf8_lossy(&c);
                c.contains("raylet/raylet") && c.contains(&marker)
            }))
            .expect("the worker node's raylet runs")
    }
}

impl Drop for RayCluster {
    fn drop(&mut self) {
        for pid in self.pids() {
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        }
    }
}

/// 200 consecutive ports nobody listens on, from a block chosen by this process's id.
fn free_port_block() -> u16 {
    for attempt in 0..50u16 {
        let base = 20_000 + ((std::process::id() as u16).wrapping_mul(7).wrapping_add(attempt * 211) % 200) * 200;
        if (0..200).step_by(1).all(|n| std::net::TcpListener::bind(("127.0.0.1", base + n)).is_ok()) {
            return base;
        }
    }
    panic!("no free block of 200 ports");
}

/// The local addresses of listening TCP sockets owned by `pids`.
fn listening_addresses(pids: &[u32]) -> Vec<String> {
    let mut inodes = std::collections::HashSet::new();
    for pid in pids {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { continue };
        for fd in fds.flatten() {
            if let Some(inode) = std::fs::read_link(fd.path()).ok().and_then(|l| l.to_str()?.strip_prefix("socket:[")?.strip_suffix(']')?.parse::<u64>().ok()) {
                inodes.insert(inode);
            }
        }
    }
    let mut found = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        for line in std::fs::read_to_string(table).unwrap_or_default().lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            // st 0A: LISTEN.
            if f.len() > 9 && f[3] == "0A" && f[9].parse::<u64>().is_ok_and(|i| inodes.contains(&i)) {
                found.push(f[1].to_string());
            }
        }
    }
    found
}

/// 127.0.0.1 (as /proc/net/tcp writes it, or v4-mapped in tcp6) or ::1.
fn is_loopback(hex_addr: &str) -> bool {
    let host = hex_addr.split(':').next().unwrap_or("");
    matches!(host, "0100007F" | "0000000000000000FFFF00000100007F" | "00000000000000000000000001000000")
}

#[test]
fn a_two_node_ray_cluster_loses_no_item_when_a_raylet_is_killed() {
    let Some(blender) = support::blender_under_test() else { return };
    let Some(python) = std::env::var_os("CAPSTAN_TEST_RAY_PYTHON").filter(|p| !p.is_empty()).map(PathBuf::from) else {
        assert!(std::env::var("CAPSTAN_REQUIRE_RAY").as_deref() != Ok("1"), "CAPSTAN_REQUIRE_RAY=1 but CAPSTAN_TEST_RAY_PYTHON is not set");
        eprintln!("skipped: set CAPSTAN_TEST_RAY_PYTHON");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (home, out) = (tmp.path().join("home"), tmp.path().join("out"));
    let job = write_job(tmp.path(), 8, 10);
    let cluster = RayCluster::start(&python);
    let mut cmd = capstan(&home, &blender);
    cmd.envs(cluster.env.iter().map(|(k, v)| (*k, v.as_str())));
    cmd.args(["batch"]).arg(&job).args(["--json", "--out"]).arg(&out).args(["--ray", &cluster.address, "--ray-python"]).arg(&python);
    for (k, v) in [("CAPSTAN_HOME", home.as_os_str()), ("CAPSTAN_BLENDER", blender.as_os_str())] {
        cmd.arg("--ray-env").arg(format!("{k}={}", v.to_string_lossy()));
    }
    cmd.arg("--ray-env").arg(format!("CAPSTAN_COMPONENT_CACHE={}", component_cache().display()));
    let mut child = support::KillOnDrop(cmd.stdout(Stdio::piped()).spawn().unwrap());
    wait_for("the first record", Duration::from_secs(420), || records(&out) >= 1);
    // With the driver and task workers up: no Ray port listens beyond loopback.
    let listening = listening_addresses(&cluster.pids());
    assert!(listening.len() >= 5, "the cluster's listeners were found: {listening:?}");
    let exposed: Vec<&String> = listening.iter().filter(|a| !is_loopback(a)).collect();
    assert!(exposed.is_empty(), "Ray listens beyond loopback: {exposed:?}");
    signal(cluster.worker_raylet(), libc::SIGKILL);
    // A guard against a hang, not a timing: generous, as the machine may be busy.
    let status = wait_exit(&mut child.0, Duration::from_secs(600));
    let mut stdout = String::new();
    std::io::Read::read_to_string(child.0.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    assert!(status.success(), "{status:?} {stdout}");
    let m = manifest(&out);
    assert_eq!((m["total"].as_u64(), m["ok"].as_u64(), m["pending"].as_u64(), m["complete"].as_bool()), (Some(8), Some(8), Some(0), Some(true)), "{m:#}");
    let mut nodes = std::collections::HashSet::new();
    let mut attempts = 0;
    for i in 1..=8 {
        let record: Value = serde_json::from_slice(&std::fs::read(out.join(format!("items/p{i}.json"))).unwrap()).unwrap();
        assert_eq!(record["status"], "ok", "{record:#}");
        assert_eq!(record["outputs"], json!([format!("outputs/p{i}/p{i}.png")]), "one output per item: {record:#}");
        assert!(std::fs::read(out.join(format!("outputs/p{i}/p{i}.png"))).unwrap().starts_with(b"\x89PNG"));
        assert!(record["worker"].as_str().unwrap().starts_with("ray:"), "{record:#}");
        assert!(record["attempts"].as_u64() >= Some(1));
        nodes.insert(record["worker"].as_str().unwrap().to_string());
        attempts += record["attempts"].as_u64().unwrap();
    }
    // Whether the killed node's item was retried depends on where the kill found it (a
    // task can finish on an orphaned worker and answer once); one record each holds.
    eprintln!("items ran on {} node(s): {nodes:?}, {attempts} attempts for 8 items", nodes.len());

    // Outputs to a shared folder the job names (here a folder of this machine, which the
    // nodes see at the same path): written there by the nodes, only names come back.
    let shared = tmp.path().join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let two = tmp.path().join("two");
    std::fs::create_dir_all(&two).unwrap();
    let job = write_job(&two, 2, 2);
    let mut cmd = capstan(&home, &blender);
    cmd.envs(cluster.env.iter().map(|(k, v)| (*k, v.as_str())));
    cmd.args(["batch"]).arg(&job).args(["--out"]).arg(two.join("out")).args(["--ray", &cluster.address, "--ray-python"]).arg(&python).arg("--ray-shared").arg(&shared);
    for (k, v) in [("CAPSTAN_HOME", home.as_os_str()), ("CAPSTAN_BLENDER", blender.as_os_str())] {
        cmd.arg("--ray-env").arg(format!("{k}={}", v.to_string_lossy()));
    }
    cmd.arg("--ray-env").arg(format!("CAPSTAN_COMPONENT_CACHE={}", component_cache().display()));
    let done = cmd.output().unwrap();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    for i in 1..=2 {
        let record: Value = serde_json::from_slice(&std::fs::read(two.join(format!("out/items/p{i}.json"))).unwrap()).unwrap();
        let file = shared.join(format!("outputs/p{i}/p{i}.png"));
        assert_eq!(record["outputs"], json!([file.to_string_lossy()]), "{record:#}");
        assert!(std::fs::read(&file).unwrap().starts_with(b"\x89PNG"));
        assert!(!two.join(format!("out/outputs/p{i}")).exists(), "nothing came back through Ray");
    }
}

#[path = "batch/edges.rs"]
mod edges;
