//! Containment of the app process capstan launches: the kernel's wall.
//!
//! Threat model (DESIGN §3a): assume arbitrary native code runs inside the app. The
//! Python checker and the add-on's runtime guard explain refusals to an agent, but a
//! process whose C code does its own I/O (image and text loads, Geometry Nodes import
//! nodes, compositor File Output, render outputs, object finalisers) cannot be walled
//! in from inside. So every Blender capstan launches is confined by the kernel before
//! it executes its first instruction, and everything it starts inherits the domain:
//! - [`grants`]: the paths and rights (one function, unit-tested, listed in the README);
//! - [`ruleset`]: Landlock (file system, TCP bind/connect, abstract unix sockets and
//!   signals scoped);
//! - [`seccomp`]: what Landlock does not scope (processes, non-TCP sockets, ptrace,
//!   io_uring, namespaces, metadata by path, ...), refused with an error code;
//! - [`child`]: the order it is all applied in, between fork and exec, with privileges
//!   dropped and hard resource limits;
//! - [`instance`]: one instance, one folder, one port;
//! - [`layers`]: which layers are on, for `doctor`, the launch banner and the gate on
//!   `execute_python`.
//!
//! Linux only; elsewhere (and on a kernel without Landlock) the app runs unconfined,
//! `doctor` says so, and `execute_python` is refused unless the operator accepts it
//! (`CAPSTAN_ALLOW_UNCONFINED_EXEC=1`).

pub mod grants;
pub mod instance;
pub mod layers;
pub mod restart;

#[cfg(target_os = "linux")]
pub mod child;
#[cfg(target_os = "linux")]
pub mod ruleset;
#[cfg(target_os = "linux")]
pub mod seccomp;

pub use layers::Layers;

/// Test switch: launch as if the kernel had no Landlock (the no-Landlock path is then
/// tested on a machine that has it). Debug builds only.
pub const TEST_NO_LANDLOCK_ENV: &str = "CAPSTAN_TEST_NO_LANDLOCK";

/// The operator's explicit consent to `execute_python` in an app without the OS layer.
pub const ALLOW_UNCONFINED_EXEC_ENV: &str = "CAPSTAN_ALLOW_UNCONFINED_EXEC";

/// Hard limits of a confined app (soft = hard; it cannot raise them).
pub mod limits {
    /// Address space: room for Cycles and Python, not for an unbounded allocation storm.
    pub const ADDRESS_SPACE_BYTES: u64 = 64 << 30;
    /// Largest file it may write (a 16k EXR is well below).
    pub const FILE_SIZE_BYTES: u64 = 16 << 30;
    pub const OPEN_FILES: u64 = 4096;
    /// Threads and processes of the user (the kernel counts every process of the uid,
    /// and does not apply this to root).
    pub const THREADS: u64 = 16384;
}

pub fn landlock_disabled_for_tests() -> bool {
    cfg!(debug_assertions) && std::env::var(TEST_NO_LANDLOCK_ENV).is_ok_and(|v| v == "1")
}

#[cfg(target_os = "linux")]
pub use linux::{Confinement, ContainmentError, prepare};

#[cfg(target_os = "linux")]
mod linux {
    use super::child::{Limit, Prepared};
    use super::grants::{Grant, Plan, grants};
    use super::layers::Layers;
    use std::os::fd::{AsRawFd, OwnedFd, RawFd};
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::sync::Arc;

    #[derive(Debug, thiserror::Error)]
    pub enum ContainmentError {
        #[error(transparent)]
        Ruleset(#[from] super::ruleset::RulesetError),
        #[error(transparent)]
        Filter(#[from] super::seccomp::FilterError),
        #[error("cannot hand a descriptor to the app: {0}")]
        Descriptor(std::io::Error),
    }

    /// A confinement ready to apply to one `Command`. Holds the descriptors the child
    /// inherits until the spawn is done.
    pub struct Confinement {
        prepared: Arc<Prepared>,
        _kept: Vec<OwnedFd>,
        pub layers: Layers,
        pub grants: Vec<Grant>,
    }

    /// Descriptors above this number are safe sources for dup2 onto 3, 4, ...
    const HIGH_FD: RawFd = 10;

    fn move_high(fd: OwnedFd) -> Result<OwnedFd, ContainmentError> {
        // SAFETY: F_DUPFD_CLOEXEC returns a new descriptor we then own.
        let high = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, HIGH_FD) };
        if high < 0 {
            return Err(ContainmentError::Descriptor(std::io::Error::last_os_error()));
        }
        // SAFETY: `high` is a fresh descriptor owned by nobody else.
        Ok(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(high) })
    }

    /// Prepare the confinement of one launch: `handed` descriptors go to the given
    /// numbers in the child (3, 4, ...).
    pub fn prepare(plan: &Plan, handed: Vec<(OwnedFd, RawFd)>) -> Result<Confinement, ContainmentError> {
        let grants = grants(plan);
        let abi = super::layers::kernel_abi();
        let ruleset = if abi >= 1 { Some(super::ruleset::create(&grants)?) } else { None };
        let filters = super::seccomp::build(plan.desktop.is_some())?;
        let mut kept = Vec::new();
        let mut fds = Vec::new();
        for (fd, to) in handed {
            let fd = move_high(fd)?;
            fds.push((fd.as_raw_fd(), to));
            kept.push(fd);
        }
        let ruleset_fd = match ruleset {
            Some(fd) => {
                let fd = move_high(fd)?;
                let raw = fd.as_raw_fd();
                kept.push(fd);
                Some(raw)
            }
            None => None,
        };
        use super::limits::*;
        let limits = vec![
            Limit { resource: libc::RLIMIT_AS, value: ADDRESS_SPACE_BYTES },
            Limit { resource: libc::RLIMIT_FSIZE, value: FILE_SIZE_BYTES },
            Limit { resource: libc::RLIMIT_NOFILE, value: OPEN_FILES },
            Limit { resource: libc::RLIMIT_NPROC, value: THREADS },
            Limit { resource: libc::RLIMIT_CORE, value: 0 },
        ];
        let layers = Layers::confined(abi, true);
        let prepared = Prepared {
            fds,
            limits,
            ruleset: ruleset_fd,
            own_proc_rights: super::ruleset::own_proc_rights(),
            drop_privileges: true,
            filters: filters.programs,
        };
        Ok(Confinement { prepared: Arc::new(prepared), _kept: kept, layers, grants })
    }

    impl Confinement {
        /// Apply to `cmd`: the child confines itself between fork and exec.
        pub fn apply(&self, cmd: &mut Command) {
            let prepared = Arc::clone(&self.prepared);
            // SAFETY: `confine` is async-signal-safe (raw syscalls on prepared data).
            unsafe {
                cmd.pre_exec(move || super::child::confine(&prepared));
            }
        }
    }
}
