//! The seccomp filters a confined app meets: everything Landlock does not scope.
//!
//! Security reasoning. The threat model is native code running inside the app (a
//! script with the checker and guard off can load any library). Landlock walls off
//! files, TCP and signals; these filters refuse the rest of the kernel surface such code
//! would use to get out or to reach other processes:
//! - new processes: `fork`, `vfork`, a `clone` without `CLONE_THREAD`, and any `clone`
//!   with namespace flags (threads still start);
//! - `clone3` answers `ENOSYS` (a second filter), so the C library falls back to
//!   `clone`, whose flags this filter can read (`clone3` passes them in memory);
//! - sockets other than `AF_INET`/`AF_INET6` `SOCK_STREAM` with protocol 0 or TCP: no
//!   UDP, raw, netlink, packet, MPTCP, and no unix sockets headless (a GUI app needs its
//!   display's); an unnamed `socketpair` reaches nothing and stays;
//! - `ptrace`, `process_vm_*`, `pidfd_getfd`, `kcmp`, `open_by_handle_at`;
//! - `io_uring_*` (its operations bypass these filters);
//! - namespaces and mounts, `bpf`, `perf_event_open`, `userfaultfd`, keyrings, System V
//!   IPC, `personality` changes;
//! - `prlimit64`, `setpriority` and `sched_setaffinity` on any pid but its own (0);
//! - changing the parent-death signal (the app must not outlive capstan);
//! - changing mode, owner, times or extended attributes, by path or by descriptor:
//!   Landlock has no right for metadata, so `fchmod` on a system library opened for
//!   reading would otherwise make it world-writable (capstan may run as root);
//! - `listen` (an unbound socket's `listen` takes a port on every interface, past
//!   Landlock's bind rule; the bridge's socket is handed over already listening);
//! - `inotify_add_watch` and fanotify (they report names in folders Landlock hides);
//! - on x86-64, every syscall under its x32 number (the rules match exact numbers).
//!
//! Every refusal is an error code (`EPERM`), never a kill: Blender keeps running and the
//! script gets the error. The filters are built in the parent ([`Filters::build`]) and
//! only installed in the child, where nothing may allocate.

use seccompiler::{BpfProgram, SeccompAction, SeccompCmpArgLen as Len, SeccompCmpOp as Op, SeccompCondition as Cond, SeccompFilter, SeccompRule, TargetArch};
use std::collections::BTreeMap;

/// The two compiled filters (`clone3` first, then the rest).
pub struct Filters {
    pub programs: Vec<BpfProgram>,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot build the seccomp filter: {0}")]
pub struct FilterError(String);

fn arch() -> Result<TargetArch, FilterError> {
    if cfg!(target_arch = "x86_64") {
        Ok(TargetArch::x86_64)
    } else if cfg!(target_arch = "aarch64") {
        Ok(TargetArch::aarch64)
    } else if cfg!(target_arch = "riscv64") {
        Ok(TargetArch::riscv64)
    } else {
        Err(FilterError("no seccomp filter for this architecture".into()))
    }
}

fn cond(arg: u8, len: Len, op: Op, value: u64) -> Result<Cond, FilterError> {
    Cond::new(arg, len, op, value).map_err(|e| FilterError(e.to_string()))
}

fn rule(conditions: Vec<Cond>) -> Result<SeccompRule, FilterError> {
    SeccompRule::new(conditions).map_err(|e| FilterError(e.to_string()))
}

/// Namespace flags a `clone` may not carry.
const NAMESPACE_FLAGS: [u64; 7] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWCGROUP as u64,
];

/// Syscalls refused whatever their arguments.
fn always_refused() -> Vec<i64> {
    let mut calls: Vec<i64> = vec![
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_pidfd_getfd,
        libc::SYS_kcmp,
        libc::SYS_open_by_handle_at,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_chroot,
        libc::SYS_pivot_root,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_mount_setattr,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_keyctl,
        libc::SYS_msgget,
        libc::SYS_msgsnd,
        libc::SYS_msgrcv,
        libc::SYS_msgctl,
        libc::SYS_semget,
        libc::SYS_semop,
        libc::SYS_semctl,
        libc::SYS_semtimedop,
        libc::SYS_shmget,
        libc::SYS_shmat,
        libc::SYS_shmdt,
        libc::SYS_shmctl,
        // Metadata, by path and by descriptor: Landlock has no right for it, and a file
        // opened read-only (a system library, the add-on) must not become writable.
        libc::SYS_fchmod,
        libc::SYS_fchown,
        libc::SYS_fsetxattr,
        libc::SYS_fremovexattr,
        libc::SYS_utimensat,
        libc::SYS_fchmodat,
        libc::SYS_fchmodat2,
        libc::SYS_fchownat,
        libc::SYS_setxattr,
        libc::SYS_lsetxattr,
        libc::SYS_removexattr,
        libc::SYS_lremovexattr,
        // setxattrat, removexattrat (Linux 6.13; not yet named by libc)
        463,
        466,
        // A listening socket of its own (an unbound socket's listen() picks a port on
        // every interface, past Landlock's bind rule); the bridge's is handed over ready.
        libc::SYS_listen,
        // Watching folders outside the wall (inotify and fanotify see names Landlock hides).
        libc::SYS_inotify_add_watch,
        libc::SYS_fanotify_init,
        libc::SYS_fanotify_mark,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([libc::SYS_fork, libc::SYS_vfork, libc::SYS_chmod, libc::SYS_chown, libc::SYS_lchown, libc::SYS_utime, libc::SYS_utimes, libc::SYS_futimesat]);
    calls
}

/// The filters for one app. `unix_sockets`: a GUI app may open `AF_UNIX` sockets (its
/// display's); a headless one may not.
pub fn build(unix_sockets: bool) -> Result<Filters, FilterError> {
    let arch = arch()?;
    let dword = |arg, op, value| cond(arg, Len::Dword, op, value);
    let qword = |arg, op, value| cond(arg, Len::Qword, op, value);
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = always_refused().into_iter().map(|n| (n, vec![])).collect();

    // clone: a new process (no CLONE_THREAD), or any namespace flag.
    let mut clone = vec![rule(vec![qword(0, Op::MaskedEq(libc::CLONE_THREAD as u64), 0)?])?];
    for flag in NAMESPACE_FLAGS {
        clone.push(rule(vec![qword(0, Op::MaskedEq(flag), flag)?])?);
    }
    rules.insert(libc::SYS_clone, clone);

    // socket(domain, type, protocol): only TCP over IPv4/IPv6 (and unix for a GUI).
    let mut socket = Vec::new();
    let mut domain_conds = vec![dword(0, Op::Ne, libc::AF_INET as u64)?, dword(0, Op::Ne, libc::AF_INET6 as u64)?];
    if unix_sockets {
        domain_conds.push(dword(0, Op::Ne, libc::AF_UNIX as u64)?);
    }
    socket.push(rule(domain_conds)?);
    let inet = |d: i32| dword(0, Op::Eq, d as u64);
    for domain in [libc::AF_INET, libc::AF_INET6] {
        // Any type but SOCK_STREAM (the low 4 bits; NONBLOCK and CLOEXEC are above).
        for ty in (0u64..16).filter(|t| *t != libc::SOCK_STREAM as u64) {
            socket.push(rule(vec![inet(domain)?, dword(1, Op::MaskedEq(0xf), ty)?])?);
        }
        // Protocols other than the default (0) and TCP: MPTCP, SCTP, ...
        socket.push(rule(vec![inet(domain)?, dword(2, Op::Ne, 0)?, dword(2, Op::Ne, libc::IPPROTO_TCP as u64)?])?);
    }
    rules.insert(libc::SYS_socket, socket);

    // personality: only the query (0xffffffff).
    rules.insert(libc::SYS_personality, vec![rule(vec![dword(0, Op::Ne, 0xffff_ffff)?])?]);
    // Resource and scheduling calls on another process (pid 0 is the caller).
    rules.insert(libc::SYS_prlimit64, vec![rule(vec![dword(0, Op::Ne, 0)?])?]);
    rules.insert(libc::SYS_setpriority, vec![rule(vec![dword(1, Op::Ne, 0)?])?]);
    rules.insert(libc::SYS_sched_setaffinity, vec![rule(vec![dword(0, Op::Ne, 0)?])?]);
    // prctl: changing the parent-death signal (set before this filter; any other
    // signal, SIGCHLD say, would let the app outlive capstan), PR_SET_MM.
    rules.insert(
        libc::SYS_prctl,
        vec![rule(vec![dword(0, Op::Eq, libc::PR_SET_PDEATHSIG as u64)?])?, rule(vec![dword(0, Op::Eq, libc::PR_SET_MM as u64)?])?],
    );

    let eperm = SeccompAction::Errno(libc::EPERM as u32);
    let main = SeccompFilter::new(rules, SeccompAction::Allow, eperm, arch).map_err(|e| FilterError(e.to_string()))?;
    let clone3: BTreeMap<i64, Vec<SeccompRule>> = [(libc::SYS_clone3, vec![])].into_iter().collect();
    let clone3 = SeccompFilter::new(clone3, SeccompAction::Allow, SeccompAction::Errno(libc::ENOSYS as u32), arch).map_err(|e| FilterError(e.to_string()))?;
    let compile = |f: SeccompFilter| BpfProgram::try_from(f).map_err(|e| FilterError(e.to_string()));
    let mut programs = vec![compile(clone3)?, compile(main)?];
    #[cfg(target_arch = "x86_64")]
    programs.push(no_x32());
    Ok(Filters { programs })
}

/// x86-64 only: refuse the x32 numbering (syscall numbers with bit 30 set). Filters match
/// numbers exactly, so on a kernel built with x32 every rule above could be bypassed by
/// the same call under its x32 number.
#[cfg(target_arch = "x86_64")]
fn no_x32() -> BpfProgram {
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    let stmt = |code: u32, k: u32| seccompiler::sock_filter { code: code as u16, jt: 0, jf: 0, k };
    let jump = |code: u32, k: u32, jt: u8, jf: u8| seccompiler::sock_filter { code: code as u16, jt, jf, k };
    vec![
        // A = seccomp_data.nr
        stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0),
        // if A >= X32_SYSCALL_BIT: EPERM, else allow
        jump(libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K, X32_SYSCALL_BIT, 0, 1),
        stmt(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32),
        stmt(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ALLOW),
    ]
}

/// Install `program` on the calling thread. Async-signal-safe (no allocation): called
/// between fork and exec. `no_new_privs` must already be set.
pub fn install(program: &BpfProgram) -> std::io::Result<()> {
    let prog = libc::sock_fprog { len: program.len() as u16, filter: program.as_ptr() as *mut libc::sock_filter };
    // SAFETY: the kernel copies the program; `prog` and `program` outlive the call.
    let rc = unsafe { libc::syscall(libc::SYS_seccomp, libc::SECCOMP_SET_MODE_FILTER, 0, &prog as *const libc::sock_fprog) };
    if rc != 0 { Err(std::io::Error::last_os_error()) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_filters_build_headless_and_gui() {
        for unix in [false, true] {
            let f = build(unix).unwrap();
            assert!(f.programs.len() >= 2);
            assert!(f.programs.iter().all(|p| !p.is_empty()));
        }
    }

    /// In a forked child (so the test process stays unfiltered): the filters refuse a
    /// new process, a UDP and a unix socket, ptrace and chmod by path with EPERM, clone3
    /// with ENOSYS, and still allow threads and a TCP socket.
    #[test]
    fn in_a_child_the_filters_refuse_with_error_codes() {
        let filters = build(false).unwrap();
        // SAFETY: the child only makes raw syscalls and exits with _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            let code = unsafe { child_checks(&filters) };
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "the child was killed, not refused: status {status}");
        assert_eq!(libc::WEXITSTATUS(status), 0, "check number {} failed in the filtered child", libc::WEXITSTATUS(status));
    }

    unsafe fn errno() -> i32 {
        std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
    }

    unsafe fn child_checks(filters: &Filters) -> i32 {
        unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return 90;
            }
            for p in &filters.programs {
                if install(p).is_err() {
                    return 91;
                }
            }
            let refused = |rc: libc::c_long, want: i32| rc == -1 && errno() == want;
            if !refused(libc::syscall(libc::SYS_clone3, std::ptr::null::<u8>(), 0usize), libc::ENOSYS) {
                return 1;
            }
            if libc::fork() != -1 || errno() != libc::EPERM {
                return 2;
            }
            if libc::socket(libc::AF_INET, libc::SOCK_DGRAM, 0) != -1 || errno() != libc::EPERM {
                return 3;
            }
            if libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0) != -1 || errno() != libc::EPERM {
                return 4;
            }
            if libc::socket(libc::AF_INET, libc::SOCK_STREAM, 262) != -1 || errno() != libc::EPERM {
                return 5; // MPTCP
            }
            let tcp = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
            if tcp < 0 {
                return 6;
            }
            libc::close(tcp);
            if !refused(libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0), libc::EPERM) {
                return 7;
            }
            if libc::chmod(c"/nonexistent-capstan".as_ptr(), 0o777) != -1 || errno() != libc::EPERM {
                return 8;
            }
            if libc::unshare(libc::CLONE_NEWUSER) != -1 || errno() != libc::EPERM {
                return 9;
            }
            // A thread still starts (pthread_create: clone3 -> ENOSYS -> clone with CLONE_THREAD).
            extern "C" fn nothing(_: *mut libc::c_void) -> *mut libc::c_void {
                std::ptr::null_mut()
            }
            let mut thread: libc::pthread_t = 0;
            if libc::pthread_create(&mut thread, std::ptr::null(), nothing, std::ptr::null_mut()) != 0 {
                return 10;
            }
            libc::pthread_join(thread, std::ptr::null_mut());
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGCHLD, 0, 0, 0) != -1 || errno() != libc::EPERM {
                return 11;
            }
            let tcp = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
            if libc::listen(tcp, 5) != -1 || errno() != libc::EPERM {
                return 12;
            }
            libc::close(tcp);
            let devnull = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
            if libc::fchmod(devnull, 0o666) != -1 || errno() != libc::EPERM {
                return 13;
            }
            libc::close(devnull);
            let ino = libc::inotify_init1(libc::IN_CLOEXEC);
            if ino >= 0 && (libc::inotify_add_watch(ino, c"/".as_ptr(), libc::IN_ALL_EVENTS) != -1 || errno() != libc::EPERM) {
                return 14;
            }
            // x32 numbering of getpid: refused, not run.
            if libc::syscall(0x4000_0000 | libc::SYS_getpid) != -1 || errno() != libc::EPERM {
                return 15;
            }
            0
        }
    }
}
