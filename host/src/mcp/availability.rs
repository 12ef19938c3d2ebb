//! Which declared servers are usable right now, cached briefly.
//!
//! Live evidence decides: a server is available when its runtime file names a live
//! process and `/ping` answers as a capstan bridge. The answer is cached for a second
//! so a burst of searches does not ping once each, and no longer, so a Blender that
//! just came up is seen at once.

use crate::availability::{Availability, State};
use crate::bridge::{BridgeFailure, HttpBridgeClient};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const TTL: Duration = crate::limits::AVAILABILITY_TTL;

#[derive(Debug, Clone)]
pub enum ServerStatus {
    Available { app_version: Option<String> },
    Unavailable(Availability),
}

impl ServerStatus {
    pub fn is_available(&self) -> bool {
        matches!(self, ServerStatus::Available { .. })
    }

    pub fn to_json(&self, server: &str) -> Value {
        match self {
            ServerStatus::Available { app_version } => json!({ "server": server, "state": "available", "app": { "name": crate::availability::app_name(server), "version": app_version } }),
            ServerStatus::Unavailable(a) => json!(a),
        }
    }
}

type Statuses = Vec<(String, ServerStatus)>;

pub struct AvailabilityCache {
    servers: Vec<String>,
    cached: Mutex<Option<(Instant, Statuses)>>,
}

impl AvailabilityCache {
    pub fn new(servers: Vec<String>) -> Self {
        AvailabilityCache { servers, cached: Mutex::new(None) }
    }

    /// Every declared server with its status.
    pub fn all(&self, client: &HttpBridgeClient) -> Vec<(String, ServerStatus)> {
        let mut cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((at, statuses)) = cached.as_ref()
            && at.elapsed() < TTL
        {
            return statuses.clone();
        }
        let statuses: Vec<(String, ServerStatus)> = self.servers.iter().map(|s| (s.clone(), probe(client, s))).collect();
        *cached = Some((Instant::now(), statuses.clone()));
        statuses
    }

    pub fn status(&self, client: &HttpBridgeClient, server: &str) -> Option<ServerStatus> {
        self.all(client).into_iter().find(|(s, _)| s == server).map(|(_, st)| st)
    }

    /// Forget the cached answer (after a call failed on an unavailable server).
    pub fn invalidate(&self) {
        *self.cached.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

fn probe(client: &HttpBridgeClient, server: &str) -> ServerStatus {
    match client.ping(server) {
        Ok(ping) => ServerStatus::Available { app_version: ping.get("app_version").and_then(Value::as_str).map(String::from) },
        Err(BridgeFailure::Unavailable { state, detail, .. }) => {
            ServerStatus::Unavailable(Availability::new(server, State::parse(&state).unwrap_or(State::EndpointUnavailable), detail))
        }
        Err(BridgeFailure::Transport { reason, detail }) if reason == "wrong_peer" => {
            ServerStatus::Unavailable(Availability::new(server, State::PortTakenByOtherAddon, detail))
        }
        Err(other) => ServerStatus::Unavailable(Availability::new(server, State::EndpointUnavailable, other.to_string())),
    }
}
