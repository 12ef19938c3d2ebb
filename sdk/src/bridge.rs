//! Typed calls through the host's bridge gate.
//!
//! Every command is a type implementing [`Command`] with its params and result types,
//! generated from the add-on's declarations into the application's client crate
//! (`capstan-blender` for Blender), so a misspelt command or field does not compile.
//! Every call is still checked by the host: the command must be declared in
//! `pack.json` and by the calling capability (`uses = [...]`), a read-only capability
//! may not use a mutating command, and the params must pass the command's schema in
//! the app's bridge catalog.

use crate::error::{AppCode, BridgeError, BridgeErrorCode};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What running a command does to the application's state (the catalog's `effect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Read,
    /// Writes files into the session's output folder; changes no scene data.
    Write,
    Mutate,
    Destroy,
}

impl Effect {
    /// It changes the application's data (a read-only capability may not use it).
    pub fn mutates(self) -> bool {
        matches!(self, Effect::Mutate | Effect::Destroy)
    }

    /// It writes files (a question is never answered by it).
    pub fn writes_files(self) -> bool {
        self == Effect::Write
    }
}

/// One bridge command, as the generated client declares it.
pub trait Command {
    /// The application bridge the command belongs to, as the manifest's
    /// `servers` names it; sent with every call (`capstan:pack/bridge@0.2.0`).
    const SERVER: &'static str;
    const NAME: &'static str;
    const EFFECT: Effect;
    /// The application's error codes, typed by its client crate.
    type AppCode: AppCode;
    /// The application error codes this command may answer with (besides the
    /// protocol-level ones any command may).
    const ERRORS: &'static [Self::AppCode];
    type Params: Serialize;
    type Result: DeserializeOwned;
}

/// Send `C` with `params` and decode its result.
pub fn send<C: Command>(params: &C::Params) -> Result<C::Result, BridgeError> {
    let json = serde_json::to_string(params).map_err(|e| BridgeError::new(
        BridgeErrorCode::InvalidBridgeParams,
        format!("params for {} do not serialise: {e}", C::NAME),
    ))?;
    let raw = transport::call(C::SERVER, C::NAME, &json)?;
    serde_json::from_str(&raw).map_err(|e| BridgeError::new(
        BridgeErrorCode::Transport,
        format!("bridge command {} answered outside its result type: {e}", C::NAME),
    ))
}

#[cfg(target_arch = "wasm32")]
mod transport {
    use crate::bindings::capstan::pack::bridge as wit;
    use crate::error::BridgeError;

    pub fn call(server: &str, command: &str, params_json: &str) -> Result<String, BridgeError> {
        wit::call(server, command, params_json).map_err(BridgeError::from)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod transport {
    use crate::error::BridgeError;

    /// Outside a host (native unit tests), calls go to the thread's
    /// [`crate::testing::MockBridge`].
    pub fn call(server: &str, command: &str, params_json: &str) -> Result<String, BridgeError> {
        crate::testing::dispatch(server, command, params_json)
    }
}
