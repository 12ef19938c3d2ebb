//! The host's bridge client: carries gate-checked calls to an app's bridge.
//!
//! Per call: re-read the runtime file (never cache an address, never fall back to a
//! default; an unchanged file is recognised by its stamps and not parsed again,
//! [`super::endpoint_memo`]), register the token with the redactor (inside
//! `endpoint::read`) before the Authorization header exists, POST to the endpoint path from the *manifest*
//! (never one from the file) on the loopback address from the file, and turn every
//! failure into a typed `BridgeFailure`. When the port answers in another add-on's
//! wire format, or not at all, the peer is probed and named.
//!
//! One connection per server is kept open between calls (a connect costs more than
//! the rest of a read-only call). It is reused only for the exact address and token
//! the runtime file names *at this call*, so a restarted or replaced bridge never
//! receives a request meant for its predecessor; the kept connection is checked for a
//! peer close before reuse, and a reused connection that closes without a byte of
//! answer is retried once on a fresh one (the bridge never read that request: it
//! answers every request it reads, errors included).

use super::endpoint::{self, RuntimeFileSpec};
use super::endpoint_memo::EndpointMemo;
use super::http::{self, TransportError};
use super::peer;
use super::{BridgeClient, BridgeFailure, BridgeRequest};
use crate::home::CapstanHome;
use crate::containment::instance::Instance;
use crate::limits;
use serde_json::Value;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, RwLock};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How to reach one server's bridge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Liveness {
    pub runtime_file: RuntimeFileSpec,
    /// The bridge endpoint path, from the manifest (`/bridge` for capstan's own add-ons).
    pub endpoint_path: String,
}

impl Liveness {
    /// A manifest's `liveness`, with its path expanded (`None` for `kind: none`, or
    /// when the path names an unset variable).
    pub fn from_manifest(decl: &crate::manifest::LivenessDecl, home: &CapstanHome) -> Option<Self> {
        let crate::manifest::LivenessDecl::ServerJson { path, endpoint_path, fields } = decl else { return None };
        let file = crate::apps::expand::expand(path, home, &crate::apps::expand::Env)?;
        Some(Liveness {
            runtime_file: RuntimeFileSpec { path: file, url_key: fields.url.clone(), token_key: fields.token.clone(), pid_key: fields.pid.clone(), home: Some(home.root().to_path_buf()) },
            endpoint_path: endpoint_path.clone(),
        })
    }
}

/// The client for every server a host talks to, keyed by manifest server name.
pub struct HttpBridgeClient {
    servers: RwLock<BTreeMap<String, Arc<Liveness>>>,
    next_id: AtomicU64,
    kept: Mutex<BTreeMap<String, Kept>>,
    /// Per server, what the bridge's last `/ping` said, for the token it was said with.
    pings: Mutex<BTreeMap<String, (endpoint::TokenDigest, Value)>>,
    /// Servers whose liveness was set for one instance; the packs' declarations do not
    /// replace it.
    pinned: RwLock<std::collections::BTreeSet<String>>,
    /// Per server, the runtime file as last read, and what it was read from.
    endpoints: Mutex<BTreeMap<String, Arc<EndpointMemo>>>,
}

/// An idle connection, and the token it was opened for.
struct Kept {
    connection: http::Connection,
    token: endpoint::TokenDigest,
}

impl HttpBridgeClient {
    pub fn new(servers: BTreeMap<String, Liveness>) -> Self {
        let servers = servers.into_iter().map(|(name, live)| (name, Arc::new(live))).collect();
        HttpBridgeClient { servers: RwLock::new(servers), next_id: AtomicU64::new(1), kept: Mutex::new(BTreeMap::new()), pings: Mutex::new(BTreeMap::new()), pinned: RwLock::new(Default::default()), endpoints: Mutex::new(BTreeMap::new()) }
    }

    /// The servers capstan knows how to reach, under `home`: every app unit's own bridge.
    pub fn for_home(home: &CapstanHome) -> Self {
        Self::new(crate::app_units::all().iter().map(|unit| (unit.server().to_string(), unit.default_liveness(home))).collect())
    }

    /// A client for one launched instance: its `server` is the runtime record at
    /// `runtime_file` (the instance's own), whatever the packs declare; the endpoint
    /// path is the unit's.
    pub fn for_runtime_file(home: &CapstanHome, server: &str, runtime_file: std::path::PathBuf) -> Self {
        let endpoint_path = crate::app_units::by_server(server).map_or_else(|| "/bridge".to_string(), |unit| unit.default_liveness(home).endpoint_path);
        let mut servers = BTreeMap::new();
        servers.insert(server.to_string(), Liveness { runtime_file: RuntimeFileSpec::at(runtime_file).under_home(home.root()), endpoint_path });
        let client = Self::new(servers);
        client.pinned.write().unwrap_or_else(|p| p.into_inner()).insert(server.to_string());
        client
    }

    pub fn liveness(&self, server: &str) -> Option<Arc<Liveness>> {
        self.servers.read().unwrap_or_else(|p| p.into_inner()).get(server).cloned()
    }

    /// What `server`'s runtime file names now ([`EndpointMemo::read`]).
    pub fn endpoint(&self, server: &str, live: &Liveness) -> Result<endpoint::Endpoint, endpoint::EndpointError> {
        let memo = {
            let mut memos = self.endpoints.lock().unwrap_or_else(|p| p.into_inner());
            // Looked up by `&str` first: no key allocated on the call path.
            match memos.get(server) {
                Some(memo) => memo.clone(),
                None => memos.entry(server.to_string()).or_default().clone(),
            }
        };
        memo.read(&live.runtime_file)
    }

    /// Adopt the `liveness` the loaded packs declare for their servers (the first
    /// declaration of a server wins; a pack that disagrees is logged). A server whose
    /// manifest says nothing keeps capstan's default.
    pub fn adopt_declared(&self, packs: &[crate::plugin::LoadedPack], home: &CapstanHome) {
        let mut declared: BTreeMap<String, (String, Liveness)> = BTreeMap::new();
        for pack in packs {
            for (server, decl) in &pack.manifest.servers {
                let Some(liveness) = decl.liveness.as_ref().and_then(|l| Liveness::from_manifest(l, home)) else { continue };
                match declared.get(server) {
                    Some((first, existing)) if *existing != liveness => {
                        tracing::warn!(server, pack = pack.name(), first = first.as_str(), "declares another liveness for the server; the first pack's is used");
                    }
                    Some(_) => {}
                    None => {
                        declared.insert(server.clone(), (pack.name().to_string(), liveness));
                    }
                }
            }
        }
        let pinned = self.pinned.read().unwrap_or_else(|p| p.into_inner()).clone();
        let mut servers = self.servers.write().unwrap_or_else(|p| p.into_inner());
        for (server, (_, liveness)) in declared.into_iter().filter(|(s, _)| !pinned.contains(s)) {
            servers.insert(server, Arc::new(liveness));
        }
    }

    /// `GET /ping` on the server's bridge: the bridge's identity, or why it is unavailable.
    pub fn ping(&self, server: &str) -> Result<Value, BridgeFailure> {
        let live = self.liveness(server).ok_or_else(|| unknown_server(server))?;
        let ep = self.endpoint(server, &live).map_err(|e| endpoint_failure(server, &e))?;
        let request = http::Request { method: "GET", path: "/ping", bearer: ep.token.expose(), body: b"" };
        let doc = self.round_trip(server, &ep, &request, limits::BRIDGE_PING_TIMEOUT)?;
        if doc.get("bridge").and_then(Value::as_str) != Some("capstan") {
            return Err(self.transport(server, ep.addr, TransportError::WrongPeer { peer: peer::Peer::OtherHttp }));
        }
        self.pings.lock().unwrap_or_else(|p| p.into_inner()).insert(server.to_string(), (ep.token_digest(), doc.clone()));
        Ok(doc)
    }

    /// What the running bridge said on its last `/ping` (pinging when the bridge
    /// changed since), or None when it cannot be reached.
    pub fn live_identity(&self, server: &str) -> Option<Value> {
        let live = self.liveness(server)?;
        let ep = self.endpoint(server, &live).ok()?;
        let cached = self.pings.lock().unwrap_or_else(|p| p.into_inner()).get(server).filter(|(t, _)| *t == ep.token_digest()).map(|(_, d)| d.clone());
        cached.or_else(|| self.ping(server).ok())
    }

    /// One request to the endpoint the runtime file names now, on the kept
    /// connection when it still fits, and its JSON answer. 401 and 413 are typed here.
    fn round_trip(&self, server: &str, ep: &endpoint::Endpoint, request: &http::Request<'_>, timeout: Duration) -> Result<Value, BridgeFailure> {
        let token = ep.token_digest();
        let response = match self.take_kept(server, ep.addr, &token) {
            Some(mut connection) => match connection.exchange(request, timeout, limits::BRIDGE_MAX_RESPONSE_BYTES) {
                // A kept connection the bridge closed while idle: the request was never
                // read, so it is sent once more on a fresh one. Never when the app itself
                // ended meanwhile (a cancel restarts it on the same socket): the request
                // may have been taken, and a restarted app must not run it again.
                Err(e) if http::closed_without_answer(&e) && !self.app_ended(server, ep) => self.fresh_exchange(server, ep.addr, &token, request, timeout),
                other => self.settle(server, connection, token, other),
            },
            None => self.fresh_exchange(server, ep.addr, &token, request, timeout),
        }
        .map_err(|e| self.transport(server, ep.addr, e))?;
        match response.status {
            401 => return Err(self.transport(server, ep.addr, TransportError::Unauthorized)),
            413 => {
                return Err(BridgeFailure::App { code: "too_large".into(), message: "the bridge refused the request body as too large".into(), delta: None });
            }
            _ => {}
        }
        serde_json::from_slice(&response.body).map_err(|e| self.transport(server, ep.addr, TransportError::InvalidJson { detail: e.to_string() }))
    }

    /// Whether the app behind `ep` ended (or is being restarted) since `ep` was read.
    fn app_ended(&self, server: &str, ep: &endpoint::Endpoint) -> bool {
        let restarting = ep.instance.as_deref().zip(self.liveness(server).and_then(|l| l.runtime_file.home.clone())).and_then(|(id, home)| Instance::dir_of(&home, id)).is_some_and(|dir| crate::containment::restart::pending(&dir));
        restarting || !endpoint::pid_alive(ep.pid)
    }

    fn fresh_exchange(
        &self,
        server: &str,
        addr: SocketAddr,
        token: &endpoint::TokenDigest,
        request: &http::Request<'_>,
        timeout: Duration,
    ) -> Result<http::Response, TransportError> {
        let mut connection = http::Connection::open(addr, limits::BRIDGE_CONNECT_TIMEOUT.min(timeout))?;
        let outcome = connection.exchange(request, timeout, limits::BRIDGE_MAX_RESPONSE_BYTES);
        self.settle(server, connection, token.clone(), outcome)
    }

    /// Keep the connection when its answer allows it; hand back the response.
    fn settle(
        &self,
        server: &str,
        connection: http::Connection,
        token: endpoint::TokenDigest,
        outcome: Result<http::Exchange, TransportError>,
    ) -> Result<http::Response, TransportError> {
        let exchange = outcome?;
        if exchange.reusable {
            let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            kept.entry(server.to_string()).or_insert(Kept { connection, token });
        }
        Ok(exchange.response)
    }

    /// The kept connection for `server`, if it was opened to `addr` with `token`
    /// and its peer has not closed it; any other kept connection is dropped.
    fn take_kept(&self, server: &str, addr: SocketAddr, token: &endpoint::TokenDigest) -> Option<http::Connection> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner()).remove(server)?;
        (kept.connection.addr() == addr && &kept.token == token && kept.connection.is_idle_and_open()).then_some(kept.connection)
    }

    fn transport(&self, server: &str, addr: std::net::SocketAddr, error: TransportError) -> BridgeFailure {
        let error = match error {
            TransportError::Timeout { .. } | TransportError::Truncated { .. } => match peer::probe(addr, limits::BRIDGE_PROBE_TIMEOUT) {
                peer::Peer::Unknown | peer::Peer::OtherHttp => error,
                found => TransportError::WrongPeer { peer: found },
            },
            other => other,
        };
        match error {
            TransportError::Refused { .. } => unavailable(
                server,
                "endpoint_unavailable",
                format!("{error}; the runtime file names a port nobody listens on (restart the bridge from inside the app)"),
            ),
            other => BridgeFailure::Transport { reason: other.reason().into(), detail: other.to_string() },
        }
    }
}

fn unavailable(server: &str, state: &str, detail: String) -> BridgeFailure {
    BridgeFailure::Unavailable { server: server.into(), state: state.into(), detail, runtime_file_missing: false }
}

fn endpoint_failure(server: &str, e: &endpoint::EndpointError) -> BridgeFailure {
    BridgeFailure::Unavailable {
        server: server.into(),
        state: e.state().into(),
        detail: e.to_string(),
        runtime_file_missing: matches!(e, endpoint::EndpointError::Missing { .. }),
    }
}

fn unknown_server(server: &str) -> BridgeFailure {
    unavailable(server, "endpoint_unavailable", format!("capstan does not know how to reach server {server:?}"))
}

impl BridgeClient for HttpBridgeClient {
    fn keeps_undo_steps(&self, server: &str) -> bool {
        self.live_identity(server).is_some_and(|d| d.get("undo").and_then(Value::as_bool) == Some(true))
    }

    fn restartable(&self, server: &str) -> Option<super::Restartable> {
        let live = self.liveness(server)?;
        let ep = self.endpoint(server, &live).ok()?;
        let id = ep.instance.as_deref()?;
        let supervisor = ep.supervisor?;
        Some(super::Restartable { instance_dir: Instance::dir_of(live.runtime_file.home.as_deref()?, id)?, pid: ep.pid, supervisor })
    }

    fn output_folder(&self, server: &str) -> Result<std::path::PathBuf, BridgeFailure> {
        let live = self.liveness(server).ok_or_else(|| unknown_server(server))?;
        let ep = self.endpoint(server, &live).map_err(|e| endpoint_failure(server, &e))?;
        // An instance capstan launched: the folder capstan made for it, from capstan's
        // record (the app's own word is not trusted for where the host reads or writes).
        if let Some(id) = &ep.instance {
            let home = live.runtime_file.home.as_deref().ok_or_else(|| unavailable(server, "endpoint_unavailable", "the runtime record names an instance, but no CAPSTAN_HOME to find it under".into()))?;
            return crate::containment::instance::Instance::output_of(home, id).ok_or_else(|| unavailable(server, "endpoint_unavailable", format!("the runtime record names a malformed instance {id:?}")));
        }
        if ep.containment.is_some() {
            return Err(unavailable(server, "endpoint_unavailable", "the runtime record of a confined app names no instance".into()));
        }
        // A bridge started by hand is unconfined: its word adds no reach it lacks, as
        // long as it is the process the record names (not whoever took the port since).
        let identity = self.live_identity(server).ok_or_else(|| unavailable(server, "endpoint_unavailable", "the bridge does not answer /ping".into()))?;
        if identity.get("pid").and_then(Value::as_u64) != Some(u64::from(ep.pid)) {
            return Err(unavailable(server, "endpoint_unavailable", "the bridge answering the port is not the process its runtime file names".into()));
        }
        match identity.get("output_dir").and_then(Value::as_str).map(std::path::PathBuf::from) {
            Some(path) if path.is_absolute() => Ok(path),
            _ => Err(BridgeFailure::Transport { reason: "no_output_folder".into(), detail: format!("{server}'s bridge names no absolute output folder") }),
        }
    }

    fn call(&self, request: BridgeRequest<'_>) -> Result<Value, BridgeFailure> {
        let server = request.server;
        let live = self.liveness(server).ok_or_else(|| unknown_server(server))?;
        let ep = self.endpoint(server, &live).map_err(|e| endpoint_failure(server, &e))?;
        let id = format!("{}-{}", own_pid(), self.next_id.fetch_add(1, Ordering::Relaxed));
        let body = RequestBody { id: &id, command: request.command, params: request.params }.to_bytes();
        let http_request = http::Request { method: "POST", path: &live.endpoint_path, bearer: ep.token.expose(), body: &body };
        let doc = self.round_trip(server, &ep, &http_request, request.timeout)?;
        interpret_answer(doc, &id).map_err(|e| match e {
            Answer::Transport(t) => self.transport(server, ep.addr, t),
            Answer::Failed(failure) => failure,
        })
    }
}

/// The bridge protocol's request document (DESIGN §4), written straight from borrowed
/// parts: the params are not copied into a new document first.
#[derive(serde::Serialize)]
struct RequestBody<'a> {
    id: &'a str,
    command: &'a str,
    params: &'a Value,
}

impl RequestBody<'_> {
    fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("strings and a JSON document serialise")
    }
}

/// Why an answer document is not a result.
#[derive(Debug)]
pub enum Answer {
    /// Not a bridge answer to this request (wrong peer, another request's id).
    Transport(TransportError),
    /// The app ran the command and reported an error.
    Failed(BridgeFailure),
}

/// Make sense of a bridge's answer document to the request `id`: its result, or why
/// not. An error's code and message are cut to 4096 characters each.
pub fn interpret_answer(mut doc: Value, id: &str) -> Result<Value, Answer> {
    let Some(ok) = doc.get("ok").and_then(Value::as_bool) else {
        return Err(Answer::Transport(TransportError::WrongPeer { peer: peer::Peer::OtherHttp }));
    };
    let got = doc.get("id").and_then(Value::as_str).unwrap_or("");
    if got != id && (ok || !got.is_empty()) {
        return Err(Answer::Transport(TransportError::IdMismatch { expected: id.to_string(), got: got.chars().take(64).collect() }));
    }
    if ok {
        return Ok(doc.get_mut("result").map(Value::take).unwrap_or(Value::Null));
    }
    let error = doc.get("error");
    let text = |k: &str| error.and_then(|e| e.get(k)).and_then(Value::as_str).unwrap_or("").chars().take(4096).collect::<String>();
    let delta = error.and_then(crate::delta::SceneDelta::from_answer).filter(|d| !d.is_empty()).map(Box::new);
    Err(Answer::Failed(BridgeFailure::App { code: text("code"), message: text("message"), delta }))
}


/// This process's id, asked of the kernel once (it prefixes every request id; a
/// system call per bridge call saved). capstan starts other programs only by
/// spawning them, so the id never changes under a running client.
fn own_pid() -> u32 {
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *PID.get_or_init(std::process::id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{FieldNames, LivenessDecl};

    #[test]
    fn a_declared_liveness_names_the_runtime_file_fields_and_endpoint() {
        let home = CapstanHome::at("/srv/capstan");
        let decl = LivenessDecl::ServerJson {
            path: "$CAPSTAN_HOME/run/sculptor/server.json".into(),
            endpoint_path: "/bridge".into(),
            fields: FieldNames { url: "address".into(), token: "secret".into(), pid: "process".into() },
        };
        let live = Liveness::from_manifest(&decl, &home).unwrap();
        assert_eq!(live.runtime_file.path, std::path::PathBuf::from("/srv/capstan/run/sculptor/server.json"));
        assert_eq!((live.runtime_file.url_key.as_str(), live.runtime_file.token_key.as_str(), live.runtime_file.pid_key.as_str()), ("address", "secret", "process"));
        assert_eq!(live.endpoint_path, "/bridge");
        assert_eq!(Liveness::from_manifest(&LivenessDecl::None, &home), None);
    }

    /// A pack that declares exactly a unit's own bridge (as the official packs do) gets
    /// the unit's default, and a client for `home` starts with every unit's default.
    #[test]
    fn the_units_defaults_are_what_their_packs_declare() {
        let home = CapstanHome::at("/srv/capstan");
        let client = HttpBridgeClient::for_home(&home);
        for unit in crate::app_units::all() {
            let default = unit.default_liveness(&home);
            let path = format!("$CAPSTAN_HOME/run/{}/server.json", unit.server());
            let declared = LivenessDecl::ServerJson { path, endpoint_path: default.endpoint_path.clone(), fields: FieldNames::default() };
            assert_eq!(Liveness::from_manifest(&declared, &home).as_ref(), Some(&default));
            assert_eq!(client.liveness(unit.server()).as_deref(), Some(&default));
        }
    }
}
