//! The structured form of call outcomes, shared by the CLI and the MCP surfaces:
//! `{"error": {"code", "message", ...}}` with the codes of the MCP contract.

use crate::runtime::{CallError, CallOutput};
use serde_json::{Value, json};

/// The error object of a failed call: `{"code", "message", ...details}`.
pub fn error_json(e: &CallError) -> Value {
    let message = crate::redact::redact(&e.to_string()).into_owned();
    match e {
        CallError::NotFound { .. } => json!({ "code": "CAPABILITY_NOT_FOUND", "message": message }),
        CallError::NonCanonical { canonical, .. } => {
            json!({ "code": "NON_CANONICAL_CAPABILITY", "message": message, "canonical": canonical })
        }
        CallError::InvalidArguments { errors, .. } => {
            json!({ "code": "INVALID_CAPABILITY_ARGUMENTS", "message": message, "errors": errors })
        }
        CallError::Fault { fault, bridge_calls, .. } => json!({
            "code": "PACK_FAULT", "message": message, "fault": fault, "limit": fault.limit(), "bridge_calls": bridge_calls,
        }),
        CallError::Pack { failure, bridge_calls, availability, .. } => {
            let code = match (availability, failure.bridge_code.as_deref()) {
                (Some(_), _) | (None, Some("app_unavailable")) => "APP_UNAVAILABLE",
                (None, Some("permission_denied")) | (None, Some("budget_exceeded")) => "PERMISSION_DENIED",
                (None, Some(_)) => "BRIDGE_ERROR",
                (None, None) if failure.kind == "invalid_arguments" => "INVALID_CAPABILITY_ARGUMENTS",
                (None, None) => "CAPABILITY_FAILED",
            };
            let mut error = json!({ "code": code, "message": message, "failure": failure, "bridge_calls": bridge_calls });
            if let Some(state) = availability {
                error["availability"] = json!(state);
            }
            error
        }
    }
}

/// The success document of a call; a scene delta the capability reported is lifted
/// to the top level so clients find it in one place.
pub fn output_json(out: &CallOutput) -> Value {
    let mut doc = json!({ "key": out.key, "result": out.result, "bridge_calls": out.bridge_calls.len() });
    if let Some(delta) = out.result.get("delta") {
        doc["delta"] = delta.clone();
    }
    doc
}
