//! Who is on the port, when it is not a capstan bridge.
//!
//! Other add-ons for the same app may default to the bridge's port with their own wire
//! formats. When a call gets no capstan answer, the client probes and names the peer
//! instead of reporting a bare timeout. The app units know their apps' other add-ons
//! ([`crate::app_unit::AppUnit::foreign_peer`]) and the probes that make them answer;
//! every probe carries an unknown command type, so no known add-on executes anything
//! because of them.

use crate::app_unit::ForeignPeer;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// What answered on the port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Peer {
    /// Another add-on an app unit recognised.
    Foreign(ForeignPeer),
    /// An HTTP server that does not speak capstan-bridge/1.
    OtherHttp,
    /// Something else, or nothing that answers.
    Unknown,
}

/// As a stable snake_case name: the unit's id for another add-on.
impl serde::Serialize for Peer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Peer::Foreign(peer) => peer.id,
            Peer::OtherHttp => "other_http",
            Peer::Unknown => "unknown",
        })
    }
}

impl Peer {
    pub fn describe(&self) -> &'static str {
        match self {
            Peer::Foreign(peer) => peer.description,
            Peer::OtherHttp => "an HTTP server that does not speak capstan-bridge/1",
            Peer::Unknown => "a service that does not answer the capstan bridge protocol",
        }
    }
}

/// Classify the first bytes a peer sent.
pub fn classify(bytes: &[u8]) -> Peer {
    let text = String::from_utf8_lossy(bytes);
    if text.trim_start().starts_with("HTTP/") {
        return Peer::OtherHttp;
    }
    crate::app_units::all().iter().find_map(|unit| unit.foreign_peer(bytes)).map_or(Peer::Unknown, Peer::Foreign)
}

fn exchange(addr: SocketAddr, probe: &[u8], wait: Duration) -> Vec<u8> {
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, wait) else { return Vec::new() };
    if stream.write_all(probe).is_err() {
        return Vec::new();
    }
    let deadline = Instant::now() + wait;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while got.len() < 16 * 1024 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                got.extend_from_slice(&buf[..n]);
                if classify(&got) != Peer::Unknown {
                    break;
                }
            }
        }
    }
    got
}

/// Probe a port that did not answer like a capstan bridge, with every app unit's probes.
pub fn probe(addr: SocketAddr, wait: Duration) -> Peer {
    for probe in crate::app_units::all().iter().flat_map(|unit| unit.peer_probes()) {
        let peer = classify(&exchange(addr, probe, wait));
        if peer != Peer::Unknown {
            return peer;
        }
    }
    Peer::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_and_silence_are_told_apart_from_the_units_add_ons() {
        assert_eq!(classify(b"HTTP/1.0 404 Not Found\r\n\r\n"), Peer::OtherHttp);
        assert_eq!(classify(b""), Peer::Unknown);
        assert_eq!(classify(b"SSH-2.0-OpenSSH"), Peer::Unknown);
        for unit in crate::app_units::all() {
            assert!(unit.foreign_peer(b"HTTP/1.0 200 OK\r\n\r\n").is_none(), "{}", unit.server());
        }
    }
}
