//! Whether a goal asks for a picture: a plan renders only then ([`super::plan`]), and
//! the eval's promise "no picture unasked" is checked by the same reading.
//!
//! A picture word counts whole ("image", "render", "png", "product shot"), unless the
//! next word makes it about something else ("image plane", "render settings") or the
//! words before make it a purpose ("for a product shot", "set it up to render").

/// Words (whole) and phrases that ask for a picture. "image" counts unless it names an
/// image plane or texture; "still" is left out ("keep it still").
const RENDER_WORDS: &[&str] = &["render", "rendered", "rendering", "image", "picture", "photo", "photograph", "packshot", "preview", "screenshot", "thumbnail", "png", "jpg", "jpeg"];
const RENDER_PHRASES: &[&str] = &["product shot", "hero shot", "beauty shot"];

/// Whether the goal asks for a picture: whether one of its sentences does (a purpose
/// is read within its sentence: "Thanks for that. Render it." asks).
pub fn wants_render(goal: &str) -> bool {
    sentences(goal).any(sentence_asks)
}

/// The goal cut after `.`, `!`, `?` or `;` before a space or the end ("out.png" and
/// "1.5" stay whole).
fn sentences(goal: &str) -> impl Iterator<Item = &str> {
    let bytes = goal.as_bytes();
    let mut start = 0;
    let mut cuts: Vec<&str> = Vec::new();
    for (i, c) in goal.char_indices() {
        if matches!(c, '.' | '!' | '?' | ';') && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()) {
            cuts.push(&goal[start..=i]);
            start = i + 1;
        }
    }
    cuts.push(&goal[start..]);
    cuts.into_iter().filter(|s| !s.trim().is_empty())
}

fn sentence_asks(goal: &str) -> bool {
    let words = super::text::plain_words(goal, &[]);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let goal = goal.to_lowercase();
    // "image plane", "render settings", "render engine": words about something else.
    let about_else = |w: &str, next: Option<&&str>| match w {
        // "image plane", "image texture", "every image file this scene uses": the files, not a picture.
        "image" => next.is_some_and(|n| ["plane", "planes", "texture", "textures", "file", "files", "path", "paths", "node", "nodes", "format"].contains(n)),
        "render" => next.is_some_and(|n| ["settings", "setting", "engine", "samples", "passes", "pass", "config", "configuration", "quality", "resolution", "output", "layers"].contains(n)),
        _ => false,
    };
    let word_asks = words.iter().enumerate().any(|(i, w)| RENDER_WORDS.contains(w) && !about_else(w, words.get(i + 1)) && !purpose(&words[..i]));
    let phrase_asks = RENDER_PHRASES.iter().any(|p| {
        goal.match_indices(p).any(|(at, _)| !purpose(&super::text::plain_words(&goal[..at], &[]).iter().map(String::as_str).collect::<Vec<_>>()))
    });
    word_asks || phrase_asks
}

/// Whether a picture word after `before` names what something is for, not a picture
/// asked for now: "a backdrop for a (clean) product shot", "ready for rendering", "set it
/// up to render in Cycles", "get it ready to render". Only these two shapes: "save the
/// scene to a PNG", "I'd like you to render it", "use Cycles to render the scene" ask.
fn purpose(before: &[&str]) -> bool {
    /// Words between "for" and a picture word's own word: "for a clean product shot".
    const ARTICLES: &[&str] = &["a", "an", "the", "my", "our", "some", "final"];
    /// Setting up, not picturing: the word before "to render".
    const SETTING_UP: &[&str] = &["up", "ready", "prepared", "set", "configured"];
    let back = |k: usize| before.len().checked_sub(k).map(|i| before[i]);
    match back(1) {
        Some("to") => back(2).is_some_and(|w| SETTING_UP.contains(&w)),
        // "for <picture>", "for [a|the|one word] <picture>", "for a|the <word> <picture>".
        _ => back(1) == Some("for") || back(2) == Some("for") || (back(3) == Some("for") && back(2).is_some_and(|w| ARTICLES.contains(&w))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picture_words_ask_unless_they_name_something_else_or_a_purpose() {
        assert!(!wants_render("check the render settings") && !wants_render("which render engine is set?") && wants_render("render the cube"));
        assert!(!wants_render("list every image file this scene is using") && wants_render("save an image of the scene"));
        assert!(!wants_render("add an image plane of the logo") && !wants_render("keep it still") && !wants_render("make it photoreal"));
        assert!(wants_render("an image of the bottle") && wants_render("a product shot") && wants_render("Render it"));
        // A picture word that names a purpose asks for no picture now.
        assert!(!wants_render("set it up to render in cycles at 1280x720, 64 samples"));
        assert!(!wants_render("Set up a seamless studio backdrop (the curved sweep kind) under the cube for a product shot."));
        assert!(!wants_render("get the scene ready for rendering"));
        assert!(wants_render("I want to render the cube") && wants_render("I'd like to render it at 640x480") && wants_render("a product shot of the bottle, for the client"));
        for asks in ["Save the scene to a PNG", "I'd like you to render the scene", "I need you to render it", "Make sure to render it at 1920x1080", "Use Cycles to render the scene", "I'm trying to render the cube", "I wanted to render it"] {
            assert!(wants_render(asks), "{asks}");
        }
        assert!(!wants_render("a backdrop for a clean product shot") && !wants_render("ready for final rendering") && !wants_render("get it ready to render"));
        assert!(wants_render("a product shot for the catalogue") && wants_render("add a backdrop, then render a product shot"));
        // A purpose is read within its sentence.
        assert!(wants_render("Thanks for that. Render it.") && wants_render("Good for now; render a preview"));
        assert!(!wants_render("Make a backdrop for a product shot. Thanks."));
    }
}
