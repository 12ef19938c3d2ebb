//! Host bindings generated from the frozen WIT in `wit/pack@0.1.0`. The WIT is the
//! single source of truth for the host-guest boundary; nothing here is hand-written.

wasmtime::component::bindgen!({
    path: "../wit/pack@0.1.0",
    world: "capability-pack",
});

pub use self::capstan::pack::types::{BridgeError, BridgeErrorCode, Capability, PackError};
