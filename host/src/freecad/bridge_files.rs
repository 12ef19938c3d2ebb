//! The embedded FreeCAD bridge (`bridges/freecad/`, with the shared core followed
//! through its `capstan_freecad/core` link), written out read-only where FreeCAD can
//! load it (the generic part, and its security reasoning, is [`crate::bridge_code`]).

use crate::bridge_code::EmbeddedBridge;
use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/bridge_files_freecad.rs"));
}

/// The bridge as embedded at build time.
pub const BRIDGE: EmbeddedBridge = EmbeddedBridge { files: embedded::BRIDGE_FILES, entry: "run_bridge.py" };

/// The bridge's version: it declares none, so the first 16 hex digits of its files'
/// digest (also the name of its materialised folder) identify it.
pub fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| BRIDGE.digest()[..16].to_string())
}

/// The bridge's files under `root` (`CAPSTAN_HOME/bridges/freecad`), read-only; returns
/// the path of `run_bridge.py`.
pub fn materialize(root: &Path) -> std::io::Result<PathBuf> {
    BRIDGE.materialize(root, "bridge")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bridge_the_catalog_and_the_shared_core_are_embedded() {
        let names: Vec<&str> = BRIDGE.files.iter().map(|(p, _)| *p).collect();
        for needed in ["run_bridge.py", "capstan_freecad/commands.json", "capstan_freecad/bridge.py", "capstan_freecad/core/handover.py", "capstan_freecad/core/import_path.py"] {
            assert!(names.contains(&needed), "{needed} is not embedded: {names:?}");
        }
        assert!(names.iter().all(|n| !n.contains("__pycache__") && !n.starts_with("tests/")), "{names:?}");
        let catalog = BRIDGE.files.iter().find(|(p, _)| *p == "capstan_freecad/commands.json").unwrap().1;
        assert_eq!(catalog, super::super::unit::CATALOG_JSON.as_bytes(), "the embedded catalog is the compiled-in one");
    }

    #[test]
    fn it_materialises_read_only() {
        let tmp = tempfile::tempdir().unwrap();
        let script = materialize(tmp.path()).unwrap();
        assert!(script.ends_with("run_bridge.py") && script.is_file());
        let dir = script.parent().unwrap();
        assert!(dir.join("capstan_freecad/core/handover.py").is_file(), "the core link is materialised as files");
        assert!(std::fs::symlink_metadata(dir.join("capstan_freecad/core")).unwrap().is_dir());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(dir).unwrap().permissions().mode() & 0o777, 0o555);
            assert_eq!(std::fs::metadata(&script).unwrap().permissions().mode() & 0o777, 0o444);
        }
        assert_eq!(materialize(tmp.path()).unwrap(), script);
        crate::bridge_code::make_writable(dir);
    }
}
