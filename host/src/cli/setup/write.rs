//! Reading the config without following a link, the backup, and the atomic replace.

use super::SetupError;
use std::fs::{self, OpenOptions, Permissions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The largest config file `setup` reads: client configs are kilobytes.
const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// The file's text and permissions, or None when it does not exist.
pub fn read(path: &Path) -> Result<Option<(String, Permissions)>, SetupError> {
    let io = |source| SetupError::Io { path: path.to_path_buf(), action: "read", source };
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
        Ok(meta) if !meta.file_type().is_file() => return Err(SetupError::NotRegularFile { path: path.to_path_buf() }),
        Ok(_) => {}
    }
    let mut options = OpenOptions::new();
    options.read(true);
    // Unix: O_NOFOLLOW closes the window between the check above and the open.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(SetupError::NotRegularFile { path: path.to_path_buf() });
    }
    // A file with other hard links: the atomic replace would give this name a new file
    // and leave the other names holding the old one, cut loose as a symbolic link would be.
    #[cfg(unix)]
    if std::os::unix::fs::MetadataExt::nlink(&meta) > 1 {
        return Err(SetupError::HardLinked { path: path.to_path_buf() });
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(SetupError::TooLarge { path: path.to_path_buf(), max: MAX_CONFIG_BYTES });
    }
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(SetupError::TooLarge { path: path.to_path_buf(), max: MAX_CONFIG_BYTES });
    }
    let text = String::from_utf8(bytes).map_err(|_| SetupError::NotUtf8 { path: path.to_path_buf() })?;
    Ok(Some((text, meta.permissions())))
}

/// `path` with `suffix` appended to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// UTC `YYYYMMDDTHHMMSSZ` (civil-from-days, proleptic Gregorian).
fn stamp(now: SystemTime) -> String {
    let secs = now.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Copy `text` (the file's current content) to `<file>.capstan-backup-<UTC stamp>`,
/// never overwriting anything (`-2`, `-3`, ... when the name is taken); the backup
/// gets the file's permissions. Returns its path.
pub fn backup(path: &Path, text: &str, perms: &Permissions) -> Result<PathBuf, SetupError> {
    let base = format!(".capstan-backup-{}", stamp(SystemTime::now()));
    for n in 1..100 {
        let candidate = sibling(path, &if n == 1 { base.clone() } else { format!("{base}-{n}") });
        let io = |source| SetupError::Io { path: candidate.clone(), action: "write the backup", source };
        // create_new refuses an existing name, a symbolic link included.
        let mut file = match OpenOptions::new().write(true).create_new(true).open(&candidate) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            other => other.map_err(io)?,
        };
        file.set_permissions(perms.clone()).map_err(io)?;
        file.write_all(text.as_bytes()).and_then(|()| file.sync_all()).map_err(io)?;
        return Ok(candidate);
    }
    Err(SetupError::Io { path: sibling(path, &base), action: "write the backup", source: std::io::ErrorKind::AlreadyExists.into() })
}

/// Replace `path` by `text` atomically: a temporary file in the same folder, its
/// permissions set, flushed to disk, then renamed over `path`. Creates the folder.
pub fn replace(path: &Path, text: &str, perms: Option<&Permissions>) -> Result<(), SetupError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let io = |action, source| SetupError::Io { path: path.to_path_buf(), action, source };
    fs::create_dir_all(dir).map_err(|e| io("create the folder of", e))?;
    let mut tmp = tempfile::Builder::new().prefix(".capstan-setup-").tempfile_in(dir).map_err(|e| io("write a temporary file beside", e))?;
    if let Some(perms) = perms {
        tmp.as_file().set_permissions(perms.clone()).map_err(|e| io("set permissions on the new", e))?;
    }
    // A new file keeps tempfile's owner-only mode (0600 on Unix): these files hold
    // commands and, often, credentials in `env`.
    tmp.write_all(text.as_bytes()).and_then(|()| tmp.as_file().sync_all()).map_err(|e| io("write", e))?;
    tmp.persist(path).map_err(|e| io("replace", e.error))?;
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_calendar_times() {
        assert_eq!(stamp(UNIX_EPOCH), "19700101T000000Z");
        assert_eq!(stamp(UNIX_EPOCH + std::time::Duration::from_secs(1_709_210_096)), "20240229T123456Z");
    }
}
