//! Names and texts in a goal's words: the name after "called" / "named" ("a sedan
//! called Vehicle A", "rename the cube to Box"), and what a text object says ("saying
//! hello", a quoted part). A name is the words' own, in their case; nothing is made up.

use super::args::{FILLERS, lower, words};
use serde_json::Value;

/// The word(s) after "called" / "named" (and "to", for a rename), in their own case.
pub(super) fn new_name(text: &str, original: &[String], rename: bool) -> Option<String> {
    if let Some(name) = called(text) {
        return Some(name);
    }
    // "to X" only when the words ask for a rename ("rename the cube to Box", not "scale
    // the cube to 2"), and never "to the ...".
    let lw = lower(original);
    let asks_rename = rename && lw.iter().any(|w| w == "rename" || w == "renamed");
    let at = if asks_rename { lw.iter().position(|w| w == "to")? } else { return None };
    original
        .get(at + 1)
        .filter(|w| !FILLERS.contains(&w.to_lowercase().as_str()) && w.chars().all(|c| c.is_alphanumeric() || "_.-".contains(c)))
        .cloned()
}

/// Words that end a name after "called": "called A and B", "called Post on the floor".
const NAME_ENDS: &[&str] = &["and", "with", "that", "which", "at", "on", "in", "to", "onto", "into", "of", "for", "from", "then", "is", "above", "below", "under"];

/// The name after "called" / "named", in its own case: its first word, then the words
/// that go on with a capital or a digit ("Vehicle A", "Main Street", "Pedestrian 1"),
/// up to punctuation or a word like "and".
pub(crate) fn called(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let at = [" called ", " named "].iter().filter_map(|k| lower.find(k).map(|i| i + k.len())).min()?;
    let rest = &text[at..];
    // A quoted name is the whole quote ("called "Grand Opening"").
    if let Some(&(0, end)) = super::quotes::spans(rest).first() {
        let inner = rest[..end].trim_matches(|c| ['"', '\'', '“', '”'].contains(&c)).trim();
        return (!inner.is_empty() && inner.chars().all(|c| c.is_alphanumeric() || "_.- ".contains(c))).then(|| inner.to_string());
    }
    let clause = rest.split([',', ';', ':', '!', '?']).next().unwrap_or(rest);
    let mut out: Vec<&str> = Vec::new();
    for (i, raw) in clause.split_whitespace().enumerate() {
        let w = raw.trim_matches(|c: char| c == '"' || c == '\'' || c == '.');
        let stops = NAME_ENDS.contains(&w.to_lowercase().as_str());
        let goes_on = w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit());
        if w.is_empty() || stops || (i > 0 && !goes_on) || (i == 0 && FILLERS.contains(&w)) {
            break;
        }
        out.push(w);
        if raw.ends_with('.') {
            break;
        }
    }
    let name = out.join(" ");
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || "_.- ".contains(c))).then_some(name)
}

/// Words that place what a text is on or near ("above the cube"), after its words.
const PLACE_WORDS: &[&str] = &["above", "below", "under", "over", "on", "onto", "at", "in", "into", "next", "beside", "behind", "with", "then"];
/// Words that size a text, after its words ("half a metre tall", "extruded 5cm").
const SIZE_WORDS: &[&str] = &["half", "extruded", "sized"];

/// Words that introduce what a text says.
const SAYING: &[&str] = &["saying", "says", "reading", "reads", "text"];

/// What a text should say: a quoted part of the words ("'Hello world'"), else the
/// words after "saying" / "that says" / "reading" up to the end of the clause.
pub(super) fn said(text: &str) -> Option<String> {
    for q in ['"', '\'', '“'] {
        let close = if q == '“' { '”' } else { q };
        if let Some(start) = text.find(q)
            && let Some(len) = text[start + q.len_utf8()..].find(close)
        {
            let inner = &text[start + q.len_utf8()..start + q.len_utf8() + len];
            // An apostrophe inside a word ("cube's") is not a quote.
            if !inner.trim().is_empty() && (q != '\'' || text[..start].ends_with(' ') || start == 0) {
                return Some(inner.to_string());
            }
        }
    }
    let original = words(text);
    // "text saying hello": the verb, not the noun, introduces what it says.
    let at = SAYING.iter().find_map(|s| original.iter().position(|w| w.to_lowercase() == *s))?;
    let rest: Vec<&String> = original[at + 1..]
        .iter()
        .skip_while(|w| ["that", "the", "word"].contains(&w.to_lowercase().as_str()))
        .collect();
    // Unquoted, the text ends where the words go on to place or size it ("saying HELLO
    // above the cube, half a metre tall"): at a place word before "the", "a" or "it", or
    // at a size word; "Made in Italy" and "ON SALE" stay whole.
    let ends = |i: usize| {
        let w = rest[i].to_lowercase();
        let next = rest.get(i + 1).map(|n| n.to_lowercase());
        SIZE_WORDS.contains(&w.as_str()) || PLACE_WORDS.contains(&w.as_str()) && next.is_some_and(|n| ["the", "a", "an", "it", "its", "this", "that"].contains(&n.as_str()))
    };
    let rest: Vec<&String> = rest.iter().enumerate().take_while(|(i, _)| !ends(*i)).map(|(_, w)| *w).collect();
    (!rest.is_empty()).then(|| rest.iter().map(|w| w.as_str()).collect::<Vec<_>>().join(" "))
}

pub(super) fn is_new_name(key: &str, prop: &Value) -> bool {
    key == "new_name" || (key == "name" && prop.get("description").and_then(Value::as_str).is_some_and(|d| d.to_lowercase().contains("new")))
}

/// A `name` that is not described as naming an existing object, in words that say
/// "called X": the name of what the step makes ("a sedan called Vehicle A").
pub(super) fn names_what_it_makes(key: &str, prop: &Value, text: &str) -> bool {
    let description = prop.get("description").and_then(Value::as_str).unwrap_or_default().to_lowercase();
    key == "name" && !["exact", "existing", "to change", "to act on"].iter().any(|w| description.contains(w)) && called(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_text_ends_where_the_words_place_or_size_it() {
        assert_eq!(said("Add 3D text saying HELLO above the cube, half a metre tall and extruded 5cm").as_deref(), Some("HELLO"));
        assert_eq!(said("Add text saying Made in Italy under the logo").as_deref(), Some("Made in Italy"));
        assert_eq!(said("a sign saying ON SALE").as_deref(), Some("ON SALE"));
        assert_eq!(said("text saying hello and welcome").as_deref(), Some("hello and welcome"));
        assert_eq!(said("add text that says 'Open at 9' on the wall").as_deref(), Some("Open at 9"));
    }
}
