//! A loopback stub bridge for MCP-layer tests and benchmarks: it speaks
//! capstan-bridge/1, answers from a tiny canned scene, and counts requests. It stands
//! in for Blender only where the test is about capstan's own layers (routing,
//! validation, counting bridge calls, round-trip cost), never to claim Blender works.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const STUB_TOKEN: &str = "stub-bridge-token-0123456789abcdef";

pub struct StubBridge {
    pub port: u16,
    /// The port's address (loopback).
    pub addr: std::net::SocketAddr,
    pub requests: Arc<AtomicUsize>,
    /// Every command request's body, in arrival order (pings aside).
    pub bodies: Arc<std::sync::Mutex<Vec<Value>>>,
}

impl StubBridge {
    /// Start the stub and write `<home>/run/blender/server.json` naming it.
    pub fn start(home: &Path) -> StubBridge {
        StubBridge::start_with(home, None)
    }

    /// A stub that answers `/ping` and `get_scene_info` with what a real headless
    /// Blender answered for the factory scene (`tests/data/blender_factory_scene.json`:
    /// the whole command list in the ping, so the add-on skew check has work to do;
    /// the real answer, so the answer checks do), other commands as [`StubBridge::start`].
    pub fn start_recorded(home: &Path) -> StubBridge {
        StubBridge::start_with(home, Some(Arc::new(Recorded::load())))
    }

    /// A stub standing in for one running add-on of a given age: its own `token` (a
    /// restarted bridge has a new one), a ping that lists `serves` as its commands,
    /// and `unknown_command` for any other command, as an older add-on answers.
    /// Written over the runtime file, it replaces the bridge that was there.
    pub fn start_addon(home: &Path, token: &str, serves: Vec<String>) -> StubBridge {
        StubBridge::start_as(home, None, Addon { token: token.to_string(), serves: Some(serves) })
    }

    fn start_with(home: &Path, recorded: Option<Arc<Recorded>>) -> StubBridge {
        StubBridge::start_as(home, recorded, Addon { token: STUB_TOKEN.to_string(), serves: None })
    }

    fn start_as(home: &Path, recorded: Option<Arc<Recorded>>, addon: Addon) -> StubBridge {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let port = addr.port();
        let requests = Arc::new(AtomicUsize::new(0));
        let bodies = Arc::new(std::sync::Mutex::new(Vec::new()));
        let token = addon.token.clone();
        let (count, recorded, replay, addon) = (requests.clone(), bodies.clone(), recorded, Arc::new(addon));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (count, bodies, replay, addon) = (count.clone(), recorded.clone(), replay.clone(), addon.clone());
                std::thread::spawn(move || serve(stream, &count, &bodies, replay.as_deref(), &addon));
            }
        });
        let run = home.join("run/blender");
        std::fs::create_dir_all(&run).unwrap();
        let doc = json!({ "http": format!("http://127.0.0.1:{port}"), "token": token, "pid": std::process::id(), "protocol": 1, "app_version": "5.0.1" });
        std::fs::write(run.join("server.json"), doc.to_string()).unwrap();
        StubBridge { port, addr, requests, bodies }
    }

    pub fn bridge_requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

// Some tests include this file without `support`, so it brings its own copy.
#[allow(clippy::duplicate_mod)]
#[path = "canned.rs"]
mod canned;

/// The recorded real answers (`tests/data/blender_factory_scene.json`).
pub struct Recorded {
    /// The `/ping` document, with this process's pid.
    pub ping: String,
    /// The `result` of `get_scene_info`, as text.
    pub scene_result: String,
}

impl Recorded {
    pub const TEXT: &str = include_str!("../data/blender_factory_scene.json");

    pub fn load() -> Recorded {
        let doc: Value = serde_json::from_str(Self::TEXT).unwrap();
        let mut ping = doc["ping"].clone();
        ping["pid"] = json!(std::process::id());
        Recorded { ping: ping.to_string(), scene_result: doc["get_scene_info"]["result"].to_string() }
    }

    /// The answer document to request `id` (a JSON value) of `get_scene_info`.
    pub fn scene_answer(&self, id: &Value) -> String {
        format!("{{\"id\": {id}, \"ok\": true, \"result\": {}}}", self.scene_result)
    }
}

/// Which add-on the stub stands in for: its token, and the commands its ping lists
/// (`None`: the ping lists none and every command is answered).
struct Addon {
    token: String,
    serves: Option<Vec<String>>,
}

fn serve(mut s: TcpStream, count: &AtomicUsize, recorded: &std::sync::Mutex<Vec<Value>>, replay: Option<&Recorded>, addon: &Addon) {
    let _ = s.set_nodelay(true);
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            match s.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]).to_string();
        let len: usize = head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0))).unwrap_or(0);
        while buf.len() < end + 4 + len {
            match s.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        let body: Value = serde_json::from_slice(&buf[end + 4..end + 4 + len]).unwrap_or(Value::Null);
        buf.drain(..end + 4 + len);
        let authorized = head.contains(&format!("Authorization: Bearer {}", addon.token));
        let replayed = match replay {
            Some(r) if authorized && head.starts_with("GET /ping") => Some(r.ping.clone()),
            Some(r) if authorized && body["command"] == "get_scene_info" && body["params"] == json!({}) => {
                count.fetch_add(1, Ordering::SeqCst);
                recorded.lock().unwrap().push(body.clone());
                Some(r.scene_answer(&body["id"]))
            }
            _ => None,
        };
        let (status, doc) = if let Some(text) = replayed {
            ("200 OK", Value::String(text))
        } else if !authorized {
            ("401 Unauthorized", json!({ "ok": false, "error": { "code": "unauthorized", "message": "token" } }))
        } else if head.starts_with("GET /ping") {
            let mut ping = json!({ "bridge": "capstan", "protocol": 1, "app": "blender", "app_version": "5.0.1", "pid": std::process::id() });
            if let Some(serves) = &addon.serves {
                ping["commands"] = json!(serves);
            }
            ("200 OK", ping)
        } else if let Some(serves) = addon.serves.as_ref().filter(|s| !s.iter().any(|c| body["command"] == c.as_str())) {
            count.fetch_add(1, Ordering::SeqCst);
            recorded.lock().unwrap().push(body.clone());
            let message = format!("no command {} in this add-on (it serves {})", body["command"], serves.len());
            ("200 OK", json!({ "id": body["id"], "ok": false, "error": { "code": "unknown_command", "message": message } }))
        } else {
            count.fetch_add(1, Ordering::SeqCst);
            recorded.lock().unwrap().push(body.clone());
            let result = match body["command"].as_str() {
                Some(command) => canned::answer(command, &body["params"]),
                None => json!(null),
            };
            ("200 OK", json!({ "id": body["id"], "ok": true, "result": result }))
        };
        let text = match doc {
            Value::String(replayed) => replayed,
            doc => doc.to_string(),
        };
        // One write per answer, as a real server's buffered output does.
        let answer = format!("HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}", text.len());
        let _ = s.write_all(answer.as_bytes());
        if head.contains("Connection: close") {
            return;
        }
    }
}
