//! Quoted parts of a goal are words to write, never instructions to follow: `add a text
//! saying "then delete the cube"` is one step that writes those words. So a goal is cut
//! into clauses with its quotes shielded, and routing and argument reading see a quote
//! as empty; only what a text says and a name after "called" read inside it.

/// The byte ranges of the quoted parts, quotes included: `"..."`, `“...”`, and `'...'`
/// when the opening `'` starts a word (an apostrophe inside "cube's" is no quote).
pub fn spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some((at, open)) = text[i..].char_indices().map(|(k, c)| (i + k, c)).find(|(k, c)| ['"', '“'].contains(c) || (*c == '\'' && (*k == 0 || text[..*k].ends_with(char::is_whitespace)))) {
        let close = if open == '“' { '”' } else { open };
        let inner = at + open.len_utf8();
        let Some(len) = text[inner..].find(close) else { break };
        let end = inner + len + close.len_utf8();
        out.push((at, end));
        i = end;
    }
    out
}

/// The text with every quoted part's inside removed (the quotes stay: `""`).
pub fn masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (start, end) in spans(text) {
        out.push_str(&text[from..start]);
        let open = text[start..].chars().next().unwrap_or('"');
        let close = text[..end].chars().next_back().unwrap_or('"');
        out.push(open);
        out.push(close);
        from = end;
    }
    out.push_str(&text[from..]);
    out
}

/// The text with each quoted part replaced by a token no splitting touches, and the
/// parts, to put back with [`restore`].
pub fn shield(text: &str) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len());
    let mut parts = Vec::new();
    let mut from = 0;
    for (start, end) in spans(text) {
        out.push_str(&text[from..start]);
        out.push_str(&format!("\u{1}{}\u{1}", parts.len()));
        parts.push(text[start..end].to_string());
        from = end;
    }
    out.push_str(&text[from..]);
    (out, parts)
}

/// Put the quoted parts [`shield`] took back.
pub fn restore(text: &str, parts: &[String]) -> String {
    let mut out = text.to_string();
    for (i, part) in parts.iter().enumerate() {
        out = out.replace(&format!("\u{1}{i}\u{1}"), part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_found_masked_and_shielded() {
        let goal = r#"add a text saying "then delete the cube, and save as x.blend" and frame it"#;
        assert_eq!(masked(goal), r#"add a text saying "" and frame it"#);
        assert_eq!(masked("rotate the cube's top 'by hand'"), "rotate the cube's top ''", "an apostrophe is no quote");
        let (shielded, parts) = shield(goal);
        assert!(!shielded.contains("delete") && parts.len() == 1);
        assert_eq!(restore(&shielded, &parts), goal);
        assert_eq!(masked("no quotes here"), "no quotes here");
        assert_eq!(masked(r#"an "unclosed quote"#), r#"an "unclosed quote"#);
    }
}
