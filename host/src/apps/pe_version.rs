//! The `pe_resource` version source: the fixed file version (`VS_FIXEDFILEINFO`'s
//! `dwFileVersion`) of a Windows executable's version resource, read with `pelite`.
//!
//! The file is memory-mapped and parsed, never executed: reading a version must not
//! run the app (a command probe would start Blender's whole runtime on Windows). A
//! file that is not a PE, has no version resource, or a resource without the fixed
//! part is a typed error, which the requirement check reports as `version_unreadable`.

use super::DottedVersion;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PeVersionError {
    #[error("cannot read {path}: {detail}")]
    Unreadable { path: String, detail: String },
    #[error("{path} is not a PE executable: {detail}")]
    NotPe { path: String, detail: String },
    #[error("{path} has no version resource with a fixed file version")]
    NoVersion { path: String },
}

pub fn read(exe: &Path) -> Result<DottedVersion, PeVersionError> {
    let shown = exe.display().to_string();
    let map = pelite::FileMap::open(exe).map_err(|e| PeVersionError::Unreadable { path: shown.clone(), detail: e.to_string() })?;
    from_bytes(map.as_ref()).map_err(|why| why.at(&shown))
}

/// Failure without the path, which `read` adds.
enum Why {
    NotPe(String),
    NoVersion,
}

impl Why {
    fn at(self, path: &str) -> PeVersionError {
        match self {
            Why::NotPe(detail) => PeVersionError::NotPe { path: path.into(), detail },
            Why::NoVersion => PeVersionError::NoVersion { path: path.into() },
        }
    }
}

fn from_bytes(bytes: &[u8]) -> Result<DottedVersion, Why> {
    let file = pelite::PeFile::from_bytes(bytes).map_err(|e| Why::NotPe(e.to_string()))?;
    let resources = file.resources().map_err(|_| Why::NoVersion)?;
    let info = resources.version_info().map_err(|_| Why::NoVersion)?;
    let fixed = info.fixed().ok_or(Why::NoVersion)?;
    let v = fixed.dwFileVersion;
    // pelite names the four words Major.Minor.Patch.Build in display order.
    DottedVersion::parse(&format!("{}.{}.{}.{}", v.Major, v.Minor, v.Patch, v.Build)).map_err(|_| Why::NoVersion)
}

#[cfg(test)]
#[path = "pe_fixture.rs"]
mod pe_fixture;

#[cfg(test)]
mod tests {
    use super::pe_fixture::{VersionResource, executable};
    use super::*;

    fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn the_fixed_file_version_is_read_from_64_and_32_bit_executables() {
        let dir = tempfile::tempdir().unwrap();
        let v64 = write(dir.path(), "sculptor.exe", &executable(true, VersionResource::Fixed([4, 5, 3, 0])));
        let v32 = write(dir.path(), "old.exe", &executable(false, VersionResource::Fixed([3, 6, 23, 7])));
        assert_eq!(read(&v64).unwrap(), DottedVersion::parse("4.5.3").unwrap());
        assert_eq!(read(&v64).unwrap().to_string(), "4.5.3.0");
        assert_eq!(read(&v32).unwrap().to_string(), "3.6.23.7");
        assert!(read(&v64).unwrap() > DottedVersion::parse("4.2").unwrap());
    }

    #[test]
    fn a_missing_resource_or_a_non_pe_is_a_typed_error() {
        let dir = tempfile::tempdir().unwrap();
        let bare = write(dir.path(), "bare.exe", &executable(true, VersionResource::Absent));
        assert!(matches!(read(&bare), Err(PeVersionError::NoVersion { .. })), "{:?}", read(&bare));
        let elf = write(dir.path(), "sculptor", b"\x7fELF\x02\x01\x01 not a PE at all");
        assert!(matches!(read(&elf), Err(PeVersionError::NotPe { .. })), "{:?}", read(&elf));
        assert!(matches!(read(&dir.path().join("nope.exe")), Err(PeVersionError::Unreadable { .. })));
    }

    #[test]
    fn a_truncated_executable_never_panics() {
        let whole = executable(true, VersionResource::Fixed([4, 5, 3, 0]));
        for len in (0..whole.len()).step_by(7) {
            let _ = from_bytes(&whole[..len]);
        }
        let mut flipped = whole.clone();
        for i in (0..flipped.len()).step_by(13) {
            flipped[i] ^= 0xff;
            let _ = from_bytes(&flipped);
        }
    }
}
