//! A minimal raw MCP client over stdio (newline-delimited JSON-RPC, no SDK): for the
//! soak test and the round-trip benchmark, where an SDK's own cost would blur the figure.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub struct RawClient {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    line: String,
}

impl RawClient {
    /// Start `capstan serve` and complete the MCP handshake.
    pub fn start(home: &Path, expert: bool) -> RawClient {
        RawClient::start_with_env(home, expert, &[])
    }

    /// `start`, with extra environment for the server (`CAPSTAN_ALLOW_EXEC`, ...).
    pub fn start_with_env(home: &Path, expert: bool, env: &[(&str, &str)]) -> RawClient {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_capstan"));
        cmd.env("CAPSTAN_HOME", home).envs(env.iter().copied()).arg("serve");
        if expert {
            cmd.arg("--expert");
        }
        let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut c = RawClient { child, stdin, stdout, next_id: 0, line: String::new() };
        let init = c.request("initialize", json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } }));
        assert!(init.get("result").is_some(), "{init}");
        c.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        c
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, msg: &Value) {
        let mut text = msg.to_string();
        text.push('\n');
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Send a request and read lines until its response arrives.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            self.line.clear();
            assert!(self.stdout.read_line(&mut self.line).unwrap() > 0, "capstan serve closed stdout");
            let msg: Value = serde_json::from_str(&self.line).expect("stdout carries only JSON-RPC");
            if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({ "name": name, "arguments": arguments }))
    }

    /// Resident set size of the server process, from /proc (Linux).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0)
    }
}

impl Drop for RawClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
