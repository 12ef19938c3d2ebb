//! Host bindings generated from the frozen WIT in `wit/checker@0.1.0`.

wasmtime::component::bindgen!({
    path: "../wit/checker@0.1.0",
    world: "code-checker",
});

pub use self::capstan::checker::types::{Finding, Policy, Verdict};
