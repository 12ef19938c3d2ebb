//! `execute_python`, the expert surface's one way to send a script to an app: the app
//! unit that declares an exec command (`HostCommands::exec`) receives it.
//!
//! Security reasoning, in the order a call meets it:
//! - Off unless the operator set `CAPSTAN_ALLOW_EXEC=1` for this server process, and
//!   only on the expert surface: anywhere else the answer is `EXEC_DISABLED` and
//!   nothing else happens.
//! - Every script passes the sandboxed checker component first (`checker/`); a
//!   rejection is `CODE_REJECTED` with the findings, and the bridge is never contacted.
//! - The script goes to the bridge as the host-only `execute_python` command (no pack
//!   may send it: load and gate refuse), attested: an HMAC-SHA256 over the script, the
//!   checker's sha256 and a fresh nonce, keyed by the `exec_key` the bridge publishes in
//!   its runtime file. The key is read here and nowhere else (packs, whose bridge calls
//!   carry the bearer token, never see it), and only after the checker accepted the
//!   script, so the add-on runs nothing this function did not check. The add-on checks
//!   the MAC, refuses a replayed nonce and its own setting, and runs the script
//!   contained (runtime guard, deadline, memory cap): a script's deadline or memory cap
//!   comes back as `PACK_FAULT` naming the limit.
//! - `CAPSTAN_TEST_UNCHECKED_PYTHON=1` sends scripts the checker rejected, so tests
//!   can prove the add-on's containment on its own. Debug builds only: a release build
//!   ignores it.

use super::Core;
use super::results::{error_result, ok_result};
use crate::bridge::{BridgeClient, BridgeFailure, BridgeRequest};
use crate::checker::CheckerPolicy;
use rmcp::model::{CallToolResult, Tool};
use serde_json::{Map, Value, json};
use std::sync::Arc;

pub const TOOL: &str = "execute_python";
pub const ALLOW_ENV: &str = "CAPSTAN_ALLOW_EXEC";

/// The app unit that runs scripts, and its exec command (the first registered unit
/// that has one); None when no registered app runs scripts.
pub fn exec_unit() -> Option<(&'static dyn crate::app_unit::AppUnit, crate::app_unit::ExecCommand)> {
    crate::app_units::all().iter().find_map(|u| u.host_commands().exec.map(|exec| (*u, exec)))
}

pub const TEST_UNCHECKED_ENV: &str = "CAPSTAN_TEST_UNCHECKED_PYTHON";
/// What the MAC covers, after this prefix: checker digest, nonce, script (the add-on's
/// `containment/attestation.py` builds the same message).
const MAC_DOMAIN: &[u8] = b"capstan-execute-python/1\n";

pub fn enabled() -> bool {
    std::env::var(ALLOW_ENV).is_ok_and(|v| v == "1")
}

/// The test-only switch that lets rejected scripts through (debug builds only).
pub fn checker_bypassed_for_tests() -> bool {
    cfg!(debug_assertions) && std::env::var(TEST_UNCHECKED_ENV).is_ok_and(|v| v == "1")
}

/// `checked` for the bridge: digests, a fresh nonce and the HMAC over them.
pub fn attestation(key_hex: &str, checker_sha: &str, code: &str) -> Result<Value, String> {
    use hmac::{Hmac, Mac};
    let key = hex::decode(key_hex).map_err(|_| "the bridge's exec_key is not hex".to_string())?;
    let mut nonce = [0u8; 16];
    getrandom::fill(&mut nonce).map_err(|e| format!("no randomness for a nonce: {e}"))?;
    let nonce = hex::encode(nonce);
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&key).map_err(|e| e.to_string())?;
    for part in [MAC_DOMAIN, checker_sha.as_bytes(), b"\n", nonce.as_bytes(), b"\n", code.as_bytes()] {
        mac.update(part);
    }
    let mac = hex::encode(mac.finalize().into_bytes());
    Ok(json!({ "checker": checker_sha, "sha256": crate::fsutil::sha256_hex(code.as_bytes()), "nonce": nonce, "mac": mac }))
}

/// The bridge's attestation key, from the runtime file the client will use.
fn exec_key(app: &str, ep: &crate::bridge::endpoint::Endpoint) -> Result<crate::redact::Secret, String> {
    ep.exec_key.clone().ok_or_else(|| format!("{app}'s bridge publishes no exec_key in its runtime file (an older add-on): update and restart the add-on"))
}

/// Why scripts may not run in this app instance: the OS layer (DESIGN §3a) is not complete,
/// and the operator did not accept running without it. None when it may run.
///
/// Security reasoning: the checker and the add-on's guard explain refusals, but only the
/// kernel's wall holds against what a script reaches through the app's own native code.
/// An app capstan launched records its layers in the runtime file (written by capstan, outside
/// the app's reach); an app started by hand has no such record and is unconfined.
pub fn unconfined_refusal(server: &str, ep: &crate::bridge::endpoint::Endpoint) -> Option<String> {
    use crate::containment::{ALLOW_UNCONFINED_EXEC_ENV, Layers};
    let layers = ep.containment.clone().unwrap_or_else(Layers::unconfined);
    if layers.os_layer_complete() || std::env::var(ALLOW_UNCONFINED_EXEC_ENV).is_ok_and(|v| v == "1") {
        return None;
    }
    let app = crate::app_units::display_name(server);
    let why = if ep.containment.is_none() { vec![format!("this {app} was not launched by capstan, so nothing confines it")] } else { layers.missing() };
    let launch = crate::app_units::by_server(server).and_then(|u| u.user_commands().launch).map(|c| format!(" with `{c}`")).unwrap_or_default();
    Some(format!(
        "execute_python needs the OS containment layer, and {}; launch {app}{launch} on Linux with Landlock, or accept running scripts without the OS layer by starting `capstan serve` with {ALLOW_UNCONFINED_EXEC_ENV}=1",
        why.join("; ")
    ))
}

/// The tool, for the unit that runs scripts.
pub fn tool(unit: &dyn crate::app_unit::AppUnit, exec: crate::app_unit::ExecCommand) -> Tool {
    let app = unit.display_name();
    let schema = json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["code"],
        "properties": { "code": { "type": "string", "minLength": 1, "maxLength": crate::limits::MAX_PYTHON_SOURCE_BYTES,
            "description": format!("A Python script for {app}. It is checked first ({}). Set a variable named `result` to return a value; print() output is returned too.", exec.script_rules) } }
    });
    let Value::Object(schema) = schema else { unreachable!() };
    Tool::new(TOOL, format!("Run a checked Python script in {app} (expert only; rejected scripts never reach {app})."), Arc::new(schema))
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
    let Some((unit, exec)) = exec_unit() else {
        return disabled("no application capstan carries runs scripts");
    };
    let (server, command, app) = (unit.server(), exec.command, unit.display_name());
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
    if !verdict.allowed && checker_bypassed_for_tests() {
        tracing::warn!(findings = verdict.findings.len(), "{TEST_UNCHECKED_ENV}=1: sending a script the checker rejected (test builds only)");
    } else if !verdict.allowed {
        return error_result(json!({ "code": "CODE_REJECTED", "message": format!("the script was rejected ({} finding(s)); it was not sent to {app}", verdict.findings.len()), "findings": verdict.findings }));
    }
    // The same gate as a capability's: the app is available and its bridge serves the
    // exec command (an older add-on without it is `addon_outdated`, not a bridge error).
    if let Err(body) = core.gate.admit_command("execute_python", server, command) {
        return error_result(body);
    }
    let Some(spec) = core.runtime.bridge_command(server, command) else {
        return error_result(json!({ "code": "BRIDGE_ERROR", "message": format!("this capstan's {app} catalog has no {command} command") }));
    };
    let timeout = spec.timeout;
    let declared = spec.errors.clone();
    let endpoint = core.client().liveness(server).ok_or_else(|| format!("capstan does not know how to reach {server}")).and_then(|live| crate::bridge::endpoint::read(&live.runtime_file).map_err(|e| e.to_string()));
    if let Some(why) = endpoint.as_ref().ok().and_then(|ep| unconfined_refusal(server, ep)) {
        return disabled(&why);
    }
    let checked = match endpoint.and_then(|ep| exec_key(app, &ep)).and_then(|key| attestation(key.expose(), &checker_sha, &code)) {
        Ok(checked) => checked,
        Err(detail) => return error_result(json!({ "code": "BRIDGE_ERROR", "message": crate::redact::redact(&format!("cannot attest the script for {app}: {detail}")) })),
    };
    let params = json!({ "code": code, "checked": checked });
    let sending = core.clone();
    let answer = tokio::task::spawn_blocking(move || {
        sending.client().call(BridgeRequest { server, command, params: &params, timeout })
    })
    .await;
    match answer {
        Ok(Ok(result)) => ok_result(json!({ "result": result })),
        Ok(Err(BridgeFailure::App { code, message, .. })) if code == "exec_disabled" => disabled(&format!("{app}'s bridge refuses scripts: {message}")),
        Ok(Err(BridgeFailure::App { code, message, .. })) if script_limit(&code).is_some() => {
            error_result(json!({ "code": "PACK_FAULT", "message": message, "limit": script_limit(&code), "app_code": code }))
        }
        Ok(Err(BridgeFailure::App { code, message, .. })) => {
            // A condition the exec command declares (the script raised, the guard refused)
            // is the app's refusal; anything else is a failure nobody foresaw.
            let mcp_code = if declared.contains(&code) { "APP_REFUSED" } else { "BRIDGE_ERROR" };
            error_result(json!({ "code": mcp_code, "message": message, "app_code": code }))
        }
        Ok(Err(BridgeFailure::Unavailable { server, state, detail, .. })) => {
            core.gate.availability.invalidate();
            error_result(json!({ "code": "APP_UNAVAILABLE", "message": format!("{server} is unavailable ({state}): {detail}") }))
        }
        Ok(Err(e @ BridgeFailure::Transport { .. })) => error_result(json!({ "code": "BRIDGE_ERROR", "message": e.to_string() })),
        Err(_) => error_result(json!({ "code": "INTERNAL_ERROR", "message": "the bridge call's thread ended abnormally" })),
    }
}

/// The limit a contained script's end names (`PACK_FAULT`), by the add-on's error code.
fn script_limit(app_code: &str) -> Option<&'static str> {
    match app_code {
        "script_timeout" => Some("script_timeout_s"),
        "script_memory_limit" => Some("script_memory_mib"),
        _ => None,
    }
}
