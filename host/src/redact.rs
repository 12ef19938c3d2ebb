//! The redactor: secrets (bridge tokens) registered here never appear in logs, error
//! messages or MCP output.
//!
//! Security reasoning: a token is registered *before* anything is built from it (the
//! Authorization header), so there is no window in which it could be logged unredacted.
//! The log writer redacts every line; printers of errors and MCP results call
//! [`redact`] on their text. Secrets shorter than 8 characters are not registered
//! (they would redact ordinary words) and no token capstan accepts is that short.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::{LazyLock, RwLock};

const MIN_SECRET_LEN: usize = 8;
const MAX_SECRETS: usize = 64;
pub const MASK: &str = "[redacted]";

static SECRETS: LazyLock<RwLock<Vec<String>>> = LazyLock::new(|| RwLock::new(Vec::new()));

/// A value that must never be printed. `Debug` shows only the mask; there is no `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Register the value with the redactor and wrap it.
    pub fn new(value: String) -> Self {
        register(&value);
        Secret(value)
    }
    /// The raw value, for the one place that must send it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(MASK)
    }
}

pub fn register(secret: &str) {
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    // Registered already (every call of a running bridge registers its token again):
    // a shared lock is enough to see it.
    if SECRETS.read().unwrap_or_else(|p| p.into_inner()).iter().any(|s| s == secret) {
        return;
    }
    let mut secrets = SECRETS.write().unwrap_or_else(|p| p.into_inner());
    if !secrets.iter().any(|s| s == secret) {
        if secrets.len() >= MAX_SECRETS {
            secrets.remove(0);
        }
        secrets.push(secret.to_string());
    }
}

/// `text` with every registered secret replaced by the mask.
pub fn redact(text: &str) -> Cow<'_, str> {
    let secrets = SECRETS.read().unwrap_or_else(|p| p.into_inner());
    if !secrets.iter().any(|s| text.contains(s.as_str())) {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for s in secrets.iter() {
        out = out.replace(s.as_str(), MASK);
    }
    Cow::Owned(out)
}

/// `value` with every registered secret replaced by the mask in its strings and keys:
/// for documents that leave as JSON (an MCP answer's `structuredContent`), where
/// redacting only their text rendering would let the structured copy carry the secret.
pub fn redact_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    let secrets = SECRETS.read().unwrap_or_else(|p| p.into_inner());
    if secrets.is_empty() {
        return;
    }
    let hit = |text: &str| secrets.iter().any(|s| text.contains(s.as_str()));
    let mask = |text: &str| secrets.iter().fold(text.to_string(), |out, s| out.replace(s.as_str(), MASK));
    fn walk(v: &mut Value, hit: &dyn Fn(&str) -> bool, mask: &dyn Fn(&str) -> String) {
        match v {
            Value::String(text) if hit(text) => *text = mask(text),
            Value::Array(items) => items.iter_mut().for_each(|i| walk(i, hit, mask)),
            Value::Object(map) => {
                if map.keys().any(|k| hit(k)) {
                    let entries = std::mem::take(map);
                    map.extend(entries.into_iter().map(|(k, v)| (if hit(&k) { mask(&k) } else { k }, v)));
                }
                map.values_mut().for_each(|i| walk(i, hit, mask));
            }
            _ => {}
        }
    }
    walk(value, &hit, &mask);
}

/// The text of `doc` (compact JSON) with every registered secret masked, and `doc`
/// itself masked as by [`redact_json`]; the flag says whether `doc` was walked (it
/// may have held a secret). An answer that leaves as text and as JSON goes through
/// here.
///
/// The clean case costs one serialization and one scan of its text, no walk: the
/// serializer copies every character of a string or key except `"`, `\` and control
/// characters, which it escapes, so a secret made of none of them that sits in a
/// string or key also sits, whole, in the text, and text with no secret in it means a
/// document with none. A secret holding one of those characters gets the walk always.
pub fn redact_document(doc: &mut serde_json::Value) -> (String, bool) {
    // Straight into a byte buffer (`Value`'s `Display` goes through a formatter per piece).
    let text = serde_json::to_string(doc).expect("a JSON value always serialises");
    let clean = {
        let secrets = SECRETS.read().unwrap_or_else(|p| p.into_inner());
        let escaped = |s: &String| s.chars().any(|c| c == '"' || c == '\\' || c < ' ');
        !secrets.iter().any(|s| escaped(s) || text.contains(s.as_str()))
    };
    if clean {
        return (text, false);
    }
    redact_json(doc);
    (redact(&doc.to_string()).into_owned(), true)
}

/// stderr, redacted: the log's only writer.
pub struct RedactingStderr;

impl Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        io::stderr().lock().write_all(redact(&text).as_bytes())?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_secrets_are_masked_everywhere() {
        let s = Secret::new("tok-ABCDEFGH-123456".into());
        assert_eq!(format!("{s:?}"), MASK);
        assert_eq!(redact("Bearer tok-ABCDEFGH-123456 and again tok-ABCDEFGH-123456"), "Bearer [redacted] and again [redacted]");
        assert!(matches!(redact("nothing secret"), Cow::Borrowed(_)));
    }

    #[test]
    fn documents_are_masked_in_strings_and_keys() {
        register("tok-JSONDOC-7777777");
        let mut doc = serde_json::json!({ "a": ["x tok-JSONDOC-7777777 y", 3], "tok-JSONDOC-7777777": { "b": "tok-JSONDOC-7777777" }, "c": "clean" });
        redact_json(&mut doc);
        assert_eq!(doc, serde_json::json!({ "a": ["x [redacted] y", 3], "[redacted]": { "b": "[redacted]" }, "c": "clean" }));
    }

    #[test]
    fn a_document_is_walked_only_when_its_text_holds_a_secret() {
        register("tok-WALKED-31415926");
        let mut clean = serde_json::json!({ "a": ["plain", 1], "b": { "c": "words" } });
        let (text, walked) = redact_document(&mut clean);
        assert!(!walked);
        assert_eq!(text, clean.to_string());
        let mut dirty = serde_json::json!({ "a": ["x tok-WALKED-31415926"], "tok-WALKED-31415926": 1 });
        let (text, walked) = redact_document(&mut dirty);
        assert!(walked);
        assert_eq!(dirty, serde_json::json!({ "a": ["x [redacted]"], "[redacted]": 1 }));
        assert_eq!(text, dirty.to_string());
    }

    #[test]
    fn a_secret_the_serializer_escapes_is_still_masked_in_the_document() {
        register("tok-QUOTE\"-2718281");
        let mut doc = serde_json::json!({ "a": "x tok-QUOTE\"-2718281 y" });
        let (text, walked) = redact_document(&mut doc);
        assert!(walked);
        assert_eq!(doc, serde_json::json!({ "a": "x [redacted] y" }));
        assert!(!text.contains("tok-QUOTE"), "{text}");
    }

    #[test]
    fn a_tool_answer_carries_no_secret_in_either_copy() {
        register("tok-ANSWER-55555555");
        for r in [crate::mcp::results::ok_result(serde_json::json!({ "echo": "tok-ANSWER-55555555" })), crate::mcp::results::error_result(serde_json::json!({ "message": "tok-ANSWER-55555555" }))] {
            let wire = serde_json::to_string(&r).unwrap();
            assert!(!wire.contains("tok-ANSWER-55555555") && wire.contains(MASK), "{wire}");
        }
    }

    #[test]
    fn short_values_are_not_registered() {
        register("abc");
        assert_eq!(redact("abc"), "abc");
    }
}
