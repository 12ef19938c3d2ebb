//! What every app unit's launcher shares when it starts a confined app with capstan's
//! bridge: the instance's secret, the pipe that hands secrets over, capstan's record of
//! the instance, and the tail of the app's log for an error message.
//!
//! Security reasoning: a secret is registered with the redactor the moment it exists,
//! before anything is built from it, so no log line or error can carry it; it reaches
//! the app only through a pipe the app reads once (never its command line or
//! environment, which other processes of the user can read); records are written
//! owner-only and atomically, so a client never reads half a record; and a log tail is
//! redacted before it is shown.

use serde_json::Value;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::path::Path;

/// 32 random bytes as hex, registered with the redactor before it goes anywhere.
pub fn new_secret() -> std::io::Result<String> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| std::io::Error::other(e.to_string()))?;
    let key = hex::encode(key);
    crate::redact::register(&key);
    Ok(key)
}

/// A pipe whose read end holds `doc` (then end of file): the app reads its secrets
/// from it once and closes it.
pub fn secrets_pipe(doc: &Value) -> std::io::Result<OwnedFd> {
    let (reader, mut writer) = std::io::pipe()?;
    writer.write_all(doc.to_string().as_bytes())?;
    drop(writer);
    Ok(reader.into())
}

/// capstan's record of the instance, written owner-only and atomically into the
/// instance's folder and, for the live session, where clients look by default.
pub fn write_record(own: &Path, published: Option<&Path>, doc: &Value) -> std::io::Result<()> {
    let bytes = serde_json::to_vec_pretty(doc).map_err(std::io::Error::other)?;
    crate::fsutil::write_private_atomic(own, &bytes)?;
    if let Some(path) = published {
        crate::fsutil::write_private_atomic(path, &bytes)?;
    }
    Ok(())
}

/// The last lines of an app's log, redacted, for an error message.
pub fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().rev().take(15).collect();
    crate::redact::redact(&lines.into_iter().rev().collect::<Vec<_>>().join("\n")).into_owned()
}
