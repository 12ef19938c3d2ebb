//! Text normalisation shared by the router and search: lowercase words, a light
//! plural/verb-ending trim, and no stop words. Deterministic and allocation-light.

const STOP: &[&str] = &[
    "a", "an", "the", "it", "its", "this", "that", "to", "of", "in", "on", "at", "for", "with", "and", "or", "my", "me",
    "please", "some", "is", "are", "be", "can", "you", "i", "we", "our", "up", "so", "all", "do", "does", "s",
    // Verbs too generic to tell capabilities apart.
    "make", "get", "set", "use", "give", "put", "want", "feel", "somehow", "more", "thing", "could", "would", "should",
    // Question words say that the goal asks (the intent reads them, `intent`), not what
    // about: "how tall is the cube" is about a size, not about capabilities whose
    // examples happen to start with "how".
    "how", "what", "where", "which", "when", "why", "who", "there", "hows", "whats", "wheres", "whos", "theres",
];

/// What a question's words ask about, as the catalog names it: "where is the lamp" asks
/// for a location, "how far apart" for a distance, "how tall" for a size. The question
/// words themselves are stop words; these terms stand for them in a search.
pub fn asked_terms(text: &str) -> Vec<&'static str> {
    let lower = text.to_lowercase();
    let plain: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    if plain.contains(&"where") {
        out.push("location");
    }
    for pair in plain.windows(2).filter(|p| p[0] == "how") {
        match pair[1] {
            "far" | "close" => out.push("distance"),
            "big" | "tall" | "high" | "wide" | "long" | "large" | "thick" | "deep" | "small" => out.push("size"),
            _ => {}
        }
    }
    out
}

/// Whether `word` (lowercase) is a stop word: too common to tell capabilities apart.
pub fn is_stop_word(word: &str) -> bool {
    STOP.contains(&word)
}

/// The lowercase words of `text` (letters and digits; apostrophes dropped).
pub fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace(['\u{2019}', '\''], "")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

/// A word reduced to a comparable stem (`lights` -> `light`, `rendering` -> `render`).
pub fn stem(word: &str) -> String {
    let w = word;
    for suffix in ["ing", "ed", "es", "s"] {
        if let Some(base) = w.strip_suffix(suffix)
            && base.len() >= 3 && !w.ends_with("ss") {
                return base.to_string();
            }
    }
    w.to_string()
}

/// Stems of the content words of `text`.
pub fn terms(text: &str) -> Vec<String> {
    words(text).into_iter().filter(|w| !STOP.contains(&w.as_str())).map(|w| stem(&w)).collect()
}

/// `text` as space-separated words with a space at both ends, for phrase matching.
pub fn padded(text: &str) -> String {
    format!(" {} ", words(text).join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_drop_stop_words_and_stem() {
        assert_eq!(terms("What's in the scene?"), vec!["scene"], "the question word is the intent's");
        assert_eq!(terms("three point lights"), vec!["three", "point", "light"]);
        assert_eq!(terms("Rendering PNGs"), vec!["render", "png"]);
        assert_eq!(stem("glass"), "glass");
    }

    #[test]
    fn question_words_stand_for_what_they_ask() {
        assert_eq!(asked_terms("Where's the camera?"), ["location"]);
        assert_eq!(asked_terms("How far apart are the ball and the cube?"), ["distance"]);
        assert_eq!(asked_terms("how tall is it"), ["size"]);
        assert!(asked_terms("make it tall").is_empty());
    }
}
