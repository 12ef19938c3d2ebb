//! The ABI check: which contract version a component was built for, and what it asks
//! the host to provide. Both are read from the component's type, before linking, so a
//! pack built for another version is refused with a message rather than a link error
//! or a trap.
//!
//! Security reasoning: the import list is the component's declared reach. Packs may
//! import the capstan pack interfaces of their own contract version and the WASI
//! interfaces in [`ALLOWED_IMPORTS`] (the one list; each row says why it is safe and
//! what the sandbox links it to: `sandbox/state.rs` builds the WASI context with no
//! preopened folder, no environment, no arguments, no network). A pack asking for
//! sockets, HTTP or anything else is refused outright rather than linked to a trap, so
//! the refusal is visible when it is built (`packs build`), validated and installed,
//! and the message names the import.

use wasmtime::Engine;
use wasmtime::component::Component;

/// The pack contract versions this host implements: 0.1.0 and 0.2.0 (both frozen).
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

/// One interface family a pack may import.
#[derive(Debug, Clone, Copy)]
pub struct AllowedImport {
    /// The import's name starts with this (`wasi:cli/` covers `wasi:cli/stdout@0.2.6`).
    pub prefix: &'static str,
    /// Why granting it gives the pack no authority: what the sandbox links it to.
    pub why: &'static str,
}

/// Every WASI interface a pack may import. Rust's std for `wasm32-wasip2` imports
/// these even when a pack never uses them; other toolchains (componentize-py,
/// componentize-js) bring the same families. Anything not listed is refused.
pub const ALLOWED_IMPORTS: &[AllowedImport] = &[
    AllowedImport {
        prefix: "wasi:cli/",
        why: "arguments and environment are empty, stdin is empty, stdout/stderr are captured and capped (sandbox/stdio.rs), exit ends only the call's instance",
    },
    AllowedImport {
        prefix: "wasi:io/",
        why: "streams and pollables over the resources above; no handle reaches outside the call",
    },
    AllowedImport {
        prefix: "wasi:clocks/",
        why: "reading the time; the call's timeout and deadline are enforced by the host (an epoch deadline), not by the guest's clock",
    },
    AllowedImport {
        prefix: "wasi:random/",
        why: "random bytes; no state, no authority",
    },
    AllowedImport {
        prefix: "wasi:filesystem/",
        why: "the types std links against; no folder is preopened, so there is no file to open",
    },
];

/// Import prefixes refused with a reason of their own (everything unlisted is refused too).
const NETWORK_PREFIXES: &[&str] = &["wasi:sockets/", "wasi:http/"];

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
    if ALLOWED_IMPORTS.iter().any(|a| name.starts_with(a.prefix)) {
        return Ok(());
    }
    let reason = if NETWORK_PREFIXES.iter().any(|p| name.starts_with(p)) {
        "packs have no network access; the bridge is their only door".to_string()
    } else {
        let allowed: Vec<&str> = ALLOWED_IMPORTS.iter().map(|a| a.prefix).collect();
        format!("it is not part of the pack contract; packs may import {PACK_PACKAGE}/* and {}", allowed.join(", "))
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
        for network in ["wasi:sockets/tcp@0.2.6", "wasi:sockets/ip-name-lookup@0.2.0", "wasi:http/outgoing-handler@0.2.0"] {
            let e = check_import(network, PackVersion::V2).unwrap_err();
            assert!(e.to_string().contains("no network") && e.to_string().contains(network), "{e}");
        }
        assert!(check_import("acme:evil/escape@1.0.0", PackVersion::V2).is_err());
        let e = check_import("capstan:pack/bridge@0.9.0", PackVersion::V1).unwrap_err();
        assert!(matches!(e, AbiError::UnsupportedVersion { ref found, .. } if found == "0.9.0"));
    }
}
