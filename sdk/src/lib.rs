//! # capstan-sdk: write a capability pack in Rust
//!
//! A pack is a WebAssembly component (built for `wasm32-wasip2`) of world
//! `capstan:pack/capability-pack@0.1.0`. This crate hides the bindings: you declare
//! capabilities with typed argument structs, call the bridge with typed helpers,
//! and export the lot with [`export_pack!`].
//!
//! ```ignore
//! use capstan_sdk::prelude::*;
//!
//! #[derive(Deserialize, JsonSchema)]
//! #[serde(deny_unknown_fields)]
//! struct Describe { /// Object to look at.
//!     name: String }
//!
//! fn describe(args: Describe) -> PackResult<Value> {
//!     bridge::call("get_object_info", &json!({ "name": args.name }))
//! }
//!
//! fn capabilities() -> Vec<Capability> {
//!     vec![Capability::new("scene.object_info", "inspect", describe)
//!         .summary("Read one object's transform and data")
//!         .bridge(&["get_object_info"])]
//! }
//!
//! capstan_sdk::export_pack!(capabilities);
//! ```
//!
//! The host, not the pack, is the security boundary: every `bridge::call` is checked
//! against your `pack.json` and the app's command catalog, and a fresh sandbox runs
//! each call, so a pack keeps no state between calls.

pub mod bindings;
pub mod bridge;
mod capability;
mod error;
pub mod log;
#[doc(hidden)]
pub mod runtime;

pub use capability::Capability;
pub use error::{BridgeError, BridgeErrorCode, PackError, PackResult};

// Re-exported so that packs and the SDK agree on one version of each.
pub use schemars;
pub use serde;
pub use serde_json;

/// Everything a pack usually needs in one import.
pub mod prelude {
    pub use crate::bridge;
    pub use crate::log;
    pub use crate::{BridgeError, BridgeErrorCode, Capability, PackError, PackResult};
    pub use schemars::JsonSchema;
    pub use serde::{Deserialize, Serialize};
    pub use serde_json::{Value, json};
}

/// Export a pack whose capabilities are returned by `$capabilities: fn() -> Vec<Capability>`.
///
/// The function runs once per call (each call gets a fresh instance), so keep it cheap:
/// schemas are generated lazily, only when the host asks the pack to describe itself.
#[macro_export]
macro_rules! export_pack {
    ($capabilities:path) => {
        struct __CapstanPackExport;

        impl $crate::bindings::exports::capstan::pack::pack::Guest for __CapstanPackExport {
            fn describe() -> ::std::vec::Vec<$crate::bindings::capstan::pack::types::Capability> {
                $crate::runtime::describe(&$capabilities())
            }

            fn execute(
                key: ::std::string::String,
                arguments_json: ::std::string::String,
            ) -> ::std::result::Result<
                ::std::string::String,
                $crate::bindings::capstan::pack::types::PackError,
            > {
                $crate::runtime::execute(&$capabilities(), &key, &arguments_json)
            }
        }

        $crate::bindings::export!(__CapstanPackExport with_types_in $crate::bindings);
    };
}
