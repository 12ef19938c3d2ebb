//! The pack manifest (`pack.json`), parsed strictly.
//!
//! Why strict: a manifest is what the host trusts about a pack (which bridge commands
//! it may use, how much it may consume, which component bytes are the pack). A typo
//! that silently drops a key would silently change that trust, so unknown keys are
//! errors everywhere, and every error names its JSON path.
//!
//! Grammar implemented here: `schema`, `name`, `version`, `description`, `component`,
//! `sha256`, `platforms`, `limits`, `roles` (role name -> capability key, see
//! [`crate::roles`]); per server (servers.rs) `commands`, `app`
//! (app.rs), `requires`, `liveness` (liveness.rs), with the rooting rules for every
//! path a manifest may name in location.rs.

mod app;
mod error;
mod liveness;
mod location;
mod reader;
pub(crate) mod servers;

pub use app::{AppBlock, AppDecl, Presence, VersionSource};
pub use error::{ManifestError, ManifestErrors};
pub use liveness::{FieldNames, LivenessDecl};
pub use servers::{Requires, ServerDecl};

use crate::limits::{self, CallLimits, Clamped};
use reader::ObjectReader;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The manifest file name inside a pack folder.
pub const MANIFEST_FILE: &str = "pack.json";
/// The manifest schema versions this host reads.
pub const SCHEMA_VERSION: u64 = 1;

/// An operating-system family as manifests name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Linux,
    Darwin,
    Win32,
}

impl Platform {
    /// `macos` and `windows` are accepted aliases of `darwin` and `win32`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "linux" => Some(Platform::Linux),
            "darwin" | "macos" => Some(Platform::Darwin),
            "win32" | "windows" => Some(Platform::Win32),
            _ => None,
        }
    }

    /// The key manifests use for this OS (`app.<key>`, `platforms`).
    pub fn key(self) -> &'static str {
        match self {
            Platform::Linux => "linux",
            Platform::Darwin => "darwin",
            Platform::Win32 => "win32",
        }
    }

    /// The platform this host runs on, if it is one capstan knows.
    pub fn current() -> Option<Self> {
        match std::env::consts::OS {
            "linux" => Some(Platform::Linux),
            "macos" => Some(Platform::Darwin),
            "windows" => Some(Platform::Win32),
            _ => None,
        }
    }
}

/// Per-call limits as the manifest asks for them (each optional).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LimitRequest {
    pub memory_mib: Option<u64>,
    pub timeout_ms: Option<u64>,
    pub deadline_ms: Option<u64>,
    pub max_bridge_calls: Option<u32>,
    pub max_io_bytes: Option<u64>,
}

impl LimitRequest {
    /// The limits the host will enforce: requests under the host ceilings.
    pub fn effective(&self) -> Clamped {
        limits::clamp(limits::Requested {
            memory_mib: self.memory_mib,
            timeout_ms: self.timeout_ms,
            deadline_ms: self.deadline_ms,
            max_bridge_calls: self.max_bridge_calls,
            max_io_bytes: self.max_io_bytes,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Manifest {
    pub schema: u64,
    pub name: String,
    pub version: semver::Version,
    pub description: String,
    /// File name of the component inside the pack folder.
    pub component: String,
    /// Lowercase hex sha256 of the component. Required to load a pack; a source folder
    /// that has not been built yet may lack it.
    pub sha256: Option<String>,
    pub platforms: Vec<Platform>,
    pub limits: LimitRequest,
    pub servers: BTreeMap<String, ServerDecl>,
    /// The roles the pack's capabilities fill (optional; checked against the
    /// capabilities at load).
    pub roles: BTreeMap<crate::roles::Role, String>,
}

impl Manifest {
    pub fn limits(&self) -> CallLimits {
        self.limits.effective().limits
    }

    /// The server that declares `command`, if any (a command belongs to one server).
    pub fn server_of(&self, command: &str) -> Option<&str> {
        self.servers
            .iter()
            .find(|(_, s)| s.commands.iter().any(|c| c == command))
            .map(|(name, _)| name.as_str())
    }
}

/// Read and parse `<dir>/pack.json`.
pub fn load(dir: &Path) -> Result<Manifest, ManifestErrors> {
    let path = dir.join(MANIFEST_FILE);
    let text = crate::fsutil::read_capped(&path, limits::MAX_MANIFEST_BYTES).map_err(|e| {
        ManifestErrors(vec![ManifestError::new("", format!("cannot read {}: {e}", path.display()))])
    })?;
    parse(&text)
}

pub fn parse(text: &str) -> Result<Manifest, ManifestErrors> {
    let mut errors = ManifestErrors::default();
    let doc: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            errors.push(ManifestError::new("", format!("not valid JSON: {e}")));
            return Err(errors);
        }
    };
    let manifest = parse_document(&doc, &mut errors);
    match manifest {
        Some(m) if errors.is_empty() => Ok(m),
        _ => Err(errors),
    }
}

fn parse_document(doc: &Value, errors: &mut ManifestErrors) -> Option<Manifest> {
    let mut r = ObjectReader::new(doc, "", errors)?;
    let schema = match r.required("schema", errors) {
        Some(v) if v.as_u64() == Some(SCHEMA_VERSION) => Some(SCHEMA_VERSION),
        Some(v) => {
            errors.push(ManifestError::new(
                "schema",
                format!("this host reads manifest schema {SCHEMA_VERSION}, found {v}"),
            ));
            None
        }
        None => None,
    };
    let name = r.required_str("name", errors).and_then(|n| check_pack_name(n, errors));
    let version = r.required_str("version", errors).and_then(|v| match semver::Version::parse(v) {
        Ok(v) => Some(v),
        Err(e) => {
            errors.push(ManifestError::new("version", format!("{v:?} is not a semantic version: {e}")));
            None
        }
    });
    let description = r.optional_str("description", errors).unwrap_or("").to_string();
    let component = r.required_str("component", errors).and_then(|c| check_component(c, errors));
    let sha256 = r.optional_str("sha256", errors).and_then(|s| check_sha256(s, errors));
    let platforms = match r.optional("platforms") {
        Some(v) => parse_platforms(v, errors),
        None => vec![Platform::Linux, Platform::Darwin, Platform::Win32],
    };
    let limits = match r.optional("limits") {
        Some(v) => parse_limits(v, errors),
        None => LimitRequest::default(),
    };
    let servers = match r.required("servers", errors) {
        Some(v) => servers::parse_servers(v, "servers", errors),
        None => BTreeMap::new(),
    };
    let roles = match r.optional("roles") {
        Some(v) => parse_roles(v, errors),
        None => BTreeMap::new(),
    };
    r.finish(errors);
    Some(Manifest {
        schema: schema?,
        name: name?,
        version: version?,
        description,
        component: component?,
        sha256,
        platforms,
        limits,
        servers,
        roles,
    })
}

/// The pack name grammar (`name` in pack.json): what is wrong with `name`, if anything.
/// `capstan packs new` checks a NAME with it before writing a file.
pub fn pack_name_problem(name: &str) -> Option<String> {
    let ok = (1..=64).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    (!ok).then(|| format!("{name:?} must be 1-64 characters of a-z, 0-9 and '-', starting with a letter"))
}

fn check_pack_name(name: &str, errors: &mut ManifestErrors) -> Option<String> {
    match pack_name_problem(name) {
        None => Some(name.to_string()),
        Some(problem) => {
            errors.push(ManifestError::new("name", problem));
            None
        }
    }
}

fn check_component(file: &str, errors: &mut ManifestErrors) -> Option<String> {
    let plain = !file.is_empty()
        && file.len() <= 128
        && file.ends_with(".wasm")
        && !file.starts_with('.')
        && file.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if plain {
        Some(file.to_string())
    } else {
        errors.push(ManifestError::new(
            "component",
            format!("{file:?} must be a plain file name ending in .wasm (no folders, no '..')"),
        ));
        None
    }
}

fn check_sha256(hex: &str, errors: &mut ManifestErrors) -> Option<String> {
    if hex.len() == 64 && hex.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)) {
        Some(hex.to_string())
    } else {
        errors.push(ManifestError::new("sha256", "must be 64 lowercase hex digits"));
        None
    }
}

fn parse_platforms(v: &Value, errors: &mut ManifestErrors) -> Vec<Platform> {
    let mut out = Vec::new();
    let Some(items) = reader::as_str_list(v, "platforms", errors) else {
        return out;
    };
    if items.is_empty() {
        errors.push(ManifestError::new("platforms", "must list at least one platform"));
    }
    for (path, s) in items {
        match Platform::parse(s) {
            Some(p) if out.contains(&p) => {
                errors.push(ManifestError::new(&path, format!("{s:?} names a platform already listed")))
            }
            Some(p) => out.push(p),
            None => errors.push(ManifestError::new(
                &path,
                format!("unknown platform {s:?}; use linux, darwin (or macos), win32 (or windows)"),
            )),
        }
    }
    out
}

/// `roles`: an object from role names to capability keys.
fn parse_roles(v: &Value, errors: &mut ManifestErrors) -> BTreeMap<crate::roles::Role, String> {
    let mut out = BTreeMap::new();
    let Some(map) = v.as_object() else {
        errors.push(ManifestError::new("roles", "expected an object from role names to capability keys"));
        return out;
    };
    for (name, key) in map {
        let path = format!("roles.{name}");
        let Some(role) = crate::roles::Role::parse(name) else {
            let known: Vec<&str> = crate::roles::Role::ALL.iter().map(|r| r.name()).collect();
            errors.push(ManifestError::new(&path, format!("unknown role; the roles are {}", known.join(", "))));
            continue;
        };
        match key.as_str() {
            Some(k) if !k.is_empty() && k.chars().count() <= crate::limits::tool_inputs::MAX_KEY_CHARS => {
                out.insert(role, k.to_string());
            }
            _ => errors.push(ManifestError::new(&path, "expected a capability key (a non-empty string of at most 64 characters)")),
        }
    }
    out
}

fn parse_limits(v: &Value, errors: &mut ManifestErrors) -> LimitRequest {
    let Some(mut r) = ObjectReader::new(v, "limits", errors) else {
        return LimitRequest::default();
    };
    let req = LimitRequest {
        memory_mib: r.optional_count("memory_mib", 1 << 20, errors),
        timeout_ms: r.optional_count("timeout_ms", 24 * 3600 * 1000, errors),
        deadline_ms: r.optional_count("deadline_ms", 24 * 3600 * 1000, errors),
        max_bridge_calls: r.optional_count("max_bridge_calls", u64::from(u32::MAX), errors).map(|n| n as u32),
        max_io_bytes: r.optional_count("max_io_bytes", 1 << 40, errors),
    };
    r.finish(errors);
    req
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod requirement_tests;
