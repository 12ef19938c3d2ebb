//! Host bindings generated from the WIT: `v1` from `wit/pack@0.1.0`, `v2` from
//! `wit/pack@0.2.0` (both frozen). The WIT is the single source of truth for the
//! host-guest boundary; nothing here is hand-written but the names of the codes.

pub mod v1 {
    wasmtime::component::bindgen!({
        path: "../wit/pack@0.1.0",
        world: "capability-pack",
    });
}

pub mod v2 {
    wasmtime::component::bindgen!({
        path: "../wit/pack@0.2.0",
        world: "capability-pack",
    });
}

pub use v2::capstan::pack::types::{BridgeError, BridgeErrorCode, Capability, Cue, Family, PackDescription, PackError};

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

mod from_v1 {
    //! A 0.1.0 pack's values in 0.2.0's shape (what 0.1.0 cannot say takes its default).
    use super::{v1::capstan::pack::types as old, v2::capstan::pack::types as new};

    pub fn code(c: old::BridgeErrorCode) -> new::BridgeErrorCode {
        match c {
            old::BridgeErrorCode::PermissionDenied => new::BridgeErrorCode::PermissionDenied,
            old::BridgeErrorCode::InvalidBridgeParams => new::BridgeErrorCode::InvalidBridgeParams,
            old::BridgeErrorCode::BudgetExceeded => new::BridgeErrorCode::BudgetExceeded,
            old::BridgeErrorCode::AppUnavailable => new::BridgeErrorCode::AppUnavailable,
            old::BridgeErrorCode::Transport => new::BridgeErrorCode::Transport,
            old::BridgeErrorCode::AppError => new::BridgeErrorCode::AppError,
        }
    }

    pub fn to_old_code(c: new::BridgeErrorCode) -> old::BridgeErrorCode {
        match c {
            new::BridgeErrorCode::PermissionDenied => old::BridgeErrorCode::PermissionDenied,
            new::BridgeErrorCode::InvalidBridgeParams => old::BridgeErrorCode::InvalidBridgeParams,
            new::BridgeErrorCode::BudgetExceeded => old::BridgeErrorCode::BudgetExceeded,
            new::BridgeErrorCode::AppUnavailable => old::BridgeErrorCode::AppUnavailable,
            new::BridgeErrorCode::Transport => old::BridgeErrorCode::Transport,
            new::BridgeErrorCode::AppError => old::BridgeErrorCode::AppError,
        }
    }

    pub fn capability(c: old::Capability) -> new::Capability {
        new::Capability {
            key: c.key,
            family: c.family,
            summary: c.summary,
            description: c.description,
            input_schema: c.input_schema,
            output_schema: None,
            tags: c.tags,
            aliases: c.aliases,
            examples: c.examples,
            mutates: c.mutates,
            destructive: false,
            bridge_commands: c.bridge_commands,
            conformance: Vec::new(),
        }
    }

    pub fn error(e: old::PackError) -> new::PackError {
        match e {
            old::PackError::InvalidArguments(m) => new::PackError::InvalidArguments(m),
            old::PackError::UnknownCapability(k) => new::PackError::UnknownCapability(k),
            old::PackError::Bridge(b) => new::PackError::Bridge(new::BridgeError { code: code(b.code), message: b.message, app_code: None }),
            old::PackError::Failed(m) => new::PackError::Failed(m),
        }
    }
}

pub(crate) use from_v1::{capability as capability_from_v1, error as error_from_v1, to_old_code};
