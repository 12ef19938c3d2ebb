//! What loading a pack and calling a capability can fail with: errors are types.

use crate::bridge::catalog::CatalogError;
use crate::availability::Availability;
use crate::delta::SceneDelta;
use crate::plugin::bindings::PackError;
use crate::plugin::PackLoadError;
use crate::sandbox::{BridgeCallRecord, PackFault};
use serde::Serialize;
use serde_json::Value;

/// Pack error messages are cut to this length before they reach a user.
const MAX_PACK_MESSAGE: usize = 4096;

#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error("cannot start the WebAssembly engine: {0}")]
    Engine(String),
    #[error(transparent)]
    Catalog(#[from] CatalogError),
}

/// A pack that was found but not loaded, and why.
#[derive(Debug, Clone, Serialize)]
pub struct RefusedPack {
    pub source: String,
    pub error: PackLoadError,
}


/// A capability's own failure, as the pack reported it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackFailure {
    /// `invalid_arguments`, `unknown_capability`, `bridge` or `failed`.
    pub kind: String,
    pub message: String,
    /// For `bridge`: the bridge error code (`permission_denied`, `app_unavailable`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bridge_code: Option<String>,
    /// For an error the application reported: its own code and message, as the host
    /// received them (not as the pack retold them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_error: Option<AppError>,
}

/// An error the application reported, with what its code means (from the catalog).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppError {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
    /// The command declares the code: the application checked a condition and refused
    /// (`APP_REFUSED`), rather than failing in a way nobody foresaw (`BRIDGE_ERROR`).
    pub declared: bool,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum CallError {
    #[error("no capability {key:?}; search again for the canonical key")]
    NotFound { key: String },
    #[error("{key:?} is an alias; execute the canonical key {canonical:?}")]
    NonCanonical { key: String, canonical: String },
    #[error("invalid arguments for {key}: {}", errors.join("; "))]
    InvalidArguments { key: String, errors: Vec<String> },
    #[error("pack fault in {key}: {fault}")]
    Fault {
        key: String,
        fault: PackFault,
        bridge_calls: Vec<BridgeCallRecord>,
        /// What the bridge calls made before the fault changed.
        delta: Option<Box<SceneDelta>>,
    },
    /// A workflow step failed; the workflow stopped there (`report` lists every step).
    #[error("{key} stopped at step {step:?}: {cause}")]
    Workflow {
        key: String,
        step: String,
        cause: Box<CallError>,
        /// The workflow's answer so far: `{workflow, status: "failed", steps, skipped}`.
        report: Box<Value>,
        bridge_calls: Vec<BridgeCallRecord>,
        /// What the steps before the failure (and the failed step) changed.
        delta: Option<Box<SceneDelta>>,
    },
    /// The app gate refused the call (its app is unavailable or its bridge lacks the
    /// commands); nothing ran. `body` is what every surface answers.
    #[error("{}", body["message"].as_str().unwrap_or("the app is unavailable"))]
    NotAdmitted { key: String, body: Box<Value> },
    #[error("{key} failed ({}): {}", failure.kind, failure.message)]
    Pack {
        key: String,
        failure: Box<PackFailure>,
        bridge_calls: Vec<BridgeCallRecord>,
        /// When the pack failed because a server is unavailable: its structured state.
        availability: Option<Box<Availability>>,
        /// What the bridge calls made before the failure changed (kept, not dropped).
        delta: Option<Box<SceneDelta>>,
    },
}

impl CallError {
    /// The application's own error code behind the failure, if the application reported
    /// one (for a workflow: the code of the step that failed).
    pub fn app_code(&self) -> Option<&str> {
        match self {
            CallError::Pack { failure, .. } => failure.app_error.as_ref().map(|a| a.code.as_str()),
            CallError::Workflow { cause, .. } => cause.app_code(),
            _ => None,
        }
    }

    /// Whether the failure means the app is not there (refused by the app gate, or a
    /// bridge call found it gone), not that the call went wrong.
    pub fn app_went_away(&self) -> bool {
        match self {
            // An outdated add-on is there; it lacks commands.
            CallError::NotAdmitted { body, .. } => body["availability"]["state"] != "addon_outdated",
            CallError::Pack { failure, .. } => matches!(failure.bridge_code.as_deref(), Some("transport") | Some("app_unavailable")),
            CallError::Workflow { cause, .. } => cause.app_went_away(),
            _ => false,
        }
    }

    /// A bridge answered one of the call's commands `unknown_command`: the running bridge
    /// lacks a command the cached add-on skew said it serves (it was replaced by an older
    /// one within the cache's life), so that cached answer is stale.
    pub fn bridge_lacked_a_command(&self) -> bool {
        crate::sandbox::state::lacked_a_command(self.bridge_calls())
    }

    /// The bridge calls the call made before it failed (none when it was refused before
    /// any bridge work).
    pub fn bridge_calls(&self) -> &[BridgeCallRecord] {
        match self {
            CallError::Fault { bridge_calls, .. } | CallError::Pack { bridge_calls, .. } | CallError::Workflow { bridge_calls, .. } => bridge_calls,
            _ => &[],
        }
    }

    /// What the call changed before it failed (kept, not dropped), when it got that far.
    pub fn delta(&self) -> Option<&SceneDelta> {
        match self {
            CallError::Fault { delta, .. } | CallError::Pack { delta, .. } | CallError::Workflow { delta, .. } => delta.as_deref(),
            _ => None,
        }
    }
}

pub(super) fn cut(message: String) -> String {
    if message.len() <= MAX_PACK_MESSAGE {
        return message;
    }
    let mut end = MAX_PACK_MESSAGE;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes cut)", &message[..end], message.len() - end)
}

pub(super) fn pack_failure(e: PackError) -> PackFailure {
    let (kind, message, bridge_code) = match e {
        PackError::InvalidArguments(m) => ("invalid_arguments", m, None),
        PackError::UnknownCapability(k) => ("unknown_capability", format!("the pack has no capability {k}"), None),
        PackError::Bridge(b) => ("bridge", b.message, Some(b.code.name())),
        PackError::Failed(m) => ("failed", m, None),
    };
    PackFailure { kind: kind.into(), message: cut(message), bridge_code: bridge_code.map(String::from), app_error: None }
}
