//! The checks every Blender pack's own tests make, so that no pack keeps a copy of
//! them: its `src/tests.rs` calls these.
//!
//! ```text
//! #[test]
//! fn the_manifest_lists_exactly_the_commands_the_capabilities_use() {
//!     capstan_blender::testing::assert_manifest_commands(env!("CARGO_MANIFEST_DIR"), &capabilities::all());
//! }
//! ```

use capstan_sdk::{Capability, Family};

pub use capstan_sdk::testing::{MockBridge, assert_keys_in_family_namespace};

/// `pack.json` lists, under `servers.blender.commands`, exactly the commands the
/// capabilities use; `CAPSTAN_BLESS=1 cargo test -p <pack>` rewrites it (see
/// `capstan_sdk::testing::assert_manifest_commands`).
pub fn assert_manifest_commands(manifest_dir: &str, capabilities: &[Capability]) {
    capstan_sdk::testing::assert_manifest_commands(manifest_dir, crate::SERVER, capabilities);
}

/// Every capability has a unique key, a summary, a declared family and at least
/// `min_cases` conformance cases, and every command it declares is one Blender's
/// catalog lets a pack send.
pub fn assert_declared(families: &[Family], capabilities: &[Capability], min_cases: usize) {
    capstan_sdk::testing::assert_declared(families, capabilities, min_cases);
    for c in capabilities {
        for command in c.bridge_commands() {
            assert!(crate::COMMANDS.iter().any(|(name, _)| name == command), "{} declares {command}, which is no command of Blender's catalog", c.key());
        }
    }
}

/// The capability of `key` among `capabilities` (panics naming a missing key).
pub fn capability(capabilities: Vec<Capability>, key: &str) -> Capability {
    capabilities.into_iter().find(|c| c.key() == key).unwrap_or_else(|| panic!("no capability {key}"))
}
