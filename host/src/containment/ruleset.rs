//! The Landlock ruleset: [`super::grants`] turned into a kernel object, created in the
//! parent and enforced by the child ([`super::child`]) just before exec.
//!
//! Security reasoning: the ruleset handles every file-system right of the running
//! kernel's ABI, TCP bind and connect (ABI 4) and the abstract-unix-socket and signal
//! scopes (ABI 6). A handled right with no rule is denied, so the app binds and connects
//! nowhere (capstan hands it an already listening socket) and signals nothing outside
//! its own domain. Rights are built for the kernel's ABI (best effort): on an older
//! kernel the part it cannot enforce is reported by [`abi`] and [`super::layers`], and
//! `execute_python` then needs the operator's explicit consent.

use super::grants::{Access, Grant};
use landlock::{
    ABI, Access as _, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, Scope,
};
use std::os::fd::OwnedFd;

/// The newest ABI capstan asks for; 6 has everything the wall needs (file system,
/// TCP, scopes).
const TARGET: ABI = ABI::V6;
/// The ABI at which every part of the wall is enforced.
pub const FULL_ABI: i32 = 6;

/// The Landlock ABI the running kernel offers (0: none, or disabled), as the kernel
/// answers `landlock_create_ruleset(NULL, 0, VERSION)`.
pub fn abi() -> i32 {
    // SAFETY: the documented version query; no pointers are dereferenced.
    let v = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, std::ptr::null::<u8>(), 0usize, 1u32) };
    if v < 0 { 0 } else { v as i32 }
}

#[derive(Debug, thiserror::Error)]
pub enum RulesetError {
    #[error("the kernel offers no Landlock (ABI 0): the file-system wall cannot be built")]
    Unavailable,
    #[error("cannot open {path} for a Landlock rule: {detail}")]
    Path { path: String, detail: String },
    #[error("cannot build the Landlock ruleset: {0}")]
    Build(String),
}

fn rights(access: Access, is_dir: bool) -> BitFlags<AccessFs> {
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    let write = AccessFs::WriteFile
        | AccessFs::RemoveDir
        | AccessFs::RemoveFile
        | AccessFs::MakeDir
        | AccessFs::MakeReg
        | AccessFs::MakeSym
        | AccessFs::Refer
        | AccessFs::Truncate;
    let wanted = match access {
        Access::Read => read,
        Access::Execute => AccessFs::Execute | AccessFs::ReadFile,
        Access::ReadWrite => read | write,
        Access::Device => read | AccessFs::WriteFile | AccessFs::IoctlDev,
    };
    if is_dir { wanted } else { wanted & AccessFs::from_file(TARGET) }
}

/// The ruleset for `grants`, created (an fd) but not enforced. A grant whose path
/// cannot be opened is an error, except system paths that vanished (skipped).
pub fn create(grants: &[Grant]) -> Result<OwnedFd, RulesetError> {
    if abi() < 1 {
        return Err(RulesetError::Unavailable);
    }
    let build = |e: landlock::RulesetError| RulesetError::Build(e.to_string());
    let mut ruleset: RulesetCreated = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(TARGET))
        .map_err(build)?
        .handle_access(AccessNet::from_all(TARGET))
        .map_err(build)?
        .scope(Scope::from_all(TARGET))
        .map_err(build)?
        .create()
        .map_err(build)?;
    for grant in grants {
        let fd = PathFd::new(&grant.path).map_err(|e| RulesetError::Path { path: grant.path.display().to_string(), detail: e.to_string() })?;
        let is_dir = std::fs::metadata(&grant.path).map(|m| m.is_dir()).unwrap_or(false);
        ruleset = ruleset.add_rule(PathBeneath::new(fd, rights(grant.access, is_dir))).map_err(build)?;
    }
    let fd: Option<OwnedFd> = ruleset.into();
    fd.ok_or(RulesetError::Unavailable)
}

/// The rights `/proc/<own pid>` gets (read only), as the raw bits the child passes to
/// `landlock_add_rule`.
pub fn own_proc_rights() -> u64 {
    (AccessFs::ReadFile | AccessFs::ReadDir).bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_kernel_reports_an_abi() {
        // The machines capstan is developed and tested on offer ABI 7; 0 elsewhere is fine.
        let abi = abi();
        assert!((0..=64).contains(&abi));
    }

    #[test]
    fn files_get_file_rights_only() {
        let file = rights(Access::ReadWrite, false);
        assert!(!file.contains(AccessFs::ReadDir) && !file.contains(AccessFs::MakeDir));
        assert!(file.contains(AccessFs::WriteFile));
        let exec = rights(Access::Execute, false);
        assert_eq!(exec, AccessFs::Execute | AccessFs::ReadFile);
    }

    #[test]
    fn read_write_folders_cannot_make_devices_or_ioctl() {
        let rw = rights(Access::ReadWrite, true);
        for right in [AccessFs::MakeChar, AccessFs::MakeBlock, AccessFs::IoctlDev, AccessFs::Execute, AccessFs::MakeFifo, AccessFs::MakeSock] {
            assert!(!rw.contains(right), "{right:?}");
        }
        assert!(!rights(Access::Read, true).contains(AccessFs::Execute), "read-only folders are not executable");
    }
}
