//! A bridge's code embedded in the binary (by `build.rs`), written out where the app
//! can load it: one read-only folder per content, shared by every app unit.
//!
//! Security reasoning: the launched app runs this code, so nothing may be planted in
//! it. The folder is written once (into a temporary sibling, then renamed into place)
//! and never rewritten: files 0444 and folders 0555, which an app with its privileges
//! dropped cannot change, and which the Landlock ruleset grants read-only besides
//! ([`crate::containment::grants`], the `addon` grant). A folder of that name that
//! exists is this exact content (the name ends in its digest) and is reused as it is.

use std::path::{Path, PathBuf};

/// One bridge's embedded files.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedBridge {
    /// Every file, as (path relative to the bridge's folder, bytes).
    pub files: &'static [(&'static str, &'static [u8])],
    /// The file the app is started with (relative to the folder).
    pub entry: &'static str,
}

/// Marks a fully written folder.
const COMPLETE: &str = ".complete";

impl EmbeddedBridge {
    /// The sha256 of every file's path and bytes.
    pub fn digest(&self) -> String {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        for (rel, bytes) in self.files {
            h.update((rel.len() as u64).to_le_bytes());
            h.update(rel.as_bytes());
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        }
        hex::encode(h.finalize())
    }

    /// The files under `root`, read-only, in a folder named `<label>-<digest prefix>`;
    /// returns the path of the entry file (see the module doc).
    pub fn materialize(&self, root: &Path, label: &str) -> std::io::Result<PathBuf> {
        let digest = self.digest();
        let dir = root.join(format!("{label}-{}", &digest[..16]));
        if dir.join(COMPLETE).is_file() {
            return Ok(dir.join(self.entry));
        }
        crate::fsutil::create_private_dir(root)?;
        let staging = tempfile::Builder::new().prefix(".staging-").tempdir_in(root)?;
        for (rel, bytes) in self.files {
            let path = staging.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("bridge files live in folders"))?;
            std::fs::write(&path, bytes)?;
        }
        std::fs::write(staging.path().join(COMPLETE), &digest)?;
        set_read_only(staging.path())?;
        let staged = staging.keep();
        if std::fs::rename(&staged, &dir).is_err() {
            // Another launch put the same content there first.
            make_writable(&staged);
            let _ = std::fs::remove_dir_all(&staged);
            if !dir.join(COMPLETE).is_file() {
                return Err(std::io::Error::other(format!("{} exists but is not a complete bridge folder", dir.display())));
            }
        }
        Ok(dir.join(self.entry))
    }
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

/// Make a materialised folder removable again (tests, a lost race).
pub fn make_writable(dir: &Path) {
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

#[cfg(test)]
mod tests {
    use super::*;

    static FILES: &[(&str, &[u8])] = &[("run.py", b"print(1)\n"), ("pkg/mod.py", b"x = 1\n")];
    const BRIDGE: EmbeddedBridge = EmbeddedBridge { files: FILES, entry: "run.py" };

    #[test]
    fn the_folder_is_read_only_named_by_its_digest_and_reused() {
        let tmp = tempfile::tempdir().unwrap();
        let entry = BRIDGE.materialize(tmp.path(), "v1").unwrap();
        let dir = entry.parent().unwrap().to_path_buf();
        assert_eq!(dir.file_name().unwrap().to_string_lossy(), format!("v1-{}", &BRIDGE.digest()[..16]));
        for (rel, bytes) in FILES {
            assert_eq!(std::fs::read(dir.join(rel)).unwrap(), *bytes, "{rel}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&dir), 0o555);
            assert_eq!(mode(&dir.join("pkg")), 0o555);
            assert_eq!(mode(&entry), 0o444);
        }
        assert_eq!(BRIDGE.materialize(tmp.path(), "v1").unwrap(), entry);
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
        make_writable(&dir);
    }
}
