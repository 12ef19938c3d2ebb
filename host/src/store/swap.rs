//! Staging, publishing and retiring store folders so that a reader (or a kill) never
//! sees half a pack: files are written and synced in a dot-folder, then one rename
//! (or an atomic exchange with the old version) makes them the pack.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// An exclusive lock on the store, held for one operation.
pub struct StoreLock {
    _file: File,
}

impl StoreLock {
    pub fn acquire(store: &Path) -> std::io::Result<Self> {
        std::fs::create_dir_all(store)?;
        let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(store.join(".lock"))?;
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

fn unique(store: &Path, kind: &str, name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
    store.join(format!(".{kind}-{name}-{}-{nanos}", std::process::id()))
}

/// Write `files` into a fresh staging folder, each synced, and return it.
pub fn stage(store: &Path, name: &str, files: &[(&str, &[u8])]) -> std::io::Result<PathBuf> {
    let dir = unique(store, "staging", name);
    std::fs::create_dir_all(&dir)?;
    for (file, bytes) in files {
        let mut f = File::create(dir.join(file))?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    sync_dir(&dir);
    Ok(dir)
}

/// Make `staged` the pack at `target`: a rename when there is none, an atomic
/// exchange when an older version is there (which is then removed).
pub fn publish(staged: &Path, target: &Path) -> std::io::Result<()> {
    let store = target.parent().unwrap_or(Path::new("."));
    if !target.exists() {
        std::fs::rename(staged, target)?;
        sync_dir(store);
        return Ok(());
    }
    exchange(staged, target)?;
    sync_dir(store);
    pause_point("swapped");
    // `staged` now holds the old version.
    std::fs::remove_dir_all(staged)
}

#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let (ca, cb) = (CString::new(a.as_os_str().as_bytes())?, CString::new(b.as_os_str().as_bytes())?);
    // SAFETY: two valid NUL-terminated paths; renameat2 only reads them.
    let rc = unsafe { libc::renameat2(libc::AT_FDCWD, ca.as_ptr(), libc::AT_FDCWD, cb.as_ptr(), libc::RENAME_EXCHANGE) };
    if rc == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
}

/// Without an atomic exchange: move the old version aside, then the new one in. A
/// kill between the two renames leaves the old version whole in a dot-folder.
#[cfg(not(target_os = "linux"))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    let store = b.parent().unwrap_or(Path::new("."));
    let aside = unique(store, "old", &b.file_name().unwrap_or_default().to_string_lossy());
    std::fs::rename(b, &aside)?;
    std::fs::rename(a, b)?;
    std::fs::rename(&aside, a)
}

/// Take `target` out of the store with one rename, then delete it.
pub fn retire(store: &Path, target: &Path) -> std::io::Result<()> {
    let gone = unique(store, "removing", &target.file_name().unwrap_or_default().to_string_lossy());
    std::fs::rename(target, &gone)?;
    sync_dir(store);
    std::fs::remove_dir_all(&gone)
}

/// Delete what an interrupted operation left: dot-folders (never read as packs).
/// Called with the store lock held, so no operation is in progress.
pub fn remove_leftovers(store: &Path) {
    let Ok(entries) = std::fs::read_dir(store) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let leftover = name.starts_with(".staging-") || name.starts_with(".removing-") || name.starts_with(".old-");
        if leftover && entry.path().is_dir() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
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
