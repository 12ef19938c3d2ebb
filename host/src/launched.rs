//! What every app unit's launcher shares when it starts a confined app with capstan's
//! bridge: the instance's secret, the pipe that hands secrets over, the kernel's wall,
//! capstan's record of the instance (written, and forgotten when the app stops), the
//! wait for the bridge to answer, stopping the app, and the tail of the app's log for an
//! error message.
//!
//! Security reasoning: a secret is registered with the redactor the moment it exists,
//! before anything is built from it, so no log line or error can carry it; it reaches
//! the app only through a pipe the app reads once (never its command line or
//! environment, which other processes of the user can read); records are written
//! owner-only and atomically, so a client never reads half a record; a launch counts as
//! up only when the bridge answers from the child's own pid (not whatever else answers
//! on the port); and a log tail is redacted before it is shown.

use crate::bridge::HttpBridgeClient;
use serde_json::{Value, json};
use std::io::Write;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

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

/// Remove the runtime records a launch wrote: its own (`runtime_file`), and the one it
/// published (if any) only while that still names this instance (`instance_id`): a
/// later session may have replaced it. The published record this launch replaced
/// (`replaced`) is put back when the app that wrote it still runs.
pub fn forget_records(runtime_file: &Path, published: Option<&Path>, replaced: Option<&[u8]>, instance_id: &str) {
    let _ = std::fs::remove_file(runtime_file);
    let Some(published) = published else { return };
    let ours = std::fs::read(published).ok().and_then(|b| serde_json::from_slice::<Value>(&b).ok()).is_some_and(|d| d["instance"] == json!(instance_id));
    if !ours {
        return;
    }
    let earlier_alive = replaced.and_then(|b| serde_json::from_slice::<Value>(b).ok()).and_then(|d| d["pid"].as_u64()).is_some_and(|pid| crate::bridge::endpoint::pid_alive(pid as u32));
    match replaced {
        Some(bytes) if earlier_alive => {
            let _ = crate::fsutil::write_private_atomic(published, bytes);
        }
        _ => {
            let _ = std::fs::remove_file(published);
        }
    }
}

/// Apply the kernel's wall, drawn from the file-system plan `plan` makes, to `cmd`.
/// The returned confinement holds the descriptors the child inherits (`handed`): keep
/// it until the spawn is done. `unconfined` (what to do instead) is for systems with no
/// wall.
#[cfg(target_os = "linux")]
pub fn confine(cmd: &mut Command, plan: impl FnOnce() -> crate::containment::grants::Plan, handed: Vec<(OwnedFd, i32)>, unconfined: &str) -> Result<crate::containment::Confinement, String> {
    let _ = unconfined;
    let confinement = crate::containment::prepare(&plan(), handed).map_err(|e| e.to_string())?;
    confinement.apply(cmd);
    Ok(confinement)
}

/// No wall without Linux: the launch is refused, saying what to do instead.
#[cfg(not(target_os = "linux"))]
pub fn confine(cmd: &mut Command, _: impl FnOnce() -> crate::containment::grants::Plan, handed: Vec<(OwnedFd, i32)>, unconfined: &str) -> Result<std::convert::Infallible, String> {
    let _ = (cmd, handed);
    Err(format!("handing the bridge socket to the app needs Linux; {unconfined}"))
}

/// How the wait for a launched app's bridge ended.
pub enum Came {
    /// `/ping` answered from the child: its answer.
    Up(Value),
    /// The child exited first.
    Exited(ExitStatus),
    /// Neither within the time allowed.
    TimedOut,
}

/// Poll `/ping` of `server` (through `client`, which reads the instance's record) until
/// it answers from `child` itself with an answer `ours` accepts, the child exits, or
/// `timeout` passes.
pub fn wait_until_up(child: &mut Child, client: &HttpBridgeClient, server: &str, timeout: Duration, ours: impl Fn(&Value) -> bool) -> Came {
    let pid = u64::from(child.id());
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Came::Exited(status);
        }
        if let Ok(ping) = client.ping(server)
            && ping["pid"].as_u64() == Some(pid)
            && ours(&ping)
        {
            return Came::Up(ping);
        }
        if Instant::now() >= deadline {
            return Came::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Stop a child: `ask` it to, give it `grace` to exit, then `force` it and reap it.
/// `force` runs only while the child is not reaped, so its pid still names the child.
pub fn stop(child: &mut Child, grace: Duration, ask: impl FnOnce(&Child), force: impl FnOnce(&mut Child)) {
    ask(child);
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    force(child);
    let _ = child.wait();
}

/// The last lines of an app's log, redacted, for an error message.
pub fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().rev().take(15).collect();
    crate::redact::redact(&lines.into_iter().rev().collect::<Vec<_>>().join("\n")).into_owned()
}

/// The CPUs this process may run on (its affinity mask: all of them, or what a
/// container or `taskset` left it); `None` where that cannot be read.
pub fn allowed_cpus() -> Option<Vec<usize>> {
    cpus_of(0)
}

/// The CPUs process `pid` may run on (0: this one); `None` where that cannot be read.
pub fn cpus_of(pid: u32) -> Option<Vec<usize>> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity writes at
        // most its size into it.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let pid = libc::pid_t::try_from(pid).ok()?;
        if unsafe { libc::sched_getaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &mut set) } != 0 {
            return None;
        }
        let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize).filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) }).collect();
        (!cpus.is_empty()).then_some(cpus)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        None
    }
}

/// On Linux, start the child on `cpus` only (its affinity mask, set between fork and
/// exec). An app sizes its thread pools to the CPUs it may use (Blender's TBB reads
/// the mask when it starts), so apps side by side on their own shares no longer fight
/// over every core with threads of their own; a share of CPUs that is not there leaves
/// the child where it is rather than failing its start. Elsewhere: nothing.
fn run_on_cpus(cmd: &mut Command, cpus: &[usize]) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET stays within it.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        for &cpu in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
            unsafe { libc::CPU_SET(cpu, &mut set) };
        }
        // SAFETY: sched_setaffinity is a plain system call (async-signal-safe) on a set
        // made before the fork; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (cmd, cpus);
}

/// What the kernel is told about a launched app before it runs, by every app's
/// launcher alike: it dies with capstan (killed at once when its state is `disposable`,
/// else asked to stop), and it runs on `cpus` when given.
pub fn tie_to_capstan(cmd: &mut Command, disposable: bool, cpus: Option<&[usize]>) {
    die_with_parent(cmd, if disposable { OnParentDeath::Kill } else { OnParentDeath::Term });
    if let Some(cpus) = cpus {
        run_on_cpus(cmd, cpus);
    }
}

/// The signal the kernel sends a launched child when capstan dies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnParentDeath {
    /// SIGTERM: the app stops cleanly. A Python bridge handles it between bytecodes only,
    /// so an app deep in a long C call (a render) ends when that call returns.
    Term,
    /// SIGKILL: for an instance whose state is disposable (eval, batch workers). It ends
    /// the app at once, even one stopped or deep in a C call, so none outlives capstan
    /// by the length of an item.
    Kill,
}

/// On Linux, ask the kernel to signal the child (`on`) when the spawning thread exits,
/// so a launched app (or the batch's Ray driver) never outlives the capstan that
/// launched it, even when capstan is killed with SIGKILL.
pub fn die_with_parent(cmd: &mut Command, on: OnParentDeath) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let signal = match on {
            OnParentDeath::Term => libc::SIGTERM,
            OnParentDeath::Kill => libc::SIGKILL,
        };
        // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, signal) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (cmd, on);
}
