//! # capstan-sdk: write a capability pack in Rust
//!
//! A pack is a WebAssembly component (built for `wasm32-wasip2`) of world
//! `capstan:pack/capability-pack@0.2.0`. This crate hides the bindings: one file per
//! capability with `#[capability(...)]` (its summary is the doc comment), typed bridge
//! calls ([`bridge::Command`], [`bridge::send`]), routing families with their cue words,
//! conformance cases, and [`export_pack!`] to export the lot.
//!
//! It names no application. An application's commands come from its client crate,
//! generated from the add-on's declarations so that a misspelt command does not
//! compile: `capstan-blender` for Blender (its commands, one module per domain, and the
//! helpers Blender packs share: colours, angles, targets, pack test helpers).
//!
//! ```
//! use capstan_sdk::prelude::*;
//!
//! #[derive(Deserialize, JsonSchema)]
//! #[serde(deny_unknown_fields)]
//! struct Args {
//!     /// Millimetres.
//!     mm: f64,
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! struct Inches {
//!     inches: f64,
//! }
//!
//! /// Convert millimetres to inches.
//! #[capability(key = "hello.inches", family = "units", output = Inches)]
//! fn inches(args: Args) -> PackResult<Inches> {
//!     Ok(Inches { inches: args.mm / 25.4 })
//! }
//!
//! // What the host will read from `describe`: a read-only capability that sends no
//! // command, with its input and output schemas generated from the types.
//! let declared = capability();
//! assert_eq!((declared.key(), declared.family()), ("hello.inches", "units"));
//! assert!(!declared.mutates_state());
//! assert!(declared.bridge_commands().is_empty());
//! assert!(declared.input_schema().contains("\"mm\""));
//! assert!(declared.output_schema().unwrap().contains("\"inches\""));
//! assert_eq!(declared.run_json(r#"{"mm": 254}"#).unwrap(), r#"{"inches":10.0}"#);
//! ```
//!
//! The version of this crate is the version of the contract it builds: `capstan-sdk`
//! 0.2.x makes `capstan:pack@0.2.0` components (see `wit/README.md` in capstan).
//!
//! The host, not the pack, is the security boundary: every bridge call is checked
//! against your `pack.json` and the app's command catalog, and a fresh sandbox runs
//! each call, so a pack keeps no state between calls. Native unit tests of handlers
//! use [`testing::MockBridge`].

pub mod bindings;
pub mod bridge;
mod capability;
pub mod conformance;
mod error;
mod family;
pub mod log;
pub mod progress;
#[doc(hidden)]
pub mod runtime;
pub mod schema_rules;
#[cfg(not(target_arch = "wasm32"))]
pub mod testing;

pub use capability::Capability;
pub use capstan_sdk_macros::capability;
pub use conformance::Case;
pub use error::{AppCode, BridgeError, BridgeErrorCode, PackError, PackResult};
pub use family::Family;

// Re-exported so that packs and the SDK agree on one version of each.
pub use schemars;
pub use serde;
pub use serde_json;

/// Everything a pack usually needs in one import.
pub mod prelude {
    pub use crate::bridge::{Command, Effect};
    pub use crate::log;
    pub use crate::progress;
    pub use crate::{AppCode, BridgeError, BridgeErrorCode, Capability, Case, Family, PackError, PackResult, capability};
    pub use schemars::JsonSchema;
    pub use serde::{Deserialize, Serialize};
    pub use serde_json::{Value, json};
}

/// The description a pack exports, as JSON (for native tests and tools; the host gets
/// the same through `describe`).
pub fn describe_json(families: &[Family], capabilities: &[Capability]) -> serde_json::Value {
    let d = runtime::describe(families, capabilities);
    serde_json::json!({
        "families": d.families.iter().map(|f| serde_json::json!({
            "name": f.name, "summary": f.summary,
            "cues": f.cues.iter().map(|c| serde_json::json!({ "weight": c.weight, "phrases": c.phrases })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "capabilities": d.capabilities.iter().map(|c| serde_json::json!({
            "key": c.key, "family": c.family, "summary": c.summary, "mutates": c.mutates, "destructive": c.destructive,
            "bridge_commands": c.bridge_commands, "conformance": c.conformance.len(),
        })).collect::<Vec<_>>(),
    })
}

/// Export a pack: `families` returns its routing families, `capabilities` its
/// capabilities (`capabilities::all` from the generated registry, usually).
///
/// The functions run once per call (each call gets a fresh instance), so keep them
/// cheap: schemas are generated only when the host asks the pack to describe itself.
#[macro_export]
macro_rules! export_pack {
    (families = $families:path, capabilities = $capabilities:path $(,)?) => {
        struct __CapstanPackExport;

        impl $crate::bindings::exports::capstan::pack::pack::Guest for __CapstanPackExport {
            fn describe() -> $crate::bindings::capstan::pack::types::PackDescription {
                $crate::runtime::describe(&$families(), &$capabilities())
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
