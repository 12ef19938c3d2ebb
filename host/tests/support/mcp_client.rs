//! One MCP client over either transport, for tests and benchmarks that mix them.
#![allow(dead_code)]

use super::http_mcp::HttpSession;
use super::raw_mcp::RawClient;
use serde_json::Value;

pub enum McpClient {
    /// Its own `capstan serve` process on stdio.
    Stdio(RawClient),
    /// A session on a shared `capstan serve --http`.
    Http(HttpSession),
}

impl McpClient {
    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        match self {
            McpClient::Stdio(c) => c.call_tool(name, arguments),
            McpClient::Http(c) => c.call_tool(name, arguments),
        }
    }

    pub fn transport(&self) -> &'static str {
        match self {
            McpClient::Stdio(_) => "stdio",
            McpClient::Http(_) => "http",
        }
    }
}
