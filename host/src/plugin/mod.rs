//! Loading a pack: from manifest and component bytes to a ready-to-call pack.
//!
//! The steps, each a refusal point with its own error:
//! 1. the manifest parses strictly and is sealed (has a `sha256`);
//! 2. the component bytes match that sha256 (integrity before anything else runs);
//! 3. every manifest server has a bridge catalog and every declared command exists;
//! 4. the compiled component comes from the verified cache or is compiled now;
//! 5. the ABI check: contract version and imports (`abi`);
//! 6. linking into one `InstancePre` (done once; calls only instantiate);
//! 7. `describe()` runs in the sandbox under `DESCRIBE_LIMITS`; what it says is held to
//!    the bounds on a description (`declared`: sizes, counts, characters) and checked
//!    against the manifest and catalog (`describe`).

pub mod abi;
pub mod bindings;
pub mod declared;
pub mod describe;
pub mod instance;

pub use describe::CapabilitySpec;

use crate::bridge::catalog::Catalogs;
use crate::bridge::gate::PackCommands;
use crate::engine::{CacheOutcome, ComponentCache};
use crate::fsutil;
use crate::limits::{self, Clamped};
use crate::manifest::{self, Manifest, ManifestErrors};
use crate::sandbox::{CallSetup, PackFault, Sandbox};
use instance::PackPre;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a pack came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "path", rename_all = "snake_case")]
pub enum PackOrigin {
    /// Built with capstan and embedded in the binary.
    Official,
    /// A folder in the pack store or given on the command line.
    Folder(PathBuf),
}

/// A pack's bytes before loading (cheap to clone: the component is shared).
#[derive(Clone)]
pub struct PackSource {
    pub origin: PackOrigin,
    pub manifest_text: String,
    pub component: Arc<[u8]>,
}

impl PackSource {
    /// Read `<dir>/pack.json` and the component it names.
    pub fn from_dir(dir: &std::path::Path) -> Result<Self, PackLoadError> {
        let manifest_path = dir.join(manifest::MANIFEST_FILE);
        let manifest_text = fsutil::read_capped(&manifest_path, limits::MAX_MANIFEST_BYTES)
            .map_err(|e| PackLoadError::Io { path: manifest_path.clone(), detail: e.to_string() })?;
        let parsed = manifest::parse(&manifest_text).map_err(PackLoadError::Manifest)?;
        let component_path = dir.join(&parsed.component);
        let component = fsutil::read_capped_bytes(&component_path, limits::MAX_COMPONENT_BYTES)
            .map_err(|e| PackLoadError::Io { path: component_path, detail: e.to_string() })?;
        Ok(PackSource { origin: PackOrigin::Folder(dir.to_path_buf()), manifest_text, component: component.into() })
    }
}

/// Serialised adjacently tagged (`{"kind", "detail"}`): several variants hold a list,
/// which an internally tagged enum cannot carry.
#[derive(Debug, Clone, thiserror::Error, Serialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum PackLoadError {
    #[error("cannot read {path}: {detail}")]
    Io { path: PathBuf, detail: String },
    #[error("invalid manifest:\n{0}")]
    Manifest(ManifestErrors),
    #[error("the manifest has no sha256, so the component cannot be verified; build or seal the pack first")]
    Unsealed,
    #[error("the component's sha256 is {actual}, but the manifest says {expected}; refusing a component that is not the one declared")]
    DigestMismatch { expected: String, actual: String },
    #[error("server {server:?}: capstan has no bridge catalog for it, so its commands cannot be checked")]
    UnknownServer { server: String },
    #[error("servers.{server}.commands: the {server} bridge has no command {command:?}")]
    UnknownCommand { server: String, command: String },
    #[error("servers.{server}.commands: {command:?} is sent only by capstan itself (after its own checks), never by a pack")]
    HostOnlyCommand { server: String, command: String },
    #[error("the component does not compile: {detail}")]
    Compile { detail: String },
    #[error(transparent)]
    Abi(#[from] abi::AbiError),
    #[error("the component does not link against the pack contract: {detail}")]
    Link { detail: String },
    #[error("describe() failed: {0}")]
    Describe(PackFault),
    #[error("the pack's description is inconsistent:\n{}", .0.join("\n"))]
    Contract(Vec<String>),
}

impl PackLoadError {
    /// The refusal's stable code: the variant's name, or for a contract-version problem
    /// the ABI check's own (`forbidden_import`, ...).
    pub fn code(&self) -> String {
        let v = serde_json::to_value(self).unwrap_or_default();
        let inner = if matches!(self, PackLoadError::Abi(_)) { v["detail"]["kind"].as_str() } else { None };
        inner.or(v["kind"].as_str()).unwrap_or("invalid").to_string()
    }
}

/// A pack ready to serve calls.
pub struct LoadedPack {
    pub manifest: Manifest,
    pub origin: PackOrigin,
    pub component_sha256: String,
    pub limits: Clamped,
    pub capabilities: Vec<Arc<CapabilitySpec>>,
    /// The routing families the pack declares (0.1.0 packs declare none).
    pub families: Vec<describe::FamilySpec>,
    /// The contract version the component was built for.
    pub version: abi::PackVersion,
    pub cache: CacheOutcome,
    pub(crate) pre: PackPre,
    pub(crate) commands: Arc<PackCommands>,
    pub(crate) name: Arc<str>,
}

impl LoadedPack {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The linked component every call instantiates from (benchmarks drive it directly).
    pub fn pre(&self) -> &PackPre {
        &self.pre
    }

    /// The manifest's command-to-server table (benchmarks build a gate from it).
    pub fn commands(&self) -> &Arc<PackCommands> {
        &self.commands
    }
}

pub fn load(
    sandbox: &Sandbox,
    cache: &ComponentCache,
    catalogs: &Catalogs,
    source: PackSource,
) -> Result<LoadedPack, PackLoadError> {
    let manifest = manifest::parse(&source.manifest_text).map_err(PackLoadError::Manifest)?;
    let expected = manifest.sha256.clone().ok_or(PackLoadError::Unsealed)?;
    let actual = fsutil::sha256_hex(&source.component);
    if actual != expected {
        return Err(PackLoadError::DigestMismatch { expected, actual });
    }

    let mut commands = PackCommands::default();
    for (server, decl) in &manifest.servers {
        let catalog = catalogs.for_server(server).ok_or_else(|| PackLoadError::UnknownServer { server: server.clone() })?;
        for command in &decl.commands {
            match catalog.command(command) {
                None => return Err(PackLoadError::UnknownCommand { server: server.clone(), command: command.clone() }),
                Some(spec) if spec.host_only => return Err(PackLoadError::HostOnlyCommand { server: server.clone(), command: command.clone() }),
                Some(_) => {}
            }
            commands.by_command.insert(command.clone(), server.clone());
        }
    }

    let engine = sandbox.engine().engine();
    let (component, outcome) = cache
        .load_or_compile(engine, &actual, &source.component)
        .map_err(|e| PackLoadError::Compile { detail: format!("{e:#}") })?;
    let version = abi::check(&component, engine)?;
    let pre = sandbox.prepare(&component, version).map_err(|e| {
        // A component that names a known version but does not type-check against it was
        // built from another text of that version (a pre-release draft of 0.2.0).
        let hint = format!("; it names capstan:pack@{} but was built from another text of that contract: rebuild it with this capstan (`capstan packs build`)", version.as_str());
        PackLoadError::Link { detail: format!("{e:#}{hint}") }
    })?;

    let name: Arc<str> = manifest.name.as_str().into();
    let setup = CallSetup::offline(name.clone(), limits::DESCRIBE_LIMITS);
    let (described, _report) = pre.describe(sandbox, setup);
    let raw = described.map_err(PackLoadError::Describe)?;
    let (families, capabilities) = describe::validate(raw, version, &manifest, catalogs).map_err(PackLoadError::Contract)?;

    Ok(LoadedPack {
        limits: manifest.limits.effective(),
        manifest,
        origin: source.origin,
        component_sha256: actual,
        capabilities: capabilities.into_iter().map(Arc::new).collect(),
        families,
        version,
        cache: outcome,
        pre,
        commands: Arc::new(commands),
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `packs list --json` prints refused packs: every kind of refusal serialises,
    /// those holding a list included.
    #[test]
    fn every_load_error_serialises_with_its_kind() {
        let errors = [
            PackLoadError::Contract(vec!["roles.reads-object names \"x\"".into()]),
            PackLoadError::Manifest(ManifestErrors(vec![crate::manifest::ManifestError::new("roles", "expected an object")])),
            PackLoadError::Unsealed,
            PackLoadError::UnknownServer { server: "sculptor".into() },
        ];
        for e in errors {
            let v = serde_json::to_value(&e).unwrap_or_else(|err| panic!("{e:?}: {err}"));
            assert_eq!(v["kind"].as_str(), Some(e.code().as_str()), "{v}");
        }
        let abi = PackLoadError::Abi(abi::AbiError::ForbiddenImport { import: "wasi:sockets/network".into(), reason: "no network".into() });
        assert_eq!(abi.code(), "forbidden_import", "the ABI check's own code");
    }
}
