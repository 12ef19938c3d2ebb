//! The ABI check: which contract version a component was built for, and what it asks
//! the host to provide. Both are read from the component's type, before linking, so a
//! pack built for another version is refused with a message rather than a link error
//! or a trap.
//!
//! Security reasoning: the import list is the component's declared reach. Packs may
//! import the capstan pack interfaces and the WASI interfaces Rust's std uses (cli,
//! io, clocks, random, filesystem types), all of which the sandbox links with no
//! authority. A pack asking for sockets, HTTP or anything unknown is refused outright
//! rather than linked to a trap, so the refusal is visible at load time.

use wasmtime::Engine;
use wasmtime::component::Component;

/// The pack contract versions this host implements: 0.1.0 (frozen) and 0.2.0 (draft).
pub const PACK_PACKAGE: &str = "capstan:pack";
pub const PACK_VERSIONS: &[&str] = &["0.1.0", "0.2.0"];
/// The versions as one phrase, for messages.
pub const SUPPORTED: &str = "0.1.0 or 0.2.0";

/// The contract version a component was built against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PackVersion {
    V1,
    V2,
}

impl PackVersion {
    fn parse(v: &str) -> Option<Self> {
        match v {
            "0.1.0" => Some(PackVersion::V1),
            "0.2.0" => Some(PackVersion::V2),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PackVersion::V1 => "0.1.0",
            PackVersion::V2 => "0.2.0",
        }
    }
}

const ALLOWED_WASI_PREFIXES: &[&str] =
    &["wasi:cli/", "wasi:io/", "wasi:clocks/", "wasi:random/", "wasi:filesystem/"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AbiError {
    #[error("not a capstan pack: the component exports no {PACK_PACKAGE}/pack interface (it exports: {exports})")]
    NotAPack { exports: String },
    #[error("the pack was built for {PACK_PACKAGE}@{found}, but this host implements {PACK_PACKAGE}@{supported}; rebuild the pack against capstan-sdk for {supported}")]
    UnsupportedVersion { found: String, supported: String },
    #[error("the pack imports {import}, which packs are never given ({reason})")]
    ForbiddenImport { import: String, reason: String },
}

/// Check the component's exports and imports; the contract version it was built for.
pub fn check(component: &Component, engine: &Engine) -> Result<PackVersion, AbiError> {
    let ty = component.component_type();
    let exports: Vec<String> = ty.exports(engine).map(|(name, _)| name.to_string()).collect();
    let pack_export = exports.iter().find_map(|n| n.strip_prefix("capstan:pack/pack@"));
    let version = match pack_export {
        None => return Err(AbiError::NotAPack { exports: exports.join(", ") }),
        Some(v) => PackVersion::parse(v).ok_or_else(|| AbiError::UnsupportedVersion { found: v.to_string(), supported: SUPPORTED.to_string() })?,
    };
    for (name, _) in ty.imports(engine) {
        check_import(name, version)?;
    }
    Ok(version)
}

fn check_import(name: &str, version: PackVersion) -> Result<(), AbiError> {
    if let Some(rest) = name.strip_prefix("capstan:pack/") {
        let imported = rest.split('@').nth(1).unwrap_or("");
        if imported == version.as_str() {
            return Ok(());
        }
        // One component speaks one contract version: mixing them is a build error.
        return Err(AbiError::UnsupportedVersion { found: imported.to_string(), supported: version.as_str().to_string() });
    }
    if ALLOWED_WASI_PREFIXES.iter().any(|p| name.starts_with(p)) {
        return Ok(());
    }
    let reason = if name.starts_with("wasi:sockets/") || name.starts_with("wasi:http/") {
        "packs have no network access; the bridge is their only door".to_string()
    } else {
        "it is not part of the pack contract".to_string()
    };
    Err(AbiError::ForbiddenImport { import: name.to_string(), reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_wasi_and_the_pack_interfaces_are_allowed() {
        for ok in ["wasi:cli/environment@0.2.6", "wasi:io/streams@0.2.6", "capstan:pack/bridge@0.1.0"] {
            assert!(check_import(ok, PackVersion::V1).is_ok(), "{ok}");
        }
        assert!(check_import("capstan:pack/bridge@0.2.0", PackVersion::V2).is_ok());
        assert!(check_import("capstan:pack/bridge@0.1.0", PackVersion::V2).is_err(), "one component, one contract version");
    }

    #[test]
    fn network_and_unknown_imports_are_refused() {
        let e = check_import("wasi:sockets/tcp@0.2.6", PackVersion::V2).unwrap_err();
        assert!(e.to_string().contains("no network"), "{e}");
        assert!(check_import("acme:evil/escape@1.0.0", PackVersion::V2).is_err());
        let e = check_import("capstan:pack/bridge@0.9.0", PackVersion::V1).unwrap_err();
        assert!(matches!(e, AbiError::UnsupportedVersion { ref found, .. } if found == "0.9.0"));
    }
}
