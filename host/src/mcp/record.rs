//! `capstan serve --record FILE`: what crosses the MCP boundary, one JSON line per
//! `tools/list` and `tools/call` this server answers. `capstan eval --agent` reads it
//! to measure an external agent by what it cost (calls per tool, bytes both ways,
//! errors by code, time) and to judge what it changed (each call's scene delta).
//!
//! Bytes are the JSON of the request's params (`name` and `arguments`) and of the whole
//! result as the client receives it: what an LLM reads and writes, the token cost.
//!
//! Security reasoning: a line holds sizes, the tool's name and the canonical key of the
//! capability a call ran, each only when the server knows it ([`UNKNOWN`] otherwise, so
//! no string the client made up is written), the error code, and the scene delta the
//! answer already carried to the client; never the arguments or any answer text, so a
//! record holds no secret the client sent. The bridge token is never part of an answer.
//! The file is opened once, for appending, where the operator said, and only when it
//! is a regular file (a FIFO would block the server before it reads a request); a line
//! is written whole under a lock, so concurrent requests never interleave.

use rmcp::model::{CallToolRequestParams, CallToolResponse, ListToolsResult};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// Names longer than this are cut in a record.
pub const MAX_NAME_CHARS: usize = 128;
/// What a record says for a tool or capability name the server does not know.
pub const UNKNOWN: &str = "<unknown>";

/// One request the server answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// `tools/list` or `tools/call`.
    pub method: String,
    /// The tool called.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The capability the call ran (named by `execute_capability`'s `key`, an expert
    /// tool, or a planner step's resolved capability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability: Option<String>,
    pub bytes_in: usize,
    pub bytes_out: usize,
    /// The answer is a tool error (or the request a protocol error).
    #[serde(default)]
    pub is_error: bool,
    /// The error's code (`INVALID_CAPABILITY_ARGUMENTS`, `APP_REFUSED`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    pub ms: f64,
    /// The scene delta the answer carried (a capability that ran and changed the scene).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<Value>,
}

/// Where the lines go.
pub struct Recorder {
    file: Mutex<std::fs::File>,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot record to {path}: {source}")]
pub struct RecordError {
    path: String,
    source: std::io::Error,
}

impl Recorder {
    /// Append to `path` (created if missing).
    pub fn open(path: &Path) -> Result<Self, RecordError> {
        use std::os::unix::fs::OpenOptionsExt as _;
        let fail = |source| RecordError { path: path.display().to_string(), source };
        // Non-blocking, so opening a FIFO returns at once; then only a regular file is kept.
        let file = std::fs::OpenOptions::new().create(true).append(true).custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW).open(path).map_err(fail)?;
        if !file.metadata().map_err(fail)?.is_file() {
            return Err(fail(std::io::Error::other("not a regular file")));
        }
        Ok(Recorder { file: Mutex::new(file) })
    }

    pub fn list(&self, result: &ListToolsResult, took: Duration) {
        let bytes_out = serde_json::to_vec(result).map_or(0, |b| b.len());
        self.write(&Entry { method: "tools/list".into(), tool: None, capability: None, bytes_in: 0, bytes_out, is_error: false, code: None, ms: millis(took), delta: None });
    }

    /// A `tools/call`: `capability` as the surface knows it before running (None: read
    /// from the answer, a planner step's resolved capability).
    pub fn call(&self, request: &CallToolRequestParams, tool: &str, capability: Option<String>, answer: Result<&CallToolResponse, &rmcp::ErrorData>, took: Duration) {
        let bytes_in = serde_json::to_vec(request).map_or(0, |b| b.len());
        let mut entry = Entry { method: "tools/call".into(), tool: Some(cut(tool)), capability: capability.map(|c| cut(&c)), bytes_in, bytes_out: 0, is_error: false, code: None, ms: millis(took), delta: None };
        match answer {
            Ok(response) => {
                let sent = as_json(response);
                entry.bytes_out = sent.to_string().len();
                let doc = document(&sent);
                let error = doc.as_ref().and_then(|d| d.get("error"));
                entry.is_error = sent["isError"] == Value::Bool(true) || error.is_some();
                entry.code = error.and_then(|e| e["code"].as_str()).map(cut);
                entry.delta = doc.as_ref().and_then(|d| d.get("delta").or_else(|| d["error"].get("delta"))).filter(|d| !d.is_null()).cloned();
                if entry.capability.is_none() {
                    entry.capability = doc.as_ref().and_then(|d| d["resolved"]["capability"].as_str()).map(cut);
                }
            }
            Err(e) => {
                entry.bytes_out = serde_json::to_vec(e).map_or(0, |b| b.len());
                entry.is_error = true;
                entry.code = Some(format!("JSONRPC_{}", e.code.0));
            }
        }
        self.write(&entry);
    }

    fn write(&self, entry: &Entry) {
        let mut line = serde_json::to_vec(entry).expect("entries serialise");
        line.push(b'\n');
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = file.write_all(&line) {
            tracing::warn!("the MCP record could not be written: {e}");
        }
    }
}

/// Read a record file back (a line that does not parse is an error naming it).
pub fn read(path: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the MCP record {}: {e}", path.display()))?;
    text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("the MCP record's line {} is not an entry: {e}", i + 1))).collect()
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn cut(s: &str) -> String {
    s.chars().take(MAX_NAME_CHARS).collect()
}

/// The response as the client receives it (JSON).
fn as_json(response: &CallToolResponse) -> Value {
    let v = match response {
        CallToolResponse::Complete(r) => serde_json::to_value(r),
        CallToolResponse::InputRequired(r) => serde_json::to_value(r),
        CallToolResponse::Task(r) => serde_json::to_value(r),
        // A form a later rmcp adds: counted as nothing rather than guessed.
        _ => Ok(Value::Null),
    };
    v.unwrap_or(Value::Null)
}

/// The answer's JSON document: its structured content, or its first text block when
/// that is JSON (an expert tool's declared output carries only the result structured).
fn document(v: &Value) -> Option<Value> {
    let from_text = || v["content"].as_array()?.iter().find_map(|c| c["text"].as_str().and_then(|t| serde_json::from_str::<Value>(t).ok()));
    match v.get("structuredContent") {
        Some(s) if s.get("delta").is_some() || s.get("error").is_some() || s.get("resolved").is_some() => Some(s.clone()),
        _ => from_text().or_else(|| v.get("structuredContent").cloned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::results::{error_result, ok_result};
    use serde_json::json;

    fn request(name: &str, args: Value) -> CallToolRequestParams {
        serde_json::from_value(json!({ "name": name, "arguments": args })).unwrap()
    }

    fn recorded(f: impl FnOnce(&Recorder)) -> Vec<Entry> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        f(&Recorder::open(&path).unwrap());
        read(&path).unwrap()
    }

    #[test]
    fn a_call_records_sizes_code_and_delta_never_arguments() {
        let req = request("execute_capability", json!({ "key": "scene.create_object", "arguments": { "type": "cube", "name": "SecretName" } }));
        let ok = CallToolResponse::from(ok_result(json!({ "result": { "name": "SecretName" }, "delta": { "objects": { "added": ["SecretName"] } } })));
        let refused = CallToolResponse::from(error_result(json!({ "code": "INVALID_CAPABILITY_ARGUMENTS", "message": "no" })));
        let entries = recorded(|r| {
            r.call(&req, "execute_capability", Some("scene.create_object".into()), Ok(&ok), Duration::from_millis(3));
            r.call(&req, "execute_capability", Some("scene.create_object".into()), Ok(&refused), Duration::from_millis(1));
        });
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].capability.as_deref(), Some("scene.create_object"));
        assert!(!entries[0].is_error && entries[0].code.is_none());
        assert_eq!(entries[0].delta.as_ref().unwrap()["objects"]["added"][0], "SecretName");
        assert_eq!(entries[0].bytes_in, serde_json::to_vec(&req).unwrap().len());
        assert_eq!(entries[0].bytes_out, as_json(&ok).to_string().len());
        assert!(entries[1].is_error);
        assert_eq!(entries[1].code.as_deref(), Some("INVALID_CAPABILITY_ARGUMENTS"));
        // The delta is what the client saw; the arguments themselves are never written.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        Recorder::open(&path).unwrap().call(&req, "execute_capability", None, Ok(&refused), Duration::ZERO);
        assert!(!std::fs::read_to_string(&path).unwrap().contains("SecretName"));
    }

    #[test]
    fn a_planner_step_names_its_resolved_capability_and_a_protocol_error_its_code() {
        let req = request("planner_act", json!({ "step_id": "s1" }));
        let done = CallToolResponse::from(ok_result(json!({ "step_id": "s1", "status": "done", "resolved": { "capability": "scene.create_object" }, "delta": null })));
        let entries = recorded(|r| {
            r.call(&req, "planner_act", None, Ok(&done), Duration::ZERO);
            r.call(&request("nope", json!({})), UNKNOWN, None, Err(&rmcp::ErrorData::invalid_params("no tool", None)), Duration::ZERO);
        });
        assert_eq!(entries[0].capability.as_deref(), Some("scene.create_object"));
        assert_eq!(entries[0].delta, None);
        assert!(entries[1].is_error);
        assert_eq!(entries[1].code.as_deref(), Some("JSONRPC_-32602"));
    }

    #[test]
    fn only_a_regular_file_records() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(Recorder::open(&fifo).is_err(), "a FIFO is refused at once, not waited on");
        assert!(Recorder::open(dir.path()).is_err());
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), dir.path().join("link")).unwrap();
        assert!(Recorder::open(&dir.path().join("link")).is_err(), "a symbolic link is not followed");
    }

    #[test]
    fn a_record_line_that_is_not_an_entry_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, "{\"method\":\"tools/list\",\"bytes_in\":0,\"bytes_out\":5,\"ms\":1.0}\nnot json\n").unwrap();
        assert!(read(&path).unwrap_err().contains("line 2"));
    }
}
