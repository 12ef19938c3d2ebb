//! The pack store, `$CAPSTAN_HOME/packs/<name>/`: install, remove, enable, disable.
//!
//! Security and integrity reasoning:
//! - The install gate runs before anything is written: the manifest parses strictly,
//!   the component's sha256 matches the manifest, this OS is a listed platform, every
//!   declared server's app is present and new enough (`--force` skips only the app
//!   checks, never the integrity ones), and the pack loads in a runtime holding every
//!   other pack (ABI, imports, description, no key or alias clash). Loading also
//!   compiles the component into the verified cache, so the first call after install
//!   is as fast as any other.
//! - Writing is staged beside the store (`packs/.staging-*`, skipped by every reader)
//!   and made visible by one rename; a replacement is an atomic exchange of the two
//!   folders (Linux `renameat2(RENAME_EXCHANGE)`), so a kill at any moment leaves the
//!   previous version whole at its path and, at worst, a dot-folder that the next
//!   store operation removes.
//! - Store operations take an exclusive lock (`packs/.lock`), so two installs never
//!   interleave their swaps.

pub mod archive;
pub mod catalog;
mod swap;

use crate::apps::requirement::{self, AppCheck};
use crate::availability::Availability;
use crate::bridge::Offline;
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::manifest::{self, MANIFEST_FILE, Platform};
use crate::plugin::{PackLoadError, PackSource};
use crate::runtime::{Runtime, RuntimeError};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why the gate refused an install; the store is untouched.
#[derive(Debug, Clone, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum InstallError {
    #[error("cannot read the pack: {detail}")]
    Unreadable { detail: String },
    #[error("{0}")]
    Invalid(PackLoadError),
    #[error("this OS ({os}) is not among the pack's platforms ({listed})")]
    PlatformMismatch { os: String, listed: String },
    #[error("server {}: {} ({})", availability.server, availability.state.name(), availability.detail)]
    AppRequirement { availability: Box<Availability> },
    #[error("{name:?} is the name of an official pack, which the store cannot replace")]
    OfficialName { name: String },
    #[error("the pack store {path}: {detail}")]
    Store { path: PathBuf, detail: String },
    #[error("{detail}")]
    Catalog { detail: String },
    #[error("{detail}")]
    Archive { detail: String },
}

impl InstallError {
    /// The refusal's code: `missing_app`, `version_too_old`, `unsupported_os`,
    /// `platform_mismatch`, or the integrity/IO reason.
    pub fn code(&self) -> String {
        let fixed = match self {
            InstallError::AppRequirement { availability } => return availability.state.name().to_string(),
            InstallError::Invalid(e) => return serde_json::to_value(e).ok().and_then(|v| v["kind"].as_str().map(String::from)).unwrap_or_else(|| "invalid".into()),
            InstallError::Unreadable { .. } => "unreadable",
            InstallError::PlatformMismatch { .. } => "platform_mismatch",
            InstallError::OfficialName { .. } => "official_name",
            InstallError::Store { .. } => "store",
            InstallError::Catalog { .. } => "catalog",
            InstallError::Archive { .. } => "archive",
        };
        fixed.to_string()
    }
}

/// What an install did.
#[derive(Debug, Clone, Serialize)]
pub struct Installed {
    pub name: String,
    pub version: String,
    pub replaced: Option<String>,
    pub capabilities: Vec<String>,
    /// Where the pack lives; None for an official pack, which ships inside capstan.
    pub path: Option<PathBuf>,
}

/// One pack in the store.
#[derive(Debug, Clone, Serialize)]
pub struct StoreEntry {
    pub name: String,
    pub version: Option<String>,
    pub enabled: bool,
    pub path: PathBuf,
}

pub struct Store {
    home: CapstanHome,
}

fn store_error(path: &Path, e: impl std::fmt::Display) -> InstallError {
    InstallError::Store { path: path.to_path_buf(), detail: e.to_string() }
}

impl Store {
    pub fn new(home: &CapstanHome) -> Self {
        Store { home: home.clone() }
    }

    fn dir(&self) -> PathBuf {
        self.home.packs_dir()
    }

    /// Marker that keeps an installed pack out of every runtime.
    fn disabled_marker(&self, name: &str) -> PathBuf {
        self.dir().join(format!("{name}.disabled"))
    }

    /// Check `source_dir` against the gate and install it, replacing an older copy.
    pub fn install(&self, source_dir: &Path, force_app_checks: bool) -> Result<Installed, InstallError> {
        let source = PackSource::from_dir(source_dir).map_err(|e| InstallError::Unreadable { detail: e.to_string() })?;
        let manifest = manifest::parse(&source.manifest_text).map_err(|e| InstallError::Invalid(PackLoadError::Manifest(e)))?;
        if crate::packs::official().iter().any(|o| o.name == manifest.name) {
            return Err(InstallError::OfficialName { name: manifest.name });
        }
        self.check_platform_and_apps(&manifest, force_app_checks)?;
        let capabilities = self.load_beside_the_others(&manifest.name, source.clone())?;

        let _lock = swap::StoreLock::acquire(&self.dir()).map_err(|e| store_error(&self.dir(), e))?;
        swap::remove_leftovers(&self.dir());
        let target = self.dir().join(&manifest.name);
        let replaced = PackSource::from_dir(&target).ok().and_then(|old| manifest::parse(&old.manifest_text).ok()).map(|m| m.version.to_string());
        let staged = swap::stage(&self.dir(), &manifest.name, &[(MANIFEST_FILE, source.manifest_text.as_bytes()), (&manifest.component, &source.component)])
            .map_err(|e| store_error(&self.dir(), e))?;
        swap::pause_point("staged");
        swap::publish(&staged, &target).map_err(|e| store_error(&target, e))?;
        Ok(Installed { name: manifest.name, version: manifest.version.to_string(), replaced, capabilities, path: Some(target) })
    }

    /// Install a packed archive (`.tar.gz`, `.tgz`, `.tar`; see archive.rs): unpacked
    /// into a temporary folder, then through the same gate as a folder.
    pub fn install_archive(&self, file: &Path, force_app_checks: bool) -> Result<Installed, InstallError> {
        let work = tempfile::tempdir().map_err(|e| store_error(&std::env::temp_dir(), e))?;
        let dir = archive::unpack(file, work.path()).map_err(|e| InstallError::Archive { detail: e.to_string() })?;
        self.install(&dir, force_app_checks)
    }

    /// Install the catalog entry `name`: an official pack (catalog::official_entries)
    /// or an entry of `catalog_file` at its pinned commit (see catalog.rs).
    pub fn install_from_catalog(&self, name: &str, catalog_file: &Path, force_app_checks: bool) -> Result<Installed, InstallError> {
        let catalog_error = |e: catalog::CatalogError| InstallError::Catalog { detail: e.to_string() };
        if let Some(official) = crate::packs::official().iter().find(|o| o.name == name) {
            return self.confirm_official(official, force_app_checks);
        }
        let entries = catalog::load(catalog_file).map_err(catalog_error)?;
        let entry = catalog::find(&entries, name).map_err(catalog_error)?;
        let work = tempfile::tempdir().map_err(|e| store_error(&std::env::temp_dir(), e))?;
        let dir = catalog::fetch(entry, work.path()).map_err(catalog_error)?;
        let declared = manifest::load(&dir).map(|m| m.name).unwrap_or_default();
        if declared != entry.name {
            return Err(InstallError::Catalog { detail: format!("the catalog entry {:?} pins a pack named {declared:?}", entry.name) });
        }
        self.install(&dir, force_app_checks)
    }

    /// An official pack is always installed: it ships inside this binary. "Installing"
    /// it runs the same gate on the embedded copy and writes nothing: this platform,
    /// every server's app, then the load, which checks the component against the digest
    /// the build sealed into its manifest (the catalog entry's pin) like any pack's.
    fn confirm_official(&self, official: &crate::packs::OfficialPack, force_app_checks: bool) -> Result<Installed, InstallError> {
        let manifest = manifest::parse(official.manifest).map_err(|e| InstallError::Invalid(PackLoadError::Manifest(e)))?;
        self.check_platform_and_apps(&manifest, force_app_checks)?;
        let capabilities = self.load_beside_the_others(official.name, official.source())?;
        Ok(Installed { name: manifest.name, version: manifest.version.to_string(), replaced: None, capabilities, path: None })
    }

    fn check_platform_and_apps(&self, manifest: &manifest::Manifest, force_app_checks: bool) -> Result<(), InstallError> {
        let platform = Platform::current();
        if !platform.is_some_and(|p| manifest.platforms.contains(&p)) {
            let listed = manifest.platforms.iter().map(|p| p.key()).collect::<Vec<_>>().join(", ");
            return Err(InstallError::PlatformMismatch { os: std::env::consts::OS.into(), listed });
        }
        if !force_app_checks {
            for (server, decl) in &manifest.servers {
                if let AppCheck::Unsatisfied(a) = requirement::check(server, decl, platform, &self.home, &crate::apps::expand::Env) {
                    return Err(InstallError::AppRequirement { availability: Box::new(a) });
                }
            }
        }
        Ok(())
    }

    /// The catalog file: `$CAPSTAN_HOME/catalog.json`.
    pub fn default_catalog(&self) -> PathBuf {
        self.home.root().join("catalog.json")
    }

    /// Load the pack in a runtime that holds the official packs and every other
    /// installed pack: the same checks `serve` will make, and the compile into the cache.
    fn load_beside_the_others(&self, name: &str, source: PackSource) -> Result<Vec<String>, InstallError> {
        let runtime_error = |e: RuntimeError| InstallError::Unreadable { detail: e.to_string() };
        let mut runtime = Runtime::new(&self.home, AllocationPreference::PoolingIfAvailable, Arc::new(Offline)).map_err(runtime_error)?;
        for official in crate::packs::official().iter().filter(|o| o.name != name) {
            let _ = runtime.add(official.source());
        }
        for other in crate::packs::store_sources(&self.home).into_iter().flatten() {
            let same = manifest::parse(&other.manifest_text).is_ok_and(|m| m.name == name);
            if !same {
                let _ = runtime.add(other);
            }
        }
        // Compiling a large component takes seconds: show a spinner with the elapsed
        // time on stderr (indicatif draws nothing when stderr is not a terminal, and
        // stdout stays clean for `--json`).
        let size_kib = source.component.len() / 1024;
        let progress = (size_kib > 1024).then(|| {
            let bar = indicatif::ProgressBar::new_spinner().with_message(format!("checking and compiling {name} ({size_kib} KiB) into the cache"));
            bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]").expect("a valid template"));
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        });
        let loaded = runtime.add(source);
        if let Some(bar) = progress {
            bar.finish_with_message(format!("compiled {name} ({size_kib} KiB)"));
        }
        let pack = loaded.map_err(InstallError::Invalid)?;
        Ok(pack.capabilities.iter().map(|c| c.key.clone()).collect())
    }

    /// Remove an installed pack: one rename out of sight, then delete.
    pub fn remove(&self, name: &str) -> Result<PathBuf, InstallError> {
        let target = self.installed_dir(name)?;
        let _lock = swap::StoreLock::acquire(&self.dir()).map_err(|e| store_error(&self.dir(), e))?;
        swap::retire(&self.dir(), &target).map_err(|e| store_error(&target, e))?;
        let _ = std::fs::remove_file(self.disabled_marker(name));
        Ok(target)
    }

    pub fn set_enabled(&self, name: &str, enabled: bool) -> Result<(), InstallError> {
        self.installed_dir(name)?;
        let marker = self.disabled_marker(name);
        let result = if enabled {
            std::fs::remove_file(&marker).or_else(|e| if e.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(e) })
        } else {
            std::fs::write(&marker, b"")
        };
        result.map_err(|e| store_error(&marker, e))
    }

    fn installed_dir(&self, name: &str) -> Result<PathBuf, InstallError> {
        let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        let dir = self.dir().join(name);
        if valid && dir.join(MANIFEST_FILE).is_file() {
            Ok(dir)
        } else {
            Err(store_error(&dir, format!("no installed pack named {name:?}")))
        }
    }

    /// Every installed pack, enabled or not.
    pub fn list(&self) -> Vec<StoreEntry> {
        let Ok(entries) = std::fs::read_dir(self.dir()) else { return Vec::new() };
        let mut out: Vec<StoreEntry> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir() && p.join(MANIFEST_FILE).is_file() && !p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.')))
            .map(|p| {
                let name = p.file_name().unwrap_or_default().to_string_lossy().to_string();
                let version = crate::fsutil::read_capped(&p.join(MANIFEST_FILE), crate::limits::MAX_MANIFEST_BYTES)
                    .ok()
                    .and_then(|t| manifest::parse(&t).ok())
                    .map(|m| m.version.to_string());
                StoreEntry { enabled: !self.disabled_marker(&name).exists(), name, version, path: p }
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }
}

/// True when the store has marked `dir`'s pack disabled (readers skip it).
pub fn is_disabled(dir: &Path) -> bool {
    match (dir.parent(), dir.file_name()) {
        (Some(parent), Some(name)) => parent.join(format!("{}.disabled", name.to_string_lossy())).exists(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::availability::State;

    #[test]
    fn every_refusal_serialises_with_its_code() {
        let refusals = [
            InstallError::Unreadable { detail: "x".into() },
            InstallError::Invalid(PackLoadError::Unsealed),
            InstallError::PlatformMismatch { os: "linux".into(), listed: "darwin".into() },
            InstallError::AppRequirement { availability: Box::new(Availability::new("blender", State::MissingApp, "not found".into())) },
            InstallError::OfficialName { name: "blender-core".into() },
            InstallError::Store { path: "/x".into(), detail: "y".into() },
            InstallError::Catalog { detail: "z".into() },
        ];
        let codes: Vec<String> = refusals.iter().map(|r| {
            serde_json::to_value(r).expect("serialises");
            r.code()
        }).collect();
        assert_eq!(codes, ["unreadable", "unsealed", "platform_mismatch", "missing_app", "official_name", "store", "catalog"]);
    }
}
