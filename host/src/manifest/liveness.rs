//! `servers.<name>.liveness`: how capstan finds a running app's bridge. With
//! `server_json`, the app publishes a runtime file (address, token, pid) at `path`,
//! and capstan trusts only that file, re-read on every call (bridge/endpoint.rs).

use super::error::{ManifestError, ManifestErrors};
use super::location;
use super::reader::ObjectReader;
use serde::Serialize;
use serde_json::Value;

/// The endpoint path used when a manifest gives none.
pub const DEFAULT_ENDPOINT_PATH: &str = "/mcp";

/// The runtime file's field names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldNames {
    pub url: String,
    pub token: String,
    pub pid: String,
}

impl Default for FieldNames {
    fn default() -> Self {
        FieldNames { url: "http".into(), token: "token".into(), pid: "pid".into() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LivenessDecl {
    /// The app publishes a runtime file at `path` (`~`, `%VAR%`, `$VAR` expanded by capstan).
    ServerJson { path: String, endpoint_path: String, fields: FieldNames },
    /// Nothing to check: the server has no bridge capstan can see.
    None,
}

pub fn parse_liveness(v: &Value, path: &str, errors: &mut ManifestErrors) -> Option<LivenessDecl> {
    let mut r = ObjectReader::new(v, path, errors)?;
    let kind_path = r.path("kind");
    let decl = match r.required_str("kind", errors) {
        Some("none") => Some(LivenessDecl::None),
        Some("server_json") => parse_server_json(&mut r, errors),
        Some(other) => {
            errors.push(ManifestError::new(&kind_path, format!("unknown liveness kind {other:?}; use \"server_json\" or \"none\"")));
            None
        }
        None => None,
    };
    r.finish(errors);
    decl
}

fn parse_server_json(r: &mut ObjectReader<'_>, errors: &mut ManifestErrors) -> Option<LivenessDecl> {
    let file_path = r.path("path");
    let file = match r.optional_str("path", errors) {
        Some(p) => match location::location_error(p) {
            None => Some(p.to_string()),
            Some(why) => {
                errors.push(ManifestError::new(&file_path, why));
                None
            }
        },
        None => {
            errors.push(ManifestError::new(&file_path, "is required for \"server_json\" (where the app writes its runtime file)"));
            None
        }
    };
    let endpoint_at = r.path("endpoint_path");
    let endpoint_path = match r.optional_str("endpoint_path", errors) {
        None => Some(DEFAULT_ENDPOINT_PATH.to_string()),
        Some(e) => match location::endpoint_path_error(e) {
            None => Some(e.to_string()),
            Some(why) => {
                errors.push(ManifestError::new(&endpoint_at, why));
                None
            }
        },
    };
    let fields = parse_fields(r, errors);
    Some(LivenessDecl::ServerJson { path: file?, endpoint_path: endpoint_path?, fields: fields? })
}

/// Field-name overrides: `url_key`/`token_key`/`pid_key`, or `fields`, never both.
fn parse_fields(r: &mut ObjectReader<'_>, errors: &mut ManifestErrors) -> Option<FieldNames> {
    let mut names = FieldNames::default();
    let mut ok = true;
    let mut flat = false;
    for (key, slot) in [("url_key", &mut names.url), ("token_key", &mut names.token), ("pid_key", &mut names.pid)] {
        let at = r.path(key);
        if let Some(v) = r.optional_str(key, errors) {
            flat = true;
            ok &= set_field(v, slot, &at, errors);
        }
    }
    let fields_at = r.path("fields");
    if let Some(v) = r.optional("fields") {
        if flat {
            errors.push(ManifestError::new(&fields_at, "give field names either as url_key/token_key/pid_key or as \"fields\", not both"));
            return None;
        }
        let mut f = ObjectReader::new(v, &fields_at, errors)?;
        for (key, slot) in [("url", &mut names.url), ("token", &mut names.token), ("pid", &mut names.pid)] {
            let at = f.path(key);
            if let Some(v) = f.optional_str(key, errors) {
                ok &= set_field(v, slot, &at, errors);
            }
        }
        f.finish(errors);
    }
    ok.then_some(names)
}

fn set_field(value: &str, slot: &mut String, path: &str, errors: &mut ManifestErrors) -> bool {
    let valid = (1..=64).contains(&value.len()) && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if valid {
        *slot = value.to_string();
    } else {
        errors.push(ManifestError::new(path, format!("{value:?} is not a field name (1-64 of a-z, A-Z, 0-9, '_', '-')")));
    }
    valid
}
