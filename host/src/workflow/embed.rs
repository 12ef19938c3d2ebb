//! `{"$capability_args": KEY}` in a workflow's schema: "the arguments of capability KEY",
//! replaced at load by that capability's own input schema, so a workflow that passes a
//! part through (`forensic_recon`'s `road`) validates it as strictly as the capability
//! does, without a second, hand-kept copy of the schema that could drift.
//!
//! The capability's `$defs` move to the workflow schema's `$defs` under a prefix
//! (`forensic_road__RoadType`) and its `$ref`s are rewritten to match; `$schema` and
//! `title` are dropped; the marker's other keys (`description`) are kept.

use super::definition::StepLookup;
use serde_json::{Map, Value};

const MARKER: &str = "$capability_args";

/// Replace every marker in `schema`; the problems, if any key is unknown.
pub fn expand(schema: &mut Value, lookup: &dyn StepLookup) -> Vec<String> {
    let mut defs = Map::new();
    let mut problems = Vec::new();
    walk(schema, lookup, &mut defs, &mut problems);
    if !defs.is_empty()
        && let Some(top) = schema.as_object_mut()
    {
        let target = top.entry("$defs").or_insert_with(|| Value::Object(Map::new()));
        if let Some(target) = target.as_object_mut() {
            target.extend(defs);
        }
    }
    problems
}

fn walk(node: &mut Value, lookup: &dyn StepLookup, defs: &mut Map<String, Value>, problems: &mut Vec<String>) {
    match node {
        Value::Object(o) => {
            if let Some(key) = o.get(MARKER).cloned() {
                let Some(key) = key.as_str() else {
                    problems.push(format!("{MARKER} takes a capability key"));
                    return;
                };
                let Some(cap) = lookup.canonical(key) else {
                    problems.push(format!("{MARKER}: no capability with the canonical key {key:?} is loaded"));
                    return;
                };
                let prefix = format!("{}__", key.replace('.', "_"));
                let mut embedded = cap.input_schema.clone();
                rewrite_refs(&mut embedded, &prefix);
                let Value::Object(mut embedded) = embedded else { return };
                embedded.remove("$schema");
                embedded.remove("title");
                if let Some(Value::Object(own)) = embedded.remove("$defs") {
                    defs.extend(own.into_iter().map(|(name, def)| (format!("{prefix}{name}"), def)));
                }
                o.remove(MARKER);
                for (k, v) in embedded {
                    o.entry(k).or_insert(v);
                }
                return;
            }
            o.values_mut().for_each(|v| walk(v, lookup, defs, problems));
        }
        Value::Array(a) => a.iter_mut().for_each(|v| walk(v, lookup, defs, problems)),
        _ => {}
    }
}

fn rewrite_refs(node: &mut Value, prefix: &str) {
    match node {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get_mut("$ref")
                && let Some(name) = r.strip_prefix("#/$defs/")
            {
                *r = format!("#/$defs/{prefix}{name}");
            }
            o.values_mut().for_each(|v| rewrite_refs(v, prefix));
        }
        Value::Array(a) => a.iter_mut().for_each(|v| rewrite_refs(v, prefix)),
        _ => {}
    }
}
