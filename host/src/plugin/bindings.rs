//! Host bindings generated from the frozen WIT in `wit/pack@0.1.0`. The WIT is the
//! single source of truth for the host-guest boundary; nothing here is hand-written.

wasmtime::component::bindgen!({
    path: "../wit/pack@0.1.0",
    world: "capability-pack",
});

pub use self::capstan::pack::types::{BridgeError, BridgeErrorCode, Capability, PackError};

impl BridgeErrorCode {
    /// The stable snake_case name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            BridgeErrorCode::PermissionDenied => "permission_denied",
            BridgeErrorCode::InvalidBridgeParams => "invalid_bridge_params",
            BridgeErrorCode::BudgetExceeded => "budget_exceeded",
            BridgeErrorCode::AppUnavailable => "app_unavailable",
            BridgeErrorCode::Transport => "transport",
            BridgeErrorCode::AppError => "app_error",
        }
    }
}
