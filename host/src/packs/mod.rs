//! Where packs come from: the official packs embedded in this binary, and the pack
//! store folder `$CAPSTAN_HOME/packs/<name>/`.
//!
//! Official packs are built from `capability-packs/` by the host's build script and
//! embedded with their sealed manifests, so a user never builds wasm by hand and a
//! `capstan` binary always carries packs that match its contract version.

use crate::home::CapstanHome;
use crate::plugin::{PackLoadError, PackOrigin, PackSource};
use std::path::PathBuf;

/// An official pack as embedded at build time.
pub struct OfficialPack {
    pub name: &'static str,
    /// The sealed manifest (with the component's sha256).
    pub manifest: &'static str,
    pub component: &'static [u8],
}

mod embedded {
    use super::OfficialPack;
    include!(concat!(env!("OUT_DIR"), "/official_packs.rs"));
}

pub fn official() -> &'static [OfficialPack] {
    embedded::OFFICIAL_PACKS
}

impl OfficialPack {
    pub fn source(&self) -> PackSource {
        PackSource { origin: PackOrigin::Official, manifest_text: self.manifest.to_string(), component: self.component.into() }
    }
}

/// Every enabled pack folder in the store, read (not yet loaded), sorted by folder
/// name, each through the store's directory handle (see `store`). Folders whose
/// name starts with `.` are staging areas and are skipped.
pub fn store_sources(home: &CapstanHome) -> Vec<Result<PackSource, (PathBuf, PackLoadError)>> {
    crate::store::Store::new(home).sources()
}
