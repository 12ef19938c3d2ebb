//! Applications a pack's servers need: how their versions are read and compared.
//! (Presence and version detection per OS build on this; see the manifest's `app`.)

pub mod expand;
pub mod version;

pub use version::{DottedVersion, VersionError};
