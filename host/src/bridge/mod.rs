//! Everything between a pack's `bridge.call` and an application.
//!
//! - `catalog`: the app's bridge command catalog (one data file per app, shared with
//!   the add-on): which commands exist, whether they read, mutate or destroy, and the
//!   schema of their params.
//! - `gate`: the per-execution check of every call a pack makes. It is the one place
//!   where a bridge command is allowed or refused.
//! - [`BridgeClient`]: what carries an allowed call to the application. The gate never
//!   hands a client anything it has not checked.

pub mod catalog;
pub mod client;
pub mod endpoint;
pub mod endpoint_memo;
pub mod gate;
pub mod http;
pub mod ownership;
pub mod peer;

use serde::Serialize;
use serde_json::Value;

pub use catalog::{BridgeCatalog, CommandEffect};
pub use client::{HttpBridgeClient, Liveness};
pub use gate::{BridgeGate, GateRefusal};

/// One checked call, ready for a client.
#[derive(Debug, Clone, Copy)]
pub struct BridgeRequest<'a> {
    /// The manifest server the command belongs to (`blender`).
    pub server: &'a str,
    pub command: &'a str,
    /// Validated against the command's params schema.
    pub params: &'a Value,
    /// How long the app may take to answer (from the command catalog).
    pub timeout: std::time::Duration,
}

/// Why a client could not get a result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BridgeFailure {
    /// The app or its bridge is not available (state names the availability state,
    /// such as `app_not_running` or `endpoint_unavailable`).
    #[error("{server} is unavailable ({state}): {detail}")]
    Unavailable {
        server: String,
        state: String,
        detail: String,
        /// The app's runtime file does not exist (as opposed to naming a dead or
        /// wrong endpoint): availability then asks whether the app runs at all.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        runtime_file_missing: bool,
    },
    /// The connection failed or the answer was not a bridge answer.
    #[error("bridge transport error ({reason}): {detail}")]
    Transport { reason: String, detail: String },
    /// The app ran the command and reported an error; a mutating command that failed
    /// after changing something attaches what it changed.
    #[error("{code}: {message}")]
    App {
        code: String,
        message: String,
        #[serde(skip)]
        delta: Option<Box<crate::delta::SceneDelta>>,
    },
}

/// Carries checked calls to an application. Implementations must be safe to share
/// between concurrent calls.
pub trait BridgeClient: Send + Sync {
    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure>;

    /// Whether the server's bridge keeps an undo history worth one step per capability
    /// call (GUI Blender does; a headless one does not unless told to).
    fn keeps_undo_steps(&self, _server: &str) -> bool {
        false
    }

    /// The folder `server`'s app writes its outputs to, as the host may trust it (see
    /// [`crate::workflow::handover`]): capstan's own record for an instance it launched,
    /// the bridge's word only for a bridge started by hand.
    fn output_folder(&self, server: &str) -> Result<std::path::PathBuf, BridgeFailure> {
        Err(BridgeFailure::Transport { reason: "no_output_folder".into(), detail: format!("this client knows no output folder for {server}") })
    }

    /// When `server`'s app runs in an instance a supervisor restarts on request
    /// ([`crate::containment::restart`]): its instance folder and pid, from capstan's
    /// record. None for an app started by hand, or one nobody supervises.
    fn restartable(&self, _server: &str) -> Option<Restartable> {
        None
    }
}

/// A supervised instance, as its record names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restartable {
    pub instance_dir: std::path::PathBuf,
    /// The app's pid, as the record names it when asked.
    pub pid: u32,
    /// The supervising process (alive when asked), which starts the app again.
    pub supervisor: u32,
}

/// The client for commands that never call a bridge (listing, validating): any call
/// is refused as a transport error rather than attempted.
pub struct Offline;

impl BridgeClient for Offline {
    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
        Err(BridgeFailure::Transport {
            reason: "offline".into(),
            detail: format!("this command does not connect to {}", request.server),
        })
    }
}
