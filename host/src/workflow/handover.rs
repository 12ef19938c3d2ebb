//! A file handed from one app's output folder to another's: the step that lets a
//! workflow cross applications (FreeCAD exports a mesh, Blender imports it).
//!
//! Each app is confined to its own instance ([`crate::containment`]): it writes only its
//! own `output/`, and reads only the read roots and its own `output/`. Neither can reach
//! the other's folder, and neither should: the host, which mediates every access, copies
//! the one file the workflow names.
//!
//! # Security reasoning
//!
//! - **Which folders.** For an instance capstan launched, the folders come from capstan's
//!   own runtime record (`instance`: the id of `CAPSTAN_HOME/instances/<id>/`), written
//!   where the app cannot write, never from what the app says about itself: a
//!   compromised app that answered `/ping` with `output_dir: ~/.ssh` must not make the
//!   host read or write there. Only a bridge started by hand (unconfined, so it can
//!   already reach everything its user can) is taken at its word (`/ping`'s
//!   `output_dir`, which must be absolute).
//! - **Which file.** A bare file name (letters, digits, `_ - . space`, not starting with
//!   a dot), opened through a capability handle on the source folder (`cap-std`): no
//!   `..`, no absolute path, no symbolic link that leaves the folder. It must be a
//!   regular file of at most [`crate::limits::HANDOVER_MAX_BYTES`].
//! - **How it lands.** Written under a temporary name in the destination folder, synced,
//!   then renamed over the name: the receiving app never sees half a file, and a link
//!   planted under that name is replaced, never followed. A file of that name already
//!   there is replaced (a workflow run again hands over its mesh again); a host that
//!   dies mid-copy leaves the hidden temporary file behind.
//! - **What it carries.** Bytes only. The receiving app parses them inside its own wall,
//!   like any file from a read root.

use crate::bridge::{BridgeClient, BridgeFailure};
use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};
use serde::Deserialize;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::path::PathBuf;

/// `{"from": SERVER, "to": SERVER, "file": TEMPLATE}` in a workflow step.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HandoverDoc {
    /// The app whose output folder holds the file (`freecad`).
    pub from: String,
    /// The app whose output folder receives it (`blender`).
    pub to: String,
    /// The bare file name: a template (`{"$step": "export", "pointer": "/file_name"}`).
    pub file: Value,
}

impl HandoverDoc {
    /// Load-time checks: two different registered apps.
    pub fn check(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for server in [&self.from, &self.to] {
            if crate::app_units::by_server(server).is_none() {
                problems.push(format!("a handover names {server:?}, which is no registered app"));
            }
        }
        if self.from == self.to {
            problems.push("a handover goes between two different apps".into());
        }
        problems
    }
}

/// Why a handover failed.
#[derive(Debug, thiserror::Error)]
pub enum HandoverError {
    #[error("{0:?} is not a bare file name (letters, digits, _ - . and spaces, not starting with a dot)")]
    NotBareName(String),
    #[error("the output folder of {server} is unknown: {failure}")]
    Unreachable { server: String, failure: BridgeFailure },
    #[error("{file:?} is not in the output folder of {server}")]
    Missing { server: String, file: String },
    #[error("{file:?} in the output folder of {server} is not a regular file")]
    NotRegular { server: String, file: String },
    #[error("{file:?} is larger than {limit} bytes")]
    TooLarge { file: String, limit: u64 },
    #[error("handing over {file:?}: {detail}")]
    Io { file: String, detail: String },
}

impl HandoverError {
    /// The app went away (the workflow's caller forgets what it believed about it).
    pub fn app_unavailable(&self) -> bool {
        matches!(self, HandoverError::Unreachable { failure: BridgeFailure::Unavailable { .. } | BridgeFailure::Transport { .. }, .. })
    }
}

/// A bare file name a handover may carry (at most 200 bytes: the temporary name it is
/// written under first must still fit a file name).
pub fn is_bare_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ' '))
}

/// Copy `file` from `from`'s output folder into `to`'s; the answer names both folders'
/// apps, the file and its size.
pub fn hand_over(client: &dyn BridgeClient, from: &str, to: &str, file: &str) -> Result<Value, HandoverError> {
    if !is_bare_name(file) {
        return Err(HandoverError::NotBareName(file.into()));
    }
    let folder = |server: &str| client.output_folder(server).map_err(|failure| HandoverError::Unreachable { server: server.into(), failure });
    let (source, target) = (folder(from)?, folder(to)?);
    let io = |e: std::io::Error| HandoverError::Io { file: file.into(), detail: e.to_string() };
    let open_dir = |path: &PathBuf, server: &str| {
        Dir::open_ambient_dir(path, ambient_authority())
            .map_err(|e| HandoverError::Unreachable { server: server.into(), failure: BridgeFailure::Transport { reason: "output_folder".into(), detail: format!("{}: {e}", path.display()) } })
    };
    let (source_dir, target_dir) = (open_dir(&source, from)?, open_dir(&target, to)?);
    let mut reader = source_dir.open(file).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => HandoverError::Missing { server: from.into(), file: file.into() },
        _ => io(e),
    })?;
    let meta = reader.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(HandoverError::NotRegular { server: from.into(), file: file.into() });
    }
    let limit = crate::limits::HANDOVER_MAX_BYTES;
    if meta.len() > limit {
        return Err(HandoverError::TooLarge { file: file.into(), limit });
    }
    let mut random = [0u8; 6];
    getrandom::fill(&mut random).map_err(|e| io(std::io::Error::other(e.to_string())))?;
    let temporary = format!(".{file}.capstan-{}", hex::encode(random));
    let mut writer = target_dir.open_with(&temporary, OpenOptions::new().write(true).create_new(true)).map_err(io)?;
    let copied = (|| {
        let bytes = std::io::copy(&mut (&mut reader).take(limit + 1), &mut writer)?;
        if bytes > limit {
            return Err(std::io::Error::other(format!("it grew past {limit} bytes while being copied")));
        }
        writer.flush()?;
        writer.sync_all()?;
        target_dir.rename(&temporary, &target_dir, file)?;
        Ok(bytes)
    })();
    let bytes = copied.map_err(|e| {
        let _ = target_dir.remove_file(&temporary);
        io(e)
    })?;
    Ok(json!({ "from": from, "to": to, "file_name": file, "bytes": bytes }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::BridgeRequest;
    use std::collections::BTreeMap;

    /// Output folders by server, as a launching capstan's records would name them.
    struct Folders(BTreeMap<&'static str, PathBuf>);

    impl BridgeClient for Folders {
        fn call(&self, _: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
            unreachable!("a handover sends no bridge command")
        }

        fn output_folder(&self, server: &str) -> Result<PathBuf, BridgeFailure> {
            self.0.get(server).cloned().ok_or_else(|| BridgeFailure::Unavailable { server: server.into(), state: "app_not_running".into(), detail: "gone".into(), runtime_file_missing: true })
        }
    }

    fn folders() -> (tempfile::TempDir, Folders) {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = (root.path().join("modeler"), root.path().join("renderer"));
        std::fs::create_dir(&a).unwrap();
        std::fs::create_dir(&b).unwrap();
        (root, Folders(BTreeMap::from([("modeler", a), ("renderer", b)])))
    }

    #[test]
    fn the_file_lands_whole_under_its_name() {
        let (_root, f) = folders();
        std::fs::write(f.0["modeler"].join("part.obj"), b"o Part\nv 0 0 0\n").unwrap();
        std::fs::write(f.0["renderer"].join("part.obj"), b"an older export").unwrap();
        let answer = hand_over(&f, "modeler", "renderer", "part.obj").unwrap();
        assert_eq!(answer, json!({ "from": "modeler", "to": "renderer", "file_name": "part.obj", "bytes": 15 }));
        assert_eq!(std::fs::read(f.0["renderer"].join("part.obj")).unwrap(), b"o Part\nv 0 0 0\n");
        let left: Vec<_> = std::fs::read_dir(&f.0["renderer"]).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, ["part.obj"], "no temporary file stays");
    }

    #[test]
    fn names_that_are_not_bare_are_refused() {
        let (_root, f) = folders();
        for bad in ["../part.obj", "/etc/passwd", "sub/part.obj", ".hidden", "", "a\nb.obj"] {
            assert!(matches!(hand_over(&f, "modeler", "renderer", bad), Err(HandoverError::NotBareName(_))), "{bad:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_source_folder_is_not_followed() {
        let (root, f) = folders();
        std::fs::write(root.path().join("secret.txt"), b"secret").unwrap();
        std::os::unix::fs::symlink(root.path().join("secret.txt"), f.0["modeler"].join("part.obj")).unwrap();
        let err = hand_over(&f, "modeler", "renderer", "part.obj").unwrap_err();
        assert!(matches!(err, HandoverError::Io { .. } | HandoverError::Missing { .. }), "{err:?}");
        assert!(!f.0["renderer"].join("part.obj").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_in_the_target_is_replaced_not_followed() {
        let (root, f) = folders();
        let victim = root.path().join("victim.txt");
        std::fs::write(&victim, b"keep me").unwrap();
        std::os::unix::fs::symlink(&victim, f.0["renderer"].join("part.obj")).unwrap();
        std::fs::write(f.0["modeler"].join("part.obj"), b"mesh").unwrap();
        hand_over(&f, "modeler", "renderer", "part.obj").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
        assert!(!std::fs::symlink_metadata(f.0["renderer"].join("part.obj")).unwrap().file_type().is_symlink());
    }

    #[test]
    fn missing_files_folders_and_apps_are_typed() {
        let (_root, f) = folders();
        assert!(matches!(hand_over(&f, "modeler", "renderer", "absent.obj"), Err(HandoverError::Missing { .. })));
        std::fs::create_dir(f.0["modeler"].join("dir.obj")).unwrap();
        assert!(matches!(hand_over(&f, "modeler", "renderer", "dir.obj"), Err(HandoverError::NotRegular { .. })));
        let err = hand_over(&f, "modeler", "painter", "x.obj").unwrap_err();
        assert!(err.app_unavailable(), "{err:?}");
    }
}
