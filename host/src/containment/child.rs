//! What the launched child does between fork and exec, in this order:
//!
//! 1. moves the descriptors capstan hands over (the listening bridge socket, the pipe
//!    with the token and exec key) to their fixed numbers, and marks every other one
//!    close-on-exec, whoever opened it;
//! 2. sets hard resource limits it cannot lift (soft = hard): address space, file size,
//!    open files, threads, no core dumps;
//! 3. sets `no_new_privs` (nothing it executes gains privileges);
//! 4. locks the securebits and empties the capability bounding and ambient sets (when
//!    capstan runs as root: the kernel lets `CAP_SYS_ADMIN` and `CAP_PERFMON` read other
//!    processes' `/proc` past Landlock, and `CAP_DAC_OVERRIDE` would write the add-on);
//! 5. adds `/proc/<own pid>` to the Landlock ruleset (its pid is known only now) and
//!    enforces the ruleset;
//! 6. drops every remaining capability (effective, permitted, inheritable);
//! 7. installs the seccomp filters (last: the steps before use calls they refuse).
//!
//! Everything here runs in the forked child of a multi-threaded parent, so it only
//! makes raw system calls on data prepared before the fork: no allocation, no locks.
//! A step that fails makes the spawn fail with that step's error; nothing runs
//! half-confined.

use seccompiler::BpfProgram;
use std::io;
use std::os::fd::RawFd;

/// A resource limit, soft = hard.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub resource: libc::__rlimit_resource_t,
    pub value: u64,
}

/// Everything the child needs, prepared in the parent.
pub struct Prepared {
    /// (descriptor in the parent, number in the child)
    pub fds: Vec<(RawFd, RawFd)>,
    pub limits: Vec<Limit>,
    /// The Landlock ruleset's descriptor, when Landlock is on.
    pub ruleset: Option<RawFd>,
    pub own_proc_rights: u64,
    /// Drop privileges (always on in a confined launch).
    pub drop_privileges: bool,
    pub filters: Vec<BpfProgram>,
}

fn check(rc: libc::c_long) -> io::Result<()> {
    if rc < 0 { Err(io::Error::last_os_error()) } else { Ok(()) }
}

/// `struct landlock_path_beneath_attr` (packed, as the kernel reads it).
#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;

/// How far the fallback for kernels without `close_range` looks for open descriptors.
const OPEN_FILES_SCAN: RawFd = 65536;

/// Securebits: no root privileges from uid 0, no capability fix-up on setuid, no ambient
/// raise, keep-caps off; each one locked.
const SECUREBITS: libc::c_ulong = 0b1110_1111;

/// Run the steps of the module doc. Async-signal-safe: see there.
///
/// # Safety
/// Call only between fork and exec (from `CommandExt::pre_exec`).
pub unsafe fn confine(p: &Prepared) -> io::Result<()> {
    unsafe {
        for &(from, to) in &p.fds {
            // `from` is never `to` (the parent keeps them above 9), so dup2 clears
            // close-on-exec on `to`.
            check(libc::dup2(from, to) as libc::c_long)?;
        }
        // Every other descriptor closes at exec, also those capstan inherited from its
        // own parent without close-on-exec (an MCP client's pipes, a shell's redirections):
        // each would be a door past the wall.
        let first_free = p.fds.iter().map(|&(_, to)| to + 1).max().unwrap_or(3).max(3) as libc::c_uint;
        if libc::syscall(libc::SYS_close_range, first_free, libc::c_uint::MAX, libc::CLOSE_RANGE_CLOEXEC) != 0 {
            // Kernels before 5.11: mark them one by one.
            for fd in first_free as RawFd..OPEN_FILES_SCAN {
                let flags = libc::fcntl(fd, libc::F_GETFD);
                if flags >= 0 {
                    libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
                }
            }
        }
        for limit in &p.limits {
            let mut current = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            check(libc::getrlimit(limit.resource, &mut current) as libc::c_long)?;
            let value = limit.value.min(current.rlim_max);
            let new = libc::rlimit { rlim_cur: value, rlim_max: value };
            check(libc::setrlimit(limit.resource, &new) as libc::c_long)?;
        }
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) as libc::c_long)?;
        if p.drop_privileges && has_setpcap() {
            check(libc::prctl(libc::PR_SET_SECUREBITS, SECUREBITS, 0, 0, 0) as libc::c_long)?;
            let mut cap = 0;
            while libc::prctl(libc::PR_CAPBSET_READ, cap, 0, 0, 0) >= 0 {
                check(libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) as libc::c_long)?;
                cap += 1;
            }
        }
        if p.drop_privileges {
            // Clearing the ambient set needs no privilege; EINVAL on kernels without it.
            let _ = libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        }
        if let Some(ruleset) = p.ruleset {
            let proc_self = libc::open(c"/proc/self".as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC);
            check(proc_self as libc::c_long)?;
            let attr = PathBeneathAttr { allowed_access: p.own_proc_rights, parent_fd: proc_self };
            let added = libc::syscall(libc::SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &attr as *const PathBeneathAttr, 0u32);
            libc::close(proc_self);
            check(added)?;
            check(libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0u32))?;
            libc::close(ruleset);
        }
        if p.drop_privileges {
            drop_all_capabilities()?;
        }
        for program in &p.filters {
            super::seccomp::install(program)?;
        }
        Ok(())
    }
}

#[repr(C)]
struct CapHeader {
    version: u32,
    pid: libc::c_int,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

const CAP_VERSION_3: u32 = 0x2008_0522;
const CAP_SETPCAP: u32 = 8;

unsafe fn has_setpcap() -> bool {
    let mut header = CapHeader { version: CAP_VERSION_3, pid: 0 };
    let mut data = [CapData { effective: 0, permitted: 0, inheritable: 0 }; 2];
    let rc = unsafe { libc::syscall(libc::SYS_capget, &mut header as *mut CapHeader, data.as_mut_ptr()) };
    rc == 0 && data[0].effective & (1 << CAP_SETPCAP) != 0
}

unsafe fn drop_all_capabilities() -> io::Result<()> {
    let mut header = CapHeader { version: CAP_VERSION_3, pid: 0 };
    let data = [CapData { effective: 0, permitted: 0, inheritable: 0 }; 2];
    check(unsafe { libc::syscall(libc::SYS_capset, &mut header as *mut CapHeader, data.as_ptr()) })
}
