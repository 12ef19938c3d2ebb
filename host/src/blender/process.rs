//! Running a helper process with a deadline, and tying a child's life to ours.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Run `cmd` to completion within `timeout`; returns (success, stdout + stderr).
pub fn output_within(mut cmd: Command, timeout: Duration) -> std::io::Result<(bool, String)> {
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = out.read_to_string(&mut text);
        let mut e = String::new();
        let _ = err.read_to_string(&mut e);
        text + &e
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = reader.join().unwrap_or_default();
    match status {
        Some(s) => Ok((s.success(), text)),
        None => Err(std::io::Error::new(std::io::ErrorKind::TimedOut, format!("no answer within {timeout:?}"))),
    }
}

/// Ask a child to stop (SIGTERM on Unix), then kill it after `grace`.
pub fn stop(child: &mut Child, grace: Duration) {
    let ask = |child: &Child| {
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(child.id()) {
            // SAFETY: sending a signal to our own child process.
            unsafe {
                libc::kill(pid, libc::SIGTERM);
            }
        }
        #[cfg(not(unix))]
        let _ = child;
    };
    crate::launched::stop(child, grace, ask, |child| {
        let _ = child.kill();
    });
}

static STOP_REQUESTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn note_stop(_: libc::c_int) {
    STOP_REQUESTED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// From now on, SIGINT, SIGTERM and SIGHUP only set a flag (returned) instead of ending
/// capstan at once, so a command that keeps an app running can stop it and clean up
/// (the runtime records name a token and a port that must not outlive the app).
pub fn stop_on_signals() -> &'static std::sync::atomic::AtomicBool {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler only stores to an atomic (async-signal-safe).
        unsafe {
            libc::signal(signal, note_stop as *const () as libc::sighandler_t);
        }
    }
    &STOP_REQUESTED
}
