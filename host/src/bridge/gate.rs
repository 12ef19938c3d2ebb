//! The bridge gate: the one place a pack's bridge call is allowed or refused.
//!
//! Security reasoning. A pack is untrusted code; the bridge reaches into the user's
//! Blender. So every call is checked, in this order, before any byte leaves the host:
//!
//! 1. **Budget**: at most `max_bridge_calls` attempts per execution, refused ones
//!    included, so a pack cannot flood the app or spin on refusals.
//! 2. **Params are a JSON object** (never a raw string for the app to interpret).
//! 3. **Declared by the manifest**: the manifest's `servers.<name>.commands` is the
//!    pack's whole reach; anything else is `PERMISSION_DENIED`. A 0.2.0 pack names the
//!    server it calls, and the name must be the one the manifest declares the command
//!    under (a pack for two apps cannot send one app's command to the other); a 0.1.0
//!    pack names none, and the manifest's server of the command is meant.
//! 4. **Read-only stays read-only**: a capability declared `mutates: false` may not
//!    use a command the catalog marks as mutating or destroying, whatever it lists.
//! 5. **Declared by the capability**: a capability may use only the commands it
//!    listed in `describe()`, so one capability cannot borrow another's reach.
//! 6. **Params match the command's schema** from the app's catalog.
//!
//! Each refusal is logged here (with pack, capability and command, never params) and
//! returned to the guest as a typed error value; the guest decides what to do next.

use super::catalog::{Catalogs, CommandEffect};
use serde_json::Value;
use std::sync::Arc;

/// What the gate needs to know about the executing capability.
#[derive(Debug, Clone)]
pub struct CapabilityScope {
    pub pack: String,
    pub key: String,
    pub mutates: bool,
    pub bridge_commands: Vec<String>,
}

/// The manifest's command-to-server table of one pack.
#[derive(Debug, Clone, Default)]
pub struct PackCommands {
    pub by_command: std::collections::BTreeMap<String, String>,
}

/// A refused call, as the guest will see it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GateRefusal {
    #[error("PERMISSION_DENIED: {0}")]
    PermissionDenied(String),
    #[error("INVALID_BRIDGE_PARAMS: {message}")]
    InvalidParams { message: String, errors: Vec<String> },
    #[error("BUDGET_EXCEEDED: {0}")]
    BudgetExceeded(String),
}

impl GateRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            GateRefusal::PermissionDenied(_) => "PERMISSION_DENIED",
            GateRefusal::InvalidParams { .. } => "INVALID_BRIDGE_PARAMS",
            GateRefusal::BudgetExceeded(_) => "BUDGET_EXCEEDED",
        }
    }
}

/// An allowed call.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedCall {
    pub server: String,
    pub command: String,
    pub effect: CommandEffect,
    pub params: Value,
    pub timeout: std::time::Duration,
}

/// One execution's gate. Created fresh for every call, like the store it lives in.
pub struct BridgeGate {
    scope: Arc<CapabilityScope>,
    commands: Arc<PackCommands>,
    catalogs: Arc<Catalogs>,
    budget: u32,
    attempts: u32,
    refusals: u32,
}

impl BridgeGate {
    pub fn new(scope: Arc<CapabilityScope>, commands: Arc<PackCommands>, catalogs: Arc<Catalogs>, budget: u32) -> Self {
        BridgeGate { scope, commands, catalogs, budget, attempts: 0, refusals: 0 }
    }

    /// Attempts so far (allowed and refused).
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    pub fn refusals(&self) -> u32 {
        self.refusals
    }

    /// The catalog entry of a command (for checking its answer).
    pub fn command_spec(&self, server: &str, command: &str) -> Option<&super::catalog::CommandSpec> {
        self.catalogs.for_server(server)?.command(command)
    }

    /// Check one call; `server` is the server a 0.2.0 pack named (`None` from 0.1.0).
    pub fn check(&mut self, server: Option<&str>, command: &str, params_json: &str) -> Result<CheckedCall, GateRefusal> {
        let result = self.decide(server, command, params_json);
        if let Err(refusal) = &result {
            self.refusals += 1;
            // Log the first refusals in full and then only every hundredth, so a
            // flooding pack cannot flood the log either.
            if self.refusals <= 8 || self.refusals.is_multiple_of(100) {
                tracing::warn!(
                    pack = %self.scope.pack,
                    capability = %self.scope.key,
                    command = %truncate(command, 80),
                    code = refusal.code(),
                    refusals = self.refusals,
                    "bridge call refused: {refusal}"
                );
            }
        }
        result
    }

    fn decide(&mut self, named: Option<&str>, command: &str, params_json: &str) -> Result<CheckedCall, GateRefusal> {
        self.attempts += 1;
        if self.attempts > self.budget {
            return Err(GateRefusal::BudgetExceeded(format!(
                "capability {} may make {} bridge calls per execution",
                self.scope.key, self.budget
            )));
        }
        let params: Value = serde_json::from_str(params_json).map_err(|e| GateRefusal::InvalidParams {
            message: format!("params for {} are not JSON: {e}", truncate(command, 80)),
            errors: vec![],
        })?;
        if !params.is_object() {
            return Err(GateRefusal::InvalidParams {
                message: format!("params for {} must be a JSON object", truncate(command, 80)),
                errors: vec![],
            });
        }
        let Some(server) = self.commands.by_command.get(command) else {
            return Err(GateRefusal::PermissionDenied(format!(
                "pack {} did not declare bridge command {:?} in its manifest",
                self.scope.pack,
                truncate(command, 80)
            )));
        };
        if let Some(named) = named.filter(|n| *n != server) {
            return Err(GateRefusal::PermissionDenied(format!(
                "pack {} declared {command} for server {server:?}, not {:?}",
                self.scope.pack,
                truncate(named, 40)
            )));
        }
        let spec = self
            .catalogs
            .for_server(server)
            .and_then(|c| c.command(command))
            .ok_or_else(|| {
                // Load-time validation makes this unreachable for loaded packs; refuse anyway.
                GateRefusal::PermissionDenied(format!("the {server} bridge has no command {command:?}"))
            })?;
        if spec.host_only {
            return Err(GateRefusal::PermissionDenied(format!("{command} is sent only by capstan itself, never by a pack")));
        }
        if spec.effect.mutates() && !self.scope.mutates {
            return Err(GateRefusal::PermissionDenied(format!(
                "capability {} is read-only and may not call the {} command {command}",
                self.scope.key,
                if spec.effect == CommandEffect::Destroy { "destructive" } else { "mutating" }
            )));
        }
        if !self.scope.bridge_commands.iter().any(|c| c == command) {
            return Err(GateRefusal::PermissionDenied(format!(
                "capability {} did not declare bridge command {command}",
                self.scope.key
            )));
        }
        let errors = spec.params_errors(&params);
        if !errors.is_empty() {
            return Err(GateRefusal::InvalidParams {
                message: format!("params for {command} fail its schema: {}", errors.join("; ")),
                errors,
            });
        }
        Ok(CheckedCall { server: server.clone(), command: command.to_string(), effect: spec.effect, params, timeout: spec.timeout })
    }
}

fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A catalog with one command of each effect, in the shape `bridgegen.py` writes.
    fn catalogs() -> Catalogs {
        let any = r#"{"type": "object"}"#;
        let text = format!(
            r#"{{"app": "sculptor", "protocol": 1, "commands": {{
                "get_scene_info": {{"effect": "read", "params": {any}, "result": {{}}}},
                "delete_object": {{"effect": "destroy", "params": {{"type": "object", "properties": {{"name": {{"type": "string"}}}}}}, "result": {{}}}},
                "set_material": {{"effect": "mutate", "params": {any}, "result": {{}}}},
                "create_object": {{"effect": "mutate", "result": {{}}, "params": {{"type": "object", "additionalProperties": false,
                    "required": ["type"], "properties": {{"type": {{"enum": ["cube", "sphere"]}}, "name": {{"type": "string"}}}}}}}}
            }}}}"#
        );
        Catalogs::of(vec![crate::bridge::catalog::BridgeCatalog::parse(&text).unwrap()])
    }

    fn gate(mutates: bool, declared: &[&str], budget: u32) -> BridgeGate {
        let scope = CapabilityScope {
            pack: "p".into(),
            key: "scene.test".into(),
            mutates,
            bridge_commands: declared.iter().map(|s| s.to_string()).collect(),
        };
        let mut commands = PackCommands::default();
        for c in ["get_scene_info", "create_object", "delete_object"] {
            commands.by_command.insert(c.into(), "sculptor".into());
        }
        BridgeGate::new(Arc::new(scope), Arc::new(commands), Arc::new(catalogs()), budget)
    }

    #[test]
    fn a_declared_valid_call_passes() {
        let mut g = gate(true, &["create_object"], 4);
        let ok = g.check(None, "create_object", r#"{"type":"cube","name":"A"}"#).unwrap();
        assert_eq!(ok.server, "sculptor");
        assert_eq!(ok.effect, CommandEffect::Mutate);
    }

    #[test]
    fn a_named_server_must_be_the_one_the_manifest_declares_the_command_under() {
        let mut g = gate(true, &["create_object"], 4);
        assert_eq!(g.check(Some("sculptor"), "create_object", r#"{"type":"cube"}"#).unwrap().server, "sculptor");
        let e = g.check(Some("unreal"), "create_object", r#"{"type":"cube"}"#).unwrap_err();
        assert!(matches!(&e, GateRefusal::PermissionDenied(m) if m.contains("for server \"sculptor\", not \"unreal\"")), "{e}");
        assert_eq!(g.refusals(), 1);
    }

    #[test]
    fn commands_outside_the_manifest_are_denied() {
        let mut g = gate(true, &["set_material"], 4);
        let e = g.check(None, "set_material", r#"{"object":"A"}"#).unwrap_err();
        assert!(matches!(e, GateRefusal::PermissionDenied(ref m) if m.contains("manifest")), "{e}");
        let e = g.check(None, "exec_python", "{}").unwrap_err();
        assert_eq!(e.code(), "PERMISSION_DENIED");
    }

    #[test]
    fn read_only_capabilities_cannot_mutate_or_destroy() {
        let mut g = gate(false, &["get_scene_info", "create_object", "delete_object"], 4);
        let e = g.check(None, "create_object", r#"{"type":"cube"}"#).unwrap_err();
        assert!(matches!(e, GateRefusal::PermissionDenied(ref m) if m.contains("read-only")), "{e}");
        let e = g.check(None, "delete_object", r#"{"name":"Cube"}"#).unwrap_err();
        assert!(e.to_string().contains("destructive"), "{e}");
        assert!(g.check(None, "get_scene_info", "{}").is_ok());
    }

    #[test]
    fn a_capability_cannot_borrow_another_capabilitys_command() {
        let mut g = gate(true, &["create_object"], 4);
        let e = g.check(None, "delete_object", r#"{"name":"Cube"}"#).unwrap_err();
        assert!(matches!(e, GateRefusal::PermissionDenied(ref m) if m.contains("did not declare")), "{e}");
    }

    #[test]
    fn params_must_be_an_object_matching_the_schema() {
        let mut g = gate(true, &["create_object"], 8);
        for bad in ["\"import os\"", "[1]", "not json", r#"{"type":"teapot"}"#, r#"{"type":"cube","extra":1}"#] {
            let e = g.check(None, "create_object", bad).unwrap_err();
            assert_eq!(e.code(), "INVALID_BRIDGE_PARAMS", "{bad}: {e}");
        }
    }

    #[test]
    fn the_budget_counts_every_attempt() {
        let mut g = gate(false, &["get_scene_info"], 3);
        assert!(g.check(None, "get_scene_info", "{}").is_ok());
        assert!(g.check(None, "nope", "{}").is_err());
        assert!(g.check(None, "get_scene_info", "{}").is_ok());
        let e = g.check(None, "get_scene_info", "{}").unwrap_err();
        assert_eq!(e.code(), "BUDGET_EXCEEDED");
        assert_eq!(g.attempts(), 4);
        assert_eq!(g.refusals(), 2);
    }
}
