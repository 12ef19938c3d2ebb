//! Reading the app's runtime file: the only source of the bridge's address and token.
//!
//! Security reasoning: the runtime file is re-read on **every** connection attempt and
//! is authoritative. A missing or malformed file, a URL that is not plain `http` on a
//! loopback address, userinfo in the URL, or a dead pid is an availability state
//! (`endpoint_unavailable` / `app_not_running`), and the client never falls back to a
//! configured or default address: a stale address is exactly the bug this prevents.
//! The token is registered with the redactor the moment it is read.

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
}

impl RuntimeFileSpec {
    /// The default field names (`http`, `token`, `pid`).
    pub fn at(path: PathBuf) -> Self {
        RuntimeFileSpec { path, url_key: "http".into(), token_key: "token".into(), pid_key: "pid".into() }
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
}

impl EndpointError {
    /// The availability state this error means.
    pub fn state(&self) -> &'static str {
        match self {
            EndpointError::DeadPid { .. } => "app_not_running",
            _ => "endpoint_unavailable",
        }
    }
}

const MAX_RUNTIME_FILE_BYTES: u64 = 64 * 1024;

pub fn read(spec: &RuntimeFileSpec) -> Result<Endpoint, EndpointError> {
    let path = &spec.path;
    let text = match crate::fsutil::read_capped(path, MAX_RUNTIME_FILE_BYTES) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(EndpointError::Missing { path: path.clone() }),
        Err(e) => return Err(EndpointError::Unreadable { path: path.clone(), detail: e.to_string() }),
    };
    parse(&text, spec)
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
    Ok(Endpoint { addr, token, pid, app_version, exec_key })
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
}
