//! MCP over Streamable HTTP: `capstan serve --http ADDR`.
//!
//! Security reasoning:
//! - It binds loopback only. Any other address is refused unless the operator says
//!   `--allow-non-loopback`: capstan mediates access to a desktop app, and the
//!   network is not a place to offer that by accident.
//! - Every request needs `Authorization: Bearer <token>`. The token is 32 random
//!   bytes made at start, registered with the redactor before anything can log it,
//!   printed once to stderr for the operator, and written to a 0600 file under
//!   `CAPSTAN_HOME` (removed again on a clean stop). A wrong or missing token gets
//!   401 before rmcp sees the request: no session is created, no tool runs.
//! - A browser `Origin` that is not this server's own address (or one allowed with
//!   `--allow-origin`) gets 403 before the token is looked at (`http_origin`, as the
//!   MCP specification requires for Streamable HTTP); rmcp checks it again.
//! - rmcp checks the Host header against the loopback names (DNS rebinding), caps
//!   request bodies, and keeps one session per client; each session gets its own
//!   `CapstanServer`, so router state (goal, family, executions) is never shared.
//! - Hostile load is bounded by `http_admission`: capped connections (the longest-idle
//!   one makes room), header, body and idle timeouts, capped requests in flight,
//!   backoff on accept errors, refusals logged at a bounded rate.
//! - Sessions are bounded by `http_sessions`: a capped number open at once (a new one
//!   beyond it is refused with 503 naming the bound), and one idle past its timeout is
//!   closed.

use super::http_admission::{AcceptBackoff, Admission, HttpLimits, RequestGuard};
use super::http_origin::OriginPolicy;
use super::http_sessions::{SessionGuard, SessionLimits, Sessions};
use super::shared::SharedCore;
use super::{CapstanServer, Surface};
use crate::confined::Folder;
use crate::home::CapstanHome;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use std::pin::Pin;
use std::task::{Context, Poll};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use sha2::Digest;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// The one path MCP is served on.
pub const MCP_PATH: &str = "/mcp";

#[derive(Debug, thiserror::Error)]
pub enum HttpServeError {
    #[error(
        "refusing to serve on {addr}: not a loopback address. capstan drives a desktop app; serve on 127.0.0.1 (or pass --allow-non-loopback if you really mean it)"
    )]
    NotLoopback { addr: SocketAddr },
    #[error("cannot listen on {addr}: {detail}")]
    Bind { addr: SocketAddr, detail: String },
    #[error("cannot write the token file {path}: {detail}")]
    TokenFile { path: PathBuf, detail: String },
    #[error("{0}")]
    Setup(String),
}

pub struct HttpOptions {
    pub addr: SocketAddr,
    pub allow_non_loopback: bool,
    /// Browser origins allowed besides the server's own address (`--allow-origin`).
    pub allowed_origins: Vec<String>,
    /// Sessions open at once, and the idle timeout (`--max-sessions`,
    /// `--session-idle-timeout`).
    pub sessions: SessionLimits,
}

/// A fresh bearer token: 32 bytes from the OS, hex.
fn new_token() -> Result<String, HttpServeError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| HttpServeError::Setup(format!("no randomness for the token: {e}")))?;
    Ok(hex::encode(bytes))
}

/// Where the token of a server on `port` is written.
pub fn token_file(home: &CapstanHome, port: u16) -> PathBuf {
    home.run_dir().join("serve").join(token_file_name(port))
}

fn token_file_name(port: u16) -> String {
    format!("http-{port}.token")
}

/// Serve until SIGINT/SIGTERM.
pub fn serve_http(home: &CapstanHome, surface: Surface, options: HttpOptions, serving: super::ServeOptions) -> Result<(), HttpServeError> {
    if !options.addr.ip().is_loopback() && !options.allow_non_loopback {
        return Err(HttpServeError::NotLoopback { addr: options.addr });
    }
    let recorder = serving.recorder().map_err(HttpServeError::Setup)?;
    let shared = super::shared::SharedCore::new(super::core_for(home, serving.instance.as_ref()).map_err(|e| HttpServeError::Setup(e.to_string()))?);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| HttpServeError::Setup(e.to_string()))?;
    rt.block_on(run(home, shared, surface, options, recorder, serving.instance))
}

async fn run(home: &CapstanHome, shared: Arc<SharedCore>, surface: Surface, options: HttpOptions, recorder: Option<Arc<super::record::Recorder>>, instance: Option<(String, std::path::PathBuf)>) -> Result<(), HttpServeError> {
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(|e| HttpServeError::Bind { addr: options.addr, detail: e.to_string() })?;
    let addr = listener.local_addr().map_err(|e| HttpServeError::Bind { addr: options.addr, detail: e.to_string() })?;
    let origins = Arc::new(OriginPolicy::for_listener(addr, &options.allowed_origins).map_err(HttpServeError::Setup)?);

    // Catch SIGTERM/SIGINT from here on: a stop right after start must still remove
    // the token file (handlers are installed when created, not when first awaited).
    let mut stop = Shutdown::install().map_err(|e| HttpServeError::Setup(format!("cannot handle signals: {e}")))?;
    let token = new_token()?;
    crate::redact::register(&token);
    let path = token_file(home, addr.port());
    let token_error = |e: std::io::Error| HttpServeError::TokenFile { path: path.clone(), detail: e.to_string() };
    let serve_dir = Folder::create_private(&home.run_dir().join("serve")).map_err(token_error)?;
    serve_dir.write_private_atomic(&token_file_name(addr.port()), format!("{token}\n").as_bytes()).map_err(token_error)?;
    let surface_name = match surface {
        Surface::Guided => "guided",
        Surface::Expert => "expert",
        Surface::Planner => "planner",
    };
    // The one place the token is shown: straight to stderr, past the redacting log.
    eprintln!("capstan: MCP ({surface_name} surface) over Streamable HTTP at http://{addr}{MCP_PATH}");
    eprintln!("capstan: bearer token (shown once; also in {}, mode 0600): {token}", path.display());
    tracing::info!(%addr, "serving MCP over HTTP");

    let limits = HttpLimits::default();
    let watched = shared.clone();
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_origins(origins.allowed())
        .with_max_request_body_bytes(limits.max_body_bytes);
    let cancel = config.cancellation_token.clone();
    if !addr.ip().is_loopback() {
        config = config.with_allowed_hosts([addr.ip().to_string(), addr.to_string()]);
    }
    let sessions = Sessions::new(options.sessions);
    let service = StreamableHttpService::new(move || Ok(CapstanServer::new(shared.clone(), surface).recording(recorder.clone())), sessions.manager(), config);
    tokio::spawn(super::shared::watch_store(watched, home.clone(), instance));
    let expected = Arc::new(token_digest(&token));
    drop(token);

    let admission = Admission::new(limits);
    let reaper = tokio::spawn(reap(admission.clone(), sessions.clone()));
    let gate = Arc::new(Gate { origins, expected, sessions });
    let mut backoff = AcceptBackoff::default();
    loop {
        let pause = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    backoff.succeeded();
                    serve_connection(stream, &admission, &service, &gate);
                    None
                }
                Err(e) => {
                    // Out of descriptors (EMFILE), or a connection that died in the
                    // backlog: never retry at once, which spins.
                    if super::http_admission::out_of_descriptors(&e) {
                        admission.refusals.note("accept failed: out of file descriptors (backing off)");
                        admission.evict_one_idle();
                    } else {
                        admission.refusals.note("accept failed (backing off)");
                    }
                    Some(backoff.failed())
                }
            },
            _ = stop.recv() => break,
        };
        if let Some(pause) = pause {
            tokio::select! {
                _ = tokio::time::sleep(pause) => {}
                _ = stop.recv() => break,
            }
        }
    }
    reaper.abort();
    cancel.cancel();
    let _ = serve_dir.remove_file(token_file_name(addr.port()));
    eprintln!("capstan: stopped serving on http://{addr}{MCP_PATH}");
    Ok(())
}

/// Close idle connections and sessions past their timeouts; report held-back refusals.
async fn reap(admission: Arc<Admission>, sessions: Arc<Sessions>) {
    loop {
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        admission.reap(std::time::Instant::now());
        sessions.reap(std::time::Instant::now()).await;
        admission.refusals.flush();
    }
}

/// What every request is checked against before rmcp sees it.
struct Gate {
    origins: Arc<OriginPolicy>,
    expected: Arc<[u8; 32]>,
    sessions: Arc<Sessions>,
}

/// Admit `stream` (or answer 503 when every connection is busy) and serve it.
fn serve_connection(stream: tokio::net::TcpStream, admission: &Arc<Admission>, service: &Service, gate: &Arc<Gate>) {
    let Some(ticket) = admission.admit() else {
        refuse_at_the_door(stream);
        return;
    };
    let id = ticket.id();
    let (service, gate, admission_for_task) = (service.clone(), gate.clone(), admission.clone());
    let task = tokio::spawn(async move {
        let _ticket = ticket;
        let admission = admission_for_task;
        let header_timeout = admission.limits().header_timeout;
        let handler = hyper::service::service_fn(move |request| {
            let (service, gate, admission) = (service.clone(), gate.clone(), admission.clone());
            async move {
                let guard = admission.begin(id);
                Ok::<_, Infallible>(route(service, &gate, &admission, request, guard).await)
            }
        });
        let io = hyper_util::rt::TokioIo::new(stream);
        let served = hyper::server::conn::http1::Builder::new()
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(header_timeout)
            .serve_connection(io, handler)
            .await;
        if let Err(e) = served {
            tracing::debug!("connection ended: {e}");
        }
    });
    admission.attach(id, task.abort_handle());
}

/// A 503 written straight to a connection that gets no task (best effort, never
/// waiting: a client that does not read simply loses it).
fn refuse_at_the_door(stream: tokio::net::TcpStream) {
    let body = r#"{"error":{"code":"BUSY","message":"too many connections; try again"}}"#;
    let answer = format!("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{body}", body.len());
    let _ = stream.try_write(answer.as_bytes());
}

type Service = StreamableHttpService<CapstanServer, LocalSessionManager>;
type Response = http::Response<BoxBody<Bytes, Infallible>>;

fn token_digest(token: &str) -> [u8; 32] {
    sha2::Sha256::digest(token.as_bytes()).into()
}

/// True when the request carries the server's bearer token. Digests are compared,
/// so the comparison's timing says nothing about the token itself.
fn authorized(headers: &http::HeaderMap, expected: &[u8; 32]) -> bool {
    let Some(value) = headers.get(http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()) else { return false };
    let Some(token) = value.strip_prefix("Bearer ") else { return false };
    &token_digest(token.trim()) == expected
}

/// The checks in order, each before anything later runs: Origin (403), token (401),
/// path (404), the session named (404 for one closed as idle), a request slot (503),
/// the whole body within its time and size (408, 413), the session an `initialize`
/// would open (503 beyond the session cap); then rmcp. The response body carries
/// `guard` (and the session's), so the connection and the session count as busy until
/// the answer (an SSE stream included) is finished.
async fn route(mut service: Service, gate: &Gate, admission: &Admission, request: http::Request<Incoming>, guard: RequestGuard) -> Response {
    let refuse = |status, code, message: &str, reason: &'static str| {
        admission.refusals.note(reason);
        refusal(status, code, message)
    };
    if let Err(e) = gate.origins.check(request.headers()) {
        return guarded(refuse(http::StatusCode::FORBIDDEN, "FORBIDDEN_ORIGIN", &e.to_string(), "refused a request from a browser Origin that is not allowed (403)"), guard, None);
    }
    if !authorized(request.headers(), &gate.expected) {
        return guarded(refuse(http::StatusCode::UNAUTHORIZED, "UNAUTHORIZED", "missing or wrong bearer token", "refused a request without the bearer token (401)"), guard, None);
    }
    if request.uri().path() != MCP_PATH {
        return guarded(refuse(http::StatusCode::NOT_FOUND, "NOT_FOUND", "MCP is served on /mcp", "refused a request for another path (404)"), guard, None);
    }
    // The session named (a request without one may open one: see below, once its body is read).
    let named = request.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let mut session: Option<SessionGuard> = None;
    if let Some(id) = &named {
        session = gate.sessions.begin(id);
        if session.is_none() && gate.sessions.expired(id) {
            admission.refusals.note("refused a request on a session closed as idle (404)");
            let body = super::http_sessions::expired_body(gate.sessions.limits().idle_timeout);
            return guarded(refusal_body(http::StatusCode::NOT_FOUND, body), guard, None);
        }
    }
    // A GET is the session's long-lived event stream: bounded by the connection cap,
    // not counted as a request in flight (it would hold its slot for the session).
    let slot = if request.method() == http::Method::GET {
        None
    } else {
        match admission.request_slot() {
            Some(slot) => Some(slot),
            None => {
                let mut busy = refuse(http::StatusCode::SERVICE_UNAVAILABLE, "BUSY", "too many requests in flight; try again", "refused a request: too many in flight (503)");
                busy.headers_mut().insert(http::header::RETRY_AFTER, http::HeaderValue::from_static("1"));
                return guarded(busy, guard, None);
            }
        }
    };
    let limits = admission.limits();
    let (parts, body) = request.into_parts();
    let collected = tokio::time::timeout(limits.body_timeout, http_body_util::Limited::new(body, limits.max_body_bytes).collect()).await;
    let body = match collected {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() => {
            let message = format!("the request body is larger than {} bytes", limits.max_body_bytes);
            return guarded(refuse(http::StatusCode::PAYLOAD_TOO_LARGE, "TOO_LARGE", &message, "refused a request body over the size cap (413)"), guard, slot);
        }
        Ok(Err(_)) => return guarded(refusal(http::StatusCode::BAD_REQUEST, "BAD_REQUEST", "the request body could not be read"), guard, slot),
        Err(_) => {
            let message = format!("the request body did not arrive within {} s", limits.body_timeout.as_secs());
            return guarded(refuse(http::StatusCode::REQUEST_TIMEOUT, "REQUEST_TIMEOUT", &message, "refused a request whose body was too slow (408)"), guard, slot);
        }
    };
    // The session this request may open: a POST without an id whose body may be
    // `initialize`. A 2026-07-28 request opens none (it is served statelessly), so the
    // session cap never refuses it.
    let mut opening = None;
    if named.is_none() && parts.method == http::Method::POST && may_open_session(&body) {
        match gate.sessions.admit_opening().await {
            Ok(admitted) => opening = Some(admitted),
            Err(full) => {
                admission.refusals.note("refused a new session: the session cap is reached (503)");
                let mut busy = refusal_body(http::StatusCode::SERVICE_UNAVAILABLE, full.body());
                busy.headers_mut().insert(http::header::RETRY_AFTER, http::HeaderValue::from_static("1"));
                return guarded(busy, guard, slot);
            }
        }
    }
    let request = http::Request::from_parts(parts, Full::new(body));
    match tower_service::Service::call(&mut service, request).await {
        Ok(response) => {
            let (parts, body) = response.into_parts();
            // The answer that opened a session names it: from now it is in the books.
            if let Some(opening) = opening
                && let Some(id) = parts.headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok())
            {
                session = Some(opening.opened(id));
            }
            hold(guarded(http::Response::from_parts(parts, body.boxed()), guard, slot), session)
        }
        Err(never) => match never {},
    }
}

/// The header that names an MCP session.
const SESSION_HEADER: &str = "mcp-session-id";

/// Whether a POST without a session id may open a session. rmcp opens one only for an
/// `initialize` request: a 2026-07-28 request (`server/discover`, or any request with the
/// revision's `_meta`) is served statelessly, and any other request without a session is
/// refused. A body whose method cannot be read counts, to be safe (rmcp refuses it, and
/// the opening ends with its answer).
fn may_open_session(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Head {
        method: Option<String>,
    }
    match serde_json::from_slice::<Head>(body) {
        Ok(Head { method: Some(method) }) => method == "initialize",
        _ => true,
    }
}

/// `response` with its body holding the request's guard and slot until it ends.
fn guarded(response: Response, guard: RequestGuard, slot: Option<tokio::sync::OwnedSemaphorePermit>) -> Response {
    hold(response, (guard, slot))
}

/// `response` with its body holding `held` until it ends.
fn hold<H: Send + Sync + Unpin + 'static>(response: Response, held: H) -> Response {
    let (parts, body) = response.into_parts();
    http::Response::from_parts(parts, BoxBody::new(Guarded { inner: body, _held: held }))
}

/// A response body that keeps what it holds alive until hyper drops it.
struct Guarded<H> {
    inner: BoxBody<Bytes, Infallible>,
    _held: H,
}

impl<H: Unpin> hyper::body::Body for Guarded<H> {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

fn refusal(status: http::StatusCode, code: &str, message: &str) -> Response {
    refusal_body(status, serde_json::json!({ "error": { "code": code, "message": message } }))
}

fn refusal_body(status: http::StatusCode, body: serde_json::Value) -> Response {
    let body = body.to_string();
    let mut response = http::Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    if status == http::StatusCode::UNAUTHORIZED {
        headers.insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer realm=\"capstan\""));
    }
    // A refused request ends its connection (a refused client has no business keeping
    // a slot), except "busy", which a well-behaved client retries on it.
    let busy = status == http::StatusCode::SERVICE_UNAVAILABLE;
    if !busy {
        headers.insert(http::header::CONNECTION, http::HeaderValue::from_static("close"));
    }
    response
}

/// SIGTERM and SIGINT, caught from the moment this is created.
struct Shutdown {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Shutdown {
    fn install() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Shutdown { term: signal(SignalKind::terminate())?, int: signal(SignalKind::interrupt())? })
        }
        #[cfg(not(unix))]
        {
            Ok(Shutdown {})
        }
    }

    async fn recv(&mut self) {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => {}
                _ = self.int.recv() => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_token_is_authorized() {
        let expected = token_digest("abc123-token-value-0000000000000");
        let mut headers = http::HeaderMap::new();
        assert!(!authorized(&headers, &expected));
        for (value, ok) in [
            ("Bearer abc123-token-value-0000000000000", true),
            ("Bearer abc123-token-value-000000000000", false),
            ("bearer abc123-token-value-0000000000000", false),
            ("Basic abc123-token-value-0000000000000", false),
            ("abc123-token-value-0000000000000", false),
        ] {
            headers.insert(http::header::AUTHORIZATION, http::HeaderValue::from_str(value).unwrap());
            assert_eq!(authorized(&headers, &expected), ok, "{value}");
        }
    }

    #[test]
    fn only_what_may_be_initialize_counts_as_opening_a_session() {
        for (body, opens) in [
            (r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#, true),
            (r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}"#, false),
            (r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{}}}"#, false),
            (r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, false),
            (r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, true),
            (r#"[{"jsonrpc":"2.0","id":1,"method":"initialize"}]"#, true),
            ("not json", true),
            ("", true),
        ] {
            assert_eq!(may_open_session(body.as_bytes()), opens, "{body}");
        }
    }

    #[test]
    fn tokens_are_long_random_and_distinct() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
    }
}
