//! Moving an item's files out of its worker's output folder into the batch's results.
//!
//! # Security reasoning
//!
//! The worker app is confined: it writes only its instance's `output/`. The host, which
//! is not confined, must not let that folder's contents make it read or write anywhere
//! else. So the folder is opened as a capability handle (`cap-std`): every name is
//! resolved inside it, a symbolic link is never followed (links and other special files
//! are left where they are and reported), and only regular files are copied, each under
//! [`crate::limits::HANDOVER_MAX_BYTES`]. Each lands under a temporary name in the
//! item's own results folder and is renamed into place, so a reader of the results never
//! sees half a file. The source is removed after the copy, so the next item starts with
//! an empty output folder and no file is credited to two items.

use cap_std::ambient_authority;
use cap_std::fs::Dir;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Deepest folder nesting collected below `output/`.
const MAX_DEPTH: usize = 8;
/// Most files one item may leave.
const MAX_FILES: usize = 10_000;

/// What an item left: the files moved (paths relative to the results folder) and what
/// was left behind, with why.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Collected {
    pub files: Vec<String>,
    pub skipped: Vec<String>,
}

/// Move every regular file below `source` into `results/outputs/<item>/`, keeping the
/// relative paths.
pub fn collect(source: &Path, results: &Path, item: &str) -> std::io::Result<Collected> {
    let dir = Dir::open_ambient_dir(source, ambient_authority())?;
    let mut collected = Collected::default();
    let target = results.join("outputs").join(item);
    // What an earlier, lost or failed attempt of this item left there is not this one's.
    if target.is_dir() && !target.is_symlink() {
        std::fs::remove_dir_all(&target)?;
    }
    walk(&dir, Path::new(""), &target, results, 0, &mut collected)?;
    collected.files.sort();
    Ok(collected)
}

/// Empty `source` (what a lost attempt left), never following a link out of it.
pub fn clear(source: &Path) {
    let Ok(dir) = Dir::open_ambient_dir(source, ambient_authority()) else { return };
    let Ok(entries) = dir.entries() else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => {
                let _ = dir.remove_dir_all(&name);
            }
            _ => {
                let _ = dir.remove_file(&name);
            }
        }
    }
}

fn walk(dir: &Dir, rel: &Path, target: &Path, results: &Path, depth: usize, out: &mut Collected) -> std::io::Result<()> {
    for entry in dir.entries()? {
        let entry = entry?;
        let name = entry.file_name();
        let path = rel.join(&name);
        let kind = entry.file_type()?;
        if out.files.len() >= MAX_FILES {
            out.skipped.push(format!("{}: more than {MAX_FILES} files", path.display()));
            return Ok(());
        }
        if kind.is_dir() && depth >= MAX_DEPTH {
            out.skipped.push(format!("{}: folders deeper than {MAX_DEPTH} are not collected", path.display()));
            let _ = dir.remove_dir_all(&name);
        } else if kind.is_dir() {
            let sub = dir.open_dir(&name)?;
            walk(&sub, &path, target, results, depth + 1, out)?;
            let _ = dir.remove_dir(&name);
        } else if kind.is_file() {
            match copy_out(dir, &name, &target.join(&path)) {
                Ok(()) => {
                    let _ = dir.remove_file(&name);
                    let landed = target.join(&path);
                    out.files.push(landed.strip_prefix(results).unwrap_or(&landed).to_string_lossy().into_owned());
                }
                Err(e) => out.skipped.push(format!("{}: {e}", path.display())),
            }
        } else {
            out.skipped.push(format!("{}: not a regular file (links are not followed)", path.display()));
            let _ = dir.remove_file(&name);
        }
    }
    Ok(())
}

fn copy_out(dir: &Dir, name: &std::ffi::OsStr, to: &PathBuf) -> std::io::Result<()> {
    let mut file = dir.open(name)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.len() > crate::limits::HANDOVER_MAX_BYTES {
        return Err(std::io::Error::other(format!("larger than {} bytes", crate::limits::HANDOVER_MAX_BYTES)));
    }
    let parent = to.parent().ok_or_else(|| std::io::Error::other("no parent folder"))?;
    crate::fsutil::create_private_dir(parent)?;
    let mut temp = tempfile::NamedTempFile::new_in(parent)?;
    let copied = std::io::copy(&mut (&mut file).take(crate::limits::HANDOVER_MAX_BYTES + 1), temp.as_file_mut())?;
    if copied > crate::limits::HANDOVER_MAX_BYTES {
        return Err(std::io::Error::other("grew past the limit while copied"));
    }
    temp.as_file_mut().flush()?;
    temp.as_file().sync_all()?;
    temp.persist(to).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_move_links_stay_and_nothing_outside_is_read() {
        let tmp = tempfile::tempdir().unwrap();
        let source = tmp.path().join("output");
        let results = tmp.path().join("results");
        std::fs::create_dir_all(source.join("frames")).unwrap();
        std::fs::write(source.join("shot.png"), b"png").unwrap();
        std::fs::write(source.join("frames/0001.png"), b"f1").unwrap();
        let secret = tmp.path().join("secret");
        std::fs::write(&secret, b"do not copy").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&secret, source.join("link.png")).unwrap();
        let got = collect(&source, &results, "a").unwrap();
        assert_eq!(got.files, vec!["outputs/a/frames/0001.png".to_string(), "outputs/a/shot.png".to_string()]);
        assert_eq!(std::fs::read(results.join("outputs/a/shot.png")).unwrap(), b"png");
        assert!(!results.join("outputs/a/link.png").exists());
        #[cfg(unix)]
        assert!(got.skipped.iter().any(|s| s.contains("link.png")), "{:?}", got.skipped);
        assert_eq!(std::fs::read(&secret).unwrap(), b"do not copy");
        assert_eq!(std::fs::read_dir(&source).unwrap().count(), 0, "the next item starts empty");
        assert_eq!(collect(&source, &results, "b").unwrap(), Collected::default());
    }

    #[test]
    fn clearing_removes_links_not_what_they_name() {
        let tmp = tempfile::tempdir().unwrap();
        let source = tmp.path().join("output");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(source.join("sub")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("keep"), b"k").unwrap();
        std::fs::write(source.join("sub/x"), b"x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&outside, source.join("dirlink")).unwrap();
        clear(&source);
        assert_eq!(std::fs::read_dir(&source).unwrap().count(), 0);
        assert_eq!(std::fs::read(outside.join("keep")).unwrap(), b"k");
    }
}
