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
//! - Every name in the store (pack folders, staging and leftover dot-folders, the
//!   disabled markers, a pack's component) is resolved through the store's directory
//!   handle (`crate::confined`): none can leave `packs/`, and a symlink planted there
//!   is neither listed as a pack nor followed when it is cleaned up.
//! - Store operations take an exclusive lock (`packs/.lock`), so two installs never
//!   interleave their swaps.

pub mod archive;
pub mod catalog;
pub mod pack_folder;
mod swap;

use crate::apps::requirement::{self, AppCheck};
use crate::availability::Availability;
use crate::bridge::Offline;
use crate::confined::Folder;
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
            InstallError::Invalid(e) => return e.code(),
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

/// The marker file that keeps the installed pack `name` out of every runtime.
fn disabled_marker(name: &str) -> String {
    format!("{name}.disabled")
}

/// Is `name` a pack name the store may hold (the manifest's grammar)?
fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

impl Store {
    pub fn new(home: &CapstanHome) -> Self {
        Store { home: home.clone() }
    }

    fn dir(&self) -> PathBuf {
        self.home.packs_dir()
    }

    /// The store's folder, created (owner-only) if it is not there yet.
    fn folder(&self) -> Result<Folder, InstallError> {
        Folder::create_private(&self.dir()).map_err(|e| store_error(&self.dir(), e))
    }

    /// The store's folder if it exists (readers never create it).
    fn existing_folder(&self) -> Option<Folder> {
        Folder::open(&self.dir()).ok()
    }

    /// Check the pack folder `source_dir` against the gate and install it, replacing
    /// an older copy. The folder is read through its handle: a manifest or component
    /// that links out of it is refused.
    pub fn install(&self, source_dir: &Path, force_app_checks: bool) -> Result<Installed, InstallError> {
        let unreadable = |e: &dyn std::fmt::Display| InstallError::Unreadable { detail: e.to_string() };
        let folder = Folder::open(source_dir).map_err(|e| unreadable(&format!("{}: {e}", source_dir.display())))?;
        let source = pack_folder::read(&folder).map_err(|e| unreadable(&e))?;
        self.install_source(source, force_app_checks)
    }

    /// Check a pack already read (from a folder, an archive or a checkout) against the
    /// gate and install exactly those bytes.
    fn install_source(&self, source: PackSource, force_app_checks: bool) -> Result<Installed, InstallError> {
        let manifest = manifest::parse(&source.manifest_text).map_err(|e| InstallError::Invalid(PackLoadError::Manifest(e)))?;
        if crate::packs::official().iter().any(|o| o.name == manifest.name) {
            return Err(InstallError::OfficialName { name: manifest.name });
        }
        self.check_platform_and_apps(&manifest, force_app_checks)?;
        let capabilities = self.load_beside_the_others(&manifest.name, source.clone())?;

        let store = self.folder()?;
        let _lock = swap::StoreLock::acquire(&store).map_err(|e| store_error(&self.dir(), e))?;
        swap::remove_leftovers(&store);
        let target = store.shown(&manifest.name);
        let replaced = store.open_folder(&manifest.name).ok().and_then(|old| pack_folder::read_manifest(&old)).map(|m| m.version.to_string());
        let staged = swap::stage(&store, &manifest.name, &[(MANIFEST_FILE, source.manifest_text.as_bytes()), (&manifest.component, &source.component)])
            .map_err(|e| store_error(&self.dir(), e))?;
        swap::pause_point("staged");
        swap::publish(&store, &staged, &manifest.name).map_err(|e| store_error(&target, e))?;
        Ok(Installed { name: manifest.name, version: manifest.version.to_string(), replaced, capabilities, path: Some(target) })
    }

    /// Install a packed archive (`.tar.gz`, `.tgz`, `.tar`; see archive.rs): unpacked
    /// into a temporary folder, then through the same gate as a folder.
    pub fn install_archive(&self, file: &Path, force_app_checks: bool) -> Result<Installed, InstallError> {
        let work = tempfile::tempdir().map_err(|e| store_error(&std::env::temp_dir(), e))?;
        let into = Folder::open(work.path()).map_err(|e| store_error(work.path(), e))?;
        let dir = archive::unpack(file, &into).map_err(|e| InstallError::Archive { detail: e.to_string() })?;
        let source = pack_folder::read(&dir).map_err(|e| InstallError::Unreadable { detail: e.to_string() })?;
        self.install_source(source, force_app_checks)
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
        let source = catalog::fetch(entry, work.path(), &catalog::FetchLimits::default()).map_err(catalog_error)?;
        let declared = manifest::parse(&source.manifest_text).map(|m| m.name).unwrap_or_default();
        if declared != entry.name {
            return Err(InstallError::Catalog { detail: format!("the catalog entry {:?} pins a pack named {declared:?}", entry.name) });
        }
        self.install_source(source, force_app_checks)
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
        let store = self.installed(name)?;
        let _lock = swap::StoreLock::acquire(&store).map_err(|e| store_error(&self.dir(), e))?;
        swap::retire(&store, name).map_err(|e| store_error(&store.shown(name), e))?;
        let _ = store.remove_file(disabled_marker(name));
        Ok(store.shown(name))
    }

    pub fn set_enabled(&self, name: &str, enabled: bool) -> Result<(), InstallError> {
        let store = self.installed(name)?;
        let marker = disabled_marker(name);
        let result = if enabled {
            store.remove_file(&marker).or_else(|e| if e.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(e) })
        } else if store.exists(&marker) {
            Ok(())
        } else {
            store.write_new(&marker, b"")
        };
        result.map_err(|e| store_error(&store.shown(&marker), e))
    }

    /// The store's folder, when it holds an installed pack `name`.
    fn installed(&self, name: &str) -> Result<Folder, InstallError> {
        let missing = || store_error(&self.dir().join(name), format!("no installed pack named {name:?}"));
        if !valid_name(name) {
            return Err(missing());
        }
        let store = self.existing_folder().ok_or_else(missing)?;
        let holds_it = store.symlink_metadata(name).is_ok_and(|m| m.is_dir()) && store.is_file(Path::new(name).join(MANIFEST_FILE));
        if holds_it { Ok(store) } else { Err(missing()) }
    }

    /// The store's pack folders: real folders (a symlink planted in the store is not
    /// a pack), not dot-folders (staging), holding a `pack.json`; sorted by name.
    fn pack_entries(&self) -> Option<(Folder, Vec<String>)> {
        let store = self.existing_folder()?;
        let names = store
            .entries()
            .ok()?
            .into_iter()
            .filter(|e| e.is_dir() && !e.name.starts_with('.') && store.is_file(Path::new(&e.name).join(MANIFEST_FILE)))
            .map(|e| e.name)
            .collect();
        Some((store, names))
    }

    /// Every installed pack, enabled or not.
    pub fn list(&self) -> Vec<StoreEntry> {
        let Some((store, names)) = self.pack_entries() else { return Vec::new() };
        names
            .into_iter()
            .map(|name| {
                let version = store.open_folder(&name).ok().and_then(|f| pack_folder::read_manifest(&f)).map(|m| m.version.to_string());
                StoreEntry { enabled: !store.exists(disabled_marker(&name)), path: store.shown(&name), name, version }
            })
            .collect()
    }

    /// Every enabled pack, read through the store's handle (not yet loaded).
    pub fn sources(&self) -> Vec<Result<PackSource, (PathBuf, PackLoadError)>> {
        let Some((store, names)) = self.pack_entries() else { return Vec::new() };
        names
            .into_iter()
            .filter(|name| !store.exists(disabled_marker(name)))
            .map(|name| {
                let path = store.shown(&name);
                store
                    .open_folder(&name)
                    .map_err(|e| PackLoadError::Io { path: path.clone(), detail: e.to_string() })
                    .and_then(|folder| pack_folder::read(&folder))
                    .map_err(|e| (path, e))
            })
            .collect()
    }

    /// What changes when a pack is installed, replaced, removed, enabled or disabled:
    /// each pack's name, its manifest's size and mtime, and its enabled flag.
    pub fn fingerprint(&self) -> Vec<(String, u64, Option<std::time::SystemTime>, bool)> {
        let Some((store, names)) = self.pack_entries() else { return Vec::new() };
        names
            .into_iter()
            .map(|name| {
                let meta = store.metadata(Path::new(&name).join(MANIFEST_FILE)).ok();
                let enabled = !store.exists(disabled_marker(&name));
                (name, meta.as_ref().map(|m| m.len()).unwrap_or(0), meta.and_then(|m| m.modified().ok().map(|t| t.into_std())), enabled)
            })
            .collect()
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
            InstallError::AppRequirement { availability: Box::new(Availability::new("sculptor", State::MissingApp, "not found".into())) },
            InstallError::OfficialName { name: "sculptor-core".into() },
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
