//! The runtime file, checked on every call and parsed again only when it changed.
//!
//! [`endpoint::read`] opens `CAPSTAN_HOME`, the folders down to the file's and the file
//! through directory handles, checks the owner and mode of each, reads and parses the
//! record: over a dozen system calls, 10-20 µs, on every bridge call. This memo keeps
//! the last [`Endpoint`] read for a spec with a **stamp** of what it was read from and
//! the file's bytes, and on the next call takes one `lstat` of each of those paths and
//! one `pread` of the file it holds open. When the stamps and the bytes are what they
//! were, the file is the same file with the same content, in the
//! same folders with the same owners and modes, so reading it again would give the same
//! record; anything else and it is read in full, every check made afresh.
//!
//! Security reasoning, for why that is enough:
//! - A stamp holds the device, inode, owner, mode, size and the modification and
//!   *status-change* times. Every write to a file, every chmod, chown, rename into
//!   place or new hard link sets its status-change time (ctime) to now, and no
//!   unprivileged call can set it back.
//! - Times are only as fine as the filesystem and kernel keep them (nanoseconds on
//!   ext4 with large inodes and recent kernels, a clock tick or whole seconds
//!   elsewhere), so a change in the same tick as the last read could leave every time
//!   as it was. The memo therefore also keeps the **bytes** it read and compares them
//!   with the file's bytes now, read through the handle it holds (one `pread`): the
//!   content decides, the times only spare the parse.
//! - Inode numbers are reused at once on some filesystems (ext4 hands a replaced
//!   file's number to the next new file), so the memo **holds the file open**: the
//!   remembered inode cannot be freed while it is remembered, a file put in its place
//!   always has another number, and the bytes compared are that inode's.
//! - Owners and modes are compared as values, not through times: a folder or home
//!   chmodded or chowned in the same tick still differs.
//! - The file is opened without following a symlink, and a folder or home that is a
//!   symlink is never remembered: the full read follows links its stamps could not
//!   see behind, so such a record is read in full on every call.
//! - The folder's and the home's stamps change when either is chmodded or chowned, and
//!   the folder's when an entry is added, removed or renamed in it. A folder that turns
//!   writable by others, or a home replaced by a symlink, is therefore checked in full
//!   (and refused) on the next call, as before.
//! - The stamp and the bytes are taken *before* the full read they are stored with. A
//!   file changed between them and the read no longer matches them on the next call:
//!   the memo can hold a record newer than its stamp and bytes, never an older one.
//! - What a stamp cannot see is checked every time, memo or not: the pid the record
//!   names is alive (a dead one goes through the full read, which waits out a restart),
//!   and so is the supervisor it names; the token is registered with the redactor again
//!   (the redactor keeps a bounded list).
//! - The memo never changes where a call goes: the address and token are the file's,
//!   as of now, on every call ("never cache an address" holds).
//! - The folders between the home and the file's folder (`run/`), which the full read
//!   checks too, are stamped like the folder.

use super::endpoint::{self, Endpoint, EndpointError, RuntimeFileSpec};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// One path's metadata, as far as it decides what reading it would give.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PathStamp {
    dev: u64,
    ino: u64,
    mode: u32,
    uid: u32,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// The stamps of the file, its folder, the home and the folders between, in that order.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp(Vec<PathStamp>);

#[cfg(unix)]
impl PathStamp {
    fn of(m: &std::fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt;
        PathStamp { dev: m.dev(), ino: m.ino(), mode: m.mode(), uid: m.uid(), size: m.size(), mtime: (m.mtime(), m.mtime_nsec()), ctime: (m.ctime(), m.ctime_nsec()) }
    }

    fn is_symlink(&self) -> bool {
        self.mode & libc::S_IFMT == libc::S_IFLNK
    }

    fn is_regular_file(&self) -> bool {
        self.mode & libc::S_IFMT == libc::S_IFREG
    }
}

#[cfg(unix)]
impl Stamp {
    /// The stamps as the paths stand now, each taken without following a link (None
    /// when any cannot be taken: the full read says why): the file, its folder, the
    /// home, and the folders between the home and the file's folder.
    fn now(spec: &RuntimeFileSpec) -> Option<Stamp> {
        let folder = spec.path.parent()?;
        let home = spec.home.as_deref();
        let between = folder.ancestors().skip(1).take_while(move |a| home.is_some_and(|h| a.starts_with(h) && *a != h));
        std::iter::once(spec.path.as_path())
            .chain(std::iter::once(folder))
            .chain(home)
            .chain(between)
            .map(|p| std::fs::symlink_metadata(p).ok().map(|m| PathStamp::of(&m)))
            .collect::<Option<Vec<_>>>()
            .map(Stamp)
    }
}

/// The file as it is about to be read in full: its stamps, the open file that keeps
/// its inode from being reused, and its bytes.
struct Pinned {
    stamp: Stamp,
    file: std::fs::File,
    bytes: Vec<u8>,
}

impl Pinned {
    /// None when the record must not be remembered: a symlink on the way, something
    /// other than a regular file, a path that cannot be opened or stat'ed. `stamp` is
    /// the one just taken (the path's part must be the file opened here).
    #[cfg(unix)]
    fn take(spec: &RuntimeFileSpec, stamp: Stamp) -> Option<Pinned> {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a FIFO in the file's place must not hold the call up here (the
        // full read refuses anything but a regular file).
        let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(&spec.path).ok()?;
        let held = PathStamp::of(&file.metadata().ok()?);
        // The path's own stamp is the held file's (the same inode), and nothing on the
        // way is a link the stamps would not see behind.
        if stamp.0.first() != Some(&held) || !held.is_regular_file() || held.size > endpoint::MAX_RUNTIME_FILE_BYTES || stamp.0.iter().any(PathStamp::is_symlink) {
            return None;
        }
        let bytes = read_all(&file, held.size)?;
        Some(Pinned { stamp, file, bytes })
    }

    #[cfg(not(unix))]
    fn take(_spec: &RuntimeFileSpec, _stamp: Stamp) -> Option<Pinned> {
        None
    }

    /// Whether the held file's bytes are still the remembered ones.
    fn same_bytes(&self, size: u64) -> bool {
        read_all(&self.file, size).is_some_and(|now| now == self.bytes)
    }
}

/// The first `size` bytes of `file` and proof there are no more, read from the start
/// whatever the handle's position.
#[cfg(unix)]
fn read_all(file: &std::fs::File, size: u64) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut bytes = vec![0u8; usize::try_from(size).ok()? + 1];
    let mut filled = 0;
    while filled < bytes.len() {
        let want = bytes.len() - filled;
        match file.read_at(&mut bytes[filled..], filled as u64) {
            Ok(0) => break,
            // A positioned read of a regular file returns less than asked only at
            // its end: no second read to find the end.
            Ok(n) if n < want => {
                filled += n;
                break;
            }
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        }
    }
    (filled as u64 == size).then(|| {
        bytes.truncate(filled);
        bytes
    })
}

#[cfg(not(unix))]
fn read_all(_file: &std::fs::File, _size: u64) -> Option<Vec<u8>> {
    None
}

#[cfg(not(unix))]
impl Stamp {
    /// Without inode numbers and a positioned read there is nothing to compare: no memo.
    fn now(_spec: &RuntimeFileSpec) -> Option<Stamp> {
        None
    }
}

struct Remembered {
    spec: RuntimeFileSpec,
    pinned: Pinned,
    endpoint: Endpoint,
}

/// The last endpoint read for one server's runtime file.
#[derive(Default)]
pub struct EndpointMemo {
    last: Mutex<Option<Remembered>>,
    full_reads: AtomicU64,
}

impl EndpointMemo {
    /// How many times the file was read in full (the rest were answered from the memo).
    pub fn full_reads(&self) -> u64 {
        self.full_reads.load(Ordering::Relaxed)
    }

    /// What [`endpoint::read`] would answer for `spec` now.
    pub fn read(&self, spec: &RuntimeFileSpec) -> Result<Endpoint, EndpointError> {
        let stamp = Stamp::now(spec);
        if let Some(stamp) = &stamp
            && let Some(endpoint) = self.unchanged(spec, stamp)
        {
            return Ok(endpoint);
        }
        let pinned = stamp.and_then(|stamp| Pinned::take(spec, stamp));
        self.full_reads.fetch_add(1, Ordering::Relaxed);
        let read = endpoint::read(spec);
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        *last = match (&read, pinned) {
            (Ok(endpoint), Some(pinned)) => Some(Remembered { spec: spec.clone(), pinned, endpoint: endpoint.clone() }),
            _ => None,
        };
        read
    }

    /// The remembered endpoint, when `spec` and `stamp` are what it was read under, the
    /// file holds the same bytes, and the processes it names still run.
    fn unchanged(&self, spec: &RuntimeFileSpec, stamp: &Stamp) -> Option<Endpoint> {
        let last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        let remembered = last.as_ref().filter(|r| r.spec == *spec && r.pinned.stamp == *stamp)?;
        if !remembered.pinned.same_bytes(stamp.0[0].size) {
            return None;
        }
        let mut endpoint = remembered.endpoint.clone();
        drop(last);
        if !endpoint::pid_alive(endpoint.pid) {
            return None;
        }
        endpoint.supervisor = endpoint.supervisor.filter(|pid| endpoint::pid_alive(*pid));
        crate::redact::register(endpoint.token.expose());
        if let Some(key) = &endpoint.exec_key {
            crate::redact::register(key.expose());
        }
        Some(endpoint)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    const TOKEN: &str = "tok-0123456789abcdef";

    fn home() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::create_dir_all(dir.path().join("run/app")).unwrap();
        for p in ["run", "run/app"] {
            std::fs::set_permissions(dir.path().join(p), std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        dir
    }

    fn write_record(path: &Path, port: u16, token: &str, pid: u32) {
        let doc = serde_json::json!({ "http": format!("http://127.0.0.1:{port}"), "token": token, "pid": pid });
        std::fs::write(path, doc.to_string()).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }

    fn write(path: &Path, port: u16) {
        write_record(path, port, TOKEN, std::process::id());
    }

    fn spec(home: &Path) -> RuntimeFileSpec {
        RuntimeFileSpec::at(home.join("run/app/server.json")).under_home(home)
    }

    fn port(memo: &EndpointMemo, spec: &RuntimeFileSpec) -> u16 {
        memo.read(spec).unwrap().addr.port()
    }

    #[test]
    fn an_unchanged_file_is_answered_from_the_memo_and_a_changed_one_is_read_again() {
        let home = home();
        let spec = spec(home.path());
        write(&spec.path, 4001);
        let memo = EndpointMemo::default();
        assert_eq!((port(&memo, &spec), port(&memo, &spec), memo.full_reads()), (4001, 4001, 1));
        // Rewritten in place to the same length: a new status-change time.
        write(&spec.path, 4002);
        assert_eq!((port(&memo, &spec), memo.full_reads()), (4002, 2));
        // Replaced by rename, as the add-on writes it: another inode (the remembered
        // one is held open, so its number cannot come back).
        let next = spec.path.with_file_name("server.json.tmp");
        write_record(&next, 4003, "tok-fedcba9876543210", std::process::id());
        std::fs::rename(&next, &spec.path).unwrap();
        let ep = memo.read(&spec).unwrap();
        assert_eq!((ep.addr.port(), ep.token.expose(), memo.full_reads()), (4003, "tok-fedcba9876543210", 3));
        assert_eq!((port(&memo, &spec), memo.full_reads()), (4003, 3));
    }

    /// Where times are coarse, a rewrite in the same tick leaves every stamp as it
    /// was: the bytes decide. (Simulated: the remembered bytes are made to differ from
    /// the file's, as a same-tick rewrite would leave them.)
    #[test]
    fn bytes_that_differ_under_an_unchanged_stamp_are_read_in_full() {
        let home = home();
        let spec = spec(home.path());
        write(&spec.path, 4001);
        let memo = EndpointMemo::default();
        assert_eq!((port(&memo, &spec), port(&memo, &spec), memo.full_reads()), (4001, 4001, 1));
        let forged = r#"{"http":"http://127.0.0.1:4999","token":"tok-0123456789abcdef","pid":1}"#;
        memo.last.lock().unwrap().as_mut().unwrap().pinned.bytes = forged.as_bytes().to_vec();
        assert_eq!((port(&memo, &spec), memo.full_reads()), (4001, 2));
        assert_eq!((port(&memo, &spec), memo.full_reads()), (4001, 2));
    }

    /// The whole file, in one read when it fits: a file longer or shorter than the
    /// size it was stamped at is no record to remember.
    #[test]
    fn a_full_read_is_exactly_the_stamped_size() {
        let home = home();
        let path = home.path().join("bytes");
        std::fs::write(&path, b"0123456789").unwrap();
        let file = std::fs::File::open(&path).unwrap();
        assert_eq!(read_all(&file, 10).as_deref(), Some(b"0123456789".as_slice()));
        assert_eq!(read_all(&file, 9), None, "one byte more than stamped");
        assert_eq!(read_all(&file, 11), None, "one byte fewer than stamped");
        assert_eq!(read_all(&file, 0), None);
        std::fs::write(&path, b"").unwrap();
        assert_eq!(read_all(&file, 0).as_deref(), Some(b"".as_slice()));
    }

    #[test]
    fn symlinks_on_the_way_are_followed_by_full_reads_and_never_remembered() {
        let first_home = home();
        let spec = spec(first_home.path());
        let folder = spec.path.parent().unwrap();
        // The record is a link to a file beside it: a change to the target does not
        // show in the link's own stamp.
        write(&folder.join("real.json"), 4001);
        std::os::unix::fs::symlink("real.json", &spec.path).unwrap();
        let memo = EndpointMemo::default();
        // (The full read follows a link that stays inside the folder.)
        assert_eq!(port(&memo, &spec), 4001);
        write(&folder.join("real.json"), 4002);
        assert_eq!((port(&memo, &spec), memo.full_reads()), (4002, 2));

        // A home that is a link to the real one.
        let real = home();
        let link = tempfile::tempdir().unwrap();
        let linked_home = link.path().join("home");
        std::os::unix::fs::symlink(real.path(), &linked_home).unwrap();
        let spec = RuntimeFileSpec::at(linked_home.join("run/app/server.json")).under_home(&linked_home);
        write(&spec.path, 4005);
        let memo = EndpointMemo::default();
        let _ = memo.read(&spec);
        let _ = memo.read(&spec);
        assert_eq!(memo.full_reads(), 2);
    }

    #[test]
    fn a_folder_that_turns_writable_by_others_is_refused_on_the_next_call() {
        let home = home();
        let spec = spec(home.path());
        write(&spec.path, 4001);
        let memo = EndpointMemo::default();
        memo.read(&spec).unwrap();
        let folder = spec.path.parent().unwrap();
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(matches!(memo.read(&spec), Err(EndpointError::Untrusted { .. })));
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(port(&memo, &spec), 4001);
        for path in [home.path().join("run"), home.path().to_path_buf()] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
            assert!(matches!(memo.read(&spec), Err(EndpointError::Untrusted { .. })), "{}", path.display());
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700)).unwrap();
            assert_eq!(port(&memo, &spec), 4001);
        }
    }

    #[test]
    fn a_removed_file_or_a_dead_pid_is_never_answered_from_the_memo() {
        let home = home();
        let spec = spec(home.path());
        write(&spec.path, 4001);
        let memo = EndpointMemo::default();
        memo.read(&spec).unwrap();
        std::fs::remove_file(&spec.path).unwrap();
        assert!(matches!(memo.read(&spec), Err(EndpointError::Missing { .. })));

        // A record whose process has ended since it was remembered: the stamp is the
        // same, the answer is not.
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        write_record(&spec.path, 4001, TOKEN, child.id());
        assert_eq!(port(&memo, &spec), 4001);
        assert_eq!((port(&memo, &spec), memo.full_reads()), (4001, 3));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(matches!(memo.read(&spec), Err(EndpointError::DeadPid { .. })));
    }

    #[test]
    fn another_spec_is_read_in_full() {
        let home = home();
        let spec = spec(home.path());
        write(&spec.path, 4001);
        let memo = EndpointMemo::default();
        memo.read(&spec).unwrap();
        let other = RuntimeFileSpec { url_key: "address".into(), ..spec.clone() };
        assert!(matches!(memo.read(&other), Err(EndpointError::Malformed { .. })));
    }
}
