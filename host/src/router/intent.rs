//! Intent before family (DESIGN §8): is the goal only asking, and does it name a
//! destruction?
//!
//! Safety reasoning: a question routed to a mutating capability is the worst routing
//! error an agent can act on ("select the objects that use Red" became an assignment;
//! "fix the names of the data-blocks" became a purge). So the router first reads what
//! kind of request the goal is, from its clauses:
//! - a goal whose every instruction is a question or a check ([`Intent::Read`]) is
//!   served by read-only capabilities only;
//! - a goal that mixes a question with an instruction is routed as an instruction;
//! - a destructive capability comes first only when the goal names the destruction
//!   ([`names_destruction`]), so "tidy the file" never starts with a purge.
//!
//! The reading is lexical and deterministic: clauses split at sentence marks, `;`,
//! "then", and at "and" before an instruction verb; a clause asks when, after a polite
//! lead-in ("could you", "please"), it opens with a question or checking word.

use super::text::words;

/// What the goal asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// Every instruction is a question or a check: only read-only capabilities.
    Read,
    /// At least one instruction changes something (or nothing says it only asks).
    Change,
}

/// Words that open a question or a check.
const ASKING: &[&str] = &[
    "what", "whats", "which", "how", "where", "why", "who", "whose", "whether", "list", "find", "check", "verify", "compare",
    "measure", "count", "tell", "describe", "inspect", "report", "confirm", "test", "identify", "locate", "see", "look",
    "search", "print", "read", "query", "examine", "analyse", "analyze", "audit", "review", "explain", "summarise", "summarize",
    "is", "are", "was", "were", "does", "did", "has", "have", "isnt", "arent", "doesnt", "hasnt", "any",
];

/// Polite or filler lead-ins stripped before the first word is read.
const LEAD_INS: &[&str] = &[
    "please", "kindly", "could", "can", "would", "will", "you", "hey", "hi", "ok", "okay", "so", "now", "then", "also", "and",
    "just", "quickly", "first", "next", "finally", "lets", "let", "us", "go", "ahead", "i", "id", "like", "want", "need",
    "to", "mind", "be", "able", "help", "me", "maybe", "perhaps",
];

/// Instruction verbs: a clause that opens with one (after its lead-in) changes something.
const CHANGING: &[&str] = &[
    "add", "create", "make", "build", "generate", "insert", "place", "put", "delete", "remove", "move", "rotate", "scale",
    "set", "change", "apply", "paint", "color", "colour", "rename", "hide", "unhide", "join", "merge", "separate", "split",
    "duplicate", "copy", "key", "keyframe", "animate", "bake", "subdivide", "bevel", "extrude", "smooth", "lift", "raise",
    "lower", "drop", "turn", "enable", "disable", "switch", "assign", "give", "import", "open", "save", "export", "clear",
    "purge", "fix", "replace", "resize", "shrink", "enlarge", "align", "center", "centre", "snap", "parent", "attach",
    "link", "unlink", "mirror", "flip", "select", "pick", "light", "render", "frame", "aim", "point", "stack", "arrange",
    "spread", "scatter", "space", "shade", "texture", "unwrap", "rig", "pose", "simulate", "drape", "cut", "slice",
    "remesh", "decimate", "triangulate", "fill", "bridge", "weld", "convert", "tilt", "spin", "orbit", "zoom", "double",
    "halve", "stretch", "flatten", "reset", "undo", "redo", "mark", "annotate", "label", "write", "increase", "decrease",
    "reduce", "boost", "brighten", "darken", "dim", "use", "swap", "name", "group", "collect", "sort", "tidy",
    "clean", "organize", "organise", "erase", "wipe", "discard", "destroy", "kill", "get", "bring", "send", "push", "pull",
    "offset", "nudge", "shift", "slide", "grow", "do", "run", "start", "stop", "play", "record", "track", "follow", "constrain",
];

/// The words of a destruction (the list: delete, remove, purge, clear, apply,
/// join, boolean, remesh, merge, separate, convert, open a file; and their plain synonyms).
const DESTROYING: &[&str] = &[
    "delete", "remove", "purge", "clear", "apply", "join", "boolean", "remesh", "merge", "separate", "convert", "open",
    "erase", "wipe", "discard", "destroy", "kill", "decimate", "replace", "reset", "unlink", "cleanup", "clean",
];

/// Whether the goal names a destruction ("delete", "get rid of", "clean up", ...).
pub fn names_destruction(goal: &str) -> bool {
    let w = words(goal);
    w.iter().any(|x| DESTROYING.contains(&x.as_str()) || x.strip_suffix('d').or(x.strip_suffix("ed")).is_some_and(|b| DESTROYING.contains(&b)))
        || w.windows(3).any(|t| t[0] == "get" && t[1] == "rid" && t[2] == "of")
        || w.windows(2).any(|t| t[0] == "throw" && t[1] == "away")
}

/// What "give me ..." asks for when it asks for information, not a new thing.
const INFORMATION: &[&str] = &[
    "list", "summary", "overview", "count", "report", "screenshot", "bounds", "dimensions", "size", "sizes", "names",
    "distance", "distances", "info", "information", "details", "stats", "statistics", "number", "numbers", "breakdown",
];

/// Phrases that say the goal must change nothing ("just check, don't move anything").
const NO_CHANGE: &[&str] = &[
    "just check", "only check", "just tell", "only tell", "just look", "dont change", "don't change", "dont move", "don't move",
    "dont modify", "don't modify", "dont touch", "don't touch", "dont delete", "don't delete", "without changing",
    "without modifying", "read only", "read-only", "change nothing", "nothing else",
];

/// What kind of request `goal` is.
pub fn of(goal: &str) -> Intent {
    let lower = goal.to_lowercase().replace('\u{2019}', "'");
    if NO_CHANGE.iter().any(|p| lower.contains(p)) {
        return Intent::Read;
    }
    let mut asks = false;
    for clause in clauses(goal) {
        match kind(&clause) {
            Clause::Asks => asks = true,
            Clause::Changes => return Intent::Change,
            Clause::Neither => {}
        }
    }
    if asks { Intent::Read } else { Intent::Change }
}

#[derive(Debug, PartialEq, Eq)]
enum Clause {
    Asks,
    Changes,
    Neither,
}

/// The goal's clauses, each as (its words, whether it ended with `?`).
fn clauses(goal: &str) -> Vec<(Vec<String>, bool)> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in goal.chars() {
        if matches!(c, '.' | '?' | '!' | ';' | '\n' | ':') {
            out.push((words(&current), c == '?'));
            current.clear();
        } else {
            current.push(c);
        }
    }
    out.push((words(&current), false));
    // Split further at "then" and at "and"/"but"/"," before an instruction verb.
    let mut split = Vec::new();
    for (ws, asked) in out {
        let mut part: Vec<String> = Vec::new();
        for (i, w) in ws.iter().enumerate() {
            let next_changes = ws.get(i + 1).is_some_and(|n| CHANGING.contains(&n.as_str()));
            if w == "then" || ((w == "and" || w == "but" || w == "also") && next_changes) {
                if !part.is_empty() {
                    split.push((std::mem::take(&mut part), false));
                }
                continue;
            }
            part.push(w.clone());
        }
        if !part.is_empty() {
            split.push((part, asked));
        }
    }
    split
}

fn kind((ws, asked): &(Vec<String>, bool)) -> Clause {
    let led_in = ws.iter().take_while(|w| LEAD_INS.contains(&w.as_str())).count();
    let rest = &ws[led_in..];
    let Some(first) = rest.first().map(String::as_str) else { return Clause::Neither };
    // "show me", "show the modifiers": asking; "show the hidden lamp": changing (unhide).
    if first == "show" {
        let unhides = rest.iter().any(|w| matches!(w.as_str(), "hidden" | "again" | "unhide" | "visible" | "render"));
        return if unhides { Clause::Changes } else { Clause::Asks };
    }
    if first == "give" && rest.get(1).is_some_and(|w| w == "me" || w == "us") && rest.iter().skip(2).any(|w| INFORMATION.contains(&w.as_str())) {
        return Clause::Asks;
    }
    // "do the gears overlap?": a question, not "do a turntable".
    if first == "do" && *asked {
        return Clause::Asks;
    }
    if first == "tell" || (first == "let" && rest.get(2).is_some_and(|w| w == "know")) {
        return Clause::Asks;
    }
    // "can you tell me", "could you check": the lead-in ends where the asking starts.
    if ASKING.contains(&first) && !(first == "look" && rest.get(1).is_some_and(|w| w != "at" && w != "for")) {
        return Clause::Asks;
    }
    if CHANGING.contains(&first) {
        return Clause::Changes;
    }
    // No verb first ("can the camera see the cube?", "the cube, red"): a question mark
    // asks; otherwise a mutation verb anywhere in the clause changes.
    if *asked {
        return Clause::Asks;
    }
    if rest.iter().any(|w| CHANGING.contains(&w.as_str())) {
        return Clause::Changes;
    }
    Clause::Neither
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_and_checks_only_ask() {
        for goal in [
            "what's in the scene?",
            "Which objects use the material named Red?",
            "how many lights are there",
            "Is there a camera looking at the cube?",
            "can you tell me how tall the cube is",
            "Could you please check whether the chair intersects the desk?",
            "verify that every object has a material, and list the ones that don't",
            "show me the modifiers on the cube",
            "compare the two cubes' sizes",
            "the cube's dimensions?",
            "can the camera see the whole cube?",
            "do the two gears overlap?",
            "show material slots for all the meshes",
            "make sure the shelf is inside the room (just check, don't move anything)",
        ] {
            assert_eq!(of(goal), Intent::Read, "{goal}");
        }
    }

    #[test]
    fn instructions_change_even_beside_a_question() {
        for goal in [
            "add a cube",
            "Could you add a red sphere?",
            "is the cube red? if not, paint it red",
            "what lights are there? then make the key light warmer",
            "find the monkey and delete it",
            "cube. red.",
            "make the cube twice as tall",
            "hide the light",
            "show the hidden lamp",
            "select all objects that use the material Red",
        ] {
            assert_eq!(of(goal), Intent::Change, "{goal}");
        }
    }

    #[test]
    fn destruction_is_named_or_not() {
        for goal in ["delete the default cube", "get rid of the light", "purge unused data", "apply the scale", "join the two meshes", "clean up the file"] {
            assert!(names_destruction(goal), "{goal}");
        }
        for goal in ["fix the names of the data-blocks", "make the cube red", "tidy the names"] {
            assert!(!names_destruction(goal), "{goal}");
        }
    }
}
