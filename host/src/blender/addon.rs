//! The embedded add-on (`bridges/blender/`), written out where Blender can load it.

use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/bridge_files_blender.rs"));
}

/// Every add-on file, as (path relative to `bridges/blender/`, bytes).
pub fn files() -> &'static [(&'static str, &'static [u8])] {
    embedded::BRIDGE_FILES
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
/// `run_bridge.py`. The security reasoning is [`crate::bridge_code`]'s, which does it.
pub fn materialize(addon_root: &Path) -> std::io::Result<PathBuf> {
    BRIDGE.materialize(addon_root, version())
}

/// The add-on as an embedded bridge.
const BRIDGE: crate::bridge_code::EmbeddedBridge = crate::bridge_code::EmbeddedBridge { files: embedded::BRIDGE_FILES, entry: "run_bridge.py" };

/// The sha256 of every add-on file's path and bytes.
pub fn digest() -> String {
    BRIDGE.digest()
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
        crate::bridge_code::make_writable(&dir);
    }
}
