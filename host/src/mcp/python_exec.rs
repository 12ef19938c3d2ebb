//! `execute_python`, the expert surface's one way to send Python to Blender.
//!
//! Security reasoning, in the order a call meets it:
//! - Off unless the operator set `CAPSTAN_ALLOW_EXEC=1` for this server process, and
//!   only on the expert surface: anywhere else the answer is `EXEC_DISABLED` and
//!   nothing else happens.
//! - Every script passes the sandboxed checker component first (`checker/`); a
//!   rejection is `CODE_REJECTED` with the findings, and the bridge is never contacted.
//! - The script goes to the bridge as the host-only `execute_python` command (no pack
//!   may send it: load and gate refuse), carrying the checker's sha256 and the
//!   script's; the add-on re-checks the digest, its own setting, and runs the script in
//!   a restricted namespace.

use super::handler::{Core, error_result, ok_result};
use crate::bridge::{BridgeClient, BridgeFailure, BridgeRequest};
use crate::checker::CheckerPolicy;
use rmcp::model::{CallToolResult, Tool};
use serde_json::{Map, Value, json};
use std::sync::Arc;

pub const TOOL: &str = "execute_python";
pub const ALLOW_ENV: &str = "CAPSTAN_ALLOW_EXEC";
const SERVER: &str = "blender";
const COMMAND: &str = "execute_python";

pub fn enabled() -> bool {
    std::env::var(ALLOW_ENV).is_ok_and(|v| v == "1")
}

pub fn tool() -> Tool {
    let schema = json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["code"],
        "properties": { "code": { "type": "string", "minLength": 1, "maxLength": crate::limits::MAX_PYTHON_SOURCE_BYTES,
            "description": "A Python script for Blender. It is checked first (imports of bpy, bmesh, mathutils and pure helpers only; no files, eval/exec, dunders, handlers or wm operators). Set a variable named `result` to return a value; print() output is returned too." } }
    });
    let Value::Object(schema) = schema else { unreachable!() };
    Tool::new(TOOL, "Run a checked Python script in Blender (expert only; rejected scripts never reach Blender).", Arc::new(schema))
}

pub fn disabled(why: &str) -> CallToolResult {
    error_result(json!({ "code": "EXEC_DISABLED", "message": why }))
}

pub async fn execute(core: Arc<Core>, args: &Map<String, Value>) -> CallToolResult {
    if !enabled() {
        return disabled(&format!("execute_python is disabled; the operator enables it by starting `capstan serve --expert` with {ALLOW_ENV}=1"));
    }
    let Some(code) = args.get("code").and_then(Value::as_str).map(String::from) else {
        return error_result(json!({ "code": "INVALID_TOOL_ARGUMENTS", "message": "code must be a string" }));
    };
    if let Some(extra) = args.keys().find(|k| *k != "code") {
        return error_result(json!({ "code": "INVALID_TOOL_ARGUMENTS", "message": format!("unknown argument {extra:?}") }));
    }
    let checking = core.clone();
    let checked = tokio::task::spawn_blocking(move || {
        let outcome = checking.runtime.python_checker().map(|c| (c.check(checking.runtime.sandbox(), &code, &CheckerPolicy::default()), c.sha256().to_string()));
        (code, outcome)
    })
    .await;
    let (code, verdict, checker_sha) = match checked {
        Ok((code, Ok((verdict, sha)))) => (code, verdict, sha),
        Ok((_, Err(e))) => return error_result(json!({ "code": "CODE_REJECTED", "message": format!("the checker is unavailable, so nothing runs: {e}"), "findings": [] })),
        Err(_) => return error_result(json!({ "code": "INTERNAL_ERROR", "message": "the checker's thread ended abnormally" })),
    };
    if !verdict.allowed {
        return error_result(json!({ "code": "CODE_REJECTED", "message": format!("the script was rejected ({} finding(s)); it was not sent to Blender", verdict.findings.len()), "findings": verdict.findings }));
    }
    if let Some(super::availability::ServerStatus::Unavailable(state)) = core.availability.status(&core.client, SERVER) {
        return error_result(json!({ "code": "APP_UNAVAILABLE", "message": format!("execute_python needs {SERVER}, which is unavailable ({})", state.detail), "availability": state }));
    }
    let Some(spec) = core.runtime.bridge_command(SERVER, COMMAND) else {
        return error_result(json!({ "code": "BRIDGE_ERROR", "message": "this capstan's Blender catalog has no execute_python command" }));
    };
    let timeout = spec.timeout;
    let script_sha = crate::fsutil::sha256_hex(code.as_bytes());
    let params = json!({ "code": code, "checked": { "checker": checker_sha, "sha256": script_sha } });
    let sending = core.clone();
    let answer = tokio::task::spawn_blocking(move || {
        sending.client.call(BridgeRequest { server: SERVER, command: COMMAND, params: &params, timeout })
    })
    .await;
    match answer {
        Ok(Ok(result)) => ok_result(json!({ "result": result })),
        Ok(Err(BridgeFailure::App { code, message, .. })) if code == "exec_disabled" => disabled(&format!("Blender's bridge refuses Python: {message}")),
        Ok(Err(BridgeFailure::App { code, message, .. })) => error_result(json!({ "code": "BRIDGE_ERROR", "message": message, "app_code": code })),
        Ok(Err(BridgeFailure::Unavailable { server, state, detail, .. })) => {
            core.availability.invalidate();
            error_result(json!({ "code": "APP_UNAVAILABLE", "message": format!("{server} is unavailable ({state}): {detail}") }))
        }
        Ok(Err(e @ BridgeFailure::Transport { .. })) => error_result(json!({ "code": "BRIDGE_ERROR", "message": e.to_string() })),
        Err(_) => error_result(json!({ "code": "INTERNAL_ERROR", "message": "the bridge call's thread ended abnormally" })),
    }
}
