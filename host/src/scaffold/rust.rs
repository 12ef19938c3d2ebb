//! Rust packs: the templates under `templates/rust/` and how the crate is compiled.

use super::{Names, ScaffoldError, SdkChoice, SdkSource, render};
use std::path::Path;

const CARGO_TOML: &str = include_str!("templates/rust/Cargo.toml.tmpl");
const TOOLCHAIN: &str = include_str!("templates/rust/rust-toolchain.toml.tmpl");
const GITIGNORE: &str = include_str!("templates/rust/gitignore.tmpl");
const PACK_JSON: &str = include_str!("templates/rust/pack.json.tmpl");
const README: &str = include_str!("templates/rust/README.md.tmpl");
const LIB_RS: &str = include_str!("templates/rust/lib.rs.tmpl");
const COUNT_OBJECTS_RS: &str = include_str!("templates/rust/count_objects.rs.tmpl");
const ADD_MARKER_RS: &str = include_str!("templates/rust/add_marker.rs.tmpl");

/// The published SDK a scaffold outside a checkout depends on: the SDK's version is the
/// version of the WIT contract it builds (`capstan-sdk` 0.2.x: `capstan:pack@0.2.0`).
pub const SDK_VERSION: &str = "0.2";

/// Which SDK the crate depends on: `--sdk PATH`, `--sdk-version V`, the checkout this
/// binary belongs to, or else the published crate of the contract this capstan builds.
pub fn sdk_source(choice: &SdkChoice) -> Result<SdkSource, ScaffoldError> {
    if let Some(path) = &choice.path {
        return super::sdk_dir(path).map(SdkSource::Path);
    }
    if let Some(version) = &choice.version {
        return Ok(SdkSource::Version(version.clone()));
    }
    Ok(match super::checkout_sdk()? {
        Some(path) => SdkSource::Path(path),
        None => SdkSource::Version(SDK_VERSION.to_string()),
    })
}

/// A TOML basic string (JSON's escapes are TOML's).
fn toml_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

pub fn files(names: &Names, choice: &SdkChoice) -> Result<(Vec<(String, String)>, SdkSource), ScaffoldError> {
    let sdk = sdk_source(choice)?;
    let dependency = match &sdk {
        SdkSource::Path(p) => format!("capstan-sdk = {{ path = {} }}", toml_string(&p.to_string_lossy())),
        SdkSource::Version(v) => format!("capstan-sdk = {}", toml_string(v)),
    };
    let t = |template: &str| render(template, names, &[("sdk_dependency", &dependency)]);
    let mut files = vec![
        ("Cargo.toml".to_string(), t(CARGO_TOML)),
        ("rust-toolchain.toml".to_string(), t(TOOLCHAIN)),
        (".gitignore".to_string(), t(GITIGNORE)),
        ("pack.json".to_string(), t(PACK_JSON)),
        ("README.md".to_string(), t(README)),
        ("src/lib.rs".to_string(), t(LIB_RS)),
        ("src/capabilities/count_objects.rs".to_string(), t(COUNT_OBJECTS_RS)),
        ("src/capabilities/add_marker.rs".to_string(), t(ADD_MARKER_RS)),
    ];
    // A checkout's lock file pins the versions the SDK is tested with (and lets the
    // build run offline from the same registry cache); cargo drops what it does not use.
    if let SdkSource::Path(p) = &sdk
        && let Some(lock) = p.parent().map(|w| w.join("Cargo.lock"))
        && let Ok(text) = std::fs::read_to_string(&lock)
    {
        files.push(("Cargo.lock".to_string(), text));
    }
    Ok((files, sdk))
}

/// True when `dir` holds a Rust pack (a Cargo.toml).
pub fn is_rust_pack(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file()
}

#[cfg(test)]
mod tests {
    /// A scaffold outside a checkout asks for the SDK of the contract capstan builds; the
    /// SDK's own version and its bindings must say the same.
    #[test]
    fn the_published_sdk_version_is_the_contract_version() {
        let manifest = include_str!("../../../sdk/Cargo.toml");
        assert!(manifest.contains(&format!("\nversion = \"{}.0\"\n", super::SDK_VERSION)), "sdk/Cargo.toml is not version {}.0", super::SDK_VERSION);
        let bindings = include_str!("../../../sdk/src/bindings.rs");
        assert!(bindings.contains(&format!("pack@{}.0", super::SDK_VERSION)), "the SDK's bindings build another contract");
        assert!(super::super::PACK_WIT.contains(&format!("package capstan:pack@{}.0;", super::SDK_VERSION)));
    }
}
