//! Typed calls through the host's bridge gate.
//!
//! Every call is checked by the host: the command must be declared in `pack.json` and
//! by the calling capability, a read-only capability may not use a mutating command,
//! and the params must pass the command's schema in the app's bridge catalog.

use crate::bindings::capstan::pack::bridge as wit;
use crate::error::{BridgeError, BridgeErrorCode, PackError};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Call `command` with `params` (serialised to a JSON object) and decode the result.
pub fn call<P: Serialize + ?Sized, R: DeserializeOwned>(
    command: &str,
    params: &P,
) -> Result<R, PackError> {
    let raw = call_raw(command, params)?;
    serde_json::from_str(&raw).map_err(|e| {
        PackError::Failed(format!("bridge command {command} returned unexpected JSON: {e}"))
    })
}

/// Call `command` and return the JSON text the bridge answered.
pub fn call_raw<P: Serialize + ?Sized>(command: &str, params: &P) -> Result<String, BridgeError> {
    let params = serde_json::to_string(params).map_err(|e| BridgeError {
        code: BridgeErrorCode::InvalidBridgeParams,
        message: format!("params for {command} do not serialise: {e}"),
    })?;
    wit::call(command, &params).map_err(BridgeError::from)
}
