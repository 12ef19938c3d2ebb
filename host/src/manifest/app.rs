//! `servers.<name>.app`: where the app a server needs is installed, per OS, and how
//! to read its version. Data only: what to require of it is `requires`.

use super::error::{ManifestError, ManifestErrors};
use super::location;
use super::reader::{self, ObjectReader};
use super::Platform;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// How the app's presence is recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// A macOS application bundle (darwin only).
    Bundle,
    /// An executable file.
    Executable,
}

/// Where the app's version comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum VersionSource {
    /// `Contents/Info.plist` of the bundle, `CFBundleShortVersionString` (darwin only).
    Plist,
    /// The uninstall entries of the Windows registry whose display name starts with the prefix (win32 only).
    UninstallRegistry { display_name_prefix: String },
    /// The fixed file version of a PE executable (win32 only).
    PeResource,
    /// Run the executable with `args`; the first dotted version in its output.
    Command { args: Vec<String> },
    /// The version cannot be read.
    None,
}

impl VersionSource {
    pub fn reads_a_version(&self) -> bool {
        !matches!(self, VersionSource::None)
    }
}

/// One OS block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppBlock {
    pub presence: Presence,
    /// Candidate locations, first match wins.
    pub locations: Vec<String>,
    pub version: VersionSource,
}

pub type AppDecl = BTreeMap<Platform, AppBlock>;

const OS_KEYS: [(&str, Platform); 3] = [("darwin", Platform::Darwin), ("win32", Platform::Win32), ("linux", Platform::Linux)];

pub fn parse_app(v: &Value, path: &str, errors: &mut ManifestErrors) -> Option<AppDecl> {
    let Value::Object(map) = v else {
        errors.push(ManifestError::new(path, format!("expected an object keyed by OS, found {}", reader::type_name(v))));
        return None;
    };
    let mut out = AppDecl::new();
    for (key, block) in map {
        let block_path = reader::join(path, key);
        let Some((_, os)) = OS_KEYS.iter().find(|(k, _)| k == key) else {
            errors.push(ManifestError::new(&block_path, format!("unknown OS key {key:?}; use darwin, win32 or linux")));
            continue;
        };
        if let Some(b) = parse_block(block, &block_path, *os, errors) {
            out.insert(*os, b);
        }
    }
    if map.is_empty() {
        errors.push(ManifestError::new(path, "needs at least one OS block (darwin, win32, linux)"));
    }
    Some(out)
}

fn parse_block(v: &Value, path: &str, os: Platform, errors: &mut ManifestErrors) -> Option<AppBlock> {
    let mut r = ObjectReader::new(v, path, errors)?;
    let presence = r.required_str("presence", errors).and_then(|p| {
        let at = r.path("presence");
        match p {
            "executable" => Some(Presence::Executable),
            "bundle" if os == Platform::Darwin => Some(Presence::Bundle),
            "bundle" => {
                errors.push(ManifestError::new(&at, "\"bundle\" is a macOS app bundle: only allowed in the darwin block"));
                None
            }
            other => {
                errors.push(ManifestError::new(&at, format!("unknown presence {other:?}; use \"executable\" or \"bundle\" (darwin)")));
                None
            }
        }
    });
    let locations = r.required("location", errors).and_then(|l| parse_locations(l, &r.path("location"), errors));
    let version = r.required("version", errors).and_then(|v| parse_version(v, &r.path("version"), os, errors));
    r.finish(errors);
    Some(AppBlock { presence: presence?, locations: locations?, version: version? })
}

fn parse_locations(v: &Value, path: &str, errors: &mut ManifestErrors) -> Option<Vec<String>> {
    let items: Vec<(String, &str)> = match v {
        Value::String(s) => vec![(path.to_string(), s.as_str())],
        Value::Array(_) => reader::as_str_list(v, path, errors)?,
        other => {
            errors.push(ManifestError::new(path, format!("expected a path or a list of paths, found {}", reader::type_name(other))));
            return None;
        }
    };
    if items.is_empty() {
        errors.push(ManifestError::new(path, "must name at least one location"));
        return None;
    }
    let before = errors.0.len();
    for (p, s) in &items {
        if let Some(why) = location::location_error(s) {
            errors.push(ManifestError::new(p, why));
        }
    }
    (errors.0.len() == before).then(|| items.into_iter().map(|(_, s)| s.to_string()).collect())
}

fn parse_version(v: &Value, path: &str, os: Platform, errors: &mut ManifestErrors) -> Option<VersionSource> {
    let mut r = ObjectReader::new(v, path, errors)?;
    let kind_path = r.path("kind");
    let kind = r.required_str("kind", errors);
    let only = |allowed: Platform, name: &str, errors: &mut ManifestErrors| {
        let ok = os == allowed;
        if !ok {
            let block = OS_KEYS.iter().find(|(_, p)| *p == allowed).map(|(k, _)| *k).unwrap_or_default();
            errors.push(ManifestError::new(&kind_path, format!("{name:?} is only allowed in the {block} block")));
        }
        ok
    };
    let source = match kind {
        Some("plist") => only(Platform::Darwin, "plist", errors).then_some(VersionSource::Plist),
        Some("pe_resource") => only(Platform::Win32, "pe_resource", errors).then_some(VersionSource::PeResource),
        Some("none") => Some(VersionSource::None),
        Some("uninstall_registry") => {
            let prefix_path = r.path("display_name_prefix");
            let prefix = r.optional_str("display_name_prefix", errors);
            let allowed = only(Platform::Win32, "uninstall_registry", errors);
            match prefix {
                Some(p) if !p.trim().is_empty() => allowed.then(|| VersionSource::UninstallRegistry { display_name_prefix: p.to_string() }),
                Some(_) => {
                    errors.push(ManifestError::new(&prefix_path, "must not be empty"));
                    None
                }
                None => {
                    errors.push(ManifestError::new(&prefix_path, "is required for \"uninstall_registry\" (the display name to match)"));
                    None
                }
            }
        }
        Some("command") => {
            let args_path = r.path("args");
            let args = match r.optional("args") {
                None => Some(Vec::new()),
                Some(a) => reader::as_str_list(a, &args_path, errors).map(|l| l.into_iter().map(|(_, s)| s.to_string()).collect()),
            };
            args.map(|args| VersionSource::Command { args })
        }
        Some(other) => {
            errors.push(ManifestError::new(
                &kind_path,
                format!("unknown version kind {other:?}; use plist, uninstall_registry, pe_resource, command or none"),
            ));
            None
        }
        None => None,
    };
    r.finish(errors);
    source
}
