//! The apps a pack's servers need: where they are installed (presence), which
//! version they are (one module per version source), and whether that meets the
//! manifest's `requires` (requirement.rs).

pub mod command_version;
pub mod expand;
pub mod pe_version;
pub mod plist_version;
pub mod presence;
pub mod process;
pub mod registry_match;
#[cfg(windows)]
pub mod registry_read;
pub mod requirement;
pub mod session;
pub mod version;

pub use version::{DottedVersion, VersionError};
