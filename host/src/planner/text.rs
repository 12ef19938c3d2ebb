//! How the planner cuts words out of a goal, in one place: every reader of the words
//! (the router's pick, the picture check, colours, numbers, relative moves, leftovers)
//! sees the same words for the same text.
//!
//! - [`clause_words`]: words as written between spaces and punctuation that ends a
//!   phrase (`, ; : ! ?`), lower-cased; a word keeps its inner `.`, `-`, `#`, `=` and
//!   `x`, so "2.5", "-3", "#ff8800" and "1920x1080" stay whole, and loses a full stop
//!   that ends a sentence ("around Z." is "around z") and the brackets around it
//!   ("(4, -4, 6)" is three numbers).
//! - [`plain_words`]: letters and digits only (and the characters `keep` names),
//!   lower-cased: for matching words against word lists ("render", "collider").
//!
//! [`super::args::words`] keeps the case and trims a name's possessive ('s), for
//! reading names; it is not a second tokenizer of this kind.

/// The words of a clause, lower-cased, split at spaces and `, ; : ! ?`.
pub fn clause_words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || ",;:!?".contains(c))
        .map(|w| w.trim_matches(|c: char| "()[]".contains(c)).trim_end_matches('.').trim_matches(|c: char| "()[]".contains(c)))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The words of `text` made of letters, digits and `keep`, lower-cased.
pub fn plain_words(text: &str, keep: &[char]) -> Vec<String> {
    text.to_lowercase().split(|c: char| !(c.is_alphanumeric() || keep.contains(&c))).filter(|w| !w.is_empty()).map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clause_words_keep_numbers_sizes_and_colours_whole() {
        assert_eq!(clause_words("Move it up by 2.5, then -3; colour #FF8800 at 1920x1080!"), ["move", "it", "up", "by", "2.5", "then", "-3", "colour", "#ff8800", "at", "1920x1080"]);
        // Sentences end in a full stop that is no part of their last word.
        assert_eq!(clause_words("Rotate it 45 degrees around Z. Save to out.png."), ["rotate", "it", "45", "degrees", "around", "z", "save", "to", "out.png"]);
        assert_eq!(clause_words("move it to (4, -4, 6)."), ["move", "it", "to", "4", "-4", "6"]);
    }

    #[test]
    fn plain_words_are_letters_and_digits_unless_kept() {
        assert_eq!(plain_words("Render it: a PNG, please (it's #fff).", &[]), ["render", "it", "a", "png", "please", "it", "s", "fff"]);
        assert_eq!(plain_words("a #FFF cube", &['#']), ["a", "#fff", "cube"]);
    }
}
