//! Bounds on what a pack may declare about itself, checked before anything else in
//! its description is looked at.
//!
//! Security reasoning: `describe()` is written by the pack author and runs before the
//! host trusts anything about the pack. What it returns is kept for the life of the
//! process, compiled (one JSON Schema validator per capability), searched on every
//! request, sent to MCP clients and printed by `capstan packs list`. Unbounded, a pack
//! could make start-up compile 50,000 schemas, hold hundreds of megabytes, flood every
//! search result, or put escape sequences on an operator's terminal. So the whole
//! description has a size, each list a count, each text a size and a character set
//! (no control characters, line or paragraph separators or bidirectional overrides;
//! a description may break lines), and the bounds are checked in that order: the
//! totals first, so an oversized description is refused without parsing its parts.
//! Every refusal names the bound (`limits.rs` holds the numbers).

use super::bindings::{Capability, PackDescription};
use crate::control_chars::{escape, needs_escape};
use crate::limits::declared as bound;
use serde_json::Value;

/// The totals: false when the description as a whole is too large to look at any
/// further. More capabilities than allowed is a refusal too; the caller then checks
/// only the first `MAX_CAPABILITIES` (never compiles 50,000 schemas).
pub fn check_totals(raw: &PackDescription, errors: &mut Vec<String>) -> bool {
    let total = description_bytes(raw);
    if total > bound::MAX_DESCRIPTION_BYTES {
        errors.push(format!(
            "the description is {total} bytes; at most {} are allowed (limit: description bytes)",
            bound::MAX_DESCRIPTION_BYTES
        ));
        return false;
    }
    if raw.capabilities.len() > bound::MAX_CAPABILITIES {
        errors.push(format!(
            "the pack declares {} capabilities; at most {} are allowed (limit: capabilities per pack)",
            raw.capabilities.len(),
            bound::MAX_CAPABILITIES
        ));
    }
    true
}

/// The bytes a description holds: every string it carries.
fn description_bytes(raw: &PackDescription) -> usize {
    let list = |l: &[String]| l.iter().map(String::len).sum::<usize>();
    let families: usize = raw
        .families
        .iter()
        .map(|f| f.name.len() + f.summary.len() + f.cues.iter().map(|c| 1 + list(&c.phrases)).sum::<usize>())
        .sum();
    let capabilities: usize = raw
        .capabilities
        .iter()
        .map(|c| {
            c.key.len()
                + c.family.len()
                + c.summary.len()
                + c.description.len()
                + c.input_schema.len()
                + c.output_schema.as_ref().map_or(0, String::len)
                + list(&c.tags)
                + list(&c.aliases)
                + list(&c.examples)
                + list(&c.bridge_commands)
                + list(&c.conformance)
        })
        .sum();
    families + capabilities
}

/// One text field: at most `max` bytes of characters a terminal shows as they are.
pub fn text(what: &str, text: &str, max: usize, line_breaks: bool) -> Result<(), String> {
    if text.len() > max {
        return Err(format!("{what} is {} bytes; at most {max} are allowed", text.len()));
    }
    if let Some(c) = text.chars().find(|&c| needs_escape(c) && !(line_breaks && matches!(c, '\n' | '\t'))) {
        return Err(format!(
            "{what} holds the character U+{:04X}; control characters, line separators and bidirectional overrides are not allowed{}",
            c as u32,
            if line_breaks { " (line breaks and tabs are)" } else { "" }
        ));
    }
    Ok(())
}

/// Every per-capability count and text bound; the schema's size is checked before it
/// is parsed.
pub fn check_capability(cap: &Capability, err: &mut impl FnMut(String)) {
    let mut problems = Vec::new();
    problems.push(text("the summary", &cap.summary, bound::MAX_SUMMARY_BYTES, false));
    problems.push(text("the description", &cap.description, bound::MAX_CAPABILITY_DESCRIPTION_BYTES, true));
    let lists: [(&str, &[String], usize, Option<usize>); 4] = [
        ("tag", &cap.tags, bound::MAX_TAGS, Some(bound::MAX_TAG_BYTES)),
        ("example", &cap.examples, bound::MAX_EXAMPLES, Some(bound::MAX_EXAMPLE_BYTES)),
        ("alias", &cap.aliases, bound::MAX_ALIASES, None),
        ("bridge command", &cap.bridge_commands, bound::MAX_BRIDGE_COMMANDS, None),
    ];
    for (what, items, max_count, max_bytes) in lists {
        if items.len() > max_count {
            problems.push(Err(format!("{} entries in its {what} list; at most {max_count} are allowed", items.len())));
        } else if let Some(max_bytes) = max_bytes {
            problems.extend(items.iter().map(|item| text(&format!("the {what} \"{}\"", escape(item)), item, max_bytes, false)));
        }
    }
    problems.into_iter().filter_map(Result::err).for_each(err);
}

/// The dialect every declared schema is compiled as, and the only one an output schema
/// may name in `$schema` (MCP clients judge results by the dialect the schema names).
pub const SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Which of a capability's schemas is being checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaRole {
    Input,
    /// Also limited to [`SCHEMA_DIALECT`] (or none named): MCP clients check results by it.
    Output,
}

impl SchemaRole {
    /// The WIT field's name, used in messages.
    pub fn field(self) -> &'static str {
        match self {
            SchemaRole::Input => "input-schema",
            SchemaRole::Output => "output-schema",
        }
    }
}

/// A declared JSON Schema (`input-schema`, `output-schema`, named by `role` in the
/// messages): at most `MAX_SCHEMA_BYTES` before it is parsed, JSON, clean text at any
/// depth, an object schema (MCP's `inputSchema` and `outputSchema` must be), and one that
/// compiles as draft 2020-12.
///
/// Security reasoning: the pack writes both a schema and what the host validates with it
/// (arguments from the client, results from the pack), so validation runs host-side on
/// pack terms. `pattern` is compiled with the linear-time `regex` engine (no
/// backtracking, no lookaround): a pattern cannot cost more than linear time per string.
pub fn object_schema(role: SchemaRole, source: &str) -> Result<(Value, jsonschema::Validator), String> {
    let what = role.field();
    let n = source.len();
    if n > bound::MAX_SCHEMA_BYTES {
        return Err(format!("{what} is {n} bytes; at most {} are allowed", bound::MAX_SCHEMA_BYTES));
    }
    let schema: Value = serde_json::from_str(source).map_err(|e| format!("{what} is not JSON: {e}"))?;
    schema_text(what, &schema)?;
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(format!("{what} must describe a JSON object (\"type\": \"object\")"));
    }
    if role == SchemaRole::Output
        && let Some(dialect) = schema.get("$schema").filter(|d| d.as_str() != Some(SCHEMA_DIALECT))
    {
        return Err(format!("{what} names the dialect {}; capstan checks results as {SCHEMA_DIALECT} (name it, or none)", escape(&dialect.to_string())));
    }
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .build(&schema)
        .map_err(|e| format!("{what} does not compile: {e}"))?;
    Ok((schema, validator))
}

/// Strings inside a parsed schema (titles, descriptions, enum values) reach clients
/// and terminals too: the same character rule, line breaks allowed.
pub fn schema_text(what: &str, schema: &Value) -> Result<(), String> {
    match schema {
        Value::String(s) => text(&format!("a string in {what}"), s, usize::MAX, true),
        Value::Array(items) => items.iter().try_for_each(|v| schema_text(what, v)),
        Value::Object(map) => map.iter().try_for_each(|(k, v)| text(&format!("a key in {what}"), k, usize::MAX, false).and_then(|_| schema_text(what, v))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_refuses_what_acts_on_a_terminal_and_names_the_size() {
        assert!(text("s", "plain, ünïcode", 64, false).is_ok());
        assert!(text("s", "two\nlines\tand a tab", 64, true).is_ok());
        assert!(text("s", "two\nlines", 64, false).unwrap_err().contains("U+000A"));
        assert!(text("s", "\u{1b}[31m", 64, true).unwrap_err().contains("U+001B"));
        assert!(text("s", "right\u{202e}left", 64, true).unwrap_err().contains("U+202E"));
        assert!(text("s", "over\rwrite", 64, true).unwrap_err().contains("U+000D"));
        assert_eq!(text("the summary", &"x".repeat(65), 64, false).unwrap_err(), "the summary is 65 bytes; at most 64 are allowed");
    }

    #[test]
    fn schema_strings_and_keys_are_checked_at_any_depth() {
        assert!(schema_text("input-schema", &json!({ "type": "object", "properties": { "a": { "description": "fine\nhere" } } })).is_ok());
        assert!(schema_text("input-schema", &json!({ "properties": { "a": { "enum": ["ok", "\u{1b}]0;x\u{7}"] } } })).is_err());
        assert!(schema_text("input-schema", &json!({ "properties": { "\u{9b}31m": {} } })).is_err());
    }

    #[test]
    fn a_declared_schema_is_an_object_schema_that_compiles() {
        assert!(object_schema(SchemaRole::Output, r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#).is_ok());
        let refused = |text: &str| object_schema(SchemaRole::Output, text).unwrap_err();
        assert!(refused("{").starts_with("output-schema is not JSON"));
        assert!(refused(r#"{"type":"array"}"#).contains("must describe a JSON object"));
        assert!(refused(r#"{"type":"object","properties":{"n":{"type":"nonsense"}}}"#).contains("does not compile"));
        assert!(refused(&format!(r#"{{"type":"object","description":"{}"}}"#, "x".repeat(70_000))).contains("bytes; at most"));
        assert!(refused("{\"type\":\"object\",\"title\":\"\\u001b[2J\"}").contains("a string in output-schema"));
        assert!(refused(r#"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}"#).contains("names the dialect"));
        assert!(object_schema(SchemaRole::Output, r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}"#).is_ok());
        // An input schema may name another dialect (it is compiled as 2020-12 either way).
        assert!(object_schema(SchemaRole::Input, r#"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}"#).is_ok());
        // Lookaround needs a backtracking engine: refused, so no pattern can backtrack.
        assert!(refused(r#"{"type":"object","properties":{"s":{"type":"string","pattern":"^(?=a)a+$"}}}"#).contains("does not compile"));
    }
}
