//! The edit itself: put `<servers_key>.capstan` into a config's text, changing nothing
//! else. The text is parsed into a concrete syntax tree (jsonc-parser's CST), which keeps
//! every byte it is not told to change: other keys in their order, whitespace, comments.
//! The result is parsed again and checked to equal the old document plus the entry.

use super::SetupError;
use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use jsonc_parser::errors::ParseErrorKind;
use serde_json::Value;
use std::path::Path;

/// The entry's name in the client's server table.
pub const NAME: &str = "capstan";

/// What the merge found and would write.
#[derive(Debug)]
pub struct Merge {
    /// The `capstan` entry the file holds now, if any, as its text there.
    pub before: Option<String>,
    /// The entry as the new text holds it.
    pub after: String,
    /// The whole new text; equal to the old text when nothing changes.
    pub text: String,
    pub changed: bool,
}

fn options(jsonc: bool) -> ParseOptions {
    ParseOptions {
        allow_comments: jsonc,
        allow_trailing_commas: jsonc,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Keys of a server entry in the order people write them; others follow, sorted.
fn input(value: &Value) -> CstInputValue {
    const FIRST: [&str; 4] = ["type", "command", "args", "env"];
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(input).collect()),
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort_by_key(|k| (FIRST.iter().position(|f| f == k).unwrap_or(FIRST.len()), (*k).clone()));
            CstInputValue::Object(keys.into_iter().map(|k| (k.clone(), input(&o[k]))).collect())
        }
    }
}

fn parse(path: &Path, text: &str, jsonc: bool) -> Result<CstRootNode, SetupError> {
    let refused = |e: jsonc_parser::errors::ParseError| SetupError::Parse {
        path: path.to_path_buf(),
        line: e.line_display(),
        column: e.column_display(),
        reason: match e.kind() {
            ParseErrorKind::CommentsNotAllowed => "comments are not allowed: this client reads the file as strict JSON".into(),
            ParseErrorKind::TrailingCommasNotAllowed => "trailing commas are not allowed: this client reads the file as strict JSON".into(),
            kind => kind.to_string(),
        },
    };
    // The CST parse collects comments as tokens and then does not enforce
    // `allow_comments` (jsonc-parser 0.34), so the plain AST parse checks the options first.
    jsonc_parser::parse_to_ast(text, &Default::default(), &options(jsonc)).map_err(refused)?;
    // Strict clients parse with a JSON parser: serde_json must accept the text too.
    if !jsonc && !text.trim().is_empty() {
        serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| SetupError::Parse { path: path.to_path_buf(), line: e.line(), column: e.column(), reason: e.to_string() })?;
    }
    CstRootNode::parse(text, &options(jsonc)).map_err(refused)
}

/// Merge `entry` as `<key>.capstan` into `original` (None: the file does not exist).
pub fn merge(path: &Path, original: Option<&str>, key: &str, entry: &Value, jsonc: bool) -> Result<Merge, SetupError> {
    let original = original.unwrap_or("");
    let (bom, body) = match original.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", original),
    };
    let not_object = |what: String| SetupError::NotAnObject { path: path.to_path_buf(), what };
    let root = parse(path, body, jsonc)?;
    let old_value = root.to_serde_value();
    let top = match root.value() {
        // An empty (or whitespace-only) file is taken as `{}`.
        None => root.object_value_or_set(),
        Some(_) => root.object_value().ok_or_else(|| not_object("the top level".into()))?,
    };
    let mut before = None;
    match top.get(key) {
        None => {
            top.append(key, CstInputValue::Object(vec![(NAME.to_string(), input(entry))]));
        }
        Some(prop) => {
            let servers = prop.object_value().ok_or_else(|| not_object(format!("`{key}`")))?;
            match servers.get(NAME) {
                None => {
                    servers.append(NAME, input(entry));
                }
                Some(existing) => {
                    let value = existing.value();
                    before = value.as_ref().map(|v| v.to_string());
                    if value.and_then(|v| v.to_serde_value()).as_ref() == Some(entry) {
                        let after = before.clone().unwrap_or_default();
                        return Ok(Merge { before, after, text: original.to_string(), changed: false });
                    }
                    existing.set_value(input(entry));
                }
            }
        }
    }
    let mut text = format!("{bom}{root}");
    if body.trim().is_empty() {
        text = format!("{}\n", text.trim_end());
    }
    // The edit must be exactly the old document plus the entry.
    let mut expected = old_value.unwrap_or_else(|| Value::Object(Default::default()));
    expected.as_object_mut().and_then(|o| o.entry(key).or_insert_with(|| Value::Object(Default::default())).as_object_mut()).map(|s| s.insert(NAME.into(), entry.clone()));
    let got = parse(path, text.trim_start_matches('\u{feff}'), jsonc)?.to_serde_value();
    if got.as_ref() != Some(&expected) {
        return Err(SetupError::EditCheck { path: path.to_path_buf() });
    }
    let after = root.object_value().and_then(|o| o.object_value(key)).and_then(|s| s.get(NAME)).and_then(|p| p.value()).map(|v| v.to_string()).unwrap_or_default();
    let changed = text != original;
    Ok(Merge { before, after, text, changed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(text: Option<&str>, key: &str, jsonc: bool) -> Result<Merge, SetupError> {
        merge(Path::new("cfg.json"), text, key, &json!({"command": "/bin/capstan", "args": ["serve"]}), jsonc)
    }

    #[test]
    fn keeps_everything_else_and_is_idempotent() {
        let text = "{\n  \"z\": 1,\n  \"mcpServers\": {\n    \"b\": {\"command\": \"b\"},\n    \"a\": {\"command\": \"a\"}\n  },\n  \"a\": [1, 2]\n}\n";
        let m = run(Some(text), "mcpServers", false).unwrap();
        assert!(m.changed && m.before.is_none());
        let (b, a, c) = (m.text.find("\"b\"").unwrap(), m.text.find("\"a\": {").unwrap(), m.text.find("\"capstan\"").unwrap());
        assert!(m.text.starts_with("{\n  \"z\": 1,\n") && b < a && a < c && m.text.ends_with("\"a\": [1, 2]\n}\n"), "{}", m.text);
        let again = run(Some(&m.text), "mcpServers", false).unwrap();
        assert!(!again.changed && again.text == m.text && again.before.is_some());
    }

    #[test]
    fn jsonc_keeps_comments_and_json_refuses_them() {
        let text = "// mine\n{\n  \"servers\": {\n    // keep\n    \"x\": {\"type\": \"stdio\", \"command\": \"x\"},\n  },\n}\n";
        let m = run(Some(text), "servers", true).unwrap();
        assert!(m.text.contains("// mine") && m.text.contains("// keep") && m.text.contains("\"capstan\""), "{}", m.text);
        match run(Some(text), "mcpServers", false) {
            Err(SetupError::Parse { line: 1, column: 1, reason, .. }) => assert!(reason.contains("comments"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn creates_replaces_and_refuses() {
        let m = run(None, "mcpServers", false).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&m.text).unwrap(), json!({"mcpServers": {"capstan": {"command": "/bin/capstan", "args": ["serve"]}}}));
        let m = run(Some("{\"mcpServers\": {\"capstan\": {\"command\": \"old\"}}}"), "mcpServers", false).unwrap();
        assert_eq!(m.before.as_deref(), Some("{\"command\": \"old\"}"));
        assert!(m.after.contains("\"args\": [\"serve\"]"), "{}", m.after);
        assert!(m.changed && !m.text.contains("old"));
        assert!(matches!(run(Some("[1]"), "mcpServers", false), Err(SetupError::NotAnObject { .. })));
        assert!(matches!(run(Some("{\"mcpServers\": 3}"), "mcpServers", false), Err(SetupError::NotAnObject { .. })));
        assert!(matches!(run(Some("{\"mcpServers\": {\n"), "mcpServers", false), Err(SetupError::Parse { line: 1, .. } | SetupError::Parse { line: 2, .. })));
    }
}
