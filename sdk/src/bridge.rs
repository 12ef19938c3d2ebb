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
    let raw = transport::call(C::SERVER, C::NAME, &params_json::<C>(params)?)?;
    decode::<C>(&raw)
}

fn params_json<C: Command>(params: &C::Params) -> Result<String, BridgeError> {
    serde_json::to_string(params).map_err(|e| BridgeError::new(
        BridgeErrorCode::InvalidBridgeParams,
        format!("params for {} do not serialise: {e}", C::NAME),
    ))
}

fn decode<C: Command>(raw: &str) -> Result<C::Result, BridgeError> {
    serde_json::from_str(raw).map_err(|e| BridgeError::new(
        BridgeErrorCode::Transport,
        format!("bridge command {} answered outside its result type: {e}", C::NAME),
    ))
}

/// The app's answer to `C`, passed on as the app gave it: [`forward`].
pub struct Forwarded<C: Command> {
    raw: Box<serde_json::value::RawValue>,
    command: std::marker::PhantomData<C>,
}

impl<C: Command> Serialize for Forwarded<C> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(serializer)
    }
}

impl<C: Command> Forwarded<C> {
    /// The answer decoded into the command's result type, for a capability that looks
    /// inside after all.
    pub fn decode(&self) -> Result<C::Result, BridgeError> {
        decode::<C>(self.raw.get())
    }
}

/// Send `C` with `params` and hand its answer on unchanged, for a capability whose
/// result *is* the app's answer. Cheaper than [`send`] and serialising the decoded
/// result again (the answer is checked as JSON, not decoded); nothing is trusted
/// more for it: the host has already checked the answer against the command's
/// declared result schema before the pack sees it, and checks the capability's
/// result against its own output schema after.
pub fn forward<C: Command>(params: &C::Params) -> Result<Forwarded<C>, BridgeError> {
    let raw = transport::call(C::SERVER, C::NAME, &params_json::<C>(params)?)?;
    let raw = serde_json::value::RawValue::from_string(raw).map_err(|e| BridgeError::new(
        BridgeErrorCode::Transport,
        format!("bridge command {} answered with malformed JSON: {e}", C::NAME),
    ))?;
    Ok(Forwarded { raw, command: std::marker::PhantomData })
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
