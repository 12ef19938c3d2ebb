//! Ending a long call by restarting the app: the only cancel that stops a Blender render
//! within seconds (headless Cycles checks its break flag between batches of about 30 s,
//! and the flag is not reachable from Python on every supported version).
//!
//! The protocol, between the process that serves MCP (which gets the cancel) and the
//! process that launched the instance and supervises it (`capstan blender launch`):
//!
//! 1. Before a long call, the serving process has the app save a checkpoint of its
//!    document into the instance's private `tmp/` (`HostCommands::checkpoint`).
//! 2. On cancel, it writes the marker [`MARKER`] into the instance folder and kills the
//!    app's process group ([`request`]).
//! 3. The supervisor sees its child end with the marker present, starts the app again in
//!    the same instance: the same listening socket (so the same address), the same
//!    secrets, the checkpoint opened before the bridge serves; it rewrites the runtime
//!    record with the new pid and removes the marker ([`clear`]).
//! 4. Meanwhile a call to the app waits for the restart ([`pending`], read by
//!    `bridge::endpoint`), bounded by [`crate::limits::APP_RESTART_WAIT`], instead of
//!    failing: the next call is answered by the restarted app.
//!
//! # Security reasoning
//!
//! - Only an instance whose record names a live `supervisor` is ever killed: the record is
//!   capstan's (in the instance folder or the published copy, both outside the app's
//!   grants, ownership-checked when read), so an app cannot make capstan kill a process
//!   of its choosing by naming its pid.
//! - The marker lives in the instance folder, which the app cannot write: a confined app
//!   cannot ask for its own restart (and a restart grants nothing anyway: the same wall,
//!   the same secrets).
//! - The kill goes to the app's pid as the record names it, read (and checked alive)
//!   just before; the window for reuse between that read and the kill is the same as
//!   for any `kill` of a process one did not start.

use std::io;
use std::path::Path;

/// The marker file asking the supervisor for a restart, in the instance folder.
pub const MARKER: &str = "restart-requested";

/// Ask for a restart of the supervised instance folder `instance_dir` whose app runs
/// as `pid`: the marker, then SIGKILL (a confined app starts no process of its own:
/// seccomp refuses it `fork` and `execve`). Refused when the supervisor that would start
/// it again (`supervisor`) is gone: the app would stay dead.
#[cfg(unix)]
pub fn request(instance_dir: &Path, pid: u32, supervisor: u32) -> io::Result<()> {
    let pid = libc::pid_t::try_from(pid).map_err(|_| io::Error::other("not a process id"))?;
    if pid <= 1 {
        return Err(io::Error::other("refusing to signal pid 0 or 1"));
    }
    if !crate::bridge::endpoint::pid_alive(supervisor) {
        return Err(io::Error::other("the instance's supervisor is gone; nobody would start the app again"));
    }
    std::fs::write(instance_dir.join(MARKER), b"cancel\n")?;
    // SAFETY: kill(2) takes plain integers; no memory is shared.
    if unsafe { libc::kill(pid, libc::SIGKILL) } != 0 {
        let e = io::Error::last_os_error();
        let _ = std::fs::remove_file(instance_dir.join(MARKER));
        return Err(e);
    }
    Ok(())
}

#[cfg(not(unix))]
pub fn request(_instance_dir: &Path, _pid: u32, _supervisor: u32) -> io::Result<()> {
    Err(io::Error::other("restarting an app is supported on Linux only"))
}

/// Whether a restart of the instance is asked for and not done yet.
pub fn pending(instance_dir: &Path) -> bool {
    instance_dir.join(MARKER).exists()
}

/// The restart is done (or given up): remove the marker.
pub fn clear(instance_dir: &Path) {
    let _ = std::fs::remove_file(instance_dir.join(MARKER));
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_request_marks_the_folder_and_ends_the_app() {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = std::process::Command::new("sleep");
        cmd.arg("30");
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().unwrap();
        let me = std::process::id();
        let gone = (4_000_000..4_100_000).find(|p| !crate::bridge::endpoint::pid_alive(*p)).unwrap();
        assert!(request(dir.path(), child.id(), gone).is_err() && !pending(dir.path()), "no supervisor, no kill");
        request(dir.path(), child.id(), me).unwrap();
        assert!(pending(dir.path()));
        let status = child.wait().unwrap();
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(libc::SIGKILL));
        clear(dir.path());
        assert!(!pending(dir.path()));
        assert!(request(dir.path(), 1, me).is_err() && !pending(dir.path()), "never pid 1");
    }
}
