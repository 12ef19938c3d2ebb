//! Where packs come from: the official packs embedded in this binary, and the pack
//! store folder `$CAPSTAN_HOME/packs/<name>/`.
//!
//! Official packs are built from `capability-packs/` by the host's build script and
//! embedded with their sealed manifests, so a user never builds wasm by hand and a
//! `capstan` binary always carries packs that match its contract version.

use crate::home::CapstanHome;
use crate::manifest::MANIFEST_FILE;
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
/// name. Folders whose name starts with `.` are staging areas and are skipped.
pub fn store_sources(home: &CapstanHome) -> Vec<Result<PackSource, (PathBuf, PackLoadError)>> {
    let dir = home.packs_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.join(MANIFEST_FILE).is_file())
        .filter(|p| !p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.')))
        .filter(|p| !crate::store::is_disabled(p))
        .collect();
    dirs.sort();
    dirs.into_iter().map(|d| PackSource::from_dir(&d).map_err(|e| (d, e))).collect()
}
