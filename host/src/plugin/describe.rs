//! Checking what a pack says about itself (`describe()`), once, at load.
//!
//! A description is untrusted input: it decides which bridge commands a capability
//! may reach and which schema guards its arguments. So it must be consistent with the
//! manifest and the app's catalog, and a read-only capability may not even *list* a
//! mutating command. Anything wrong refuses the whole pack, with every reason listed.

use super::abi::PackVersion;
use super::bindings::{Capability, PackDescription};
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
    /// The declared schema of a successful result (0.2.0), checked against every result
    /// and surfaced as MCP `outputSchema`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    pub tags: Vec<String>,
    pub aliases: Vec<String>,
    pub examples: Vec<String>,
    pub mutates: bool,
    /// True if any of its bridge commands destroys data.
    pub destructive: bool,
    /// True if any of its bridge commands writes files (an export, a saved copy).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub writes_files: bool,
    pub bridge_commands: Vec<String>,
    /// What the capability must do against the real app (run by the conformance suite).
    #[serde(skip)]
    pub conformance: Vec<crate::conformance::Case>,
    #[serde(skip)]
    pub validator: Arc<Validator>,
    #[serde(skip)]
    pub output_validator: Option<Arc<Validator>>,
}

/// A routing family as a pack declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FamilySpec {
    pub name: String,
    pub summary: String,
    /// (weight, phrases): a phrase with a space matches whole, a word as a stem.
    pub cues: Vec<(u32, Vec<String>)>,
}

use super::declared;
/// Problems listed when a description is refused; the rest are counted.
const MAX_REPORTED_PROBLEMS: usize = 40;
use crate::limits::declared::{
    MAX_CASE_BYTES, MAX_CASES_PER_CAPABILITY, MAX_CUE_BYTES as MAX_CUE_LEN, MAX_CUES_PER_FAMILY, MAX_FAMILIES, MAX_SUMMARY_BYTES,
};

impl CapabilitySpec {
    /// Every schema error of `arguments`, as `path: message` lines.
    pub fn argument_errors(&self, arguments: &Value) -> Vec<String> {
        schema_errors(&self.validator, arguments)
    }

    /// The first errors of a result against the declared output schema (none declared:
    /// none), each as `at <instance path>: fails <schema path>`: bounded in number and
    /// length, and without the failing value (the pack's, possibly megabytes).
    pub fn result_errors(&self, result: &Value) -> Vec<String> {
        const SHOWN: usize = 8;
        let Some(validator) = &self.output_validator else { return Vec::new() };
        if validator.is_valid(result) {
            return Vec::new();
        }
        validator
            .iter_errors(result)
            .take(SHOWN)
            .map(|e| {
                let at = e.instance_path().to_string();
                let rule: String = e.schema_path().to_string().chars().take(120).collect();
                let at: String = if at.is_empty() { "the result".into() } else { at.chars().take(120).collect() };
                format!("at {at}: fails {rule}")
            })
            .collect()
    }
}

/// The schema errors of a caller's arguments, each quoting at most a preview of the
/// failing value ([`crate::echo::schema_error`]), the first
/// [`MAX_SCHEMA_ERRORS`](crate::limits::tool_inputs::MAX_SCHEMA_ERRORS) of them and a
/// count of the rest: an error answer stays small whatever was sent.
fn schema_errors(validator: &Validator, instance: &Value) -> Vec<String> {
    use crate::limits::tool_inputs::MAX_SCHEMA_ERRORS;
    let mut errors = Vec::new();
    if validator.is_valid(instance) {
        return errors;
    }
    let mut more = 0usize;
    for e in validator.iter_errors(instance) {
        if errors.len() < MAX_SCHEMA_ERRORS {
            errors.push(crate::echo::schema_error(&e));
        } else {
            more += 1;
        }
    }
    if more > 0 {
        errors.push(format!("({more} more errors not listed; at most {MAX_SCHEMA_ERRORS} are)"));
    }
    errors
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

fn is_family_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn is_cue(phrase: &str) -> bool {
    (1..=MAX_CUE_LEN).contains(&phrase.len())
        && phrase.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == ' ')
        && !phrase.starts_with(' ')
        && !phrase.ends_with(' ')
}

/// The families a pack declares (or, for 0.1.0, the ones its capabilities name).
fn validate_families(raw: &PackDescription, version: PackVersion, errors: &mut Vec<String>) -> Vec<FamilySpec> {
    if version == PackVersion::V1 {
        let names: BTreeSet<&str> = raw.capabilities.iter().map(|c| c.family.as_str()).collect();
        return names.into_iter().map(|n| FamilySpec { name: n.to_string(), summary: String::new(), cues: Vec::new() }).collect();
    }
    if raw.families.len() > MAX_FAMILIES {
        errors.push(format!("the pack declares {} families; at most {MAX_FAMILIES} are allowed", raw.families.len()));
        return Vec::new();
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for f in &raw.families {
        let mut err = |m: String| errors.push(format!("family {:?}: {m}", f.name));
        if !is_family_name(&f.name) {
            err("the name must be a lowercase identifier of at most 32 characters".into());
            continue;
        }
        if !seen.insert(f.name.clone()) {
            err("declared twice".into());
        }
        if let Err(e) = declared::text("the summary", &f.summary, MAX_SUMMARY_BYTES, false) {
            err(e);
        }
        let phrases: usize = f.cues.iter().map(|c| c.phrases.len()).sum();
        if phrases > MAX_CUES_PER_FAMILY {
            err(format!("{phrases} cue phrases; at most {MAX_CUES_PER_FAMILY}"));
        }
        for cue in &f.cues {
            if !(1..=10).contains(&cue.weight) {
                err(format!("cue weight {} is outside 1..10", cue.weight));
            }
            for p in &cue.phrases {
                if !is_cue(p) {
                    err(format!("cue {p:?} must be lowercase letters, digits and single inner spaces, at most {MAX_CUE_LEN} characters"));
                }
            }
        }
        out.push(FamilySpec {
            name: f.name.clone(),
            summary: f.summary.clone(),
            cues: f.cues.iter().map(|c| (u32::from(c.weight), c.phrases.clone())).collect(),
        });
    }
    out
}

/// Validate a pack's description; all problems are returned together.
pub fn validate(
    raw: PackDescription,
    version: PackVersion,
    manifest: &Manifest,
    catalogs: &Catalogs,
) -> Result<(Vec<FamilySpec>, Vec<CapabilitySpec>), Vec<String>> {
    let mut errors = Vec::new();
    if !declared::check_totals(&raw, &mut errors) {
        return Err(errors);
    }
    let mut raw = raw;
    raw.capabilities.truncate(crate::limits::declared::MAX_CAPABILITIES);
    let families = validate_families(&raw, version, &mut errors);
    let family_names: BTreeSet<String> = families.iter().map(|f| f.name.clone()).collect();
    let capabilities = validate_capabilities(raw.capabilities, &family_names, manifest, catalogs, &mut errors);
    if errors.is_empty() {
        return Ok((families, capabilities));
    }
    // Problems quote what the pack wrote: never raw to a log or terminal.
    let mut errors: Vec<String> = errors.into_iter().map(|e| crate::control_chars::escape(&e).into_owned()).collect();
    // A hostile description can have a problem per field: the first ones say enough.
    if errors.len() > MAX_REPORTED_PROBLEMS {
        let more = errors.len() - MAX_REPORTED_PROBLEMS;
        errors.truncate(MAX_REPORTED_PROBLEMS);
        errors.push(format!("... and {more} more problems"));
    }
    Err(errors)
}

fn validate_capabilities(
    raw: Vec<Capability>,
    families: &BTreeSet<String>,
    manifest: &Manifest,
    catalogs: &Catalogs,
    errors: &mut Vec<String>,
) -> Vec<CapabilitySpec> {
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
        if !families.contains(&cap.family) {
            err(format!("family {:?} is not one the pack declares ({})", cap.family, families.iter().cloned().collect::<Vec<_>>().join(", ")));
        }
        if cap.summary.trim().is_empty() {
            err("the summary must be one non-empty line".into());
        }
        declared::check_capability(&cap, &mut err);
        for alias in &cap.aliases {
            if !is_alias(alias) {
                err(format!("alias {alias:?} must be lowercase a-z, 0-9, '_', '.', '-'"));
            } else if !names.insert(alias.clone()) {
                err(format!("alias {alias:?} is already a key or alias of this pack"));
            }
        }
        let mut destructive = cap.destructive;
        let mut writes_files = false;
        for command in &cap.bridge_commands {
            let Some(server) = manifest.server_of(command) else {
                err(format!("bridge command {command:?} is not declared in the manifest"));
                continue;
            };
            let Some(spec) = catalogs.for_server(server).and_then(|c| c.command(command)) else {
                err(format!("the {server} bridge has no command {command:?}"));
                continue;
            };
            if spec.host_only {
                err(format!("{command:?} is sent only by capstan itself, never by a pack"));
            }
            if spec.effect.mutates() && !cap.mutates {
                err(format!("it is read-only (mutates: false) but lists the mutating command {command:?}"));
            }
            destructive |= spec.effect == CommandEffect::Destroy;
            writes_files |= spec.effect == CommandEffect::Write;
        }
        let (schema, validator) = match declared::object_schema(declared::SchemaRole::Input, &cap.input_schema) {
            Ok(compiled) => compiled,
            Err(e) => {
                err(e);
                continue;
            }
        };
        let output = match cap.output_schema.as_deref().map(|text| declared::object_schema(declared::SchemaRole::Output, text)).transpose() {
            Ok(compiled) => compiled,
            Err(e) => {
                err(e);
                continue;
            }
        };
        if cap.conformance.len() > MAX_CASES_PER_CAPABILITY {
            err(format!("{} conformance cases; at most {MAX_CASES_PER_CAPABILITY}", cap.conformance.len()));
        }
        let mut conformance = Vec::new();
        for text in cap.conformance.iter().take(MAX_CASES_PER_CAPABILITY) {
            if text.len() > MAX_CASE_BYTES {
                err(format!("a conformance case of {} bytes; at most {MAX_CASE_BYTES}", text.len()));
                continue;
            }
            match crate::conformance::Case::parse(text) {
                Ok(case) => conformance.push(case),
                Err(e) => err(format!("conformance case: {e}")),
            }
        }
        out.push(CapabilitySpec {
            key: cap.key,
            family: cap.family,
            summary: cap.summary,
            description: cap.description,
            input_schema: schema,
            output_schema: output.as_ref().map(|(schema, _)| schema.clone()),
            tags: cap.tags,
            aliases: cap.aliases,
            examples: cap.examples,
            mutates: cap.mutates,
            destructive,
            writes_files,
            bridge_commands: cap.bridge_commands,
            conformance,
            validator: Arc::new(validator),
            output_validator: output.map(|(_, v)| Arc::new(v)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_keys() {
        for ok in ["scene.info", "scene.create_object", "workflow.product_hero", "a1.b2"] {
            assert!(is_canonical_key(ok), "{ok}");
        }
        for bad in ["scene", "Scene.info", "scene.create-object", "a.b.c", ".x", "x.", "scene.1x", "sculptor_create_object"] {
            assert!(!is_canonical_key(bad), "{bad}");
        }
    }
}
