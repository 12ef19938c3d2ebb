//! Reading a pack folder (its `pack.json` and the component it names) through a
//! directory handle: a store entry, an unpacked archive, a catalog checkout, or a
//! folder named on the command line.
//!
//! Security reasoning: the component's file name comes from the pack. The manifest
//! parser already allows only a plain `*.wasm` name; reading it through the folder's
//! handle ([`crate::confined`]) is the second layer: a component (or a `pack.json`)
//! that is a symlink to a file outside the pack folder is refused, not read.

use crate::confined::Folder;
use crate::limits;
use crate::manifest::{self, MANIFEST_FILE};
use crate::plugin::{PackLoadError, PackOrigin, PackSource};

fn io_error(folder: &Folder, name: &str, e: std::io::Error) -> PackLoadError {
    let detail = if crate::confined::is_escape(&e) { format!("{e} (a name that leads out of the pack folder is refused)") } else { e.to_string() };
    PackLoadError::Io { path: folder.shown(name), detail }
}

/// The pack in `folder`: its manifest text and the component bytes it names.
pub fn read(folder: &Folder) -> Result<PackSource, PackLoadError> {
    let manifest_text = folder.read_text(MANIFEST_FILE, limits::MAX_MANIFEST_BYTES).map_err(|e| io_error(folder, MANIFEST_FILE, e))?;
    let parsed = manifest::parse(&manifest_text).map_err(PackLoadError::Manifest)?;
    let component = folder.read(&parsed.component, limits::MAX_COMPONENT_BYTES).map_err(|e| io_error(folder, &parsed.component, e))?;
    Ok(PackSource { origin: PackOrigin::Folder(folder.path().to_path_buf()), manifest_text, component: component.into() })
}

/// The manifest in `folder`, parsed (for listings; the component is not read).
pub fn read_manifest(folder: &Folder) -> Option<manifest::Manifest> {
    folder.read_text(MANIFEST_FILE, limits::MAX_MANIFEST_BYTES).ok().and_then(|t| manifest::parse(&t).ok())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_component_or_manifest_that_links_out_of_the_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let pack = tmp.path().join("pack");
        std::fs::create_dir(&pack).unwrap();
        std::fs::write(tmp.path().join("elsewhere.wasm"), b"\0asm\x0d\0\x01\0").unwrap();
        let manifest = serde_json::json!({
            "schema": 1, "name": "p", "version": "0.1.0", "description": "d", "component": "p.wasm",
            "platforms": ["linux"], "servers": { "sculptor": { "commands": ["get_scene_info"] } }
        });
        std::fs::write(tmp.path().join("pack.json.outside"), manifest.to_string()).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("pack.json.outside"), pack.join(MANIFEST_FILE)).unwrap();
        let folder = Folder::open(&pack).unwrap();
        let e = read(&folder).err().expect("a manifest outside is refused");
        assert!(e.to_string().contains("leads out of the pack folder"), "{e}");

        std::fs::remove_file(pack.join(MANIFEST_FILE)).unwrap();
        std::fs::write(pack.join(MANIFEST_FILE), manifest.to_string()).unwrap();
        std::os::unix::fs::symlink("../elsewhere.wasm", pack.join("p.wasm")).unwrap();
        let e = read(&folder).err().expect("a component outside is refused");
        assert!(e.to_string().contains("leads out of the pack folder"), "{e}");

        // A symlink that stays inside the folder is an ordinary file name.
        std::fs::remove_file(pack.join("p.wasm")).unwrap();
        std::fs::write(pack.join("real.wasm"), b"\0asm\x0d\0\x01\0").unwrap();
        std::os::unix::fs::symlink("real.wasm", pack.join("p.wasm")).unwrap();
        assert_eq!(&*read(&folder).unwrap().component, b"\0asm\x0d\0\x01\0");
    }
}
