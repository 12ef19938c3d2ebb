//! A minimal raw MCP client over Streamable HTTP (no SDK), for the concurrency test and
//! benchmark: `capstan serve --http` started on a free loopback port, and sessions on
//! it, each request on its own connection (`Connection: close`, the answer read to the
//! end: an SSE stream for requests, parsed for its `data:` lines).
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct HttpMcpServer {
    child: Child,
    pub addr: String,
    token: String,
}

impl HttpMcpServer {
    pub fn start(home: &Path) -> HttpMcpServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_capstan"))
            .env("CAPSTAN_HOME", home)
            .args(["serve", "--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let (mut first, mut second) = (String::new(), String::new());
        stderr.read_line(&mut first).unwrap();
        stderr.read_line(&mut second).unwrap();
        let addr = first.split("http://").nth(1).expect("the server names its address").trim().trim_end_matches("/mcp").to_string();
        let token = second.trim().rsplit_once(": ").expect("the server shows its token").1.to_string();
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stderr.read_to_string(&mut rest);
        });
        HttpMcpServer { child, addr, token }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A new MCP session on this server (initialize, then initialized).
    pub fn session(&self) -> HttpSession {
        let mut s = HttpSession { addr: self.addr.clone(), token: self.token.clone(), id: None, next: 0 };
        let init = s.request("initialize", json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw-http", "version": "0" } }));
        assert!(init.get("result").is_some(), "{init}");
        s.notify("notifications/initialized");
        s
    }
}

impl Drop for HttpMcpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct HttpSession {
    addr: String,
    token: String,
    id: Option<String>,
    next: u64,
}

impl HttpSession {
    /// POST one message; the status and the raw answer.
    fn post(&mut self, body: &Value) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        let _ = s.set_nodelay(true);
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let body = body.to_string();
        let session = self.id.as_ref().map(|id| format!("Mcp-Session-Id: {id}\r\n")).unwrap_or_default();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\n{session}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.token,
            body.len()
        );
        s.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        let status = answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        if self.id.is_none()
            && let Some(id) = answer.lines().find_map(|l| l.to_ascii_lowercase().starts_with("mcp-session-id:").then(|| l.split_once(':').unwrap().1.trim().to_string()))
        {
            self.id = Some(id);
        }
        (status, answer)
    }

    fn notify(&mut self, method: &str) {
        let (status, answer) = self.post(&json!({ "jsonrpc": "2.0", "method": method }));
        assert_eq!(status, 202, "{answer}");
    }

    /// Send a request; its JSON-RPC response (found among the answer's `data:` lines).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let (status, answer) = self.post(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        assert_eq!(status, 200, "{answer}");
        let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
        body.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|m| m["id"] == json!(id))
            .unwrap_or_else(|| panic!("no response to request {id} in {answer}"))
    }

    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({ "name": name, "arguments": arguments }))
    }
}
