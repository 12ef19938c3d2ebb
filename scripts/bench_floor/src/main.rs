//! The least an MCP server in Rust can do for one `execute_capability scene.info` call
//! in `scripts/bench_peer.py`'s harness, so that capstan's figure there has a floor
//! measured on the same machine, in the same run.
//!
//! It does what every server must for that call and nothing else: a blocking read of
//! one line, the request parsed, one HTTP POST to the stub on a kept connection (the
//! answer polled for as capstan polls, `BRIDGE_ANSWER_SPIN`), the answer parsed, and a
//! tool result with the same text and `structuredContent` as capstan's written back.
//! No MCP library, no async runtime, no sandbox, no runtime-file check, no schema:
//! what capstan does beyond this is what its own share costs. Not a server to use: it
//! answers every `tools/call` as `scene.info` and takes the stub's answer as it comes.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

/// As capstan's `limits::BRIDGE_ANSWER_SPIN`.
const ANSWER_SPIN: Duration = Duration::from_micros(100);

fn main() {
    let home = std::env::var("CAPSTAN_HOME").expect("CAPSTAN_HOME names the runtime file's home");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(format!("{home}/run/blender/server.json")).expect("the runtime file")).expect("a JSON record");
    let addr = record["http"].as_str().expect("an http address").trim_start_matches("http://").to_string();
    let token = record["token"].as_str().expect("a token").to_string();
    let mut bridge = TcpStream::connect(&addr).expect("the stub listens");
    bridge.set_nodelay(true).expect("TCP_NODELAY");
    let mut input = BufReader::new(std::io::stdin().lock());
    let mut output = std::io::stdout().lock();
    let (mut line, mut calls) = (String::new(), 0u64);
    loop {
        line.clear();
        if input.read_line(&mut line).expect("stdin") == 0 {
            return;
        }
        let message: Value = serde_json::from_str(&line).expect("a JSON-RPC message");
        let Some(id) = message.get("id").cloned() else { continue };
        let result = match message["method"].as_str() {
            Some("initialize") => json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "bench-floor", "version": "0"}}),
            Some("tools/call") => {
                calls += 1;
                let answer = post(&mut bridge, &addr, &token, &json!({"id": format!("floor-{calls}"), "command": "get_scene_info", "params": {}}));
                let structured = json!({"bridge_calls": 1, "key": "scene.info", "result": answer});
                let text = serde_json::to_string(&structured).expect("a document serialises");
                json!({"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": false})
            }
            _ => json!({}),
        };
        let mut bytes = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "result": result})).expect("a document serialises");
        bytes.push(b'\n');
        output.write_all(&bytes).and_then(|()| output.flush()).expect("stdout");
    }
}

/// One request on the kept connection; the answer's `result`.
fn post(bridge: &mut TcpStream, addr: &str, token: &str, body: &Value) -> Value {
    let body = serde_json::to_vec(body).expect("a document serialises");
    let mut request = format!("POST /bridge HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n", body.len()).into_bytes();
    request.extend_from_slice(&body);
    bridge.write_all(&request).expect("the stub reads");
    let (mut buf, started) = (Vec::with_capacity(16 * 1024), Instant::now());
    loop {
        if let Some((head, length)) = head_and_length(&buf)
            && buf.len() >= head + length
        {
            let mut answer: Value = serde_json::from_slice(&buf[head..head + length]).expect("a JSON answer");
            return answer["result"].take();
        }
        let spare = buf.spare_capacity_mut();
        let n = if started.elapsed() < ANSWER_SPIN {
            // SAFETY: the spare capacity of a buffer we own, of the length passed.
            unsafe { libc::recv(bridge.as_raw_fd(), spare.as_mut_ptr().cast(), spare.len(), libc::MSG_DONTWAIT) }
        } else {
            let mut chunk = [0u8; 16 * 1024];
            let n = bridge.read(&mut chunk).expect("the stub answers");
            buf.extend_from_slice(&chunk[..n]);
            assert!(n > 0, "the stub closed the connection");
            continue;
        };
        if n > 0 {
            // SAFETY: recv initialised the first n bytes of the spare capacity.
            unsafe { buf.set_len(buf.len() + n as usize) };
        }
    }
}

/// Where the body starts and how long it is, once the head has come.
fn head_and_length(buf: &[u8]) -> Option<(usize, usize)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let length = head.lines().find_map(|l| l.split_once(':').filter(|(name, _)| name.eq_ignore_ascii_case("content-length")).and_then(|(_, v)| v.trim().parse().ok()))?;
    Some((end + 4, length))
}
