//! Fault injection against the bridge client: fake peers on loopback that misbehave
//! in every way the client must survive. Each case ends in a typed state, never a hang.
//! (A fake bridge is used only here; what works against Blender is tested in blender.rs.)

use capstan::bridge::endpoint::RuntimeFileSpec;
use capstan::bridge::{BridgeClient, BridgeFailure, BridgeRequest, HttpBridgeClient, Liveness};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const TOKEN: &str = "fault-test-token-0123456789abcdef";

fn client_for(runtime_file: &Path) -> HttpBridgeClient {
    let mut servers = BTreeMap::new();
    servers.insert("blender".to_string(), Liveness { runtime_file: RuntimeFileSpec::at(runtime_file.to_path_buf()), endpoint_path: "/bridge".into() });
    HttpBridgeClient::new(servers)
}

fn write_runtime(path: &Path, url: &str, pid: u32) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, json!({ "http": url, "token": TOKEN, "pid": pid, "protocol": 1, "app_version": "5.0.1" }).to_string()).unwrap();
}

fn call(client: &HttpBridgeClient, timeout_ms: u64) -> Result<Value, BridgeFailure> {
    let params = json!({});
    client.call(BridgeRequest { server: "blender", command: "get_scene_info", params: &params, timeout: Duration::from_millis(timeout_ms) })
}

/// A one-connection-at-a-time fake peer; `serve` gets each accepted stream.
fn fake_peer(serve: impl Fn(TcpStream) + Send + Sync + 'static) -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    let serve = Arc::new(serve);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            count.fetch_add(1, Ordering::SeqCst);
            let serve = serve.clone();
            std::thread::spawn(move || serve(stream));
        }
    });
    (addr, accepted)
}

fn read_request(stream: &mut TcpStream) -> (String, Value) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).unwrap_or(0);
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_string();
            let len: usize = head
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
                .unwrap_or(0);
            while buf.len() < end + 4 + len {
                let n = stream.read(&mut chunk).unwrap_or(0);
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            let body = serde_json::from_slice(&buf[end + 4..]).unwrap_or(Value::Null);
            return (head, body);
        }
    }
    (String::new(), Value::Null)
}

fn respond(stream: &mut TcpStream, status: &str, body: &str) {
    let _ = write!(stream, "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
}

fn transport_reason(r: Result<Value, BridgeFailure>) -> String {
    match r {
        Err(BridgeFailure::Transport { reason, .. }) => reason,
        other => panic!("expected a transport failure, got {other:?}"),
    }
}

fn unavailable_state(r: Result<Value, BridgeFailure>) -> String {
    match r {
        Err(BridgeFailure::Unavailable { state, .. }) => state,
        other => panic!("expected an unavailable state, got {other:?}"),
    }
}

#[test]
fn a_missing_runtime_file_is_endpoint_unavailable_and_never_falls_back() {
    // Decoys on every default port that is free: nothing may connect to them.
    let decoys: Vec<TcpListener> = (9876..=9885).filter_map(|p| TcpListener::bind(("127.0.0.1", p)).ok()).collect();
    for d in &decoys {
        d.set_nonblocking(true).unwrap();
    }
    let tmp = tempfile::tempdir().unwrap();
    let client = client_for(&tmp.path().join("run/blender/server.json"));
    assert_eq!(unavailable_state(call(&client, 1000)), "endpoint_unavailable");
    for d in &decoys {
        assert!(d.accept().is_err(), "the client connected to a default address");
    }
}

#[test]
fn a_stale_file_with_a_dead_pid_is_app_not_running() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("server.json");
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let (addr, accepted) = fake_peer(|mut s| respond(&mut s, "200 OK", "{}"));
    write_runtime(&file, &format!("http://{addr}"), dead);
    assert_eq!(unavailable_state(call(&client_for(&file), 1000)), "app_not_running");
    assert_eq!(accepted.load(Ordering::SeqCst), 0, "no connection to a dead app's port");
}

#[test]
fn non_loopback_or_userinfo_urls_are_endpoint_unavailable_without_connecting() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("server.json");
    for url in ["http://10.1.2.3:9876", "https://127.0.0.1:9876", "http://user:pw@127.0.0.1:9876", "http://127.0.0.1:9876/elsewhere", "ftp://127.0.0.1:21"] {
        write_runtime(&file, url, std::process::id());
        assert_eq!(unavailable_state(call(&client_for(&file), 1000)), "endpoint_unavailable", "{url}");
    }
}

#[test]
fn a_refused_port_is_endpoint_unavailable() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("server.json");
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port(); // bound, then freed
    write_runtime(&file, &format!("http://127.0.0.1:{port}"), std::process::id());
    assert_eq!(unavailable_state(call(&client_for(&file), 1000)), "endpoint_unavailable");
}

fn with_peer(serve: impl Fn(TcpStream) + Send + Sync + 'static, timeout_ms: u64) -> Result<Value, BridgeFailure> {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("server.json");
    let (addr, _) = fake_peer(serve);
    write_runtime(&file, &format!("http://{addr}"), std::process::id());
    call(&client_for(&file), timeout_ms)
}

#[test]
fn the_token_and_the_manifest_path_are_what_is_sent() {
    let seen = Arc::new(std::sync::Mutex::new(String::new()));
    let s2 = seen.clone();
    let r = with_peer(
        move |mut s| {
            let (head, body) = read_request(&mut s);
            *s2.lock().unwrap() = head;
            let id = body["id"].as_str().unwrap_or("").to_string();
            respond(&mut s, "200 OK", &json!({ "id": id, "ok": true, "result": { "objects": [] } }).to_string());
        },
        2000,
    );
    assert_eq!(r.unwrap(), json!({ "objects": [] }));
    let head = seen.lock().unwrap().clone();
    assert!(head.starts_with("POST /bridge HTTP/1.1"), "{head}");
    assert!(head.contains(&format!("Authorization: Bearer {TOKEN}")));
}

#[test]
fn a_wrong_token_is_unauthorized() {
    let r = with_peer(|mut s| {
        read_request(&mut s);
        respond(&mut s, "401 Unauthorized", r#"{"ok":false,"error":{"code":"unauthorized","message":"no"}}"#);
    }, 2000);
    assert_eq!(transport_reason(r), "unauthorized");
}

#[test]
fn a_truncated_response_is_reported() {
    let r = with_peer(|mut s| {
        read_request(&mut s);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"id\":");
    }, 2000);
    assert_eq!(transport_reason(r), "truncated");
}

#[test]
fn a_slow_bridge_times_out() {
    let r = with_peer(|mut s| {
        read_request(&mut s);
        std::thread::sleep(Duration::from_secs(5));
        respond(&mut s, "200 OK", "{}");
    }, 300);
    assert_eq!(transport_reason(r), "timeout");
}

#[test]
fn an_oversized_response_is_refused_unread() {
    let r = with_peer(|mut s| {
        read_request(&mut s);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 999999999\r\n\r\n{");
    }, 2000);
    assert_eq!(transport_reason(r), "too_large");
}

#[test]
fn invalid_json_and_id_mismatch_are_reported() {
    let r = with_peer(|mut s| {
        read_request(&mut s);
        respond(&mut s, "200 OK", "not json at all");
    }, 2000);
    assert_eq!(transport_reason(r), "invalid_json");
    let r = with_peer(|mut s| {
        read_request(&mut s);
        respond(&mut s, "200 OK", r#"{"id":"someone-else","ok":true,"result":1}"#);
    }, 2000);
    assert_eq!(transport_reason(r), "id_mismatch");
}

#[test]
fn app_errors_keep_their_code() {
    let r = with_peer(|mut s| {
        let (_, body) = read_request(&mut s);
        let id = body["id"].as_str().unwrap_or("").to_string();
        respond(&mut s, "200 OK", &json!({ "id": id, "ok": false, "error": { "code": "not_found", "message": "no object named 'X'" } }).to_string());
    }, 2000);
    match r {
        Err(BridgeFailure::App { code, message, .. }) => assert_eq!((code.as_str(), message.as_str()), ("not_found", "no object named 'X'")),
        other => panic!("{other:?}"),
    }
}

/// Read from a fake add-on's connection; `answer` gets the buffer after each read and
/// returns the replies it can make (consuming what it answered).
fn converse(mut s: TcpStream, answer: impl Fn(&mut Vec<u8>) -> Vec<Vec<u8>>) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    while let Ok(n) = s.read(&mut chunk) {
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        for reply in answer(&mut buf) {
            let _ = s.write_all(&reply);
        }
    }
}

/// The community blender-mcp add-on: raw JSON over TCP, answers only complete JSON
/// objects, with `{"status": ...}`; HTTP text is never complete JSON, so it says nothing.
fn community_addon(s: TcpStream) {
    converse(s, |buf| match serde_json::from_slice::<Value>(buf) {
        Ok(cmd) => {
            buf.clear();
            vec![json!({ "status": "error", "message": format!("Unknown command type: {}", cmd["type"]) }).to_string().into_bytes()]
        }
        Err(_) => vec![],
    });
}

/// Blender Lab's add-on: NUL-terminated JSON messages, answered in kind.
fn lab_addon(s: TcpStream) {
    converse(s, |buf| {
        let mut replies = Vec::new();
        while let Some(end) = buf.iter().position(|b| *b == 0) {
            let msg: Vec<u8> = buf.drain(..=end).collect();
            let ok = serde_json::from_slice::<Value>(&msg[..msg.len() - 1]).is_ok();
            let reply = json!({ "type": "error", "message": if ok { "unknown type" } else { "bad json" } });
            replies.push(format!("{reply}\0").into_bytes());
        }
        replies
    });
}

fn wrong_peer_detail(r: Result<Value, BridgeFailure>) -> String {
    match r {
        Err(BridgeFailure::Transport { reason, detail }) if reason == "wrong_peer" => detail,
        other => panic!("expected wrong_peer, got {other:?}"),
    }
}

#[test]
fn the_community_addon_on_the_port_is_named_not_a_timeout() {
    let detail = wrong_peer_detail(with_peer(community_addon, 500));
    assert!(detail.contains("community blender-mcp"), "{detail}");
}

#[test]
fn blender_labs_addon_on_the_port_is_named_not_a_timeout() {
    let detail = wrong_peer_detail(with_peer(lab_addon, 500));
    assert!(detail.contains("Blender Lab"), "{detail}");
}

#[test]
fn a_peer_that_answers_garbage_is_named() {
    let detail = wrong_peer_detail(with_peer(|mut s| {
        read_request(&mut s);
        let _ = s.write_all(b"SSH-2.0-OpenSSH_9.2\r\n");
    }, 2000));
    assert!(detail.contains("does not answer the capstan bridge protocol"), "{detail}");
}

/// A keep-alive peer: answers every request on a connection until the client closes
/// it, or only the first `per_connection` requests and then closes it silently.
fn keep_alive_peer(per_connection: usize) -> (SocketAddr, Arc<AtomicUsize>) {
    fake_peer(move |mut s| {
        for _ in 0..per_connection {
            let (head, body) = read_request(&mut s);
            if head.is_empty() {
                return;
            }
            let id = body["id"].as_str().unwrap_or("").to_string();
            let doc = json!({ "id": id, "ok": true, "result": { "port": s.local_addr().unwrap().port() } }).to_string();
            let _ = s.write_all(format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{doc}", doc.len()).as_bytes());
        }
    })
}

fn write_runtime_with_token(path: &Path, addr: SocketAddr, token: &str) {
    let doc = json!({ "http": format!("http://{addr}"), "token": token, "pid": std::process::id(), "protocol": 1 });
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, doc.to_string()).unwrap();
    std::fs::rename(tmp, path).unwrap();
}

#[test]
fn one_kept_connection_carries_many_calls() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("server.json");
    let (addr, accepted) = keep_alive_peer(usize::MAX);
    write_runtime(&file, &format!("http://{addr}"), std::process::id());
    let client = client_for(&file);
    for _ in 0..20 {
        assert_eq!(call(&client, 2000).unwrap()["port"], addr.port());
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}

#[test]
fn a_kept_connection_is_never_reused_for_another_runtime_file() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("server.json");
    let (a, accepted_a) = keep_alive_peer(usize::MAX);
    let (b, accepted_b) = keep_alive_peer(usize::MAX);
    let client = client_for(&file);
    write_runtime_with_token(&file, a, TOKEN);
    assert_eq!(call(&client, 2000).unwrap()["port"], a.port());
    // The bridge moved: the next call goes where the file says, not down the old line.
    write_runtime_with_token(&file, b, TOKEN);
    assert_eq!(call(&client, 2000).unwrap()["port"], b.port());
    // Same address, new token (a restarted bridge): a fresh connection, not the kept one.
    write_runtime_with_token(&file, b, "another-token-0123456789abcdef");
    assert_eq!(call(&client, 2000).unwrap()["port"], b.port());
    assert_eq!((accepted_a.load(Ordering::SeqCst), accepted_b.load(Ordering::SeqCst)), (1, 2));
}

#[test]
fn a_bridge_that_drops_idle_connections_is_reconnected_without_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("server.json");
    let (addr, accepted) = keep_alive_peer(1);
    write_runtime(&file, &format!("http://{addr}"), std::process::id());
    let client = client_for(&file);
    for i in 0..5 {
        call(&client, 2000).unwrap_or_else(|e| panic!("call {i}: {e:?}"));
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 5);
}
