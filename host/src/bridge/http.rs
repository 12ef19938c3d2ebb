//! A minimal HTTP/1.1 client for one request per connection on loopback.
//!
//! Written by hand because the bridge speaks a tiny, fixed subset (POST/GET with a
//! JSON body and Content-Length) and the client must give typed errors for every way
//! a peer can misbehave: refused, timeout (one deadline for the whole exchange, not
//! per read), an answer that is not HTTP (another add-on), a truncated body, and a
//! body over the size cap (read stops at the cap; nothing larger is buffered).

use super::peer::{self, Peer};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum TransportError {
    #[error("connection refused: nothing listens on {addr}")]
    Refused { addr: String },
    #[error("no complete answer within {timeout_ms} ms")]
    Timeout { timeout_ms: u64 },
    #[error("the answer is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("the answer ended early ({detail})")]
    Truncated { detail: String },
    #[error("the answer is not valid JSON: {detail}")]
    InvalidJson { detail: String },
    #[error("the answer is for request {got:?}, not {expected:?}")]
    IdMismatch { expected: String, got: String },
    #[error("the bridge refused the token (401); the runtime file is stale or belongs to another bridge")]
    Unauthorized,
    #[error("wrong peer on the port: {}", peer.describe())]
    WrongPeer { peer: Peer },
    #[error("connection failed: {detail}")]
    Io { detail: String },
}

impl TransportError {
    pub fn reason(&self) -> &'static str {
        match self {
            TransportError::Refused { .. } => "refused",
            TransportError::Timeout { .. } => "timeout",
            TransportError::TooLarge { .. } => "too_large",
            TransportError::Truncated { .. } => "truncated",
            TransportError::InvalidJson { .. } => "invalid_json",
            TransportError::IdMismatch { .. } => "id_mismatch",
            TransportError::Unauthorized => "unauthorized",
            TransportError::WrongPeer { .. } => "wrong_peer",
            TransportError::Io { .. } => "io",
        }
    }
}

pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub bearer: &'a str,
    pub body: &'a [u8],
}

const MAX_HEADER_BYTES: usize = 64 * 1024;

fn timeout_error(timeout: Duration) -> TransportError {
    TransportError::Timeout { timeout_ms: timeout.as_millis() as u64 }
}

/// Send one request and read one response, all within `timeout`.
pub fn send(addr: SocketAddr, request: &Request<'_>, connect_timeout: Duration, timeout: Duration, max_body: u64) -> Result<Response, TransportError> {
    let deadline = Instant::now() + timeout;
    let mut stream = TcpStream::connect_timeout(&addr, connect_timeout.min(timeout)).map_err(|e| match e.kind() {
        std::io::ErrorKind::ConnectionRefused => TransportError::Refused { addr: addr.to_string() },
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => timeout_error(timeout),
        _ => TransportError::Io { detail: e.to_string() },
    })?;
    let _ = stream.set_nodelay(true);
    let head = format!(
        "{} {} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        request.method, request.path, request.bearer, request.body.len()
    );
    stream.set_write_timeout(Some(timeout)).map_err(|e| TransportError::Io { detail: e.to_string() })?;
    let written = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(request.body));
    if let Err(e) = written {
        return Err(TransportError::Io { detail: e.to_string() });
    }

    let mut reader = Reader { stream, deadline, timeout, buf: Vec::with_capacity(4096) };
    let header_end = loop {
        if let Some(i) = find(&reader.buf, b"\r\n\r\n") {
            break i;
        }
        if reader.buf.len() >= 5 && !reader.buf.starts_with(b"HTTP/") {
            return Err(TransportError::WrongPeer { peer: peer::classify(&reader.buf) });
        }
        if reader.buf.len() > MAX_HEADER_BYTES {
            return Err(TransportError::TooLarge { limit: MAX_HEADER_BYTES as u64 });
        }
        match reader.fill() {
            Ok(0) if reader.buf.is_empty() => return Err(TransportError::Truncated { detail: "closed without answering".into() }),
            Ok(0) => {
                return Err(if reader.buf.starts_with(b"HTTP/") {
                    TransportError::Truncated { detail: "closed inside the headers".into() }
                } else {
                    TransportError::WrongPeer { peer: peer::classify(&reader.buf) }
                });
            }
            Ok(_) => {}
            Err(e) if !reader.buf.is_empty() && !reader.buf.starts_with(b"HTTP/") => {
                let _ = e;
                return Err(TransportError::WrongPeer { peer: peer::classify(&reader.buf) });
            }
            Err(e) => return Err(e),
        }
    };
    let head = String::from_utf8_lossy(&reader.buf[..header_end]).to_string();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or(TransportError::WrongPeer { peer: Peer::OtherHttp })?;
    let mut content_length: Option<u64> = None;
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            let name = name.trim().to_ascii_lowercase();
            if name == "content-length" {
                content_length = value.trim().parse().ok();
            } else if name == "transfer-encoding" {
                return Err(TransportError::WrongPeer { peer: Peer::OtherHttp });
            }
        }
    }
    let length = content_length.ok_or_else(|| TransportError::Truncated { detail: "no Content-Length".into() })?;
    if length > max_body {
        return Err(TransportError::TooLarge { limit: max_body });
    }
    let body_start = header_end + 4;
    let want = body_start + length as usize;
    while reader.buf.len() < want {
        if reader.fill()? == 0 {
            return Err(TransportError::Truncated { detail: format!("{} of {length} body bytes", reader.buf.len() - body_start) });
        }
    }
    let body = reader.buf[body_start..want].to_vec();
    Ok(Response { status, body })
}

struct Reader {
    stream: TcpStream,
    deadline: Instant,
    timeout: Duration,
    buf: Vec<u8>,
}

impl Reader {
    fn fill(&mut self) -> Result<usize, TransportError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(timeout_error(self.timeout));
        }
        self.stream.set_read_timeout(Some(left)).map_err(|e| TransportError::Io { detail: e.to_string() })?;
        let mut chunk = [0u8; 16 * 1024];
        match self.stream.read(&mut chunk) {
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                Ok(n)
            }
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => Err(timeout_error(self.timeout)),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => Ok(0),
            Err(e) => Err(TransportError::Io { detail: e.to_string() }),
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
