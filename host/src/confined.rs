//! File access confined to a folder, through `cap-std` directory handles.
//!
//! Security reasoning: capstan reads and writes names it did not choose: a pack's
//! component file name, the entries of an archive, the folders of a catalog checkout,
//! the entries of the pack store, the runtime file an app wrote. Checking such a name
//! as a string is one layer (the manifest, archive and catalog parsers each do); this
//! module is the layer that holds when a check is missed or the disk changed after it.
//! A [`Folder`] is a directory handle opened once, from a path capstan chose itself
//! (`CAPSTAN_HOME`'s subfolders, a fresh temporary folder, a folder the user named on
//! the command line). Every name below it is resolved by cap-std relative to that
//! handle, one component at a time, and a name that would lead out of it (`..` above
//! the handle, an absolute path, or a symlink at any step that points outside) fails
//! with `PermissionDenied` before anything is opened, created, renamed or removed.
//! Symlinks that stay inside the folder are followed, as any program would.
//!
//! Ambient authority (a plain path) is used in exactly two functions here,
//! [`Folder::open`] and [`Folder::create_private`]; nothing else in capstan's own file
//! access under `CAPSTAN_HOME` opens a path by name.

use cap_std::ambient_authority;
use cap_std::fs::{Dir, DirBuilder, DirBuilderExt, FileType, Metadata, OpenOptions, OpenOptionsExt};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// An open folder; names below it cannot leave it.
#[derive(Debug)]
pub struct Folder {
    dir: Dir,
    /// Where the folder was when it was opened (for messages only: never reopened).
    path: PathBuf,
}

/// One entry of a folder, as listed (symlinks are reported as symlinks, not followed).
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub file_type: FileType,
}

impl Entry {
    /// A real folder (not a symlink to one).
    pub fn is_dir(&self) -> bool {
        self.file_type.is_dir()
    }
}

/// Is `e` the error cap-std gives for a name that leads out of its folder?
pub fn is_escape(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::PermissionDenied && e.to_string().contains("outside")
}

fn too_large(name: &Path, max: u64) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{} is larger than {max} bytes", name.display()))
}

impl Folder {
    /// Open the folder at `path` (a path capstan chose: see the module doc).
    pub fn open(path: &Path) -> io::Result<Folder> {
        let dir = Dir::open_ambient_dir(path, ambient_authority())?;
        Ok(Folder { dir, path: path.to_path_buf() })
    }

    /// Create the folder at `path` (and its missing parents) readable only by the
    /// owner, then open it.
    pub fn create_private(path: &Path) -> io::Result<Folder> {
        crate::fsutil::create_private_dir(path)?;
        Folder::open(path)
    }

    /// Where the folder was opened (for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `name` below this folder, as a path for messages.
    pub fn shown(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }

    /// A second handle on this folder.
    pub fn duplicate(&self) -> io::Result<Folder> {
        Ok(Folder { dir: self.dir.try_clone()?, path: self.path.clone() })
    }

    /// Open the folder `name` below this one.
    pub fn open_folder(&self, name: impl AsRef<Path>) -> io::Result<Folder> {
        let name = name.as_ref();
        Ok(Folder { dir: self.dir.open_dir(name)?, path: self.path.join(name) })
    }

    /// Create the folder `name` (and missing parents below this folder) owner-only.
    pub fn create_folder(&self, name: impl AsRef<Path>) -> io::Result<()> {
        let mut builder = DirBuilder::new();
        builder.recursive(true).mode(0o700);
        self.dir.create_dir_with(name.as_ref(), &builder)
    }

    /// Create the folder `name`, which must not exist yet, owner-only.
    pub fn create_new_folder(&self, name: impl AsRef<Path>) -> io::Result<Folder> {
        let name = name.as_ref();
        let mut builder = DirBuilder::new();
        builder.mode(0o700);
        self.dir.create_dir_with(name, &builder)?;
        self.open_folder(name)
    }

    /// The whole file `name`, refusing one larger than `max` bytes (without reading it
    /// all) and anything that is not a regular file.
    pub fn read(&self, name: impl AsRef<Path>, max: u64) -> io::Result<Vec<u8>> {
        let name = name.as_ref();
        let file = self.dir.open(name)?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{} is not a regular file", self.shown(name).display())));
        }
        let mut buf = Vec::new();
        file.take(max + 1).read_to_end(&mut buf)?;
        if buf.len() as u64 > max {
            return Err(too_large(&self.shown(name), max));
        }
        Ok(buf)
    }

    /// [`Folder::read`] for UTF-8 text.
    pub fn read_text(&self, name: impl AsRef<Path>, max: u64) -> io::Result<String> {
        let name = name.as_ref();
        String::from_utf8(self.read(name, max)?)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, format!("{} is not UTF-8", self.shown(name).display())))
    }

    /// Open the file `name` for reading (the caller checks what it got).
    pub fn open_file(&self, name: impl AsRef<Path>) -> io::Result<cap_std::fs::File> {
        self.dir.open(name.as_ref())
    }

    /// Create the file `name`, which must not exist yet (never through a symlink).
    pub fn create_new(&self, name: impl AsRef<Path>) -> io::Result<cap_std::fs::File> {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true).mode(0o600);
        self.dir.open_with(name.as_ref(), &options)
    }

    /// Write `bytes` as the new file `name` and sync it.
    pub fn write_new(&self, name: impl AsRef<Path>, bytes: &[u8]) -> io::Result<()> {
        let mut file = self.create_new(name)?;
        file.write_all(bytes)?;
        file.sync_all()
    }

    /// Write `bytes` to `name` readable only by the owner, atomically: a reader sees
    /// the old file or the whole new one (a synced temporary file in this folder,
    /// then one rename over `name`; a symlink at `name` is replaced, not followed).
    pub fn write_private_atomic(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let temp = temp_name(name);
        let written = self.write_new(&temp, bytes).and_then(|()| self.rename(&temp, name));
        if written.is_err() {
            let _ = self.dir.remove_file(&temp);
        }
        written?;
        self.sync();
        Ok(())
    }

    /// What is at `name`, following symlinks that stay inside.
    pub fn metadata(&self, name: impl AsRef<Path>) -> io::Result<Metadata> {
        self.dir.metadata(name.as_ref())
    }

    /// What is at `name` itself (a symlink is reported as one).
    pub fn symlink_metadata(&self, name: impl AsRef<Path>) -> io::Result<Metadata> {
        self.dir.symlink_metadata(name.as_ref())
    }

    /// This folder's own metadata (owner, mode), from the handle.
    pub fn own_metadata(&self) -> io::Result<Metadata> {
        self.dir.dir_metadata()
    }

    pub fn is_file(&self, name: impl AsRef<Path>) -> bool {
        self.metadata(name).is_ok_and(|m| m.is_file())
    }

    pub fn is_dir(&self, name: impl AsRef<Path>) -> bool {
        self.metadata(name).is_ok_and(|m| m.is_dir())
    }

    /// Is there anything at `name` itself (a dangling symlink counts)?
    pub fn exists(&self, name: impl AsRef<Path>) -> bool {
        self.symlink_metadata(name).is_ok()
    }

    /// The folder's entries, sorted by name; names that are not UTF-8 are skipped.
    pub fn entries(&self) -> io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        for entry in self.dir.entries()? {
            let entry = entry?;
            let Ok(name) = entry.file_name().into_string() else { continue };
            out.push(Entry { name, file_type: entry.file_type()? });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Rename `from` to `to`, both inside this folder.
    pub fn rename(&self, from: impl AsRef<Path>, to: impl AsRef<Path>) -> io::Result<()> {
        self.dir.rename(from.as_ref(), &self.dir, to.as_ref())
    }

    /// Exchange the entries `a` and `b` of this folder atomically (Linux
    /// `renameat2(RENAME_EXCHANGE)` on this folder's handle). Both must be plain
    /// names of entries directly in this folder.
    #[cfg(target_os = "linux")]
    pub fn exchange(&self, a: &str, b: &str) -> io::Result<()> {
        use std::ffi::CString;
        use std::os::fd::{AsFd, AsRawFd};
        let (ca, cb) = (CString::new(plain_name(a)?)?, CString::new(plain_name(b)?)?);
        let fd = self.dir.as_fd().as_raw_fd();
        // SAFETY: a directory descriptor this handle owns and two NUL-terminated
        // single-component names (no '/'), so both resolve directly in this folder.
        let rc = unsafe { libc::renameat2(fd, ca.as_ptr(), fd, cb.as_ptr(), libc::RENAME_EXCHANGE) };
        if rc == 0 { Ok(()) } else { Err(io::Error::last_os_error()) }
    }

    /// Remove the file (or symlink) `name`.
    pub fn remove_file(&self, name: impl AsRef<Path>) -> io::Result<()> {
        self.dir.remove_file(name.as_ref())
    }

    /// Remove the folder `name` and everything in it. A symlink at `name` is
    /// removed itself; what it points to is never touched.
    pub fn remove_dir_all(&self, name: impl AsRef<Path>) -> io::Result<()> {
        let name = name.as_ref();
        if self.symlink_metadata(name)?.file_type().is_symlink() {
            return self.dir.remove_file(name);
        }
        self.dir.remove_dir_all(name)
    }

    /// Open (creating if needed) the file `name` for writing without truncating it
    /// (lock files).
    pub fn open_for_lock(&self, name: &str) -> io::Result<std::fs::File> {
        let mut options = OpenOptions::new();
        options.write(true).create(true).truncate(false).mode(0o600);
        Ok(self.dir.open_with(name, &options)?.into_std())
    }

    /// Flush the folder's entries to disk (after a rename), best effort.
    pub fn sync(&self) {
        #[cfg(unix)]
        {
            use std::os::fd::{AsFd, AsRawFd};
            // SAFETY: fsync on a descriptor this handle owns.
            let _ = unsafe { libc::fsync(self.dir.as_fd().as_raw_fd()) };
        }
    }
}

/// `name` if it is one plain path component (no separator, not `.` or `..`).
pub fn plain_name(name: &str) -> io::Result<&str> {
    let plain = !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0']);
    if plain { Ok(name) } else { Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{name:?} is not a plain file name"))) }
}

/// A fresh dot-name beside `name` for a temporary file.
fn temp_name(name: &str) -> String {
    let mut random = [0u8; 8];
    let _ = getrandom::fill(&mut random);
    format!(".{}.tmp-{}", name.trim_start_matches('.'), hex::encode(random))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A folder `inside` with a file, and a secret file beside it (outside).
    fn setup() -> (tempfile::TempDir, Folder) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("inside")).unwrap();
        std::fs::write(tmp.path().join("inside/ok.txt"), b"fine").unwrap();
        std::fs::write(tmp.path().join("secret.txt"), b"secret").unwrap();
        std::fs::create_dir(tmp.path().join("outside")).unwrap();
        let folder = Folder::open(&tmp.path().join("inside")).unwrap();
        (tmp, folder)
    }

    #[test]
    fn names_that_lead_out_are_refused_for_every_operation() {
        let (tmp, folder) = setup();
        let secret = tmp.path().join("secret.txt");
        symlink(&secret, tmp.path().join("inside/link-out")).unwrap();
        symlink("../outside", tmp.path().join("inside/dir-out")).unwrap();
        for hostile in ["../secret.txt", secret.to_str().unwrap(), "link-out", "dir-out/x", "./../inside/../../secret.txt"] {
            let e = folder.read(hostile, 1024).unwrap_err();
            assert!(is_escape(&e) || e.kind() == io::ErrorKind::NotFound, "{hostile}: {e}");
            assert!(folder.write_new(hostile, b"x").is_err(), "{hostile}");
            assert!(folder.create_folder(format!("{hostile}/sub")).is_err(), "{hostile}");
            assert!(folder.open_folder(hostile).is_err(), "{hostile}");
            if hostile != "link-out" {
                // (Renaming onto the symlink itself replaces the link, inside the folder.)
                assert!(folder.rename("ok.txt", hostile).is_err(), "{hostile}");
            }
        }
        assert!(folder.write_private_atomic("../escape.txt", b"x").is_err());
        assert!(!tmp.path().join("escape.txt").exists());
        assert!(!tmp.path().join("outside/x").exists() && !tmp.path().join("outside/sub").exists());
        assert_eq!(std::fs::read(&secret).unwrap(), b"secret");
        assert_eq!(folder.read("ok.txt", 1024).unwrap(), b"fine");
    }

    #[test]
    fn removing_a_symlinked_folder_removes_only_the_link() {
        let (tmp, folder) = setup();
        std::fs::write(tmp.path().join("outside/keep.txt"), b"keep").unwrap();
        symlink(tmp.path().join("outside"), tmp.path().join("inside/.staging-evil")).unwrap();
        folder.remove_dir_all(".staging-evil").unwrap();
        assert!(tmp.path().join("outside/keep.txt").exists());
        assert!(!folder.exists(".staging-evil"));
        assert!(folder.remove_dir_all("../outside").is_err());
        assert!(tmp.path().join("outside/keep.txt").exists());
    }

    #[test]
    fn reads_are_capped_and_files_only() {
        let (_tmp, folder) = setup();
        assert!(folder.read("ok.txt", 3).is_err());
        folder.create_folder("sub/deeper").unwrap();
        assert!(folder.read("sub", 1024).is_err());
        assert!(folder.is_dir("sub/deeper"));
    }

    #[test]
    fn an_atomic_private_write_replaces_a_symlink_instead_of_following_it() {
        let (tmp, folder) = setup();
        symlink(tmp.path().join("secret.txt"), tmp.path().join("inside/server.json")).unwrap();
        folder.write_private_atomic("server.json", b"{}").unwrap();
        assert_eq!(std::fs::read(tmp.path().join("secret.txt")).unwrap(), b"secret");
        assert_eq!(folder.read("server.json", 16).unwrap(), b"{}");
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(tmp.path().join("inside/server.json")).unwrap().permissions().mode() & 0o777, 0o600);
        assert!(folder.entries().unwrap().iter().all(|e| !e.name.contains(".tmp-")));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn exchange_takes_plain_names_only() {
        let (_tmp, folder) = setup();
        folder.create_folder("a").unwrap();
        folder.create_folder("b").unwrap();
        folder.write_new("a/marker", b"a").unwrap();
        folder.exchange("a", "b").unwrap();
        assert!(folder.is_file("b/marker"));
        assert!(folder.exchange("../a", "b").is_err());
        assert!(folder.exchange("a/..", "b").is_err());
    }
}
