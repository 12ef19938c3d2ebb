//! `servers.<name>`: what a pack needs from each application it talks to.
//!
//! Today: `commands`, the bridge commands the pack may use. Every bridge call a pack
//! makes is checked against this list by the bridge gate, so the list is the pack's
//! whole reach into the application. The app requirement grammar (`app`, `requires`,
//! `liveness`) extends `ServerDecl` here.

use super::error::{ManifestError, ManifestErrors};
use super::reader::{self, ObjectReader};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerDecl {
    /// Bridge commands this pack may send to the server, unique, in manifest order.
    pub commands: Vec<String>,
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
    r.finish(errors);
    Some(ServerDecl { commands })
}
