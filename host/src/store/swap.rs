//! Staging, publishing and retiring store folders so that a reader (or a kill) never
//! sees half a pack: files are written and synced in a dot-folder, then one rename
//! (or an atomic exchange with the old version) makes them the pack.
//!
//! Every operation goes through the store's directory handle ([`Folder`]): staging,
//! pack and leftover names are resolved inside `packs/` and cannot leave it, and a
//! symlink planted in the store is removed as a link, never followed.

use crate::confined::{Folder, plain_name};
use std::fs::File;

/// An exclusive lock on the store, held for one operation.
pub struct StoreLock {
    _file: File,
}

impl StoreLock {
    pub fn acquire(store: &Folder) -> std::io::Result<Self> {
        let file = store.open_for_lock(".lock")?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: flock on a descriptor this function owns; released when the File closes.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(StoreLock { _file: file })
    }
}

fn unique(kind: &str, name: &str) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
    format!(".{kind}-{name}-{}-{nanos}", std::process::id())
}

/// Write `files` into a fresh staging folder, each synced, and return its name.
pub fn stage(store: &Folder, name: &str, files: &[(&str, &[u8])]) -> std::io::Result<String> {
    let staged = unique("staging", plain_name(name)?);
    let dir = store.create_new_folder(&staged)?;
    for (file, bytes) in files {
        dir.write_new(plain_name(file)?, bytes)?;
    }
    dir.sync();
    Ok(staged)
}

/// Make the staged folder the pack `target`: a rename when there is none, an atomic
/// exchange when an older version is there (which is then removed).
pub fn publish(store: &Folder, staged: &str, target: &str) -> std::io::Result<()> {
    plain_name(target)?;
    if !store.exists(target) {
        store.rename(staged, target)?;
        store.sync();
        return Ok(());
    }
    exchange(store, staged, target)?;
    store.sync();
    pause_point("swapped");
    // `staged` now holds the old version.
    store.remove_dir_all(staged)
}

#[cfg(target_os = "linux")]
fn exchange(store: &Folder, a: &str, b: &str) -> std::io::Result<()> {
    store.exchange(a, b)
}

/// Without an atomic exchange: move the old version aside, then the new one in. A
/// kill between the two renames leaves the old version whole in a dot-folder.
#[cfg(not(target_os = "linux"))]
fn exchange(store: &Folder, a: &str, b: &str) -> std::io::Result<()> {
    let aside = unique("old", b);
    store.rename(b, &aside)?;
    store.rename(a, b)?;
    store.rename(&aside, a)
}

/// Take `target` out of the store with one rename, then delete it.
pub fn retire(store: &Folder, target: &str) -> std::io::Result<()> {
    let gone = unique("removing", plain_name(target)?);
    store.rename(target, &gone)?;
    store.sync();
    store.remove_dir_all(&gone)
}

/// Delete what an interrupted operation left: dot-folders (never read as packs).
/// Called with the store lock held, so no operation is in progress. A leftover name
/// that is a symlink is removed as a link; what it points to is never touched.
pub fn remove_leftovers(store: &Folder) {
    let Ok(entries) = store.entries() else { return };
    for entry in entries {
        let leftover = entry.name.starts_with(".staging-") || entry.name.starts_with(".removing-") || entry.name.starts_with(".old-");
        if leftover && (entry.is_dir() || entry.file_type.is_symlink()) {
            let _ = store.remove_dir_all(&entry.name);
        }
    }
}

/// Test hook: with `CAPSTAN_STORE_PAUSE=<point>`, the operation announces the point on
/// stderr and waits there, so a test can kill it at exactly that moment. Points:
/// `staged` (new version written, not yet visible), `swapped` (new version visible,
/// old one not yet deleted).
pub fn pause_point(point: &str) {
    if std::env::var("CAPSTAN_STORE_PAUSE").is_ok_and(|p| p == point) {
        eprintln!("capstan: paused at {point}");
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn hostile_names_and_planted_symlinks_stay_inside_the_store() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("keep"), b"keep").unwrap();
        let store = Folder::create_private(&tmp.path().join("packs")).unwrap();

        assert!(stage(&store, "../evil", &[("pack.json", b"{}")]).is_err());
        assert!(stage(&store, "ok", &[("../../outside/pack.json", b"{}")]).is_err());
        assert!(!outside.join("pack.json").exists());
        assert!(retire(&store, "../outside").is_err());
        assert!(publish(&store, ".x", "../outside").is_err());

        // A leftover-looking symlink to a folder outside: removed as a link only.
        std::os::unix::fs::symlink(&outside, tmp.path().join("packs/.staging-planted")).unwrap();
        remove_leftovers(&store);
        assert!(!store.exists(".staging-planted"));
        assert_eq!(std::fs::read(outside.join("keep")).unwrap(), b"keep");

        // Retiring a pack that is a symlink to a folder outside removes the link only.
        std::os::unix::fs::symlink(&outside, tmp.path().join("packs/linked")).unwrap();
        retire(&store, "linked").unwrap();
        assert_eq!(std::fs::read(outside.join("keep")).unwrap(), b"keep");

        let staged = stage(&store, "good", &[("pack.json", b"{}")]).unwrap();
        publish(&store, &staged, "good").unwrap();
        assert!(store.is_file("good/pack.json"));
    }
}
