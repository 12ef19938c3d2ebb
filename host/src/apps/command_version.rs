//! The `command` version source: run the app with `args` (`blender --version`) and
//! take the first dotted version it prints.
//!
//! The app runs with no stdin, its output capped, and a deadline after which it is
//! killed: a version probe must never hang an install or `doctor`.

use super::DottedVersion;
use crate::limits;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandVersionError {
    #[error("cannot run {program}: {detail}")]
    Spawn { program: String, detail: String },
    #[error("{program} did not finish within {} s", timeout.as_secs())]
    Timeout { program: String, timeout: Duration },
    #[error("{program} printed no dotted version")]
    NoVersion { program: String },
}

pub fn read(program: &Path, args: &[String], timeout: Duration) -> Result<DottedVersion, CommandVersionError> {
    let name = program.display().to_string();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| CommandVersionError::Spawn { program: name.clone(), detail: e.to_string() })?;
    let cap = limits::APP_VERSION_OUTPUT_BYTES as u64;
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let readers = [stdout.map(|s| Box::new(s) as Box<dyn Read + Send>), stderr.map(|s| Box::new(s) as Box<dyn Read + Send>)]
        .into_iter()
        .flatten()
        .map(|r| {
            std::thread::spawn(move || {
                let mut text = Vec::new();
                let _ = r.take(cap).read_to_end(&mut text);
                text
            })
        })
        .collect::<Vec<_>>();
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(CommandVersionError::Timeout { program: name, timeout });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(CommandVersionError::Spawn { program: name, detail: e.to_string() }),
        }
    }
    let output: Vec<u8> = readers.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect();
    DottedVersion::find_in(&String::from_utf8_lossy(&output)).ok_or(CommandVersionError::NoVersion { program: name })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, body: &str) -> std::path::PathBuf {
        let path = dir.join("fake-sculptor");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn sculptors_version_line_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fake = script(dir.path(), "[ \"$1\" = --version ] && printf 'Sculptor 4.5.3 LTS\\n\\tbuild date: 2025-09-01\\n'");
        assert_eq!(read(&fake, &["--version".into()], Duration::from_secs(10)).unwrap().as_str(), "4.5.3");
    }

    #[test]
    fn silence_and_hangs_are_errors_not_waits() {
        let dir = tempfile::tempdir().unwrap();
        let quiet = script(dir.path(), "echo no version here");
        assert!(matches!(read(&quiet, &[], Duration::from_secs(10)), Err(CommandVersionError::NoVersion { .. })));
        let hang = script(dir.path(), "sleep 30");
        assert!(matches!(read(&hang, &[], Duration::from_millis(300)), Err(CommandVersionError::Timeout { .. })));
        assert!(matches!(read(&dir.path().join("missing"), &[], Duration::from_secs(1)), Err(CommandVersionError::Spawn { .. })));
    }
}
