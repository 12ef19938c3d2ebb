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

/// Write every file below `dir` (atomically per file) and return the path of
/// `run_bridge.py`. Existing files are replaced, so the copy always matches this binary.
pub fn materialize(dir: &Path) -> std::io::Result<PathBuf> {
    for (rel, bytes) in files() {
        let path = dir.join(rel);
        let parent = path.parent().expect("add-on files live in folders");
        std::fs::create_dir_all(parent)?;
        let mut tmp = tempfile::NamedTempFile::new_in(parent)?;
        std::io::Write::write_all(&mut tmp, bytes)?;
        tmp.persist(&path).map_err(|e| e.error)?;
    }
    Ok(dir.join("run_bridge.py"))
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
