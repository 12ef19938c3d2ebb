//! `Origin` validation for MCP over Streamable HTTP.
//!
//! Security reasoning: the MCP specification requires a Streamable HTTP server to
//! validate `Origin` on every request, because a web page in the user's browser can
//! send requests to a loopback server (DNS rebinding, or plain cross-site POSTs that
//! need no preflight). A browser always sends `Origin` on such requests, and a page
//! cannot forge it. So: a request without `Origin` (an MCP client that is not a
//! browser) passes to the next check; a request whose `Origin` is this server's own
//! address (`http://127.0.0.1:PORT`, `http://localhost:PORT`, `http://[::1]:PORT`, or
//! the address served on) or one the operator allowed (`--allow-origin`) passes; any
//! other value, `null`, a malformed value or several `Origin` headers get 403 before
//! the token is even looked at, and nothing runs. rmcp's own Origin check is given
//! the same list as a second layer.

use std::net::{IpAddr, SocketAddr};

/// One origin, `scheme://host:port`, compared as RFC 6454 says (scheme, host, port).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// `http://host[:port]` or `https://host[:port]`, nothing after the authority.
    pub fn parse(text: &str) -> Option<Origin> {
        let (scheme, rest) = text.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        if rest.is_empty() || rest.contains(['/', '?', '#', '@', '\\', ' ']) || !rest.is_ascii() {
            return None;
        }
        let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
            let (h, after) = v6.split_once(']')?;
            h.parse::<std::net::Ipv6Addr>().ok()?;
            let port = match after.strip_prefix(':') {
                Some(p) => p.parse().ok()?,
                None if after.is_empty() => default_port,
                None => return None,
            };
            (format!("[{}]", h.to_ascii_lowercase()), port)
        } else {
            match rest.rsplit_once(':') {
                Some((h, p)) => (h.to_ascii_lowercase(), p.parse().ok()?),
                None => (rest.to_ascii_lowercase(), default_port),
            }
        };
        if host.is_empty() || port == 0 {
            return None;
        }
        Some(Origin { scheme, host, port })
    }

    fn http(host: String, port: u16) -> Origin {
        Origin { scheme: "http".into(), host, port }
    }

    /// As rmcp's allow-list wants it (`scheme://host:port`).
    fn text(&self) -> String {
        format!("{}://{}:{}", self.scheme, self.host, self.port)
    }
}

/// Why a request's `Origin` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OriginRefusal {
    #[error("the Origin {0:?} is not allowed to use this server")]
    NotAllowed(String),
    #[error("the Origin header is malformed")]
    Malformed,
    #[error("the request carries more than one Origin header")]
    Several,
}

/// The origins allowed to reach one listener.
#[derive(Debug, Clone)]
pub struct OriginPolicy {
    allowed: Vec<Origin>,
}

impl OriginPolicy {
    /// This listener's own addresses, plus `extra` (each `http(s)://host[:port]`).
    pub fn for_listener(addr: SocketAddr, extra: &[String]) -> Result<OriginPolicy, String> {
        let port = addr.port();
        let mut allowed = vec![Origin::http(match addr.ip() {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => format!("[{v6}]"),
        }, port)];
        if addr.ip().is_loopback() {
            for host in ["127.0.0.1", "localhost", "[::1]"] {
                let own = Origin::http(host.into(), port);
                if !allowed.contains(&own) {
                    allowed.push(own);
                }
            }
        }
        for text in extra {
            let origin = Origin::parse(text).ok_or_else(|| format!("--allow-origin {text:?}: expected http://host[:port] or https://host[:port]"))?;
            if !allowed.contains(&origin) {
                allowed.push(origin);
            }
        }
        Ok(OriginPolicy { allowed })
    }

    /// The allowed origins, for rmcp's own check (the second layer).
    pub fn allowed(&self) -> Vec<String> {
        self.allowed.iter().map(Origin::text).collect()
    }

    /// Pass a request without `Origin` or with an allowed one.
    pub fn check(&self, headers: &http::HeaderMap) -> Result<(), OriginRefusal> {
        let mut values = headers.get_all(http::header::ORIGIN).iter();
        let Some(value) = values.next() else { return Ok(()) };
        if values.next().is_some() {
            return Err(OriginRefusal::Several);
        }
        let text = value.to_str().map_err(|_| OriginRefusal::Malformed)?;
        let shown = || text.chars().filter(|c| !c.is_control()).take(120).collect::<String>();
        if text.trim() == "null" {
            return Err(OriginRefusal::NotAllowed(shown()));
        }
        let origin = Origin::parse(text.trim()).ok_or(OriginRefusal::Malformed)?;
        if self.allowed.contains(&origin) { Ok(()) } else { Err(OriginRefusal::NotAllowed(shown())) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origins: &[&str]) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        for o in origins {
            h.append(http::header::ORIGIN, http::HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn own_addresses_pass_and_everything_else_is_refused() {
        let policy = OriginPolicy::for_listener("127.0.0.1:8123".parse().unwrap(), &[]).unwrap();
        for ok in [&[][..], &["http://127.0.0.1:8123"], &["http://localhost:8123"], &["HTTP://LOCALHOST:8123"], &["http://[::1]:8123"]] {
            assert_eq!(policy.check(&headers(ok)), Ok(()), "{ok:?}");
        }
        for bad in [
            "https://evil.example",
            "http://evil.example:8123",
            "http://127.0.0.1:8124",
            "http://127.0.0.1",
            "https://127.0.0.1:8123",
            "http://localhost.evil.example:8123",
            "http://127.0.0.1:8123.evil.example",
        ] {
            assert!(policy.check(&headers(&[bad])).is_err(), "{bad}");
        }
        for malformed in ["127.0.0.1:8123", "http://127.0.0.1:8123/path", "http://user@127.0.0.1:8123", "file://x", "http://", "http://127.0.0.1:0"] {
            assert_eq!(policy.check(&headers(&[malformed])), Err(OriginRefusal::Malformed), "{malformed}");
        }
        assert!(matches!(policy.check(&headers(&["null"])), Err(OriginRefusal::NotAllowed(_))));
        assert_eq!(policy.check(&headers(&["http://127.0.0.1:8123", "http://127.0.0.1:8123"])), Err(OriginRefusal::Several));
    }

    #[test]
    fn the_operator_may_allow_more_origins() {
        let policy = OriginPolicy::for_listener("127.0.0.1:8123".parse().unwrap(), &["https://app.example:8443".into()]).unwrap();
        assert_eq!(policy.check(&headers(&["https://app.example:8443"])), Ok(()));
        assert!(policy.check(&headers(&["https://app.example"])).is_err());
        assert!(OriginPolicy::for_listener("127.0.0.1:8123".parse().unwrap(), &["app.example".into()]).is_err());
        assert!(policy.allowed().contains(&"http://localhost:8123".to_string()));
    }
}
