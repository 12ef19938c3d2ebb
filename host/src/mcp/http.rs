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
//! - rmcp checks the Host header against the loopback names (DNS rebinding), caps
//!   request bodies, and keeps one session per client; each session gets its own
//!   `CapstanServer`, so router state (goal, family, executions) is never shared.

use super::shared::SharedCore;
use super::{CapstanServer, Surface};
use crate::home::CapstanHome;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
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
}

/// A fresh bearer token: 32 bytes from the OS, hex.
fn new_token() -> Result<String, HttpServeError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| HttpServeError::Setup(format!("no randomness for the token: {e}")))?;
    Ok(hex::encode(bytes))
}

/// Where the token of a server on `port` is written.
pub fn token_file(home: &CapstanHome, port: u16) -> PathBuf {
    home.run_dir().join("serve").join(format!("http-{port}.token"))
}

/// Serve until SIGINT/SIGTERM.
pub fn serve_http(home: &CapstanHome, surface: Surface, options: HttpOptions) -> Result<(), HttpServeError> {
    if !options.addr.ip().is_loopback() && !options.allow_non_loopback {
        return Err(HttpServeError::NotLoopback { addr: options.addr });
    }
    let shared = super::shared::SharedCore::new(super::core(home).map_err(|e| HttpServeError::Setup(e.to_string()))?);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| HttpServeError::Setup(e.to_string()))?;
    rt.block_on(run(home, shared, surface, options))
}

async fn run(home: &CapstanHome, shared: Arc<SharedCore>, surface: Surface, options: HttpOptions) -> Result<(), HttpServeError> {
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(|e| HttpServeError::Bind { addr: options.addr, detail: e.to_string() })?;
    let addr = listener.local_addr().map_err(|e| HttpServeError::Bind { addr: options.addr, detail: e.to_string() })?;

    // Catch SIGTERM/SIGINT from here on: a stop right after start must still remove
    // the token file (handlers are installed when created, not when first awaited).
    let mut stop = Shutdown::install().map_err(|e| HttpServeError::Setup(format!("cannot handle signals: {e}")))?;
    let token = new_token()?;
    crate::redact::register(&token);
    let path = token_file(home, addr.port());
    crate::fsutil::write_private_atomic(&path, format!("{token}\n").as_bytes())
        .map_err(|e| HttpServeError::TokenFile { path: path.clone(), detail: e.to_string() })?;
    let surface_name = match surface {
        Surface::Guided => "guided",
        Surface::Expert => "expert",
    };
    // The one place the token is shown: straight to stderr, past the redacting log.
    eprintln!("capstan: MCP ({surface_name} surface) over Streamable HTTP at http://{addr}{MCP_PATH}");
    eprintln!("capstan: bearer token (shown once; also in {}, mode 0600): {token}", path.display());
    tracing::info!(%addr, "serving MCP over HTTP");

    let watched = shared.clone();
    let mut config = StreamableHttpServerConfig::default();
    let cancel = config.cancellation_token.clone();
    if !addr.ip().is_loopback() {
        config = config.with_allowed_hosts([addr.ip().to_string(), addr.to_string()]);
    }
    let service = StreamableHttpService::new(
        move || Ok(CapstanServer::new(shared.clone(), surface)),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    tokio::spawn(super::shared::watch_store(watched, home.clone()));
    let expected = Arc::new(token_digest(&token));
    drop(token);

    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, _) = match accepted {
                    Ok(pair) => pair,
                    Err(e) => {
                        tracing::warn!("accept failed: {e}");
                        continue;
                    }
                };
                let (service, expected) = (service.clone(), expected.clone());
                tokio::spawn(async move {
                    let handler = hyper::service::service_fn(move |request| {
                        let (service, expected) = (service.clone(), expected.clone());
                        async move { Ok::<_, Infallible>(route(service, &expected, request).await) }
                    });
                    let io = hyper_util::rt::TokioIo::new(stream);
                    if let Err(e) = hyper::server::conn::http1::Builder::new().serve_connection(io, handler).await {
                        tracing::debug!("connection ended: {e}");
                    }
                });
            }
            _ = stop.recv() => break,
        }
    }
    cancel.cancel();
    let _ = std::fs::remove_file(&path);
    eprintln!("capstan: stopped serving on http://{addr}{MCP_PATH}");
    Ok(())
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

async fn route(mut service: Service, expected: &[u8; 32], request: http::Request<Incoming>) -> Response {
    if !authorized(request.headers(), expected) {
        return refusal(http::StatusCode::UNAUTHORIZED, "UNAUTHORIZED", "missing or wrong bearer token");
    }
    if request.uri().path() != MCP_PATH {
        return refusal(http::StatusCode::NOT_FOUND, "NOT_FOUND", "MCP is served on /mcp");
    }
    match tower_service::Service::call(&mut service, request).await {
        Ok(response) => response,
        Err(never) => match never {},
    }
}

fn refusal(status: http::StatusCode, code: &str, message: &str) -> Response {
    let body = serde_json::json!({ "error": { "code": code, "message": message } }).to_string();
    let mut response = http::Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    if status == http::StatusCode::UNAUTHORIZED {
        headers.insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer realm=\"capstan\""));
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
    fn tokens_are_long_random_and_distinct() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
    }
}
