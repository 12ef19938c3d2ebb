//! Reading the app's runtime file: the only source of the bridge's address and token.
//!
//! Security reasoning: the runtime file is re-read on **every** connection attempt and
//! is authoritative. A missing or malformed file, a URL that is not plain `http` on a
//! loopback address, userinfo in the URL, or a dead pid is an availability state
//! (`endpoint_unavailable` / `app_not_running`), and the client never falls back to a
//! configured or default address: a stale address is exactly the bug this prevents.
//! The token is registered with the redactor the moment it is read.
//!
//! Before its content is believed, the file, its folder, `CAPSTAN_HOME` and every
//! folder between them must be owned by this user and writable by nobody else
//! (`ownership`); the file is opened
//! through its folder's directory handle (`crate::confined`), so a runtime file that is
//! a symlink out of its folder is refused, and the ownership checks read the open
//! handles, so what is checked is what is read.

use super::ownership::{self, Role, Untrusted};
use crate::confined::Folder;
use crate::redact::Secret;
use serde_json::Value;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};

/// Where the runtime file is and which fields to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeFileSpec {
    pub path: PathBuf,
    pub url_key: String,
    pub token_key: String,
    pub pid_key: String,
    /// The `CAPSTAN_HOME` to check too when the file lies under it.
    pub home: Option<PathBuf>,
}

impl RuntimeFileSpec {
    /// The default field names (`http`, `token`, `pid`).
    pub fn at(path: PathBuf) -> Self {
        RuntimeFileSpec { path, url_key: "http".into(), token_key: "token".into(), pid_key: "pid".into(), home: None }
    }

    /// Check `home` (when the file lies under it) besides the file and its folder.
    pub fn under_home(mut self, home: &Path) -> Self {
        self.home = Some(home.to_path_buf());
        self
    }
}

/// A live endpoint, as the runtime file names it.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub addr: SocketAddr,
    pub token: Secret,
    pub pid: u32,
    pub app_version: Option<String>,
    /// The key `execute_python` attests checked scripts with (`exec_key`: 64 hex
    /// digits), when the bridge publishes one. A secret like the token.
    pub exec_key: Option<Secret>,
    /// The OS layers the launching capstan recorded (None: the app was started by hand,
    /// and its add-on wrote this file itself).
    pub containment: Option<crate::containment::Layers>,
    /// The instance folder capstan launched the app in (`instance`: its id), when
    /// capstan wrote this record; None for a bridge started by hand.
    pub instance: Option<String>,
    /// The live process that starts the app again when a restart is asked for
    /// ([`crate::containment::restart`]), so a long call can be cancelled by restarting.
    /// None when nobody supervises the instance, or its supervisor is gone.
    pub supervisor: Option<u32>,
}

/// A token's sha256: enough to tell whether a kept connection was opened for the
/// bridge the runtime file names now, without keeping another copy of the token.
#[derive(Clone, PartialEq, Eq)]
pub struct TokenDigest([u8; 32]);

impl Endpoint {
    pub fn token_digest(&self) -> TokenDigest {
        use sha2::Digest;
        TokenDigest(sha2::Sha256::digest(self.token.expose().as_bytes()).into())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    #[error("the runtime file {path} does not exist (the bridge is not running, or was never started)")]
    Missing { path: PathBuf },
    #[error("the runtime file {path} cannot be read: {detail}")]
    Unreadable { path: PathBuf, detail: String },
    #[error("the runtime file {path} is malformed: {detail}")]
    Malformed { path: PathBuf, detail: String },
    #[error("the runtime file names {url:?}, which is not plain http on a loopback address")]
    NotLoopback { url: String },
    #[error("the process {pid} named by the runtime file is not running (stale file)")]
    DeadPid { pid: u32 },
    #[error("refusing the runtime file {path}: {reason}")]
    Untrusted { path: PathBuf, reason: Untrusted },
}

impl EndpointError {
    /// The availability state this error means.
    pub fn state(&self) -> &'static str {
        match self {
            EndpointError::DeadPid { .. } => "app_not_running",
            EndpointError::Untrusted { reason, .. } => reason.state(),
            _ => "endpoint_unavailable",
        }
    }
}

/// The largest runtime file believed (the memo keeps no larger one either).
pub(crate) const MAX_RUNTIME_FILE_BYTES: u64 = 64 * 1024;

pub fn read(spec: &RuntimeFileSpec) -> Result<Endpoint, EndpointError> {
    let text = read_trusted(spec)?;
    match parse(&text, spec) {
        Err(EndpointError::DeadPid { pid }) => match restarting(&text, spec) {
            Some(instance_dir) => wait_for_restart(spec, &instance_dir, pid),
            None => Err(EndpointError::DeadPid { pid }),
        },
        other => other,
    }
}

/// The record's supervising process (`supervisor`: its pid), while it is alive.
fn supervisor_of(doc: &Value) -> Option<u32> {
    doc.get("supervisor")?.as_u64().and_then(|p| u32::try_from(p).ok()).filter(|p| *p > 1 && pid_alive(*p))
}

/// The instance folder of a record whose app is being restarted (a cancelled long call,
/// [`crate::containment::restart`]), if it is: a restart was asked for and the
/// supervisor that would do it is alive (a marker left by a supervisor that died is no
/// reason to wait).
fn restarting(text: &str, spec: &RuntimeFileSpec) -> Option<PathBuf> {
    let doc: Value = serde_json::from_str(text).ok()?;
    let id = doc.get("instance")?.as_str()?;
    supervisor_of(&doc)?;
    let dir = crate::containment::instance::Instance::dir_of(spec.home.as_deref()?, id)?;
    crate::containment::restart::pending(&dir).then_some(dir)
}

/// Wait (bounded) until the supervisor has the app answering again: the record names a
/// live pid, or the restart was given up (the marker is gone).
fn wait_for_restart(spec: &RuntimeFileSpec, instance_dir: &Path, dead: u32) -> Result<Endpoint, EndpointError> {
    let deadline = std::time::Instant::now() + crate::limits::APP_RESTART_WAIT;
    loop {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let text = read_trusted(spec);
        let supervised = text.as_ref().ok().and_then(|t| serde_json::from_str::<Value>(t).ok()).is_some_and(|doc| supervisor_of(&doc).is_some());
        let waiting = std::time::Instant::now() < deadline && supervised && crate::containment::restart::pending(instance_dir);
        match text.and_then(|text| parse(&text, spec)) {
            Err(EndpointError::DeadPid { .. } | EndpointError::Missing { .. }) if waiting => continue,
            Err(EndpointError::DeadPid { .. } | EndpointError::Missing { .. }) => return Err(EndpointError::DeadPid { pid: dead }),
            other => return other,
        }
    }
}

/// The runtime file's text, once it, its folder and `CAPSTAN_HOME` are trusted.
fn read_trusted(spec: &RuntimeFileSpec) -> Result<String, EndpointError> {
    use std::io::Read;
    let path = &spec.path;
    let io = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => EndpointError::Missing { path: path.clone() },
        _ => EndpointError::Unreadable { path: path.clone(), detail: e.to_string() },
    };
    let untrusted = |reason| EndpointError::Untrusted { path: path.clone(), reason };
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(EndpointError::Unreadable { path: path.clone(), detail: "not a file path".into() });
    };
    let folder = trusted_folder(spec.home.as_deref(), parent).map_err(|e| match e {
        Refused::Io(e) => io(e),
        Refused::Untrusted(reason) => untrusted(reason),
    })?;
    let file = folder.open_file(name).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(EndpointError::Unreadable { path: path.clone(), detail: "not a regular file".into() });
    }
    ownership::check(Role::File, path, &meta).map_err(untrusted)?;
    // Sized from the metadata, so a record is one read (every bridge call reads it).
    let mut bytes = Vec::with_capacity(meta.len().min(MAX_RUNTIME_FILE_BYTES) as usize + 1);
    file.take(MAX_RUNTIME_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_RUNTIME_FILE_BYTES {
        return Err(EndpointError::Unreadable { path: path.clone(), detail: format!("larger than {MAX_RUNTIME_FILE_BYTES} bytes") });
    }
    String::from_utf8(bytes).map_err(|_| EndpointError::Unreadable { path: path.clone(), detail: "not UTF-8".into() })
}

enum Refused {
    Io(std::io::Error),
    Untrusted(Untrusted),
}

/// The runtime file's folder, opened and checked; through `CAPSTAN_HOME`'s handle
/// (checked first) when the folder lies under it.
fn trusted_folder(home: Option<&Path>, parent: &Path) -> Result<Folder, Refused> {
    let check = |role, path: &Path, folder: &Folder| ownership::check(role, path, &folder.own_metadata().map_err(Refused::Io)?).map_err(Refused::Untrusted);
    let Some((home, rel)) = home.and_then(|h| parent.strip_prefix(h).ok().map(|rel| (h, rel))) else {
        let folder = Folder::open(parent).map_err(Refused::Io)?;
        check(Role::Folder, parent, &folder)?;
        return Ok(folder);
    };
    // From the home down, one folder at a time, each checked as it is opened: a
    // folder on the way that others could write would let them swap what is below.
    let mut folder = Folder::open(home).map_err(Refused::Io)?;
    check(Role::Home, home, &folder)?;
    let steps: Vec<_> = rel.components().collect();
    let mut path = home.to_path_buf();
    for (i, step) in steps.iter().enumerate() {
        folder = folder.open_folder(step).map_err(Refused::Io)?;
        path.push(step);
        check(if i + 1 == steps.len() { Role::Folder } else { Role::Between }, &path, &folder)?;
    }
    Ok(folder)
}

fn malformed(path: &Path, detail: impl Into<String>) -> EndpointError {
    EndpointError::Malformed { path: path.to_path_buf(), detail: detail.into() }
}

pub fn parse(text: &str, spec: &RuntimeFileSpec) -> Result<Endpoint, EndpointError> {
    let path = &spec.path;
    let doc: Value = serde_json::from_str(text).map_err(|e| malformed(path, format!("not JSON: {e}")))?;
    let field = |key: &str| doc.get(key).ok_or_else(|| malformed(path, format!("no {key:?} field")));
    let url = field(&spec.url_key)?.as_str().ok_or_else(|| malformed(path, format!("{:?} is not a string", spec.url_key)))?;
    let token = field(&spec.token_key)?.as_str().ok_or_else(|| malformed(path, format!("{:?} is not a string", spec.token_key)))?;
    if token.len() < 16 || token.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(malformed(path, "the token is shorter than 16 characters or contains spaces"));
    }
    let token = Secret::new(token.to_string());
    let pid = field(&spec.pid_key)?
        .as_u64()
        .filter(|p| *p > 0 && *p <= u64::from(u32::MAX))
        .ok_or_else(|| malformed(path, format!("{:?} is not a process id", spec.pid_key)))? as u32;
    let addr = loopback_addr(url)?;
    if !pid_alive(pid) {
        return Err(EndpointError::DeadPid { pid });
    }
    let app_version = doc.get("app_version").and_then(Value::as_str).map(String::from);
    let exec_key = exec_key(&doc).map_err(|detail| malformed(path, detail))?;
    let containment = crate::containment::Layers::from_runtime(&doc);
    let instance = match doc.get("instance") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) if crate::containment::instance::is_instance_id(id) => Some(id.clone()),
        Some(_) => return Err(malformed(path, "\"instance\" is not an instance id")),
    };
    let supervisor = supervisor_of(&doc).filter(|_| instance.is_some());
    Ok(Endpoint { addr, token, pid, app_version, exec_key, containment, instance, supervisor })
}

/// The optional `exec_key`: absent, or exactly 64 lower-case hex digits.
fn exec_key(doc: &Value) -> Result<Option<Secret>, &'static str> {
    match doc.get("exec_key") {
        None => Ok(None),
        Some(Value::String(k)) if k.len() == 64 && k.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) => Ok(Some(Secret::new(k.clone()))),
        Some(_) => Err("\"exec_key\" is not 64 hex digits"),
    }
}

/// `http://127.0.0.1:PORT` (any 127/8 address), `http://localhost:PORT` or
/// `http://[::1]:PORT`, with at most a trailing `/`. Nothing else.
pub fn loopback_addr(url: &str) -> Result<SocketAddr, EndpointError> {
    let refuse = || EndpointError::NotLoopback { url: url.chars().take(200).collect() };
    let rest = url.strip_prefix("http://").ok_or_else(refuse)?;
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    if authority.is_empty() || authority.contains(['/', '@', '?', '#', '\\', ' ']) {
        return Err(refuse());
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, p) = v6.split_once("]:").ok_or_else(refuse)?;
        (h, p)
    } else {
        authority.rsplit_once(':').ok_or_else(refuse)?
    };
    let port: u16 = port.parse().ok().filter(|p| *p != 0).ok_or_else(refuse)?;
    let ip = match host {
        "localhost" => IpAddr::V4(Ipv4Addr::LOCALHOST),
        _ => host.parse::<IpAddr>().map_err(|_| refuse())?,
    };
    let loopback = match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => v6 == Ipv6Addr::LOCALHOST,
    };
    if !loopback {
        return Err(refuse());
    }
    Ok(SocketAddr::new(ip, port))
}

/// Is a process with this id alive? (Signal 0 probes without delivering anything.)
#[cfg(unix)]
pub fn pid_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: kill with signal 0 performs only the existence/permission check.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Without a cheap portable probe, a pid is taken as alive; a dead bridge then shows
/// as a refused connection (`endpoint_unavailable`) instead of `app_not_running`.
#[cfg(not(unix))]
pub fn pid_alive(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> RuntimeFileSpec {
        RuntimeFileSpec::at(PathBuf::from("/x/server.json"))
    }

    #[test]
    fn loopback_urls_are_accepted() {
        for ok in ["http://127.0.0.1:9876", "http://127.0.0.1:9876/", "http://localhost:9877", "http://[::1]:9878", "http://127.1.2.3:80"] {
            assert!(loopback_addr(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            "https://127.0.0.1:9876",
            "http://10.0.0.5:9876",
            "http://169.254.169.254:80",
            "http://evil.example:9876",
            "http://user:pw@127.0.0.1:9876",
            "http://127.0.0.1@evil.example:9876",
            "http://127.0.0.1:9876/bridge",
            "http://127.0.0.1",
            "http://127.0.0.1:0",
            "http://127.0.0.1:99999",
            "file:///tmp/sock",
            "",
        ] {
            assert!(matches!(loopback_addr(bad), Err(EndpointError::NotLoopback { .. })), "{bad}");
        }
    }

    #[test]
    fn malformed_files_are_endpoint_unavailable() {
        let me = std::process::id();
        for bad in [
            "not json".to_string(),
            r#"{"token":"0123456789abcdefXYZ","pid":1}"#.to_string(),
            format!(r#"{{"http":"http://127.0.0.1:9876","token":"short","pid":{me}}}"#),
            format!(r#"{{"http":"http://127.0.0.1:9876","token":"0123456789abcdefXYZ","pid":"x{me}"}}"#),
        ] {
            let e = parse(&bad, &spec()).unwrap_err();
            assert_eq!(e.state(), "endpoint_unavailable", "{bad}: {e}");
        }
    }

    #[test]
    fn an_instance_is_an_id_and_supervision_needs_one() {
        let me = std::process::id();
        let record = |extra: &str| format!(r#"{{"http":"http://127.0.0.1:9876","token":"0123456789abcdefXYZ","pid":{me}{extra}}}"#);
        let ep = parse(&record(&format!(r#","instance":"1765000000-42-0a1b2c3d","supervisor":{me}"#)), &spec()).unwrap();
        assert_eq!((ep.instance.as_deref(), ep.supervisor), (Some("1765000000-42-0a1b2c3d"), Some(me)));
        let ep = parse(&record(&format!(r#","supervisor":{me}"#)), &spec()).unwrap();
        assert_eq!(ep.supervisor, None, "no instance, nothing to restart");
        let dead = (4_000_000..4_100_000).find(|p| !pid_alive(*p)).unwrap();
        let ep = parse(&record(&format!(r#","instance":"1765000000-42-0a1b2c3d","supervisor":{dead}"#)), &spec()).unwrap();
        assert_eq!(ep.supervisor, None, "a supervisor that is gone restarts nothing");
        for climbing in [r#","instance":"../../etc""#, r#","instance":"a/b""#, r#","instance":7"#, r#","instance":"""#] {
            assert!(matches!(parse(&record(climbing), &spec()), Err(EndpointError::Malformed { .. })), "{climbing}");
        }
    }

    #[test]
    fn a_call_waits_for_a_restart_and_not_for_a_crash() {
        let home = tempfile::tempdir().unwrap();
        let id = "1765000000-42-0a1b2c3d";
        let instance = crate::containment::instance::Instance::dir_of(home.path(), id).unwrap();
        std::fs::create_dir_all(&instance).unwrap();
        let dead = (4_000_000..4_100_000).find(|p| !pid_alive(*p)).unwrap();
        let me = std::process::id();
        let record = |pid: u32| format!(r#"{{"http":"http://127.0.0.1:9876","token":"0123456789abcdefXYZ","pid":{pid},"instance":"{id}","supervisor":{me}}}"#);
        let spec = RuntimeFileSpec::at(instance.join("server.json")).under_home(home.path());
        // A crash (no restart asked for): not running, at once.
        assert_eq!(restarting(&record(dead), &spec), None);
        // A restart asked for: the call waits until the record names a live pid.
        std::fs::write(instance.join(crate::containment::restart::MARKER), b"cancel\n").unwrap();
        assert_eq!(restarting(&record(dead), &spec), Some(instance.clone()));
        std::fs::write(instance.join("server.json"), record(dead)).unwrap();
        let (file, alive) = (instance.join("server.json"), record(std::process::id()));
        let writer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            // As the add-on writes it: a whole new file renamed into place. A write in
            // place could be read between its truncation and its bytes (an empty file).
            let staged = file.with_extension("json.tmp");
            std::fs::write(&staged, alive).unwrap();
            std::fs::rename(staged, file).unwrap();
        });
        let plain = RuntimeFileSpec::at(instance.join("server.json"));
        let ep = wait_for_restart(&plain, &instance, dead).unwrap();
        writer.join().unwrap();
        assert_eq!(ep.pid, std::process::id());
        // Given up (the marker gone, the pid still dead): not running.
        std::fs::write(instance.join("server.json"), record(dead)).unwrap();
        crate::containment::restart::clear(&instance);
        assert_eq!(wait_for_restart(&plain, &instance, dead).unwrap_err(), EndpointError::DeadPid { pid: dead });
        // A marker whose supervisor died: nothing to wait for.
        std::fs::write(instance.join(crate::containment::restart::MARKER), b"cancel\n").unwrap();
        let orphan = record(dead).replace(&format!(r#""supervisor":{me}"#), &format!(r#""supervisor":{dead}"#));
        assert_eq!(restarting(&orphan, &spec), None);
    }

    #[test]
    fn a_dead_pid_is_app_not_running() {
        // Find a pid that is not in use.
        let dead = (4_000_000..4_100_000).find(|p| !pid_alive(*p)).unwrap();
        let text = format!(r#"{{"http":"http://127.0.0.1:9876","token":"0123456789abcdefXYZ","pid":{dead}}}"#);
        let e = parse(&text, &spec()).unwrap_err();
        assert_eq!(e, EndpointError::DeadPid { pid: dead });
        assert_eq!(e.state(), "app_not_running");
    }

    #[test]
    fn a_good_file_yields_the_endpoint_and_registers_the_token() {
        let text = format!(r#"{{"http":"http://127.0.0.1:9876","token":"runtime-token-0123456789","pid":{},"app_version":"5.0.1"}}"#, std::process::id());
        let ep = parse(&text, &spec()).unwrap();
        assert_eq!(ep.addr.port(), 9876);
        assert_eq!(ep.app_version.as_deref(), Some("5.0.1"));
        assert_eq!(crate::redact::redact("x runtime-token-0123456789 y"), "x [redacted] y");
    }

    #[test]
    fn the_exec_key_is_read_and_redacted_when_present() {
        let key = "ab".repeat(32);
        let text = format!(r#"{{"http":"http://127.0.0.1:9876","token":"runtime-token-0123456789","pid":{},"exec_key":"{key}"}}"#, std::process::id());
        assert_eq!(parse(&text, &spec()).unwrap().exec_key.unwrap().expose(), key);
        assert_eq!(crate::redact::redact(&format!("k={key}")), "k=[redacted]");
        let bad = text.replace(&key, "not-a-key");
        assert_eq!(parse(&bad, &spec()).unwrap_err().state(), "endpoint_unavailable");
    }

    #[test]
    fn field_names_can_be_overridden() {
        let mut s = spec();
        s.url_key = "url".into();
        s.token_key = "secret".into();
        s.pid_key = "process".into();
        let text = format!(r#"{{"url":"http://127.0.0.1:9000","secret":"another-token-0123456789","process":{}}}"#, std::process::id());
        assert_eq!(parse(&text, &s).unwrap().addr.port(), 9000);
    }

    /// A home with `run/blender/server.json` naming this process; its spec.
    #[cfg(unix)]
    fn written(home: &Path) -> RuntimeFileSpec {
        let folder = home.join("run/sculptor");
        crate::fsutil::create_private_dir(&folder).unwrap();
        let text = format!(r#"{{"http":"http://127.0.0.1:9876","token":"runtime-token-trust-0123456789","pid":{}}}"#, std::process::id());
        crate::fsutil::write_private_atomic(&folder.join("server.json"), text.as_bytes()).unwrap();
        RuntimeFileSpec::at(folder.join("server.json")).under_home(home)
    }

    #[cfg(unix)]
    fn set_mode(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_runtime_file_folder_or_home_writable_by_others_is_refused_with_its_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let spec = written(&home);
        assert!(read(&spec).is_ok());
        for (path, what) in [(spec.path.clone(), "the runtime file"), (home.join("run/sculptor"), "the runtime file's folder"), (home.join("run"), "the folder on the way"), (home.clone(), "CAPSTAN_HOME")] {
            let before = std::fs::metadata(&path).unwrap();
            use std::os::unix::fs::PermissionsExt;
            let original = before.permissions().mode() & 0o777;
            for mode in [original | 0o002, original | 0o020] {
                set_mode(&path, mode);
                let e = read(&spec).unwrap_err();
                assert_eq!(e.state(), "runtime_file_writable_by_others", "{}: {e}", path.display());
                assert!(e.to_string().contains(what) && e.to_string().contains("writable by other users"), "{e}");
            }
            set_mode(&path, original);
            assert!(read(&spec).is_ok());
        }
        // A world-writable sticky folder (like /tmp) is no exception.
        set_mode(&home.join("run/sculptor"), 0o1777);
        assert_eq!(read(&spec).unwrap_err().state(), "runtime_file_writable_by_others");
    }

    #[cfg(unix)]
    #[test]
    fn a_runtime_file_folder_or_home_owned_by_another_user_is_refused_with_its_reason() {
        if ownership::current_uid() != 0 {
            eprintln!("skipped: giving a file to another user needs root");
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let spec = written(&home);
        let someone_else = 4242;
        for (path, what) in [(spec.path.clone(), "the runtime file"), (home.join("run/sculptor"), "the runtime file's folder"), (home.join("run"), "the folder on the way"), (home.clone(), "CAPSTAN_HOME")] {
            std::os::unix::fs::chown(&path, Some(someone_else), None).unwrap();
            let e = read(&spec).unwrap_err();
            assert_eq!(e.state(), "runtime_file_not_owned", "{}: {e}", path.display());
            assert!(e.to_string().contains(what) && e.to_string().contains("uid 4242"), "{e}");
            let availability = crate::availability::State::parse(e.state()).expect("a known availability state");
            assert_eq!(availability, crate::availability::State::RuntimeFileNotOwned);
            std::os::unix::fs::chown(&path, Some(0), None).unwrap();
            assert!(read(&spec).is_ok());
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_homes_ancestors_are_not_checked() {
        // CAPSTAN_HOME inside a world-writable sticky folder, as under /tmp.
        let tmp = tempfile::tempdir().unwrap();
        set_mode(tmp.path(), 0o1777);
        let spec = written(&tmp.path().join("home"));
        assert!(read(&spec).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_runtime_file_that_links_out_of_its_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let spec = written(&home);
        let elsewhere = tmp.path().join("elsewhere.json");
        std::fs::rename(&spec.path, &elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &spec.path).unwrap();
        let e = read(&spec).unwrap_err();
        assert!(matches!(e, EndpointError::Unreadable { .. }), "{e}");
        assert_eq!(e.state(), "endpoint_unavailable");
    }
}
