//! A minimal HTTP/1.1 client for loopback bridges, with keep-alive.
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

/// One connection to a bridge, kept open between calls when the bridge allows it.
///
/// Reuse is safe because the caller keys a kept connection by the address *and* the
/// token of the runtime file it re-reads on every call: a restarted bridge publishes a
/// new token (and usually a new port), so a connection to the old one is never used
/// for it. A connection whose peer has closed is noticed before it is reused
/// (`is_idle_and_open`), and one that answered `Connection: close`, or anything but a
/// complete answer, is dropped.
pub struct Connection {
    stream: TcpStream,
    addr: SocketAddr,
    /// The send timeout last set on the socket (set again only when it differs).
    write_timeout: Option<Duration>,
}

/// What a non-blocking peek found.
enum Peeked {
    Nothing,
    Data,
    /// Closed by the peer, or an error: either way not a connection to reuse.
    Closed,
}

/// An answer, and whether the connection may carry another request.
pub struct Exchange {
    pub response: Response,
    pub reusable: bool,
}

impl Connection {
    pub fn open(addr: SocketAddr, connect_timeout: Duration) -> Result<Self, TransportError> {
        let stream = TcpStream::connect_timeout(&addr, connect_timeout).map_err(|e| match e.kind() {
            std::io::ErrorKind::ConnectionRefused => TransportError::Refused { addr: addr.to_string() },
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => timeout_error(connect_timeout),
            _ => TransportError::Io { detail: e.to_string() },
        })?;
        let _ = stream.set_nodelay(true);
        Ok(Connection { stream, addr, write_timeout: None })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// True when the peer has neither closed the connection nor sent anything
    /// unasked (a non-blocking peek finds nothing to read).
    pub fn is_idle_and_open(&self) -> bool {
        matches!(self.peek_now(), Peeked::Nothing)
    }

    /// Poll for the first bytes of the answer for up to `spin` before the blocking
    /// read, and keep what arrived in `buf`. A quick bridge answers within tens of
    /// microseconds; going to sleep and being woken costs about as much again on a
    /// virtual machine, per call. A poll that finds bytes has read them (one system
    /// call, no peek before the read and no read timeout to set for it); one that
    /// finds the connection closed or failing leaves that to the blocking read,
    /// which reports it.
    #[cfg(unix)]
    fn await_answer(&self, spin: Duration, buf: &mut Vec<u8>) {
        use std::os::fd::AsRawFd;
        let start = Instant::now();
        buf.reserve(16 * 1024);
        loop {
            let spare = buf.spare_capacity_mut();
            // SAFETY: the spare capacity of a buffer we own, of the length passed;
            // MSG_DONTWAIT makes this one read non-blocking without changing the
            // socket's mode.
            let n = unsafe { libc::recv(self.stream.as_raw_fd(), spare.as_mut_ptr().cast(), spare.len(), libc::MSG_DONTWAIT) };
            if n > 0 {
                // SAFETY: recv initialised the first n bytes of the spare capacity.
                unsafe { buf.set_len(buf.len() + n as usize) };
                return;
            }
            let would_block = n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::WouldBlock;
            if !would_block || start.elapsed() >= spin {
                return;
            }
            std::hint::spin_loop();
        }
    }

    #[cfg(not(unix))]
    fn await_answer(&self, spin: Duration, _buf: &mut Vec<u8>) {
        let start = Instant::now();
        while start.elapsed() < spin && matches!(self.peek_now(), Peeked::Nothing) {
            std::hint::spin_loop();
        }
    }

    /// One non-blocking peek at the next byte, without switching the socket to
    /// non-blocking mode and back (two system calls per peek saved).
    #[cfg(unix)]
    fn peek_now(&self) -> Peeked {
        use std::os::fd::AsRawFd;
        let mut byte = 0u8;
        // SAFETY: a one-byte buffer we own; MSG_PEEK leaves the byte in the socket.
        let n = unsafe { libc::recv(self.stream.as_raw_fd(), (&raw mut byte).cast(), 1, libc::MSG_PEEK | libc::MSG_DONTWAIT) };
        match n {
            1.. => Peeked::Data,
            0 => Peeked::Closed,
            _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::WouldBlock => Peeked::Nothing,
            _ => Peeked::Closed,
        }
    }

    #[cfg(not(unix))]
    fn peek_now(&self) -> Peeked {
        if self.stream.set_nonblocking(true).is_err() {
            return Peeked::Closed;
        }
        let mut byte = [0u8; 1];
        let peeked = match self.stream.peek(&mut byte) {
            Ok(0) => Peeked::Closed,
            Ok(_) => Peeked::Data,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Peeked::Nothing,
            Err(_) => Peeked::Closed,
        };
        if self.stream.set_nonblocking(false).is_err() {
            return Peeked::Closed;
        }
        peeked
    }

    /// Send one request and read one response, all within `timeout`.
    pub fn exchange(&mut self, request: &Request<'_>, timeout: Duration, max_body: u64) -> Result<Exchange, TransportError> {
        let deadline = Instant::now() + timeout;
        let mut message = Vec::with_capacity(256 + request.body.len());
        write!(
            message,
            "{} {} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            request.method, request.path, self.addr, request.bearer, request.body.len()
        )
        .map_err(|e| TransportError::Io { detail: e.to_string() })?;
        message.extend_from_slice(request.body);
        if self.write_timeout != Some(timeout) {
            self.stream.set_write_timeout(Some(timeout)).map_err(|e| TransportError::Io { detail: e.to_string() })?;
            self.write_timeout = Some(timeout);
        }
        self.stream.write_all(&message).map_err(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset => TransportError::Truncated { detail: CLOSED_WITHOUT_ANSWER.into() },
            _ => TransportError::Io { detail: e.to_string() },
        })?;
        let mut buf = Vec::with_capacity(4096);
        self.await_answer(crate::limits::BRIDGE_ANSWER_SPIN, &mut buf);
        let mut reader = Reader { source: Socket { stream: &mut self.stream, deadline, timeout }, buf };
        read_response(&mut reader, max_body)
    }
}

/// Parse an answer from bytes, delivered `chunk` bytes at a time (at least one), as
/// if they came from a socket: the same parser the client reads bridges with, for
/// fuzzing and tests. The end of `bytes` is the peer closing the connection.
pub fn parse_response(bytes: &[u8], chunk: usize, max_body: u64) -> Result<Exchange, TransportError> {
    let mut reader = Reader { source: Chunks { bytes, chunk: chunk.max(1) }, buf: Vec::new() };
    read_response(&mut reader, max_body)
}

/// What a connection that closed before sending a single byte reports.
pub const CLOSED_WITHOUT_ANSWER: &str = "closed without answering";

/// True when the peer closed the connection before answering at all: on a reused
/// connection this means the bridge had already dropped it (idle timeout, restart),
/// not that it read the request.
pub fn closed_without_answer(error: &TransportError) -> bool {
    matches!(error, TransportError::Truncated { detail } if detail == CLOSED_WITHOUT_ANSWER)
}

/// One request on a fresh connection (pings and probes).
pub fn send(addr: SocketAddr, request: &Request<'_>, connect_timeout: Duration, timeout: Duration, max_body: u64) -> Result<Response, TransportError> {
    let mut connection = Connection::open(addr, connect_timeout.min(timeout))?;
    Ok(connection.exchange(request, timeout, max_body)?.response)
}

fn read_response(reader: &mut Reader<impl Source>, max_body: u64) -> Result<Exchange, TransportError> {
    let header_end = loop {
        // Not HTTP: another program on the port. Checked before the end of the head
        // is looked for, so the verdict is the same however the bytes arrived.
        if reader.buf.len() >= 5 && !reader.buf.starts_with(b"HTTP/") {
            return Err(TransportError::WrongPeer { peer: peer::classify(&reader.buf) });
        }
        if let Some(i) = find(&reader.buf, b"\r\n\r\n") {
            // The same cap whether the head came in one read or many.
            if i > MAX_HEADER_BYTES {
                return Err(TransportError::TooLarge { limit: MAX_HEADER_BYTES as u64 });
            }
            break i;
        }
        // (+3: the end of a head within the cap may still be arriving.)
        if reader.buf.len() > MAX_HEADER_BYTES + 3 {
            return Err(TransportError::TooLarge { limit: MAX_HEADER_BYTES as u64 });
        }
        match reader.fill() {
            Ok(0) if reader.buf.is_empty() => return Err(TransportError::Truncated { detail: CLOSED_WITHOUT_ANSWER.into() }),
            Ok(0) => {
                return Err(if reader.buf.starts_with(b"HTTP/") {
                    TransportError::Truncated { detail: "closed inside the headers".into() }
                } else {
                    TransportError::WrongPeer { peer: peer::classify(&reader.buf) }
                });
            }
            Ok(_) => {}
            Err(_) if !reader.buf.is_empty() && !reader.buf.starts_with(b"HTTP/") => {
                return Err(TransportError::WrongPeer { peer: peer::classify(&reader.buf) });
            }
            Err(e) => return Err(e),
        }
    };
    let head = String::from_utf8_lossy(&reader.buf[..header_end]).to_string();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or(TransportError::WrongPeer { peer: Peer::OtherHttp })?;
    let mut content_length: Option<u64> = None;
    let mut reusable = status_line.starts_with("HTTP/1.1 ");
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            let name = name.trim().to_ascii_lowercase();
            if name == "content-length" {
                content_length = value.trim().parse().ok();
            } else if name == "transfer-encoding" {
                return Err(TransportError::WrongPeer { peer: Peer::OtherHttp });
            } else if name == "connection" && value.trim().eq_ignore_ascii_case("close") {
                reusable = false;
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
    // Bytes beyond the answer were never asked for: do not reuse such a connection.
    reusable &= reader.buf.len() == want;
    let body = reader.buf[body_start..want].to_vec();
    Ok(Exchange { response: Response { status, body }, reusable })
}

/// Where the answer's bytes come from.
trait Source {
    /// Append what arrives next to `buf`; 0 when the peer has closed.
    fn fill(&mut self, buf: &mut Vec<u8>) -> Result<usize, TransportError>;
}

struct Reader<S: Source> {
    source: S,
    buf: Vec<u8>,
}

impl<S: Source> Reader<S> {
    fn fill(&mut self) -> Result<usize, TransportError> {
        self.source.fill(&mut self.buf)
    }
}

/// A socket, read under one deadline for the whole exchange.
struct Socket<'a> {
    stream: &'a mut TcpStream,
    deadline: Instant,
    timeout: Duration,
}

impl Source for Socket<'_> {
    fn fill(&mut self, buf: &mut Vec<u8>) -> Result<usize, TransportError> {
        let mut chunk = [0u8; 16 * 1024];
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(timeout_error(self.timeout));
            }
            self.stream.set_read_timeout(Some(left)).map_err(|e| TransportError::Io { detail: e.to_string() })?;
            match self.stream.read(&mut chunk) {
                Ok(n) => {
                    buf.extend_from_slice(&chunk[..n]);
                    return Ok(n);
                }
                // A signal handled by this process (one installed without SA_RESTART)
                // ended the wait: the answer is still coming, so wait again, within
                // the same deadline.
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => return Err(timeout_error(self.timeout)),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return Ok(0),
                Err(e) => return Err(TransportError::Io { detail: e.to_string() }),
            }
        }
    }
}

/// Bytes in memory, handed out `chunk` at a time.
struct Chunks<'a> {
    bytes: &'a [u8],
    chunk: usize,
}

impl Source for Chunks<'_> {
    fn fill(&mut self, buf: &mut Vec<u8>) -> Result<usize, TransportError> {
        let n = self.chunk.min(self.bytes.len());
        buf.extend_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::net::TcpListener;

    extern "C" fn do_nothing(_: libc::c_int) {}

    /// A bridge on a loopback port that runs `script` on its one connection.
    fn fake_bridge(script: impl FnOnce(std::net::TcpStream) + Send + 'static) -> (SocketAddr, std::thread::JoinHandle<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        (addr, std::thread::spawn(move || script(listener.accept().unwrap().0)))
    }

    fn read_request(socket: &mut std::net::TcpStream) {
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).unwrap();
    }

    /// A signal this process handles, arriving while the client waits for a slow answer,
    /// does not end the exchange: with a receive timeout set on the socket the kernel
    /// never restarts `recv`, even for a handler installed with SA_RESTART (as a child's
    /// SIGCHLD handler is), so the read sees EINTR and must wait again.
    #[test]
    fn a_handled_signal_during_the_wait_does_not_end_the_exchange() {
        // SAFETY: a handler that does nothing, for a signal nothing else in this test
        // process uses; the struct is zeroed (an empty mask) before the fields are set.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = do_nothing as extern "C" fn(libc::c_int) as usize;
            action.sa_flags = libc::SA_RESTART;
            assert_eq!(libc::sigaction(libc::SIGUSR2, &action, std::ptr::null_mut()), 0);
        }
        let (addr, bridge) = fake_bridge(|mut socket| {
            read_request(&mut socket);
            std::thread::sleep(Duration::from_millis(400));
            socket.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}").unwrap();
        });
        // SAFETY: pthread_self has no preconditions.
        let waiting = unsafe { libc::pthread_self() };
        let interrupter = std::thread::spawn(move || {
            for _ in 0..3 {
                std::thread::sleep(Duration::from_millis(100));
                // SAFETY: the waiting thread outlives this one (it joins it below).
                unsafe { libc::pthread_kill(waiting, libc::SIGUSR2) };
            }
        });
        let request = Request { method: "POST", path: "/bridge", bearer: "not-a-token", body: b"{}" };
        let answer = send(addr, &request, Duration::from_secs(2), Duration::from_secs(5), 1024);
        interrupter.join().unwrap();
        bridge.join().unwrap();
        let answer = answer.unwrap();
        assert_eq!((answer.status, answer.body.as_slice()), (200, b"{}".as_slice()));
    }

    /// A bridge that answers in one piece within the poll, then in pieces across it:
    /// bytes the poll read are the start of the answer the blocking read finishes, on
    /// the same kept connection, request after request.
    #[test]
    fn an_answer_read_partly_while_polling_is_finished_by_the_blocking_read() {
        let (addr, bridge) = fake_bridge(|mut socket| {
            socket.set_nodelay(true).unwrap();
            // First request: the whole answer at once (read by the poll).
            read_request(&mut socket);
            socket.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n{\"a\":1}").unwrap();
            // Second: a head fragment at once, the rest after the poll has given up.
            read_request(&mut socket);
            socket.write_all(b"HTTP/1.1 200 OK\r\nCont").unwrap();
            std::thread::sleep(crate::limits::BRIDGE_ANSWER_SPIN * 20);
            socket.write_all(b"ent-Length: 7\r\n\r\n{\"b\":").unwrap();
            std::thread::sleep(Duration::from_millis(5));
            socket.write_all(b"2}").unwrap();
            // Third: nothing for longer than the poll, then the whole answer.
            read_request(&mut socket);
            std::thread::sleep(crate::limits::BRIDGE_ANSWER_SPIN * 20);
            socket.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n{\"c\":3}").unwrap();
        });
        let request = Request { method: "POST", path: "/bridge", bearer: "not-a-token", body: b"{}" };
        let mut connection = Connection::open(addr, Duration::from_secs(2)).unwrap();
        for want in [br#"{"a":1}"#, br#"{"b":2}"#, br#"{"c":3}"#] {
            let exchange = connection.exchange(&request, Duration::from_secs(5), 1024).unwrap();
            assert_eq!((exchange.response.status, exchange.response.body.as_slice()), (200, want.as_slice()));
            assert!(exchange.reusable);
        }
        bridge.join().unwrap();
    }

    /// A bridge that closes the connection while the client polls: the exchange ends
    /// as a connection closed without an answer (so a kept one is retried on a fresh
    /// connection), not as a wait until the timeout.
    #[test]
    fn a_close_during_the_poll_is_reported_as_closed_without_answer() {
        let (addr, bridge) = fake_bridge(|mut socket| read_request(&mut socket));
        let request = Request { method: "POST", path: "/bridge", bearer: "not-a-token", body: b"{}" };
        let mut connection = Connection::open(addr, Duration::from_secs(2)).unwrap();
        let started = Instant::now();
        let error = connection.exchange(&request, Duration::from_secs(5), 1024).err().expect("a closed connection has no answer");
        assert!(closed_without_answer(&error), "{error:?}");
        assert!(started.elapsed() < Duration::from_secs(4), "ended at the close, not the timeout");
        bridge.join().unwrap();
    }
}
