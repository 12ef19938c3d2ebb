//! The embedded add-on (`bridges/blender/`), written out where Blender can load it.

use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/addon_files.rs"));
}

/// Every add-on file, as (path relative to `bridges/blender/`, bytes).
pub fn files() -> &'static [(&'static str, &'static [u8])] {
    embedded::ADDON_FILES
}

/// The add-on's version, from its extension manifest.
pub fn version() -> &'static str {
    let manifest = files()
        .iter()
        .find(|(p, _)| *p == "capstan_bridge/blender_manifest.toml")
        .map(|(_, b)| std::str::from_utf8(b).unwrap_or(""))
        .unwrap_or("");
    manifest
        .lines()
        .find_map(|l| l.strip_prefix("version = \"").and_then(|r| r.strip_suffix('"')))
        .unwrap_or("0.0.0")
}

/// The add-on's files under `addon_root` (`CAPSTAN_HOME/addon`), read-only, in a folder
/// named by the add-on's version and the digest of its files; returns the path of
/// `run_bridge.py`.
///
/// Security reasoning: the launched Blender runs this code, so nothing may be planted in
/// it. The folder is written once (into a temporary sibling, then renamed into place) and
/// never rewritten: files 0444 and folders 0555, which a Blender with its privileges
/// dropped cannot change, and which the Landlock ruleset grants read-only besides. A
/// folder of that name that exists is this exact content (the name is its digest).
pub fn materialize(addon_root: &Path) -> std::io::Result<PathBuf> {
    let dir = addon_root.join(format!("{}-{}", version(), &digest()[..16]));
    if dir.join(COMPLETE).is_file() {
        return Ok(dir.join("run_bridge.py"));
    }
    crate::fsutil::create_private_dir(addon_root)?;
    let staging = tempfile::Builder::new().prefix(".staging-").tempdir_in(addon_root)?;
    for (rel, bytes) in files() {
        let path = staging.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("add-on files live in folders"))?;
        std::fs::write(&path, bytes)?;
    }
    std::fs::write(staging.path().join(COMPLETE), digest())?;
    set_read_only(staging.path())?;
    let staged = staging.keep();
    if std::fs::rename(&staged, &dir).is_err() {
        // Another launch put the same content there first.
        make_writable(&staged);
        let _ = std::fs::remove_dir_all(&staged);
        if !dir.join(COMPLETE).is_file() {
            return Err(std::io::Error::other(format!("{} exists but is not a complete add-on folder", dir.display())));
        }
    }
    Ok(dir.join("run_bridge.py"))
}

/// Marks a fully written add-on folder.
const COMPLETE: &str = ".complete";

/// The sha256 of every add-on file's path and bytes.
pub fn digest() -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for (rel, bytes) in files() {
        h.update((rel.len() as u64).to_le_bytes());
        h.update(rel.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    hex::encode(h.finalize())
}

fn walk(dir: &Path, f: &mut dyn FnMut(&Path, bool)) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let path = e.path();
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if is_dir {
                walk(&path, f);
            }
            f(&path, is_dir);
        }
    }
}

fn set_read_only(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut result = Ok(());
        walk(dir, &mut |path, is_dir| {
            let mode = if is_dir { 0o555 } else { 0o444 };
            if let Err(e) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)) {
                result = Err(e);
            }
        });
        result?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555))?;
    }
    let _ = dir;
    Ok(())
}

fn make_writable(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755));
        walk(dir, &mut |path, is_dir| {
            if is_dir {
                let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755));
            }
        });
    }
    let _ = dir;
}

/// Write only the `capstan_bridge` package into `dir` (for installing into Blender).
pub fn materialize_package(dir: &Path) -> std::io::Result<()> {
    for (rel, bytes) in files() {
        if let Some(inner) = rel.strip_prefix("capstan_bridge/") {
            let path = dir.join(inner);
            std::fs::create_dir_all(path.parent().expect("inside the package"))?;
            std::fs::write(&path, bytes)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_addon_folder_is_read_only_named_by_its_digest_and_reused() {
        let tmp = tempfile::tempdir().unwrap();
        let script = materialize(tmp.path()).unwrap();
        let dir = script.parent().unwrap().to_path_buf();
        assert!(dir.file_name().unwrap().to_string_lossy().ends_with(&digest()[..16]));
        for (rel, bytes) in files() {
            assert_eq!(std::fs::read(dir.join(rel)).unwrap(), *bytes, "{rel}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&dir), 0o555);
            assert_eq!(mode(&dir.join("capstan_bridge")), 0o555);
            assert_eq!(mode(&script), 0o444);
        }
        // A second launch reuses it as it is; no staging folder is left behind.
        assert_eq!(materialize(tmp.path()).unwrap(), script);
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
        make_writable(&dir);
    }
}
