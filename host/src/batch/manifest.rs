//! The batch's results folder: one record per finished item, written atomically as the
//! item finishes, and a manifest that sums them up.
//!
//! ```text
//! RESULTS/
//!   batch.json          the job's path and fingerprint (what --resume checks)
//!   manifest.json       every item: status, attempts, seconds, outputs, error
//!   items/<id>.json     one item's whole record: each step's result and delta
//!   outputs/<id>/...    the files the item made
//! ```
//!
//! Nothing is lost when a worker or capstan itself dies: a record is the last thing
//! written for its item (after its outputs), through a temporary file renamed into
//! place, so a record on disk always describes a finished item whose files are there.
//! The manifest is rewritten the same way (at most once a second while records arrive,
//! and at the end), and rebuilt from the records on `--resume`, so a manifest older
//! than the records never hides one.

use super::job::Job;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    Failed,
}

/// One finished item.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub id: String,
    pub status: Status,
    /// How many times the item was started (a lost worker's attempt counts).
    pub attempts: u32,
    /// The seconds of the attempt that finished.
    pub seconds: f64,
    /// Which worker finished it.
    pub worker: String,
    /// Each step run: `{run, result, delta}` or `{run, error}`.
    pub steps: Vec<Value>,
    /// Files the item made, relative to the results folder.
    pub outputs: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_outputs: Vec<String>,
    /// Why the item failed: `{code, message}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    /// Why earlier attempts were lost (a worker that died, an app that stopped answering).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<String>,
}

impl Record {
    /// An item that failed before it made anything: no steps, no outputs, one attempt.
    pub fn failed(id: &str, worker: &str, error: Value) -> Record {
        Record { id: id.into(), status: Status::Failed, attempts: 1, seconds: 0.0, worker: worker.into(), steps: vec![], outputs: vec![], skipped_outputs: vec![], error: Some(error), lost: vec![] }
    }

    /// An attempt that ran: its steps, what it made, and its error if a step failed (the
    /// pool fills in the attempts, seconds and lost attempts).
    pub fn ran(id: &str, worker: &str, steps: Vec<Value>, collected: super::outputs::Collected, error: Option<Value>) -> Record {
        let status = if error.is_some() { Status::Failed } else { Status::Ok };
        Record { id: id.into(), status, attempts: 0, seconds: 0.0, worker: worker.into(), steps, outputs: collected.files, skipped_outputs: collected.skipped, error, lost: vec![] }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    #[error("{path} holds the results of a batch already: pass --resume to go on with it, or another --out")]
    Exists { path: PathBuf },
    #[error("{path} holds the results of another job (its fingerprint differs): resume only the job that made them")]
    OtherJob { path: PathBuf },
    #[error("{path}: {detail}")]
    Io { path: PathBuf, detail: String },
}

/// The open results folder.
pub struct Results {
    pub dir: PathBuf,
    job_path: PathBuf,
    fingerprint: String,
    records: BTreeMap<String, Record>,
    order: Vec<String>,
    /// When the manifest was last written: it is rewritten at most once a second while
    /// records arrive (each record is written at once; the manifest sums them up, and
    /// is rebuilt from them on --resume), and always at the end.
    manifest_written: Option<std::time::Instant>,
}

impl Results {
    /// Open (or make) `dir` for `job`. With `resume`, the records already there are kept
    /// (and must be this job's); without it, a folder holding records is refused.
    pub fn open(dir: &Path, job: &Job, resume: bool) -> Result<Results, ResultsError> {
        let io = |path: &Path, e: std::io::Error| ResultsError::Io { path: path.to_path_buf(), detail: e.to_string() };
        crate::fsutil::create_private_dir(&dir.join("items")).map_err(|e| io(dir, e))?;
        let marker = dir.join("batch.json");
        match std::fs::read(&marker) {
            Ok(bytes) => {
                let doc: Value = serde_json::from_slice(&bytes).map_err(|e| ResultsError::Io { path: marker.clone(), detail: format!("not the record of a batch ({e}); move the folder aside or use another --out") })?;
                if !resume {
                    return Err(ResultsError::Exists { path: dir.to_path_buf() });
                }
                if doc["fingerprint"] != job.fingerprint.as_str() {
                    return Err(ResultsError::OtherJob { path: dir.to_path_buf() });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let doc = serde_json::json!({ "job": job.path, "fingerprint": job.fingerprint });
                crate::fsutil::write_private_atomic(&marker, doc.to_string().as_bytes()).map_err(|e| io(&marker, e))?;
            }
            Err(e) => return Err(io(&marker, e)),
        }
        let mut records = BTreeMap::new();
        if resume {
            for item in &job.items {
                let path = dir.join("items").join(format!("{}.json", item.id));
                if let Ok(bytes) = std::fs::read(&path) {
                    // A record that does not parse was never written whole: the item runs again.
                    if let Ok(record) = serde_json::from_slice::<Record>(&bytes) {
                        records.insert(item.id.clone(), record);
                    }
                }
            }
        }
        let order = job.items.iter().map(|i| i.id.clone()).collect();
        Ok(Results { dir: dir.to_path_buf(), job_path: job.path.clone(), fingerprint: job.fingerprint.clone(), records, order, manifest_written: None })
    }

    /// The record of item `id`, when it finished before.
    pub fn finished(&self, id: &str) -> Option<&Record> {
        self.records.get(id)
    }

    /// Forget a failed item's record so it runs again (`--retry-failed`).
    pub fn reopen_failed(&mut self) -> usize {
        let before = self.records.len();
        self.records.retain(|_, r| r.status == Status::Ok);
        before - self.records.len()
    }

    /// Write one finished item's record, then (at most once a second, and for the last
    /// item) the manifest.
    pub fn write(&mut self, record: Record) -> Result<(), ResultsError> {
        let path = self.dir.join("items").join(format!("{}.json", record.id));
        let bytes = serde_json::to_vec_pretty(&record).expect("a record serialises");
        crate::fsutil::write_private_atomic(&path, &bytes).map_err(|e| ResultsError::Io { path: path.clone(), detail: e.to_string() })?;
        self.records.insert(record.id.clone(), record);
        let due = self.manifest_written.is_none_or(|t| t.elapsed() >= std::time::Duration::from_secs(1));
        if due || self.counts().2 == 0 {
            self.write_manifest(false)?;
        }
        Ok(())
    }

    /// Counts: (ok, failed, pending).
    pub fn counts(&self) -> (usize, usize, usize) {
        let ok = self.records.values().filter(|r| r.status == Status::Ok).count();
        let failed = self.records.len() - ok;
        (ok, failed, self.order.len() - self.records.len())
    }

    /// Rewrite `manifest.json` from the records (`interrupted`: the batch was stopped).
    pub fn write_manifest(&mut self, interrupted: bool) -> Result<(), ResultsError> {
        self.manifest_written = Some(std::time::Instant::now());
        let (ok, failed, pending) = self.counts();
        let items: Vec<Value> = self
            .order
            .iter()
            .map(|id| match self.records.get(id) {
                Some(r) => serde_json::json!({ "id": id, "status": r.status, "attempts": r.attempts, "seconds": r.seconds, "worker": r.worker, "outputs": r.outputs, "error": r.error }),
                None => serde_json::json!({ "id": id, "status": "pending" }),
            })
            .collect();
        let mut doc = serde_json::json!({
            "job": self.job_path, "fingerprint": self.fingerprint,
            "total": self.order.len(), "ok": ok, "failed": failed, "pending": pending,
            "complete": pending == 0, "interrupted": interrupted, "items": items,
        });
        // An eval job: its tasks' verdicts, counted from their reports.
        let verdicts: Vec<&str> = self.records.values().filter(|r| r.steps.first().is_some_and(|s| s["run"] == "eval")).filter_map(|r| r.steps[0]["result"]["status"].as_str()).collect();
        if !verdicts.is_empty() {
            let count = |v: &str| verdicts.iter().filter(|x| **x == v).count();
            doc["eval"] = serde_json::json!({ "passed": count("passed"), "failed": count("failed"), "error": count("error") });
        }
        let path = self.dir.join("manifest.json");
        crate::fsutil::write_private_atomic(&path, &serde_json::to_vec_pretty(&doc).expect("a manifest serialises")).map_err(|e| ResultsError::Io { path, detail: e.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(dir: &Path, n: usize) -> Job {
        let items: Vec<Value> = (0..n).map(|i| serde_json::json!({ "n": i })).collect();
        let path = dir.join("job.json");
        std::fs::write(&path, serde_json::json!({ "run": "a.b", "items": items }).to_string()).unwrap();
        Job::load(&path).unwrap()
    }

    fn record(id: &str, status: Status) -> Record {
        Record { status, seconds: 0.5, error: None, ..Record::failed(id, "local-1", Value::Null) }
    }

    #[test]
    fn resume_keeps_finished_items_and_refuses_another_job() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let j = job(tmp.path(), 3);
        let mut results = Results::open(&out, &j, false).unwrap();
        results.write(record("0001", Status::Ok)).unwrap();
        results.write(record("0002", Status::Failed)).unwrap();
        // Within a second of the last: the manifest waits (each record is on disk already).
        let early: Value = serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(early["failed"].as_u64(), Some(0));
        results.write_manifest(false).unwrap();
        let manifest: Value = serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
        assert_eq!((manifest["ok"].as_u64(), manifest["failed"].as_u64(), manifest["pending"].as_u64()), (Some(1), Some(1), Some(1)));
        assert_eq!(manifest["items"][2]["status"], "pending");
        assert!(matches!(Results::open(&out, &j, false), Err(ResultsError::Exists { .. })));
        std::fs::write(out.join("items/0003.json"), b"{\"id\": \"00").unwrap();
        let mut again = Results::open(&out, &j, true).unwrap();
        assert!(again.finished("0001").is_some() && again.finished("0002").is_some() && again.finished("0003").is_none());
        assert_eq!(again.reopen_failed(), 1);
        assert_eq!(again.counts(), (1, 0, 2));
        let other = job(&tmp.path().join("x").tap_mkdir(), 4);
        assert!(matches!(Results::open(&out, &other, true), Err(ResultsError::OtherJob { .. })));
    }

    trait TapMkdir {
        fn tap_mkdir(self) -> PathBuf;
    }
    impl TapMkdir for PathBuf {
        fn tap_mkdir(self) -> PathBuf {
            std::fs::create_dir_all(&self).unwrap();
            self
        }
    }
}
