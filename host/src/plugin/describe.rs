//! Checking what a pack says about itself (`describe()`), once, at load.
//!
//! A description is untrusted input: it decides which bridge commands a capability
//! may reach and which schema guards its arguments. So it must be consistent with the
//! manifest and the app's catalog, and a read-only capability may not even *list* a
//! mutating command. Anything wrong refuses the whole pack, with every reason listed.

use super::bindings::Capability;
use crate::bridge::catalog::{Catalogs, CommandEffect};
use crate::manifest::Manifest;
use jsonschema::Validator;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

/// One capability as the host registers it.
#[derive(Debug, Clone, Serialize)]
pub struct CapabilitySpec {
    pub key: String,
    pub family: String,
    pub summary: String,
    pub description: String,
    pub input_schema: Value,
    pub tags: Vec<String>,
    pub aliases: Vec<String>,
    pub examples: Vec<String>,
    pub mutates: bool,
    /// True if any of its bridge commands destroys data.
    pub destructive: bool,
    pub bridge_commands: Vec<String>,
    #[serde(skip)]
    pub validator: Arc<Validator>,
}

impl CapabilitySpec {
    /// Every schema error of `arguments`, as `path: message` lines.
    pub fn argument_errors(&self, arguments: &Value) -> Vec<String> {
        self.validator
            .iter_errors(arguments)
            .map(|e| {
                let at = e.instance_path().to_string();
                if at.is_empty() { e.to_string() } else { format!("{at}: {e}") }
            })
            .collect()
    }
}

/// `family.verb_noun`: two lowercase identifiers joined by a dot.
pub fn is_canonical_key(key: &str) -> bool {
    let mut parts = key.split('.');
    let ident = |s: &str| {
        !s.is_empty()
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    key.len() <= 63
        && matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None) if ident(a) && ident(b))
}

fn is_alias(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '.' | '-'))
}

/// Validate every capability; all problems are returned together.
pub fn validate(raw: Vec<Capability>, manifest: &Manifest, catalogs: &Catalogs) -> Result<Vec<CapabilitySpec>, Vec<String>> {
    let mut errors = Vec::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    if raw.is_empty() {
        errors.push("the pack describes no capabilities".to_string());
    }
    for cap in raw {
        let key = cap.key.clone();
        let mut err = |m: String| errors.push(format!("capability {key:?}: {m}"));
        if !is_canonical_key(&cap.key) {
            err("the key must be family.verb_noun in lowercase a-z, 0-9 and '_' (at most 63 characters)".into());
            continue;
        }
        if !names.insert(cap.key.clone()) {
            err("the key is declared twice (or is another capability's alias)".into());
        }
        if !is_canonical_key(&format!("{}.x", cap.family)) {
            err(format!("family {:?} must be a lowercase identifier", cap.family));
        }
        if cap.summary.trim().is_empty() || cap.summary.len() > 200 {
            err("the summary must be one non-empty line of at most 200 characters".into());
        }
        for alias in &cap.aliases {
            if !is_alias(alias) {
                err(format!("alias {alias:?} must be lowercase a-z, 0-9, '_', '.', '-'"));
            } else if !names.insert(alias.clone()) {
                err(format!("alias {alias:?} is already a key or alias of this pack"));
            }
        }
        let mut destructive = false;
        for command in &cap.bridge_commands {
            let Some(server) = manifest.server_of(command) else {
                err(format!("bridge command {command:?} is not declared in the manifest"));
                continue;
            };
            let Some(spec) = catalogs.for_server(server).and_then(|c| c.command(command)) else {
                err(format!("the {server} bridge has no command {command:?}"));
                continue;
            };
            if spec.effect.mutates() && !cap.mutates {
                err(format!("it is read-only (mutates: false) but lists the mutating command {command:?}"));
            }
            destructive |= spec.effect == CommandEffect::Destroy;
        }
        let schema: Value = match serde_json::from_str(&cap.input_schema) {
            Ok(v) => v,
            Err(e) => {
                err(format!("input-schema is not JSON: {e}"));
                continue;
            }
        };
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            err("input-schema must describe a JSON object (\"type\": \"object\")".into());
            continue;
        }
        let validator = match jsonschema::draft202012::new(&schema) {
            Ok(v) => v,
            Err(e) => {
                err(format!("input-schema does not compile: {e}"));
                continue;
            }
        };
        out.push(CapabilitySpec {
            key: cap.key,
            family: cap.family,
            summary: cap.summary,
            description: cap.description,
            input_schema: schema,
            tags: cap.tags,
            aliases: cap.aliases,
            examples: cap.examples,
            mutates: cap.mutates,
            destructive,
            bridge_commands: cap.bridge_commands,
            validator: Arc::new(validator),
        });
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_keys() {
        for ok in ["scene.info", "scene.create_object", "workflow.product_hero", "a1.b2"] {
            assert!(is_canonical_key(ok), "{ok}");
        }
        for bad in ["scene", "Scene.info", "scene.create-object", "a.b.c", ".x", "x.", "scene.1x", "blender_create_object"] {
            assert!(!is_canonical_key(bad), "{bad}");
        }
    }
}
