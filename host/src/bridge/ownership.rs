//! Who could have written a runtime file: it, its folder, `CAPSTAN_HOME` and every
//! folder between the two must be owned by the user capstan runs as and writable by
//! nobody else.
//!
//! Security reasoning: the runtime file tells capstan where to connect and which
//! token to send. On a shared machine, or with a `CAPSTAN_HOME` that is writable by
//! others, another user could write (or swap in, by renaming within a writable
//! folder) a runtime file that points capstan at their own listener, which would then
//! receive every command and could answer anything. So before the file is believed:
//! `CAPSTAN_HOME` (when the file lies under it), every folder from it down to the
//! file's (`run/`, then `run/blender/`), and the file itself must each be owned by
//! this user and carry no group or world write bit. A folder on the way that another
//! user could write (or owns) would let them swap the folders below it, the home's
//! own mode notwithstanding. The home's ancestors are not checked: a `CAPSTAN_HOME`
//! under `/tmp` (sticky and world-writable, so nobody else can rename it) is normal
//! in tests.
//!
//! The checks read the metadata of the open handles (`fstat`), not of the paths, so
//! what is checked is what is read. A refusal is an availability state that names
//! its reason: `runtime_file_not_owned` or `runtime_file_writable_by_others`.

use std::path::{Path, PathBuf};

/// Which one a check is about (for messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Home,
    /// A folder below the home and above the runtime file's folder (`run/`).
    Between,
    Folder,
    File,
}

impl Role {
    fn describe(self) -> &'static str {
        match self {
            Role::Home => "CAPSTAN_HOME",
            Role::Between => "the folder on the way to the runtime file",
            Role::Folder => "the runtime file's folder",
            Role::File => "the runtime file",
        }
    }
}

/// Why a runtime file is not believed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Untrusted {
    #[error("{} {path} is owned by uid {owner}, not by this user (uid {me}); another user could have written it", role.describe())]
    NotOwned { role: Role, path: PathBuf, owner: u32, me: u32 },
    #[error("{} {path} is writable by other users (mode {mode:o}); another user could have written it", role.describe())]
    WritableByOthers { role: Role, path: PathBuf, mode: u32 },
}

impl Untrusted {
    /// The availability state this refusal is.
    pub fn state(&self) -> &'static str {
        match self {
            Untrusted::NotOwned { .. } => "runtime_file_not_owned",
            Untrusted::WritableByOthers { .. } => "runtime_file_writable_by_others",
        }
    }
}

/// The user capstan runs as.
#[cfg(unix)]
pub fn current_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Check one of the three from its metadata (taken from an open handle).
#[cfg(unix)]
pub fn check(role: Role, path: &Path, meta: &cap_std::fs::Metadata) -> Result<(), Untrusted> {
    use cap_std::fs::MetadataExt;
    check_owner_and_mode(role, path, meta.uid(), meta.mode(), current_uid())
}

/// Without Unix owners and modes there is nothing to compare; the folder's ACLs are
/// the operating system's business.
#[cfg(not(unix))]
pub fn check(_role: Role, _path: &Path, _meta: &cap_std::fs::Metadata) -> Result<(), Untrusted> {
    Ok(())
}

/// The rule itself: owned by `me`, no group or world write bit.
pub fn check_owner_and_mode(role: Role, path: &Path, owner: u32, mode: u32, me: u32) -> Result<(), Untrusted> {
    if owner != me {
        return Err(Untrusted::NotOwned { role, path: path.to_path_buf(), owner, me });
    }
    if mode & 0o022 != 0 {
        return Err(Untrusted::WritableByOthers { role, path: path.to_path_buf(), mode: mode & 0o7777 });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_and_write_bits_decide() {
        let p = Path::new("/x");
        assert!(check_owner_and_mode(Role::File, p, 501, 0o100600, 501).is_ok());
        assert!(check_owner_and_mode(Role::Folder, p, 501, 0o40755, 501).is_ok());
        let e = check_owner_and_mode(Role::File, p, 502, 0o100600, 501).unwrap_err();
        assert_eq!(e.state(), "runtime_file_not_owned");
        assert!(e.to_string().contains("uid 502") && e.to_string().contains("uid 501"), "{e}");
        for mode in [0o40777, 0o41777, 0o40775, 0o100620, 0o100602] {
            let e = check_owner_and_mode(Role::Home, p, 501, mode, 501).unwrap_err();
            assert_eq!(e.state(), "runtime_file_writable_by_others", "{mode:o}");
            assert!(e.to_string().starts_with("CAPSTAN_HOME /x is writable by other users"), "{e}");
        }
    }
}
