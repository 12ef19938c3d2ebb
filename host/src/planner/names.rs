//! Names and texts in a goal's words: the name after "called" / "named" ("a sedan
//! called Vehicle A", "rename the cube to Box"), and what a text object says ("saying
//! hello", a quoted part). A name is the words' own, in their case; nothing is made up.

use super::args::{FILLERS, lower};
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
    let sentence = sentence_of_saying(text);
    let spans = word_spans(sentence);
    let original: Vec<&str> = spans.iter().map(|&(s, e)| &sentence[s..e]).collect();
    // "text saying hello": the verb, not the noun, introduces what it says.
    let at = SAYING.iter().find_map(|s| original.iter().position(|w| w.to_lowercase() == *s))?;
    let first = (at + 1..original.len()).find(|&i| !["that", "the", "word"].contains(&original[i].to_lowercase().as_str()))?;
    // Unquoted, the text ends where the words go on to place or size it ("saying HELLO
    // above the cube, half a metre tall"): at a place word before "the", "a" or "it", or
    // at a size word; "Made in Italy" and "ON SALE" stay whole.
    let ends = |i: usize| {
        let w = original[i].to_lowercase();
        let next = original.get(i + 1).map(|n| n.to_lowercase());
        let after = original.get(i + 2).map(|n| n.to_lowercase());
        let article = next.as_deref().is_some_and(|n| ["the", "a", "an", "it", "its", "this", "that"].contains(&n));
        // "in front of", "on top of", "next to": a place ("Pay at Front Desk" is not one).
        let phrase = matches!((next.as_deref(), after.as_deref()), (Some("front" | "top"), Some("of"))) || (w == "next" && next.as_deref() == Some("to"));
        SIZE_WORDS.contains(&w.as_str()) || PLACE_WORDS.contains(&w.as_str()) && (article || phrase)
    };
    let last = (first..original.len()).take_while(|&i| !ends(i)).last()?;
    // As written between its first and last word: "Hello, World" keeps its comma.
    let said = &sentence[spans[first].0..spans[last].1];
    // An aside the text ends in is not its text: "HELLO (in red) above the cube".
    let said = match (said.rfind('('), said.rfind(')')) {
        (Some(open), close) if close.is_none_or(|c| c < open) => said[..open].trim_end(),
        _ => said,
    };
    (!said.is_empty()).then(|| said.to_string())
}

/// The byte spans of [`words`]' words in `text` (the same words, where they stand).
fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let inside = |c: char| c.is_alphanumeric() || ".-_'#%".contains(c);
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices().map(|(i, c)| (i, Some(c))).chain(std::iter::once((text.len(), None))) {
        match (c.is_some_and(inside), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let raw = &text[s..i];
                let trimmed = raw.trim_start_matches(['.', '\'']);
                let from = s + raw.len() - trimmed.len();
                let trimmed = trimmed.trim_end_matches(['.', '\'']);
                let word = trimmed.strip_suffix("'s").unwrap_or(trimmed);
                if !word.is_empty() {
                    out.push((from, from + word.len()));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The text up to the end of the sentence that says what a text says ("3D text that
/// says SALE? Put it 2 metres up": the next sentence places it, it is not the text).
/// A sentence ends at `?`, `!` or `;`, or at a full stop before a space or the end
/// ("v2.0" stays whole); a comma does not end it ("saying Hello, World").
fn sentence_of_saying(text: &str) -> &str {
    // The word `said` reads from: the first of SAYING's words among the words (as
    // `word_spans` cuts them: "Text.001" is one word, not "text"), in SAYING's order.
    let spans = word_spans(text);
    let start = SAYING
        .iter()
        .find_map(|s| spans.iter().find(|&&(a, b)| text[a..b].eq_ignore_ascii_case(s)).map(|&(a, _)| a))
        .unwrap_or(0);
    let end = text[start..].char_indices().find(|&(i, c)| ends_sentence(text, start + i, c)).map_or(text.len(), |(i, _)| start + i);
    &text[..end]
}

/// Abbreviations a full stop follows inside a sentence ("No. 10", "approx. 2 m").
const ABBREVIATIONS: &[&str] = &["no", "nr", "mr", "mrs", "ms", "dr", "st", "vs", "etc", "approx", "inc", "ltd", "co", "ca", "fig", "vol", "dept"];

/// Does the character at `at` end a sentence? `?`, `!` and `;` do; a full stop does
/// before a capital or the end, unless it closes an abbreviation ("No. 10", "U.S. Army",
/// "9 a.m. to 5", "Mr. Smith") or a single letter.
fn ends_sentence(text: &str, at: usize, c: char) -> bool {
    match c {
        '?' | '!' | ';' => true,
        '.' => {
            let after = text[at + 1..].trim_start();
            let spaced = text[at + 1..].starts_with(char::is_whitespace) || after.is_empty();
            let word = text[..at].rsplit(char::is_whitespace).next().unwrap_or_default();
            let abbreviation = word.contains('.') || word.chars().count() <= 1 || ABBREVIATIONS.contains(&word.to_ascii_lowercase().as_str());
            spaced && (after.is_empty() || after.starts_with(char::is_uppercase)) && !abbreviation
        }
        _ => false,
    }
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
    fn word_spans_are_the_words_where_they_stand() {
        let text = "Add 'the cube's' text, v2.0 here. Done";
        let spans: Vec<&str> = word_spans(text).iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(spans, super::super::args::words(text));
    }

    #[test]
    fn unquoted_text_ends_where_the_words_place_or_size_it() {
        assert_eq!(said("Add 3D text saying HELLO above the cube, half a metre tall and extruded 5cm").as_deref(), Some("HELLO"));
        assert_eq!(said("Add text saying Made in Italy under the logo").as_deref(), Some("Made in Italy"));
        assert_eq!(said("a sign saying ON SALE").as_deref(), Some("ON SALE"));
        assert_eq!(said("text saying hello and welcome").as_deref(), Some("hello and welcome"));
        assert_eq!(said("add text that says 'Open at 9' on the wall").as_deref(), Some("Open at 9"));
        // The sentence ends the text; a comma or a version's dot does not.
        assert_eq!(said("Could you add some 3D text that says SALE? Put it roughly 2 metres up, above the cube.").as_deref(), Some("SALE"));
        assert_eq!(said("add text saying Hello, World").as_deref(), Some("Hello, World"));
        assert_eq!(said("a label reading v2.0 beta. Then render it").as_deref(), Some("v2.0 beta"));
        assert_eq!(said("Add a title. Text: WELCOME!").as_deref(), Some("WELCOME"));
        assert_eq!(said("Add some text. It says hello").as_deref(), Some("hello"));
        assert_eq!(said("create a 3D text saying SALE -50% in front of the cube, standing up, extruded 5cm").as_deref(), Some("SALE -50%"));
        assert_eq!(said("text saying WELCOME next to the door").as_deref(), Some("WELCOME"));
        // Names with a dot or a "text" inside are words; abbreviations end no sentence.
        assert_eq!(said("Delete Text.001. Then add 3D text: SALE").as_deref(), Some("SALE"));
        assert_eq!(said("a sign reading No. 10 Downing Street").as_deref(), Some("No. 10 Downing Street"));
        assert_eq!(said("a sign saying U.S. Army Base").as_deref(), Some("U.S. Army Base"));
        assert_eq!(said("a sign reading OPEN 9 a.m. to 5 p.m. daily").as_deref(), Some("OPEN 9 a.m. to 5 p.m. daily"));
        assert_eq!(said("a sign reading Pay at Front Desk").as_deref(), Some("Pay at Front Desk"));
        assert_eq!(said("Add text saying HELLO (in red) above the cube").as_deref(), Some("HELLO"));
    }
}
