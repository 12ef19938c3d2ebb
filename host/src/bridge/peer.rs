//! Who is on the port, when it is not a capstan bridge.
//!
//! Three add-ons default to 9876 with different wire formats. When a call gets no
//! capstan answer, the client probes and names the peer instead of reporting a bare
//! timeout. Probes carry an unknown command type, so no known add-on executes
//! anything because of them.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// What answered on the port.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Peer {
    /// The community `blender-mcp` add-on: raw JSON over TCP, answers `{"status": ...}`.
    CommunityBlenderMcp,
    /// Blender Lab's MCP add-on: NUL-terminated JSON messages.
    BlenderLab,
    /// An HTTP server that does not speak capstan-bridge/1.
    OtherHttp,
    /// Something else, or nothing that answers.
    Unknown,
}

impl Peer {
    pub fn describe(&self) -> &'static str {
        match self {
            Peer::CommunityBlenderMcp => "the community blender-mcp add-on (raw JSON socket), not the capstan bridge",
            Peer::BlenderLab => "Blender Lab's MCP add-on (NUL-terminated JSON), not the capstan bridge",
            Peer::OtherHttp => "an HTTP server that does not speak capstan-bridge/1",
            Peer::Unknown => "a service that does not answer the capstan bridge protocol",
        }
    }
}

/// Classify the first bytes a peer sent.
pub fn classify(bytes: &[u8]) -> Peer {
    let text = String::from_utf8_lossy(bytes);
    let trimmed = text.trim_start();
    if trimmed.starts_with("HTTP/") {
        return Peer::OtherHttp;
    }
    if bytes.contains(&0) && trimmed.starts_with('{') {
        return Peer::BlenderLab;
    }
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(trimmed.trim_end())
        && map.contains_key("status") {
            return Peer::CommunityBlenderMcp;
        }
    Peer::Unknown
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

/// Probe a port that did not answer like a capstan bridge.
pub fn probe(addr: SocketAddr, wait: Duration) -> Peer {
    let community = exchange(addr, br#"{"type":"capstan_identify_probe","params":{}}"#, wait);
    let peer = classify(&community);
    if peer != Peer::Unknown {
        return peer;
    }
    classify(&exchange(addr, b"{\"type\":\"capstan_identify_probe\"}\0", wait))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_formats_are_told_apart() {
        assert_eq!(classify(br#"{"status":"error","message":"Unknown command type"}"#), Peer::CommunityBlenderMcp);
        assert_eq!(classify(b"{\"type\":\"error\",\"message\":\"x\"}\0"), Peer::BlenderLab);
        assert_eq!(classify(b"HTTP/1.0 404 Not Found\r\n\r\n"), Peer::OtherHttp);
        assert_eq!(classify(b""), Peer::Unknown);
        assert_eq!(classify(b"SSH-2.0-OpenSSH"), Peer::Unknown);
    }
}
