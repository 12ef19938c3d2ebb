//! Typed errors a capability returns; they cross the WIT boundary as `pack-error`.

use crate::bindings::capstan::pack::types as wit;
use std::fmt;

/// The result type of a capability handler.
pub type PackResult<T> = Result<T, PackError>;

/// Why a bridge call failed, as the host reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BridgeErrorCode {
    PermissionDenied,
    InvalidBridgeParams,
    BudgetExceeded,
    AppUnavailable,
    Transport,
    AppError,
}

/// An application's own error codes (`not_found`, `invalid_target`, ...), typed by the
/// crate of its client (capstan-blender's `AppErrorCode`, generated from the add-on's
/// declarations). The SDK carries a code as the string the bridge sent, so it names no
/// application; a code this client does not know parses to its "unknown" value.
pub trait AppCode: Sized + 'static {
    /// The code as the bridge spells it.
    fn as_str(&self) -> &str;
    /// The typed code of a spelling.
    fn parse(code: &str) -> Self;
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BridgeError {
    pub code: BridgeErrorCode,
    pub message: String,
    /// For `AppError`: the application's own code as it sent it (`not_found`, ...).
    pub app_code: Option<String>,
}

impl BridgeError {
    pub fn new(code: BridgeErrorCode, message: impl Into<String>) -> Self {
        BridgeError { code, message: message.into(), app_code: None }
    }

    /// An error the application itself reported, with its code.
    pub fn app<C: AppCode>(code: C, message: impl Into<String>) -> Self {
        BridgeError { code: BridgeErrorCode::AppError, message: message.into(), app_code: Some(code.as_str().to_string()) }
    }

    /// The application's code, typed as `C` (`None` unless the application reported the
    /// error): `e.app_error() == Some(AppErrorCode::NotFound)`.
    pub fn app_error<C: AppCode>(&self) -> Option<C> {
        self.app_code.as_deref().map(C::parse)
    }
}

impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.app_code {
            Some(app) => write!(f, "{:?} ({app}): {}", self.code, self.message),
            None => write!(f, "{:?}: {}", self.code, self.message),
        }
    }
}

/// A capability's failure. `InvalidArguments` is for input that passed the schema but
/// makes no sense (an unknown colour name, say); the host validates the schema itself.
#[derive(Debug, Clone, PartialEq)]
pub enum PackError {
    InvalidArguments(String),
    UnknownCapability(String),
    Bridge(BridgeError),
    Failed(String),
}

impl PackError {
    pub fn invalid(message: impl Into<String>) -> Self {
        PackError::InvalidArguments(message.into())
    }
    pub fn failed(message: impl Into<String>) -> Self {
        PackError::Failed(message.into())
    }
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::InvalidArguments(m) => write!(f, "invalid arguments: {m}"),
            PackError::UnknownCapability(k) => write!(f, "unknown capability {k}"),
            PackError::Bridge(e) => write!(f, "bridge: {e}"),
            PackError::Failed(m) => write!(f, "{m}"),
        }
    }
}

impl From<BridgeError> for PackError {
    fn from(e: BridgeError) -> Self {
        PackError::Bridge(e)
    }
}

impl From<wit::BridgeError> for BridgeError {
    fn from(e: wit::BridgeError) -> Self {
        use wit::BridgeErrorCode as W;
        let code = match e.code {
            W::PermissionDenied => BridgeErrorCode::PermissionDenied,
            W::InvalidBridgeParams => BridgeErrorCode::InvalidBridgeParams,
            W::BudgetExceeded => BridgeErrorCode::BudgetExceeded,
            W::AppUnavailable => BridgeErrorCode::AppUnavailable,
            W::Transport => BridgeErrorCode::Transport,
            W::AppError => BridgeErrorCode::AppError,
        };
        BridgeError { code, message: e.message, app_code: e.app_code }
    }
}

impl From<BridgeError> for wit::BridgeError {
    fn from(e: BridgeError) -> Self {
        use BridgeErrorCode as C;
        let code = match e.code {
            C::PermissionDenied => wit::BridgeErrorCode::PermissionDenied,
            C::InvalidBridgeParams => wit::BridgeErrorCode::InvalidBridgeParams,
            C::BudgetExceeded => wit::BridgeErrorCode::BudgetExceeded,
            C::AppUnavailable => wit::BridgeErrorCode::AppUnavailable,
            C::Transport => wit::BridgeErrorCode::Transport,
            C::AppError => wit::BridgeErrorCode::AppError,
        };
        wit::BridgeError { code, message: e.message, app_code: e.app_code }
    }
}

impl From<PackError> for wit::PackError {
    fn from(e: PackError) -> Self {
        match e {
            PackError::InvalidArguments(m) => wit::PackError::InvalidArguments(m),
            PackError::UnknownCapability(k) => wit::PackError::UnknownCapability(k),
            PackError::Bridge(b) => wit::PackError::Bridge(b.into()),
            PackError::Failed(m) => wit::PackError::Failed(m),
        }
    }
}
