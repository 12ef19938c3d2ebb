//! `servers.<name>`: what a pack needs from each application it talks to.
//!
//! - `commands`: the bridge commands the pack may use. Every bridge call a pack makes
//!   is checked against this list by the bridge gate, so the list is the pack's whole
//!   reach into the application.
//! - `app` (app.rs): where the app is installed per OS and how its version is read.
//! - `requires`: policy: must the app be present, its `min_version`, and whether it
//!   needs an `interactive_session`. A `min_version` needs every OS block to be able
//!   to read a version, or the check would silently pass on some OS.
//! - `liveness` (liveness.rs): how the running app's bridge is found.

use super::app::{self, AppDecl};
use super::error::{ManifestError, ManifestErrors};
use super::liveness::{self, LivenessDecl};
use super::reader::{self, ObjectReader};
use crate::apps::DottedVersion;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerDecl {
    /// Bridge commands this pack may send to the server, unique, in manifest order.
    pub commands: Vec<String>,
    /// Where the app is, per OS (absent: the pack says nothing about installation).
    pub app: Option<AppDecl>,
    pub requires: Requires,
    /// How to find the running app's bridge (absent: capstan's default for the server).
    pub liveness: Option<LivenessDecl>,
}

/// What a server demands of its app.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Requires {
    /// The app must be installed for the pack to install and its tools to be offered.
    pub app: bool,
    pub min_version: Option<DottedVersion>,
    /// The app needs a graphical login session (not a headless service).
    pub interactive_session: bool,
}

fn is_identifier(s: &str, extra: &[char]) -> bool {
    (1..=64).contains(&s.len())
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || extra.contains(&c))
}

pub fn parse_servers(v: &Value, path: &str, errors: &mut ManifestErrors) -> BTreeMap<String, ServerDecl> {
    let mut out = BTreeMap::new();
    let Value::Object(map) = v else {
        errors.push(ManifestError::new(path, format!("expected an object, found {}", reader::type_name(v))));
        return out;
    };
    if map.is_empty() {
        errors.push(ManifestError::new(path, "must declare at least one server"));
    }
    let mut owner: BTreeMap<String, String> = BTreeMap::new();
    for (name, decl) in map {
        let server_path = reader::join(path, name);
        if !is_identifier(name, &['-']) {
            errors.push(ManifestError::new(
                &server_path,
                "a server name is 1-64 characters of a-z, 0-9, '_' and '-', starting with a letter",
            ));
            continue;
        }
        if let Some(server) = parse_server(decl, &server_path, errors) {
            for (i, c) in server.commands.iter().enumerate() {
                if let Some(other) = owner.insert(c.clone(), name.clone()) {
                    errors.push(ManifestError::new(
                        &reader::index(&reader::join(&server_path, "commands"), i),
                        format!("command {c:?} is already declared by server {other:?}; a command belongs to one server"),
                    ));
                }
            }
            out.insert(name.clone(), server);
        }
    }
    out
}

fn parse_server(v: &Value, path: &str, errors: &mut ManifestErrors) -> Option<ServerDecl> {
    let mut r = ObjectReader::new(v, path, errors)?;
    let commands_path = r.path("commands");
    let mut commands: Vec<String> = Vec::new();
    if let Some(list) = r.required("commands", errors).and_then(|c| reader::as_str_list(c, &commands_path, errors)) {
        if list.is_empty() {
            errors.push(ManifestError::new(&commands_path, "must list at least one bridge command"));
        }
        for (p, c) in list {
            if !is_identifier(c, &[]) {
                errors.push(ManifestError::new(&p, format!("{c:?} is not a bridge command name (a-z, 0-9, '_')")));
            } else if commands.iter().any(|x| x == c) {
                errors.push(ManifestError::new(&p, format!("{c:?} is listed twice")));
            } else {
                commands.push(c.to_string());
            }
        }
    }
    let app = r.optional("app").and_then(|a| app::parse_app(a, &r.path("app"), errors));
    let requires_path = r.path("requires");
    let requires = r.optional("requires").map(|q| parse_requires(q, &requires_path, errors)).unwrap_or_default();
    let liveness = r.optional("liveness").and_then(|l| liveness::parse_liveness(l, &r.path("liveness"), errors));
    check_requirements(&app, &requires, &requires_path, &r.path("app"), errors);
    r.finish(errors);
    Some(ServerDecl { commands, app, requires, liveness })
}

fn parse_requires(v: &Value, path: &str, errors: &mut ManifestErrors) -> Requires {
    let Some(mut r) = ObjectReader::new(v, path, errors) else { return Requires::default() };
    let flag = |r: &mut ObjectReader<'_>, key: &'static str, errors: &mut ManifestErrors| match r.optional(key) {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            errors.push(ManifestError::new(&r.path(key), format!("expected true or false, found {}", reader::type_name(other))));
            false
        }
    };
    let app = flag(&mut r, "app", errors);
    let interactive_session = flag(&mut r, "interactive_session", errors);
    let min_path = r.path("min_version");
    let min_version = r.optional("min_version").and_then(|m| match m {
        Value::String(s) => DottedVersion::parse(s).map_err(|e| errors.push(ManifestError::new(&min_path, e.to_string()))).ok(),
        other => {
            errors.push(ManifestError::new(&min_path, format!("expected a dotted version string like \"4.2\", found {}", reader::type_name(other))));
            None
        }
    });
    r.finish(errors);
    Requires { app, min_version, interactive_session }
}

/// Policy that the data must be able to honour.
fn check_requirements(app: &Option<AppDecl>, requires: &Requires, requires_path: &str, app_path: &str, errors: &mut ManifestErrors) {
    let Some(app) = app else {
        if requires.app || requires.min_version.is_some() {
            let key = if requires.min_version.is_some() { "min_version" } else { "app" };
            errors.push(ManifestError::new(&reader::join(requires_path, key), "needs an \"app\" block saying where the app is and how to read its version"));
        }
        return;
    };
    if requires.min_version.is_some() {
        for (os, block) in app {
            if !block.version.reads_a_version() {
                errors.push(ManifestError::new(
                    &format!("{app_path}.{}.version.kind", os.key()),
                    "\"none\" cannot read a version, but requires.min_version is set",
                ));
            }
        }
    }
}
