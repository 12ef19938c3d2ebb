//! Rust packs: the generic `templates/rust/`, the app unit's pack templates, and how the crate is compiled.

use crate::app_unit::RustClient;
use super::{Names, ScaffoldError, SdkChoice, SdkSource, render};
use std::path::Path;

const CARGO_TOML: &str = include_str!("templates/rust/Cargo.toml.tmpl");
const TOOLCHAIN: &str = include_str!("templates/rust/rust-toolchain.toml.tmpl");
const GITIGNORE: &str = include_str!("templates/rust/gitignore.tmpl");

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

/// The app client crate the templates call (the app unit's), in a local SDK.
fn client() -> Result<RustClient, ScaffoldError> {
    crate::app_units::scaffold_client().ok_or_else(|| ScaffoldError::SdkNotFound { path: Default::default(), reason: "no registered app has a Rust client crate".into() })
}

/// The client crate's folder in a local SDK, checked to hold that crate.
fn client_crate(sdk: &Path, client: RustClient) -> Result<std::path::PathBuf, ScaffoldError> {
    let dir = sdk.join(client.folder);
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    if !text.lines().any(|l| l.trim() == format!("name = \"{}\"", client.crate_name)) {
        return Err(ScaffoldError::SdkNotFound { path: sdk.to_path_buf(), reason: format!("it has no {}/ crate ({}, the app's typed client)", client.folder, client.crate_name) });
    }
    Ok(dir)
}

pub fn files(names: &Names, choice: &SdkChoice) -> Result<(Vec<(String, String)>, SdkSource), ScaffoldError> {
    let sdk = sdk_source(choice)?;
    // Two crates, one source: the generic SDK and the app's client, which is versioned
    // with it (0.2.x builds capstan:pack@0.2.0) and lives in the SDK's checkout.
    let client = client()?;
    let dependency = match &sdk {
        SdkSource::Path(p) => format!(
            "capstan-sdk = {{ path = {} }}\n{} = {{ path = {} }}",
            toml_string(&p.to_string_lossy()),
            client.crate_name,
            toml_string(&client_crate(p, client)?.to_string_lossy())
        ),
        SdkSource::Version(v) => format!("capstan-sdk = {}\n{} = {}", toml_string(v), client.crate_name, toml_string(v)),
    };
    let t = |template: &str| render(template, names, &[("sdk_dependency", &dependency)]);
    let mut files = vec![
        ("Cargo.toml".to_string(), t(CARGO_TOML)),
        ("rust-toolchain.toml".to_string(), t(TOOLCHAIN)),
        (".gitignore".to_string(), t(GITIGNORE)),
    ];
    files.extend(super::app_templates()?.rust.iter().map(|(path, template)| (path.to_string(), t(template))));
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
    use super::super::{Names, SdkChoice};

    fn cargo_toml(choice: &SdkChoice) -> Result<String, super::ScaffoldError> {
        let (files, _) = super::files(&Names::new("demo-pack"), choice)?;
        Ok(files.into_iter().find(|(name, _)| name == "Cargo.toml").expect("a Cargo.toml").1)
    }

    /// A scaffold depends on the generic SDK and on the app client beside it: by path
    /// from a checkout (its `sdk/<folder>/`), else the published crates of one version.
    #[test]
    fn a_scaffold_depends_on_the_sdk_and_the_app_client() {
        let client = super::client().unwrap();
        let sdk = std::fs::canonicalize(concat!(env!("CARGO_MANIFEST_DIR"), "/../sdk")).unwrap();
        let text = cargo_toml(&SdkChoice { path: Some(sdk.clone()), version: None }).unwrap();
        let path = |p: &std::path::Path| serde_json::to_string(&p.to_string_lossy()).unwrap();
        assert!(text.contains(&format!("\ncapstan-sdk = {{ path = {} }}\n", path(&sdk))), "{text}");
        assert!(text.contains(&format!("\n{} = {{ path = {} }}\n", client.crate_name, path(&sdk.join(client.folder)))), "{text}");
        let text = cargo_toml(&SdkChoice { path: None, version: Some("0.2.1".into()) }).unwrap();
        assert!(text.contains(&format!("\ncapstan-sdk = \"0.2.1\"\n{} = \"0.2.1\"\n", client.crate_name)), "{text}");
        // An SDK folder without the client is refused before anything is written.
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("Cargo.toml"), "[package]\nname = \"capstan-sdk\"\n").unwrap();
        let err = cargo_toml(&SdkChoice { path: Some(tmp.path().into()), version: None }).unwrap_err();
        assert_eq!(err.code(), "sdk_not_found");
        assert!(err.to_string().contains(client.crate_name), "{err}");
    }

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
