//! The structured form of call outcomes, shared by the CLI and the MCP surfaces:
//! `{"error": {"code", "message", ...}}` with the codes of the MCP contract, and the
//! success document with the scene delta the host merged.

use crate::runtime::{CallError, CallOutput};
use serde::Serialize;
use serde_json::{Value, json};

/// Every error code an MCP result (or `capstan call --json`) can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// No such capability: search again.
    CapabilityNotFound,
    /// An alias was executed: use the canonical key the error names.
    NonCanonicalCapability,
    /// The arguments fail the capability's schema or meaning; nothing ran.
    InvalidCapabilityArguments,
    /// The app the capability needs is unavailable (with the state object).
    AppUnavailable,
    /// The host's gate refused a bridge call of the pack.
    PermissionDenied,
    /// The pack hit a limit or trapped.
    PackFault,
    /// The application checked a condition the command declares and refused (its code,
    /// message and what to do in `app_error`: `not_found`, `invalid_target`, ...).
    AppRefused,
    /// The bridge or the app failed in a way the command does not declare (an exception
    /// in the app, a broken answer, a transport failure), with the app's code if any.
    BridgeError,
    /// The capability failed for a reason of its own.
    CapabilityFailed,
    /// `execute_python` is switched off.
    ExecDisabled,
    /// The safety checker rejected the script (with its findings).
    CodeRejected,
    /// A guided tool's own arguments were wrong.
    InvalidToolArguments,
    /// capstan itself failed; it logged why.
    InternalError,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::CapabilityNotFound => "CAPABILITY_NOT_FOUND",
            ErrorCode::NonCanonicalCapability => "NON_CANONICAL_CAPABILITY",
            ErrorCode::InvalidCapabilityArguments => "INVALID_CAPABILITY_ARGUMENTS",
            ErrorCode::AppUnavailable => "APP_UNAVAILABLE",
            ErrorCode::PermissionDenied => "PERMISSION_DENIED",
            ErrorCode::PackFault => "PACK_FAULT",
            ErrorCode::AppRefused => "APP_REFUSED",
            ErrorCode::BridgeError => "BRIDGE_ERROR",
            ErrorCode::CapabilityFailed => "CAPABILITY_FAILED",
            ErrorCode::ExecDisabled => "EXEC_DISABLED",
            ErrorCode::CodeRejected => "CODE_REJECTED",
            ErrorCode::InvalidToolArguments => "INVALID_TOOL_ARGUMENTS",
            ErrorCode::InternalError => "INTERNAL_ERROR",
        }
    }
}

/// The MCP code of a failed call.
pub fn error_code(e: &CallError) -> ErrorCode {
    match e {
        CallError::NotFound { .. } => ErrorCode::CapabilityNotFound,
        CallError::NonCanonical { .. } => ErrorCode::NonCanonicalCapability,
        CallError::InvalidArguments { .. } => ErrorCode::InvalidCapabilityArguments,
        CallError::Fault { .. } => ErrorCode::PackFault,
        CallError::NotAdmitted { .. } => ErrorCode::AppUnavailable,
        // A workflow fails with the code of the step that failed.
        CallError::Workflow { cause, .. } => error_code(cause),
        CallError::Pack { failure, availability, .. } => match (availability, failure.bridge_code.as_deref()) {
            (Some(_), _) | (None, Some("app_unavailable")) => ErrorCode::AppUnavailable,
            (None, Some("permission_denied")) | (None, Some("budget_exceeded")) => ErrorCode::PermissionDenied,
            (None, Some("app_error")) if failure.app_error.as_ref().is_some_and(|a| a.declared) => ErrorCode::AppRefused,
            (None, Some(_)) => ErrorCode::BridgeError,
            (None, None) if failure.kind == "invalid_arguments" => ErrorCode::InvalidCapabilityArguments,
            (None, None) => ErrorCode::CapabilityFailed,
        },
    }
}

/// The error object of a failed call: `{"code", "message", ...details}`.
pub fn error_json(e: &CallError) -> Value {
    let message = crate::redact::redact(&e.to_string()).into_owned();
    let code = error_code(e);
    let mut error = match e {
        CallError::NotFound { .. } => json!({ "code": code, "message": message }),
        CallError::NonCanonical { canonical, .. } => json!({ "code": code, "message": message, "canonical": canonical }),
        CallError::InvalidArguments { errors, .. } => json!({ "code": code, "message": message, "errors": errors }),
        // The app gate's own body, as it was built (its message, its state object).
        CallError::NotAdmitted { body, .. } => {
            let mut body = (**body).clone();
            body["code"] = json!(code);
            body["message"] = json!(message);
            body
        }
        CallError::Fault { fault, bridge_calls, .. } => json!({
            "code": code, "message": message, "fault": fault, "limit": fault.limit(), "bridge_calls": bridge_calls,
        }),
        CallError::Workflow { step, cause, report, bridge_calls, .. } => {
            let mut error = json!({ "code": code, "message": message, "failed_step": step, "workflow": report, "bridge_calls": bridge_calls.len() });
            // The failed step's own details (availability, app error) where clients look.
            let inner = error_json(cause);
            for field in ["availability", "app_error", "fault", "errors"] {
                if let Some(v) = inner.get(field) {
                    error[field] = v.clone();
                }
            }
            error
        }
        CallError::Pack { failure, bridge_calls, availability, .. } => {
            let mut error = json!({ "code": code, "message": message, "failure": failure, "bridge_calls": bridge_calls });
            if let Some(app) = &failure.app_error {
                error["app_error"] = json!(app);
            }
            if let Some(state) = availability {
                error["availability"] = json!(state);
            }
            error
        }
    };
    // What changed before the failure is reported, not dropped.
    if let Some(delta) = e.delta() {
        error["delta"] = delta.to_json();
    }
    error
}

/// The success document of a call. A mutating capability's scene delta is the one the
/// host merged from its bridge calls, at the top level where clients find it. Takes
/// the output, so the result is moved into the document, not copied.
pub fn output_json(out: CallOutput) -> Value {
    let mut doc = Value::Object(serde_json::Map::from_iter([
        ("key".to_string(), Value::String(out.key)),
        ("result".to_string(), out.result),
        ("bridge_calls".to_string(), json!(out.bridge_calls.len())),
    ]));
    if let Some(delta) = &out.delta {
        doc["delta"] = delta.to_json();
    }
    doc
}
