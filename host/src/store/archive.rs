//! Packed pack archives (`.tar.gz`, `.tgz`, `.tar`): what `capstan packs pack`
//! writes and `capstan packs install FILE` unpacks before the install gate.
//!
//! Security reasoning: an archive is untrusted input unpacked onto disk, so only
//! regular files and folders are taken (a symlink, hard link or device entry refuses
//! the whole archive rather than being skipped, so what is installed is what was
//! packed); every path must be relative and plain (no `..`, no root, no prefix);
//! the unpacked bytes and the entry count are capped (limits.rs) so a gzip bomb ends
//! in a refusal. Unpacking goes into a fresh temporary folder, never into the store,
//! and every entry is created through that folder's directory handle
//! (`crate::confined`): a name that slipped past the path check still cannot land
//! outside it. The gate then reads that folder like any other pack folder.

use crate::confined::Folder;
use crate::limits;
use crate::manifest::MANIFEST_FILE;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    #[error("cannot read the archive: {0}")]
    Read(String),
    #[error("the archive entry {path:?} is a {kind}; only files and folders are allowed")]
    EntryKind { path: String, kind: String },
    #[error("the archive entry {path:?} is not a plain relative path")]
    UnsafePath { path: String },
    #[error("the archive unpacks to more than {limit} bytes or {entries} entries")]
    TooLarge { limit: u64, entries: usize },
    #[error("the archive holds no {MANIFEST_FILE} at its root or in one top folder")]
    NoPack,
    #[error("cannot write {path}: {detail}")]
    Write { path: PathBuf, detail: String },
}

/// Is `path` a file this module reads as an archive (by its name)?
pub fn is_archive(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_ascii_lowercase();
    path.is_file() && (name.ends_with(".tar.gz") || name.ends_with(".tgz") || name.ends_with(".tar"))
}

/// Unpack `archive` into the folder `into` and return the pack folder inside it.
pub fn unpack(archive: &Path, into: &Folder) -> Result<Folder, ArchiveError> {
    let file = std::fs::File::open(archive).map_err(|e| ArchiveError::Read(e.to_string()))?;
    let gz = !archive.to_string_lossy().to_ascii_lowercase().ends_with(".tar");
    let reader: Box<dyn Read> = if gz { Box::new(flate2::read::GzDecoder::new(file)) } else { Box::new(file) };
    // The cap counts decompressed bytes as they stream, whatever the headers claim.
    let capped = reader.take(limits::MAX_ARCHIVE_UNPACKED_BYTES + 1);
    let mut tar = tar::Archive::new(capped);
    let too_large = || ArchiveError::TooLarge { limit: limits::MAX_ARCHIVE_UNPACKED_BYTES, entries: limits::MAX_ARCHIVE_ENTRIES };
    let mut written: u64 = 0;
    for (count, entry) in tar.entries().map_err(|e| ArchiveError::Read(e.to_string()))?.enumerate() {
        if count >= limits::MAX_ARCHIVE_ENTRIES {
            return Err(too_large());
        }
        let mut entry = entry.map_err(|e| ArchiveError::Read(e.to_string()))?;
        let raw = entry.path().map_err(|e| ArchiveError::Read(e.to_string()))?.into_owned();
        let shown = raw.display().to_string();
        let relative = plain_relative(&raw).ok_or_else(|| ArchiveError::UnsafePath { path: shown.clone() })?;
        let kind = entry.header().entry_type();
        let write_error = |e: std::io::Error| ArchiveError::Write { path: into.shown(&relative), detail: e.to_string() };
        if kind.is_dir() {
            into.create_folder(&relative).map_err(write_error)?;
        } else if kind.is_file() {
            if let Some(parent) = relative.parent() {
                into.create_folder(parent).map_err(write_error)?;
            }
            let mut out = into.create_new(&relative).map_err(write_error)?;
            let room = limits::MAX_ARCHIVE_UNPACKED_BYTES - written;
            let copied = std::io::copy(&mut (&mut entry).take(room + 1), &mut out).map_err(|e| ArchiveError::Read(e.to_string()))?;
            written += copied;
            if written > limits::MAX_ARCHIVE_UNPACKED_BYTES {
                return Err(too_large());
            }
        } else if kind == tar::EntryType::XGlobalHeader || kind == tar::EntryType::XHeader {
            continue;
        } else {
            return Err(ArchiveError::EntryKind { path: shown, kind: format!("{kind:?}").to_lowercase() });
        }
    }
    pack_folder(into)
}

/// `raw` without `.` parts, if it has no root, prefix or `..` and is not empty.
fn plain_relative(raw: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in raw.components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// The folder holding `pack.json`: the unpack root, or its only top folder.
fn pack_folder(root: &Folder) -> Result<Folder, ArchiveError> {
    let reopen = |name: &str| root.open_folder(name).map_err(|e| ArchiveError::Read(e.to_string()));
    if root.is_file(MANIFEST_FILE) {
        return root.duplicate().map_err(|e| ArchiveError::Read(e.to_string()));
    }
    let tops = root.entries().map_err(|e| ArchiveError::Read(e.to_string()))?;
    match tops.as_slice() {
        [only] if only.is_dir() && root.is_file(Path::new(&only.name).join(MANIFEST_FILE)) => reopen(&only.name),
        _ => Err(ArchiveError::NoPack),
    }
}

/// Write the pack folder `dir` (its manifest and component, as the manifest names
/// them) as a `.tar.gz` at `out`, under one top folder named for the pack.
pub fn pack(dir: &Path, name: &str, files: &[&str], out: &Path) -> Result<(), ArchiveError> {
    let write_error = |e: std::io::Error| ArchiveError::Write { path: out.to_path_buf(), detail: e.to_string() };
    let file = std::fs::File::create(out).map_err(write_error)?;
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(file, flate2::Compression::default()));
    tar.mode(tar::HeaderMode::Deterministic);
    for rel in files {
        let mut source = std::fs::File::open(dir.join(rel)).map_err(|e| ArchiveError::Read(format!("{rel}: {e}")))?;
        tar.append_file(Path::new(name).join(rel), &mut source).map_err(write_error)?;
    }
    tar.into_inner().and_then(|gz| gz.finish()).map_err(write_error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_gz(entries: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
        for (path, kind, data) in entries {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(*kind);
            header.set_size(data.len() as u64);
            header.set_mode(0o644);
            if *kind == tar::EntryType::Symlink {
                header.set_link_name("/etc/passwd").unwrap();
            }
            // set_path refuses `..`; write the raw name the way a hostile archiver would.
            let name = &mut header.as_old_mut().name;
            name[..path.len()].copy_from_slice(path.as_bytes());
            header.set_cksum();
            builder.append(&header, *data).unwrap();
        }
        builder.into_inner().unwrap().finish().unwrap()
    }

    fn unpack_bytes(bytes: &[u8]) -> (tempfile::TempDir, Result<PathBuf, ArchiveError>) {
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("pack.tar.gz");
        std::fs::write(&archive, bytes).unwrap();
        let into = dir.path().join("out");
        std::fs::create_dir(&into).unwrap();
        let result = unpack(&archive, &Folder::open(&into).unwrap()).map(|f| f.path().to_path_buf());
        (dir, result)
    }

    #[cfg(unix)]
    #[test]
    fn an_entry_never_lands_outside_through_a_symlink_already_in_the_folder() {
        // The path check passes `p/pack.json`; the folder handle is what stops it
        // when `p` is a symlink to somewhere else.
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let into = dir.path().join("out");
        std::fs::create_dir(&into).unwrap();
        std::os::unix::fs::symlink(&outside, into.join("p")).unwrap();
        let archive = dir.path().join("pack.tar.gz");
        std::fs::write(&archive, tar_gz(&[("p/pack.json", tar::EntryType::Regular, b"{}")])).unwrap();
        let r = unpack(&archive, &Folder::open(&into).unwrap());
        assert!(matches!(r, Err(ArchiveError::Write { .. })), "{:?}", r.map(|f| f.path().to_path_buf()));
        assert!(!outside.join("pack.json").exists());
    }

    #[test]
    fn a_pack_in_one_top_folder_or_at_the_root_is_found() {
        let file = tar::EntryType::Regular;
        let (_d, found) = unpack_bytes(&tar_gz(&[("hello/pack.json", file, b"{}"), ("hello/hello.wasm", file, b"\0asm")]));
        let found = found.unwrap();
        assert!(found.ends_with("out/hello"));
        assert_eq!(std::fs::read(found.join("hello.wasm")).unwrap(), b"\0asm");
        let (_d, found) = unpack_bytes(&tar_gz(&[("./pack.json", file, b"{}")]));
        assert!(found.unwrap().ends_with("out"));
        let (_d, found) = unpack_bytes(&tar_gz(&[("a/pack.json", file, b"{}"), ("b/pack.json", file, b"{}")]));
        assert_eq!(found.unwrap_err(), ArchiveError::NoPack);
    }

    #[test]
    fn traversal_links_and_bombs_are_refused() {
        let file = tar::EntryType::Regular;
        let (d, r) = unpack_bytes(&tar_gz(&[("../escape.txt", file, b"x")]));
        assert!(matches!(r, Err(ArchiveError::UnsafePath { .. })), "{r:?}");
        assert!(!d.path().join("escape.txt").exists());
        let (_d, r) = unpack_bytes(&tar_gz(&[("/abs.txt", file, b"x")]));
        assert!(matches!(r, Err(ArchiveError::UnsafePath { .. })), "{r:?}");
        let (_d, r) = unpack_bytes(&tar_gz(&[("p/pack.json", tar::EntryType::Symlink, b"")]));
        assert!(matches!(r, Err(ArchiveError::EntryKind { .. })), "{r:?}");
        let (_d, r) = unpack_bytes(&tar_gz(&[("p/dup", file, b"1"), ("p/dup", file, b"2")]));
        assert!(matches!(r, Err(ArchiveError::Write { .. })), "a second entry may not overwrite the first: {r:?}");

        // 80 MiB of zeros compresses to well under 1 MiB and must stop at the cap.
        let big = vec![0u8; (limits::MAX_ARCHIVE_UNPACKED_BYTES + 1024) as usize];
        let (_d, r) = unpack_bytes(&tar_gz(&[("p/pack.json", file, b"{}"), ("p/huge.wasm", file, &big)]));
        assert!(matches!(r, Err(ArchiveError::TooLarge { .. }) | Err(ArchiveError::Read(_))), "{r:?}");
        let (_d, r) = unpack_bytes(b"\x1f\x8b not really gzip");
        assert!(matches!(r, Err(ArchiveError::Read(_))), "{r:?}");
    }

    #[test]
    fn pack_then_unpack_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        std::fs::create_dir(&src).unwrap();
        std::fs::write(src.join("pack.json"), b"{\"name\":\"x\"}").unwrap();
        std::fs::write(src.join("x.wasm"), b"\0asm\x0d\0\x01\0").unwrap();
        let out = dir.path().join("x.tar.gz");
        pack(&src, "x", &["pack.json", "x.wasm"], &out).unwrap();
        assert!(is_archive(&out));
        let into = dir.path().join("into");
        std::fs::create_dir(&into).unwrap();
        let found = unpack(&out, &Folder::open(&into).unwrap()).unwrap();
        assert_eq!(found.read("x.wasm", 1024).unwrap(), std::fs::read(src.join("x.wasm")).unwrap());
    }
}
