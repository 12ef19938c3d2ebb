//! Neutralising control characters in text capstan did not write (what a pack logs,
//! what it prints), before it reaches a log line or a terminal.
//!
//! Security reasoning: a log line is trusted by whoever reads it. A pack that can put
//! `\n` or `\r` in its message can end capstan's line and forge the next one
//! (`WARN capstan: ...` of its own making), and an escape sequence (`ESC [ ...`) can
//! recolour, hide or rewrite what a terminal shows. So every control character
//! (Unicode category Cc: C0, DEL, C1), the line and paragraph separators (U+2028,
//! U+2029) and the bidirectional overrides and isolates (U+202A–U+202E,
//! U+2066–U+2069, which reorder what is displayed) are written as visible escapes:
//! `\n`, `\r`, `\t`, `\u{1b}`. The text keeps its meaning for a reader and loses the
//! power to act on the terminal or the log's structure.

use std::borrow::Cow;
use std::fmt::Write;

pub fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every control character written as a visible escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_escapes_and_reordering_become_visible() {
        assert_eq!(escape("plain text, ünïcode ok"), "plain text, ünïcode ok");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(escape("a\nWARN capstan: forged"), "a\\nWARN capstan: forged");
        assert_eq!(escape("over\rwrite"), "over\\rwrite");
        assert_eq!(escape("\u{1b}[31mred\u{1b}[0m"), "\\u{1b}[31mred\\u{1b}[0m");
        assert_eq!(escape("tab\there"), "tab\\there");
        assert_eq!(escape("nul\0del\u{7f}c1\u{9b}"), "nul\\u{0}del\\u{7f}c1\\u{9b}");
        assert_eq!(escape("x\u{2028}y\u{202e}z\u{2066}"), "x\\u{2028}y\\u{202e}z\\u{2066}");
        let escaped = escape("\u{1b}]0;title\u{7}\n\r\u{85}");
        assert!(!escaped.chars().any(needs_escape), "{escaped}");
    }
}
