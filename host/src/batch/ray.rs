//! `capstan batch JOB --ray ADDRESS`: the same job on a Ray cluster.
//!
//! capstan checks the job and opens the results folder exactly as for the local pool,
//! then starts its Ray driver (`ray_driver.py`, shipped inside capstan) with the Python
//! of a venv that holds Ray ([`RAY_VERSION`], pinned). The driver makes one Ray task per
//! pending item; each task runs `capstan batch` for its one item on its node, so every
//! item still passes the node's call path, sandbox, gates and kernel wall. Ray runs a
//! task whose node was lost again elsewhere, at most `retries` times.
//!
//! # Security reasoning
//!
//! The nodes are not the submitter: what comes back is data, checked here before it is
//! written. An answer is taken only for an item of this batch that has no record yet
//! (a duplicate from a retried task is dropped). Each returned file name must be the
//! item's own `outputs/<id>/...` path made of plain names (no `..`, no absolute path,
//! nothing hidden), at most [`crate::limits::HANDOVER_MAX_BYTES`] in all, and lands
//! under a temporary name renamed into place, the record last, as on the local pool.
//! The driver runs with a parent-death signal, so it and its connection to the cluster
//! end with capstan.

use super::job::Job;
use super::manifest::{Record, Results};
use super::pool::Event;
use super::{BatchError, Options, Summary};
use base64::Engine;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;

/// The Ray release capstan's driver is written and tested against.
pub const RAY_VERSION: &str = "2.60.0";
/// The Python holding Ray, when `--ray-python` is not given.
pub const RAY_PYTHON_ENV: &str = "CAPSTAN_RAY_PYTHON";
const DRIVER: &str = include_str!("ray_driver.py");

pub struct RayOptions {
    pub address: String,
    pub python: PathBuf,
    /// Environment variables for the tasks on the nodes (`CAPSTAN_BIN`, `CAPSTAN_HOME`,
    /// where the app is: `KEY=VALUE` from `--ray-env`).
    pub env: Vec<(String, String)>,
    /// A folder every node and this machine see at the same path: outputs are written
    /// there (`<shared>/outputs/<id>/...`) instead of coming back through Ray.
    pub shared: Option<PathBuf>,
}

/// The Python with Ray: `--ray-python`, else `$CAPSTAN_RAY_PYTHON`; it must import Ray
/// of the pinned version.
pub fn ray_python(given: Option<PathBuf>) -> Result<PathBuf, BatchError> {
    let python = given.or_else(|| std::env::var_os(RAY_PYTHON_ENV).map(PathBuf::from)).ok_or_else(|| {
        BatchError::Refused(format!(
            "--ray needs a Python with ray=={RAY_VERSION}: pass --ray-python PATH or set {RAY_PYTHON_ENV} \
             (make one with: python3 -m venv ~/.capstan/ray && ~/.capstan/ray/bin/pip install 'ray=={RAY_VERSION}')"
        ))
    })?;
    let probe = Command::new(&python).args(["-c", "import ray; print(ray.__version__)"]).stdin(Stdio::null()).output();
    match probe {
        Ok(out) if out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == RAY_VERSION => Ok(python),
        Ok(out) if out.status.success() => Err(BatchError::Refused(format!("{} has ray {}, and capstan's driver needs {RAY_VERSION}", python.display(), String::from_utf8_lossy(&out.stdout).trim()))),
        Ok(out) => Err(BatchError::Refused(format!("{} cannot import ray: {}", python.display(), String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")))),
        Err(e) => Err(BatchError::Refused(format!("{}: {e}", python.display()))),
    }
}

/// Run `job` on the Ray cluster at `ray.address`.
pub fn run(home: &crate::home::CapstanHome, job: &Job, options: &Options, ray: &RayOptions, mut on_event: impl FnMut(&Event, &Results)) -> Result<Summary, BatchError> {
    let mut prepared = super::prepare(home, job, options)?;
    let pending: Vec<&super::job::Item> = prepared.pending.iter().map(|&index| &job.items[index]).collect();
    let results = &mut prepared.results;
    let mut env: Vec<(String, String)> = Vec::new();
    if let Ok(me) = std::env::current_exe() {
        // Nodes that share this machine's files (or this path) run this very capstan.
        env.push(("CAPSTAN_BIN".into(), me.to_string_lossy().into_owned()));
    }
    env.extend(ray.env.iter().cloned());
    let spec = json!({
        "address": ray.address,
        "env": env.into_iter().map(|(k, v)| (k, Value::String(v))).collect::<serde_json::Map<String, Value>>(),
        "retries": job.retries,
        "steps": job.steps.iter().map(|s| json!({ "run": s.run, "arguments": s.arguments })).map(drop_null_arguments).collect::<Vec<_>>(),
        "app": job.app,
        "items": pending.iter().map(|i| node_item(job, i)).collect::<Vec<_>>(),
        "max_output_bytes": crate::limits::HANDOVER_MAX_BYTES,
        "shared": ray.shared,
    });
    let driver_dir = tempfile::tempdir().map_err(|e| BatchError::Refused(format!("no temporary folder for the Ray driver: {e}")))?;
    let driver = driver_dir.path().join("capstan_ray_driver.py");
    std::fs::write(&driver, DRIVER).map_err(|e| BatchError::Refused(format!("{}: {e}", driver.display())))?;
    let mut cmd = Command::new(&ray.python);
    cmd.arg(&driver).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).env("RAY_USAGE_STATS_ENABLED", "0");
    crate::launched::die_with_parent(&mut cmd, crate::launched::OnParentDeath::Term);
    let mut child = cmd.spawn().map_err(|e| BatchError::Refused(format!("cannot start the Ray driver with {}: {e}", ray.python.display())))?;
    {
        let mut stdin = child.stdin.take().expect("piped");
        stdin.write_all(spec.to_string().as_bytes()).map_err(|e| BatchError::Refused(format!("the Ray driver did not take the job: {e}")))?;
    }
    let stop = options.stop.clone();
    let driver_pid = child.id();
    let watcher = std::thread::spawn(move || {
        // Ctrl-C: the driver goes (Ray cancels nothing it has finished; what was running
        // is not recorded and runs again on --resume).
        while !stop.load(Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_millis(100));
            if unsafe { libc::kill(driver_pid as i32, 0) } != 0 {
                return;
            }
        }
        unsafe { libc::kill(driver_pid as i32, libc::SIGTERM) };
    });
    let mut nodes = HashSet::new();
    let wanted: HashSet<&str> = pending.iter().map(|i| i.id.as_str()).collect();
    let mut write_error = None;
    for line in std::io::BufReader::new(child.stdout.take().expect("piped")).lines() {
        let Ok(line) = line else { break };
        let Ok(answer) = serde_json::from_str::<Value>(&line) else { continue };
        let Some(id) = answer["id"].as_str().filter(|id| wanted.contains(id) && results.finished(id).is_none()) else { continue };
        let landing = ray.shared.as_deref().unwrap_or(&options.out);
        let record = match accept(&answer, id, landing, ray.shared.is_some(), job.retries) {
            Ok(record) => record,
            Err(problem) => Record::failed(id, "ray", json!({ "code": "RAY_ANSWER_REFUSED", "message": problem })),
        };
        nodes.insert(record.worker.clone());
        if let Err(e) = results.write(record.clone()) {
            write_error = Some(e);
            options.stop.store(true, Ordering::SeqCst);
            break;
        }
        on_event(&Event::Finished(Box::new(record)), results);
    }
    let status = child.wait();
    // The watcher ends when the driver has.
    let _ = watcher.join();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let ended = format!("the Ray driver ended ({})", status.map(|s| s.to_string()).unwrap_or_else(|e| e.to_string()));
    prepared.finish(job, options, nodes.len(), Vec::new(), Some(ended))
}

/// An item as the driver sends it; an eval task carries its node's whole job, a suite
/// of that one task.
fn node_item(job: &Job, item: &super::job::Item) -> Value {
    let Some(eval) = &job.eval else { return json!({ "id": item.id, "fields": item.fields }) };
    let index = job.items.iter().position(|i| i.id == item.id).expect("an item of the job");
    let mut node_job = json!({ "eval": { "version": 1, "tasks": [eval.raw_tasks[index]] }, "planner": eval.planner, "retries": job.retries });
    if let Some(app) = &job.app {
        node_job["app"] = json!(app);
    }
    json!({ "id": item.id, "fields": {}, "job": node_job })
}

fn drop_null_arguments(mut step: Value) -> Value {
    if step["arguments"].is_null() {
        step.as_object_mut().expect("an object").remove("arguments");
    }
    step
}

/// One answer from the driver, checked, its files written; the record to write.
/// `results` is where the files land: the results folder (bytes in the answer), or the
/// shared folder (the node wrote them; only names in the answer, each checked to be a
/// regular file there, never followed through a link).
fn accept(answer: &Value, id: &str, results: &Path, shared: bool, retries: u32) -> Result<Record, String> {
    if let Some(error) = answer.get("error") {
        return Ok(Record::failed(id, "ray", json!({ "code": error["code"], "message": error["message"] })));
    }
    let mut record: Record = serde_json::from_value(answer["record"].clone()).map_err(|e| format!("the node's record does not parse: {e}"))?;
    if record.id != id {
        return Err(format!("the node answered item {id} with the record of {:?}", record.id));
    }
    let prefix = format!("outputs/{id}/");
    let files = answer["files"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut total = 0u64;
    let mut decoded = Vec::with_capacity(files.len());
    for file in files {
        let path = file["path"].as_str().ok_or("a returned file has no path")?;
        let rest = path.strip_prefix(&prefix).ok_or_else(|| format!("{path:?} is not one of this item's outputs"))?;
        if rest.is_empty() || !rest.split('/').all(|part| super::job::is_item_id(part) || plain_name(part)) {
            return Err(format!("{path:?} is not a plain relative file name"));
        }
        if shared {
            let meta = std::fs::symlink_metadata(results.join(path)).map_err(|e| format!("{path} is not in the shared folder: {e}"))?;
            if !meta.is_file() {
                return Err(format!("{path} in the shared folder is not a regular file"));
            }
            decoded.push((path.to_string(), None));
            continue;
        }
        let bytes = base64::engine::general_purpose::STANDARD.decode(file["data"].as_str().unwrap_or_default()).map_err(|e| format!("{path}: {e}"))?;
        total += bytes.len() as u64;
        if total > crate::limits::HANDOVER_MAX_BYTES {
            return Err(format!("the item's files are larger than {} bytes", crate::limits::HANDOVER_MAX_BYTES));
        }
        decoded.push((path.to_string(), Some(bytes)));
    }
    for (path, bytes) in &decoded {
        if let Some(bytes) = bytes {
            crate::fsutil::write_private_atomic(&results.join(path), bytes).map_err(|e| format!("{path}: {e}"))?;
        }
    }
    // Outputs in the shared folder are named by their full path there.
    record.outputs = decoded.into_iter().map(|(p, _)| if shared { results.join(&p).to_string_lossy().into_owned() } else { p }).collect();
    record.outputs.sort();
    if let Some(out) = answer["out"].as_str() {
        let mut steps = Value::Array(std::mem::take(&mut record.steps));
        super::pool::rebase_paths(&mut steps, &Path::new(out).join("outputs").join(id), &results.join("outputs").join(id));
        record.steps = serde_json::from_value(steps).unwrap_or_default();
    }
    // Counts a node reports are bounded by what this batch allows (Ray's retries, and the
    // node's own retries of its app), never trusted to size anything.
    let attempt = answer["attempt"].as_u64().unwrap_or(0).min(u64::from(retries)) as u32;
    let mut lost: Vec<String> = (0..attempt).map(|n| format!("attempt {} on the cluster: its node or worker was lost; Ray ran the item again", n + 1)).collect();
    record.lost.truncate(retries as usize + 1);
    lost.append(&mut record.lost);
    record.lost = lost;
    record.attempts = record.attempts.clamp(1, retries + 1).saturating_add(attempt);
    let node: String = answer["node"].as_str().unwrap_or("?").chars().filter(char::is_ascii_alphanumeric).take(12).collect();
    record.worker = format!("ray:{node}");
    Ok(record)
}

/// A file or folder name a node may return: printable, no separators, not hidden.
fn plain_name(part: &str) -> bool {
    (1..=255).contains(&part.len()) && !part.starts_with('.') && part.chars().all(|c| c.is_alphanumeric() || " ._-+()".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(files: Value) -> Value {
        json!({ "id": "a", "node": "0123456789abcdef", "attempt": 1, "out": "/node/tmp/out",
            "record": { "id": "a", "status": "ok", "attempts": 1, "seconds": 1.0, "worker": "local-1",
                "steps": [{ "run": "scene.render", "result": { "file": "/node/tmp/out/outputs/a/a.png" } }], "outputs": ["outputs/a/a.png"] },
            "files": files })
    }

    #[test]
    fn a_good_answer_lands_with_its_attempts_and_paths() {
        let tmp = tempfile::tempdir().unwrap();
        let data = base64::engine::general_purpose::STANDARD.encode(b"\x89PNG");
        let record = accept(&answer(json!([{ "path": "outputs/a/a.png", "data": data }])), "a", tmp.path(), false, 2).unwrap();
        assert_eq!(std::fs::read(tmp.path().join("outputs/a/a.png")).unwrap(), b"\x89PNG");
        assert_eq!(record.attempts, 2);
        assert_eq!(record.lost.len(), 1);
        assert_eq!(record.worker, "ray:0123456789ab");
        assert_eq!(record.steps[0]["result"]["file"], tmp.path().join("outputs/a/a.png").to_string_lossy().as_ref());
    }

    #[test]
    fn outputs_in_a_shared_folder_are_named_not_carried_and_must_be_files_there() {
        let shared = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(shared.path().join("outputs/a")).unwrap();
        std::fs::write(shared.path().join("outputs/a/a.png"), b"\x89PNG").unwrap();
        let record = accept(&answer(json!([{ "path": "outputs/a/a.png" }])), "a", shared.path(), true, 2).unwrap();
        assert_eq!(record.outputs, vec![shared.path().join("outputs/a/a.png").to_string_lossy().into_owned()]);
        assert!(accept(&answer(json!([{ "path": "outputs/a/missing.png" }])), "a", shared.path(), true, 2).unwrap_err().contains("not in the shared folder"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/passwd", shared.path().join("outputs/a/link.png")).unwrap();
            assert!(accept(&answer(json!([{ "path": "outputs/a/link.png" }])), "a", shared.path(), true, 2).unwrap_err().contains("not a regular file"));
        }
    }

    #[test]
    fn a_node_cannot_write_outside_the_items_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let data = base64::engine::general_purpose::STANDARD.encode(b"x");
        for path in ["outputs/b/x.png", "outputs/a/../../x", "/etc/x", "outputs/a/.hidden", "outputs/a/", "items/a.json"] {
            let err = accept(&answer(json!([{ "path": path, "data": data }])), "a", tmp.path(), false, 2).unwrap_err();
            assert!(err.contains(path.trim_end_matches('/')) || err.contains("plain"), "{path}: {err}");
        }
        let mut other = answer(json!([]));
        other["record"]["id"] = json!("b");
        assert!(accept(&other, "a", tmp.path(), false, 2).is_err());
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0, "nothing written");
    }
}
