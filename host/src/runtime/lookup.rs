//! What the runtime knows about where a capability goes: the app server it talks to,
//! its bridge commands' catalog entries and timeouts, and the one way the host sends a
//! host-only command (undo, reset, checkpoint, progress) itself.
//!
//! Host-only commands are never reachable from a pack (the gate refuses them by the
//! catalog's `host_only` flag); the host sends them through the same client, with the
//! catalog's own timeout, so they keep the endpoint's ownership and token checks.

use super::Runtime;
use crate::bridge::catalog::CommandSpec;
use crate::bridge::{BridgeFailure, BridgeRequest};
use serde_json::Value;

/// Why a host-only command could not be sent or did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum HostCommandError {
    #[error("the {server} catalog has no {command}")]
    NotInCatalog { server: String, command: String },
    #[error(transparent)]
    Bridge(#[from] BridgeFailure),
}

impl Runtime {
    /// The longest answer timeout among the bridge commands capability `key` may send
    /// (the catalog's `timeout_s`), or None for an unknown key or one that sends none.
    /// A long call can run as an MCP task (`mcp/tasks.rs`).
    pub fn longest_bridge_timeout(&self, key: &str) -> Option<std::time::Duration> {
        if let Some(workflow) = self.workflow(key) {
            return workflow.steps.iter().filter_map(|s| s.capability()).filter_map(|k| self.longest_bridge_timeout(k)).max();
        }
        let entry = self.keys.get(key)?;
        let pack = &self.packs[entry.pack];
        pack.capabilities[entry.capability]
            .bridge_commands
            .iter()
            .filter_map(|command| {
                pack.manifest.server_of(command).and_then(|server| self.catalogs.for_server(server)).and_then(|catalog| catalog.command(command)).map(|spec| spec.timeout)
            })
            .max()
    }

    /// A bridge command's catalog entry (for commands the host sends itself).
    pub fn bridge_command(&self, server: &str, command: &str) -> Option<&CommandSpec> {
        self.catalogs.for_server(server).and_then(|c| c.command(command))
    }

    /// The app server a pack capability talks to (the server of its first bridge
    /// command); None for a workflow or a capability that sends no bridge command.
    pub fn server_of(&self, key: &str) -> Option<&str> {
        let entry = self.keys.get(key)?;
        let pack = &self.packs[entry.pack];
        pack.capabilities[entry.capability].bridge_commands.first().and_then(|c| pack.manifest.server_of(c))
    }

    /// The one app server a capability or a workflow talks to: a pack capability's, or
    /// the server every step of a workflow shares (None for a workflow across apps).
    pub fn one_server_of(&self, key: &str) -> Option<String> {
        let Some(workflow) = self.workflow(key) else { return self.server_of(key).map(String::from) };
        let mut servers = workflow.steps.iter().filter_map(|s| s.capability()).filter_map(|k| self.server_of(k));
        let first = servers.next()?;
        servers.all(|s| s == first).then(|| first.to_string())
    }

    /// Send a host-only bridge command to `server` with the catalog's timeout.
    pub fn send_host_command(&self, server: &str, command: &str, params: &Value) -> Result<Value, HostCommandError> {
        let spec = self.bridge_command(server, command).ok_or_else(|| HostCommandError::NotInCatalog { server: server.into(), command: command.into() })?;
        self.client.call(BridgeRequest { server, command, params, timeout: spec.timeout }).map_err(HostCommandError::from)
    }
}
