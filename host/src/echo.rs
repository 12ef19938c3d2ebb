//! A caller's value shown back in an error: a bounded prefix and its size, never the
//! whole value.
//!
//! Security reasoning: an error that quotes what it refused lets one request of a few
//! megabytes come back as an answer as large (larger, once escaped), and makes every
//! layer that logs or forwards the answer carry it too. So an error that names a
//! caller's value shows at most [`MAX_ECHOED_CHARS`] of it, followed by `… (N bytes)`;
//! the rule that refused it (the bound, the schema keyword) is written beside the
//! preview, never inside it, so cutting the value never cuts the reason. Schema errors
//! go through [`schema_error`], which masks the instance with its preview. As a last
//! layer, [`cap_strings`] cuts every string of an error body to
//! [`MAX_ERROR_TEXT_CHARS`]: a message that quotes a value some other way is still
//! bounded, even where no site was taught to preview it.

use serde_json::Value;
use std::borrow::Cow;

pub use crate::limits::tool_inputs::{MAX_ECHOED_CHARS, MAX_ERROR_TEXT_CHARS};

/// `text` if it is at most `max` characters; otherwise its first `max` characters,
/// then `… (N bytes)` with the whole length.
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}… ({} bytes)", &text[..end], text.len())),
    }
}

/// [`cut`] to [`MAX_ECHOED_CHARS`]: how a caller's text is quoted in an error.
pub fn preview(text: &str) -> Cow<'_, str> {
    cut(text, MAX_ECHOED_CHARS)
}

/// A JSON value as compact JSON, cut like [`preview`]. Only the first bytes are kept
/// while it is serialised (the rest is counted), so a value of megabytes costs no
/// copy of itself.
pub fn json_preview(value: &Value) -> String {
    struct Prefix {
        kept: Vec<u8>,
        total: usize,
    }
    impl std::io::Write for Prefix {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            // Four bytes a character at most: enough bytes for MAX_ECHOED_CHARS characters.
            let room = (MAX_ECHOED_CHARS * 4 + 4).saturating_sub(self.kept.len());
            self.kept.extend_from_slice(&buf[..buf.len().min(room)]);
            self.total += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Prefix { kept: Vec::new(), total: 0 };
    if serde_json::to_writer(&mut out, value).is_err() {
        return "(a value that does not serialise)".into();
    }
    let kept = String::from_utf8_lossy(&out.kept);
    match kept.char_indices().nth(MAX_ECHOED_CHARS) {
        Some((end, _)) => format!("{}… ({} bytes)", &kept[..end], out.total),
        None if out.total > out.kept.len() => format!("{kept}… ({} bytes)", out.total),
        None => kept.into_owned(),
    }
}

/// One JSON Schema error as `path: message`, the failing value shown as its preview
/// (the keyword and its bound are jsonschema's own words, whole).
pub fn schema_error(e: &jsonschema::ValidationError<'_>) -> String {
    let message = e.masked_with(json_preview(e.instance())).to_string();
    // An `additionalProperties` error lists the caller's property names itself.
    let message = cut(&message, MAX_ECHOED_CHARS * 2 + 200);
    let at = e.instance_path().to_string();
    if at.is_empty() { message.into_owned() } else { format!("{}: {message}", preview(&at)) }
}

/// Cut every string in `value` (keys included) to `max` characters, in place.
pub fn cap_strings(value: &mut Value, max: usize) {
    match value {
        Value::String(s) => {
            if let Cow::Owned(short) = cut(s, max) {
                *s = short;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| cap_strings(v, max)),
        Value::Object(map) => {
            if map.keys().any(|k| k.chars().nth(max).is_some()) {
                let entries = std::mem::take(map);
                *map = entries.into_iter().map(|(k, v)| (cut(&k, max).into_owned(), v)).collect();
            }
            map.values_mut().for_each(|v| cap_strings(v, max));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_text_is_kept_and_long_text_is_a_prefix_with_its_size() {
        assert_eq!(preview("cube"), "cube");
        let long = "é".repeat(1_000_000);
        let shown = preview(&long);
        assert!(shown.starts_with(&"é".repeat(MAX_ECHOED_CHARS)), "{shown}");
        assert!(shown.ends_with("… (2000000 bytes)"), "{shown}");
        assert_eq!(shown.chars().count(), MAX_ECHOED_CHARS + "… (2000000 bytes)".chars().count());
    }

    #[test]
    fn a_json_value_is_previewed_without_copying_it_whole() {
        assert_eq!(json_preview(&json!({ "a": 1 })), r#"{"a":1}"#);
        let big = json!({ "goal": "x".repeat(4 * 1024 * 1024) });
        let shown = json_preview(&big);
        assert!(shown.len() < MAX_ECHOED_CHARS + 40, "{} bytes", shown.len());
        assert!(shown.starts_with(r#"{"goal":"xxx"#) && shown.ends_with(&format!("… ({} bytes)", big.to_string().len())), "{shown}");
    }

    #[test]
    fn a_schema_error_names_the_bound_and_quotes_only_a_prefix() {
        let schema = json!({ "type": "object", "properties": { "goal": { "type": "string", "maxLength": 2000 } }, "additionalProperties": false });
        let validator = jsonschema::validator_for(&schema).unwrap();
        let value = json!({ "goal": "y".repeat(1024 * 1024), "z".repeat(100_000): 1 });
        let errors: Vec<String> = validator.iter_errors(&value).map(|e| schema_error(&e)).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        let long = errors.iter().find(|e| e.contains("longer than")).unwrap();
        assert!(long.starts_with("/goal: \"yyy") && long.ends_with("is longer than 2000 characters"), "{long}");
        assert!(long.contains("(1048578 bytes)"), "{long}");
        assert!(errors.iter().all(|e| e.len() < 1200), "{errors:?}");
    }

    #[test]
    fn every_string_of_a_body_is_capped_keys_included() {
        let mut body = json!({ "message": "m".repeat(10_000), "errors": ["e".repeat(10_000), "ok"], "k".repeat(10_000): "v" });
        cap_strings(&mut body, 100);
        assert!(body.to_string().len() < 1000, "{body}");
        assert_eq!(body["errors"][1], "ok");
        assert!(body["message"].as_str().unwrap().ends_with("… (10000 bytes)"));
    }
}
