//! Noticing a worker's app that hangs, in seconds rather than at the call's own timeout
//! (up to an hour for an animation render).
//!
//! While an item runs, a thread reads the app's `/proc/<pid>/stat` once a second. The
//! app is ended (SIGKILL) when it has been stopped (state `T`: SIGSTOP, a debugger) for
//! [`crate::limits::BATCH_APP_STOPPED_LIMIT`], or has used no CPU at all for
//! [`crate::limits::BATCH_APP_IDLE_LIMIT`] (a deadlock: a render or a bake keeps
//! using CPU however long it runs). The call in flight then fails on its connection,
//! the attempt counts as lost, and the item runs again on a fresh app.
//!
//! Why not `/ping`: the bridge answers it on its own thread, but a long C call on
//! Blender's main thread can hold Python's lock for minutes while it works, and a
//! healthy app must never be ended. The process's own state and CPU time do not lie.
//!
//! The pid is a child of this capstan (started by this worker's thread): until it is
//! reaped it cannot name another process.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Watchdog {
    stop: Arc<AtomicBool>,
    /// Why the app was ended, once it was.
    verdict: Arc<Mutex<Option<String>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// Watch `pid` until the watchdog is dropped.
    pub fn start(pid: u32) -> Watchdog {
        Self::with_limits(pid, crate::limits::BATCH_APP_STOPPED_LIMIT, crate::limits::BATCH_APP_IDLE_LIMIT, Duration::from_secs(1))
    }

    fn with_limits(pid: u32, stopped_limit: Duration, idle_limit: Duration, every: Duration) -> Watchdog {
        let stop = Arc::new(AtomicBool::new(false));
        let verdict = Arc::new(Mutex::new(None));
        let thread = {
            let (stop, verdict) = (stop.clone(), verdict.clone());
            std::thread::spawn(move || {
                let mut stopped_since: Option<Instant> = None;
                let (mut cpu, mut cpu_moved) = (None, Instant::now());
                while !stop.load(Ordering::SeqCst) {
                    // Parked, not slept: dropping the watchdog wakes it at once (an item
                    // never waits on its watchdog).
                    std::thread::park_timeout(every);
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let Some((state, used)) = read_stat(pid) else { return };
                    let now = Instant::now();
                    if cpu != Some(used) {
                        cpu = Some(used);
                        cpu_moved = now;
                    }
                    stopped_since = if matches!(state, 'T' | 't') { Some(stopped_since.unwrap_or(now)) } else { None };
                    let why = match stopped_since {
                        Some(since) if now - since >= stopped_limit => Some(format!("the app was stopped for {} s", stopped_limit.as_secs())),
                        _ if now - cpu_moved >= idle_limit => Some(format!("the app used no CPU for {} s", idle_limit.as_secs())),
                        _ => None,
                    };
                    if let Some(why) = why {
                        *verdict.lock().unwrap_or_else(|p| p.into_inner()) = Some(why);
                        end(pid);
                        return;
                    }
                }
            })
        };
        Watchdog { stop, verdict, thread: Some(thread) }
    }

    /// Why the app was ended, if the watchdog ended it.
    pub fn verdict(&self) -> Option<String> {
        self.verdict.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// (state, utime + stime in ticks) of a process, None when it is gone.
fn read_stat(pid: u32) -> Option<(char, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    if state == 'Z' || state == 'X' {
        return None;
    }
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    Some((state, ticks(11)? + ticks(12)?))
}

fn end(pid: u32) {
    #[cfg(unix)]
    unsafe {
        libc::kill(pid as i32, libc::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = pid;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn sleeper() -> std::process::Child {
        std::process::Command::new("sleep").arg("30").spawn().unwrap()
    }

    #[test]
    fn a_stopped_process_is_ended_and_said_why() {
        let mut child = sleeper();
        let dog = Watchdog::with_limits(child.id(), Duration::from_millis(300), Duration::from_secs(3600), Duration::from_millis(50));
        unsafe { libc::kill(child.id() as i32, libc::SIGSTOP) };
        let status = child.wait().unwrap();
        assert!(!status.success());
        assert!(dog.verdict().unwrap().contains("stopped"));
    }

    #[test]
    fn a_process_using_no_cpu_is_ended_and_a_busy_one_is_not() {
        let mut idle = sleeper();
        let dog = Watchdog::with_limits(idle.id(), Duration::from_secs(3600), Duration::from_millis(400), Duration::from_millis(50));
        idle.wait().unwrap();
        assert!(dog.verdict().unwrap().contains("no CPU"));
        let mut busy = std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap();
        let dog = Watchdog::with_limits(busy.id(), Duration::from_secs(3600), Duration::from_millis(400), Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(1200));
        assert!(dog.verdict().is_none(), "a busy process is left alone");
        drop(dog);
        let slow = Watchdog::with_limits(busy.id(), Duration::from_secs(3600), Duration::from_secs(3600), Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(50));
        let dropped = std::time::Instant::now();
        drop(slow);
        assert!(dropped.elapsed() < Duration::from_secs(1), "dropping the watchdog does not wait out its period");
        let _ = busy.kill();
        let _ = busy.wait();
    }
}
