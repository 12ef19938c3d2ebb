//! A broken or hostile node, and jobs at the edges: none needs Blender or Ray. The Ray
//! cases use a stand-in "Python" whose driver prints canned answers (fault injection:
//! the real driver prints whatever a task returns).

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn capstan(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_capstan"));
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("batch-component-cache");
    cmd.env("CAPSTAN_HOME", home).env("CAPSTAN_COMPONENT_CACHE", cache).env_remove("CAPSTAN_READ_ROOTS").env_remove("CAPSTAN_RAY_PYTHON");
    cmd
}

/// A job of items a and b that passes the check (no app is started by the fake driver).
fn write_job(dir: &Path) -> PathBuf {
    let job = json!({
        "steps": [{ "run": "scene.create_object", "arguments": { "type": "monkey", "name": { "$item": "name" } } }],
        "items": [{ "id": "a", "name": "A" }, { "id": "b", "name": "B" }],
        "retries": 0
    });
    let path = dir.join("job.json");
    std::fs::write(&path, job.to_string()).unwrap();
    path
}

/// A "Python" that says it has ray 2.60.0 and, run as the driver, prints `lines`.
fn fake_python(dir: &Path, lines: &[Value]) -> PathBuf {
    let answers = dir.join("answers.jsonl");
    std::fs::write(&answers, lines.iter().map(|l| l.to_string() + "\n").collect::<String>()).unwrap();
    let script = dir.join("python");
    std::fs::write(&script, format!("#!/bin/sh\nif [ \"$1\" = -c ]; then echo 2.60.0; exit 0; fi\ncat >/dev/null\ncat '{}'\n", answers.display())).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    script
}

fn ok_answer(id: &str, node: &str, attempt: u64, record_attempts: u64) -> Value {
    json!({ "id": id, "node": node, "attempt": attempt, "out": "/node/out",
        "record": { "id": id, "status": "ok", "attempts": record_attempts, "seconds": 1.0, "worker": "local-1", "steps": [], "outputs": [] },
        "files": [] })
}

fn run_ray(lines: &[Value]) -> (Output, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let job = write_job(tmp.path());
    let python = fake_python(tmp.path(), lines);
    let out = capstan(&home).args(["batch"]).arg(&job).args(["--ray", "127.0.0.1:1", "--ray-python"]).arg(&python).arg("--out").arg(tmp.path().join("out")).output().unwrap();
    (out, tmp)
}

fn no_panic(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "capstan panicked on a node's answer: {stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
}

/// ray.rs `accept`: `&node[..node.len().min(12)]` slices a node-controlled string at
/// byte 12, which panics inside a multi-byte character: one answer ends the batch.
#[test]
fn a_node_id_with_multibyte_characters_does_not_panic_capstan() {
    let (out, tmp) = run_ray(&[ok_answer("a", "0123456789aé-node", 0, 1), ok_answer("b", "n", 0, 1)]);
    no_panic(&out);
    assert!(tmp.path().join("out/items/b.json").exists(), "the next item's answer was lost");
}

/// ray.rs `accept`: `record.attempts += attempt` (both node-controlled) overflows.
/// (A huge `attempt` alone also builds `attempt` strings in memory: not tried here.)
#[test]
fn node_controlled_attempt_counts_do_not_overflow() {
    let (out, _tmp) = run_ray(&[ok_answer("a", "n", 1, u64::from(u32::MAX)), ok_answer("b", "n", 0, 1)]);
    no_panic(&out);
}

/// job.rs `frame_ranges`: `end - start` and `last + 1` overflow i64 (a panic in debug
/// builds; a wrap and an endless loop in release builds).
#[test]
fn extreme_frame_ranges_are_refused_not_panicked_on() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, frames) in [json!({ "start": i64::MAX, "end": i64::MAX }), json!({ "start": i64::MIN, "end": i64::MAX })].into_iter().enumerate() {
        let path = tmp.path().join(format!("f{i}.json"));
        std::fs::write(&path, json!({ "run": "scene.create_object", "frames": frames }).to_string()).unwrap();
        let out = capstan(&tmp.path().join("home")).arg("batch").arg(&path).output().unwrap();
        no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{frames}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// job.rs `csv_items`: an id cell that looks like a number is re-printed, so the
/// record is not named after the CSV's id ("1.50" becomes "1.5", "1e2" becomes "100.0"),
/// and two different ids can collide.
#[test]
fn csv_ids_are_kept_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("i.csv"), "id,name\n1.50,A\n1.5,B\n").unwrap();
    let path = tmp.path().join("job.json");
    std::fs::write(&path, json!({ "run": "scene.create_object", "arguments": { "type": "bogus", "name": { "$item": "name" } }, "items": "i.csv" }).to_string()).unwrap();
    let out = capstan(&tmp.path().join("home")).arg("batch").arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("item 1.50:"), "{stderr}");
}

/// cli/mod.rs prints errors through `control_chars::escape`, so the multi-line refusal of
/// `batch::check` arrives as one line with literal `\n`.
#[test]
fn a_refused_job_lists_its_problems_one_per_line() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("job.json");
    std::fs::write(&path, json!({ "run": "scene.create_object", "arguments": { "type": "bogus" }, "items": [{ "id": "a" }, { "id": "b" }] }).to_string()).unwrap();
    let out = capstan(&tmp.path().join("home")).arg("batch").arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("\\n"), "{stderr}");
}
