//! The one capability for a piece of goal text: what `capstan eval` scores as the
//! router's choice (`family_ok`, `capability_ok`), what `router_set_goal` suggests
//! first and `planner_set_goal` previews, and what the planner hints for a clause.
//!
//! First the plain edits ([`super::edits`]): a goal whose only instruction is a plain
//! edit of an object goes to the pack's `transforms-object` capability. Then the
//! router's family and the best catalog hit in it, with an instruction served by a
//! capability that acts and a clause that speaks of what is there never served by one
//! that adds an object.
//!
//! Security reasoning: this only chooses a hint. Whatever it picks goes through the
//! same schema check, app gate and sandbox as any call; what this module owes is not to
//! turn a question into a change ([`crate::router::intent`] decides first, and a goal
//! that asks makes no plain edit), and not to invent an object nobody asked for.

use super::{edits, text};
use crate::router::{FamilyTable, Intent, SearchHit, SearchIndex};

/// How many of a family's best hits an instruction looks through for one that acts.
const PICK_AMONG: usize = 5;

/// Words that speak of something already there: "the cube", "it", "my lamp".
const WHAT_IS_THERE: &[&str] = &["the", "it", "its", "this", "that", "them", "these", "those", "my", "our"];

/// Pronouns: the thing they stand for is there already ("aim it at the cube").
const PRONOUNS: &[&str] = &["it", "its", "them"];

/// [`super::Router::pick`] over a table and an index someone else owns (the MCP
/// core's). `edit` is the capability a pack declared for plain edits: "hide the
/// camera", "shift the chair left by 2 metres" go to it, whatever family the object's
/// own words point to.
pub fn pick(families: &FamilyTable, index: &SearchIndex, edit: Option<&str>, text: &str) -> (String, Option<String>) {
    // As written, or with its typos mended ("shfit the cube"): mending also turns a word
    // the catalog lacks into one it has ("later" into "layer"), so either reading counts.
    if let Some(picked) = edit.and_then(|key| plain_edit_of(index, key, text).or_else(|| plain_edit_of(index, key, &index.spelled(text)))) {
        return picked;
    }
    pick_among(families, index, text)
}

/// The `edit` capability and its family, when the goal's only instruction is a plain
/// edit: the whole goal, or one instruction among questions and statements ("The cube
/// is half under the ground. Raise it so its bottom sits at z = 0."). Never for a goal
/// that only asks ("Move the cube up? No, don't move anything, just tell me where it
/// is") or that is a question from its first word; never when another instruction
/// follows ("Hide the light. Add a sun lamp.": routing by the first instruction alone
/// was measured and picked worse, `routing_goals.tsv` 79.6% against 81.1%).
fn plain_edit_of(index: &SearchIndex, key: &str, goal: &str) -> Option<(String, Option<String>)> {
    if crate::router::intent::of(goal) == Intent::Read || edits::wonders(goal) {
        return None;
    }
    let parts: Vec<String> = sentences(goal).iter().flat_map(|s| super::plan::clauses(s)).collect();
    let instructions: Vec<&String> = parts.iter().filter(|c| crate::router::intent::of(c) == Intent::Change && !states(c)).collect();
    let edits_only = edits::plain_edit(goal) || matches!(instructions.as_slice(), [only] if edits::plain_edit(only));
    edits_only.then(|| Some((index.family_of(key)?.to_string(), Some(key.to_string())))).flatten()
}

/// The sentences of a goal: cut after a full stop, a question or an exclamation mark
/// followed by a space and a capital ("2.5", "out.png", "e.g. the cube" and "approx. 2
/// m" stay whole).
fn sentences(goal: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = goal.chars().peekable();
    while let Some(c) = chars.next() {
        current.push(c);
        if matches!(c, '.' | '?' | '!') && chars.peek().is_some_and(|n| n.is_whitespace()) {
            let next = chars.clone().find(|n| !n.is_whitespace());
            if next.is_some_and(char::is_uppercase) || c != '.' {
                out.push(std::mem::take(&mut current).trim().to_string());
            }
        }
    }
    out.push(current.trim().to_string());
    out.retain(|s| !s.is_empty());
    out
}

/// Whether a clause states rather than instructs: it opens (after polite words) on
/// what it is about ("the cube is half under the ground", "it's too dark").
fn states(clause: &str) -> bool {
    let plain = text::plain_words(clause, &[]);
    edits::head(&plain).is_some_and(|h| h == "there" || WHAT_IS_THERE.contains(&h))
}

/// A capability that adds an object: its name is a making verb, alone or with "object"
/// (`lighting.add`, `scene.create_object`); adding a modifier changes what is there.
fn adds(hit: &SearchHit) -> bool {
    let name: Vec<&str> = name_words(&hit.key).collect();
    name.iter().any(|v| ["add", "create", "new"].contains(v)) && name.iter().all(|v| ["add", "create", "new", "object"].contains(v))
}

/// The words of a key's name, after its namespace: `scene.create_object` -> create, object.
fn name_words(key: &str) -> impl Iterator<Item = &str> {
    key.rsplit('.').next().unwrap_or_default().split('_')
}

/// [`pick`] by the router's family and the catalog, for text that is no plain edit.
fn pick_among(families: &FamilyTable, index: &SearchIndex, text: &str) -> (String, Option<String>) {
    let route = crate::router::route(text, families, Some(index));
    // A step that only asks is served by a capability that changes nothing.
    let reads_only = route.intent == Intent::Read;
    let hits = index.search_as(text, Some(&route.family), Some(&route.family), PICK_AMONG, reads_only);
    // An instruction is served by a capability that does it: a read-only hit on top
    // ("put the mug on the table" finding the check `spatial.assert`) gives way to the
    // best capability that changes the scene, when that one scores at least half as high.
    // A top hit whose own verb the words say ("export the cube": `io.export`) stays.
    let top = hits.first().map(|h| h.score).unwrap_or_default();
    let words = text::plain_words(text, &[]);
    let named = hits.first().is_some_and(|h| name_words(&h.key).any(|v| words.iter().any(|w| w == v)));
    // An instruction that introduces nothing ("the lamp is too dim, make it 2000 watts")
    // changes what is there: a capability that adds one gives way to one that changes,
    // when that one scores at least half as high.
    let changes_what_is_there = |h: &&SearchHit| h.mutates && !adds(h) && h.score * 2.0 >= top;
    let doing = hits
        .iter()
        .find(|h| h.mutates && h.score * 2.0 >= top)
        .map(|h| if adds(h) && !edits::introduces(&words) { hits.iter().find(changes_what_is_there).unwrap_or(h) } else { h })
        .filter(|_| route.intent == Intent::Change && !named);
    let hit = doing.or(hits.first());
    // A statement ("the cube should be 50 cm wide") or a clause about "it" ("aim it at
    // the cube") that introduces nothing never adds an object: the planner then holds
    // or inspects instead of making one nobody asked for. Other words keep the adding
    // capability ("put the monkey in the middle", "put two area lights over the table":
    // whether that object is there is the scene's to say).
    let about_what_is_there = states(text) || words.iter().any(|w| PRONOUNS.contains(&w.as_str()));
    if hit.is_some_and(|h| adds(h) && about_what_is_there && !edits::introduces(&words)) {
        return (route.family, None);
    }
    (route.family, hit.map(|h| h.key.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_end_at_a_stop_before_a_capital() {
        assert_eq!(sentences("The cube is low. Raise it 1 m."), ["The cube is low.", "Raise it 1 m."]);
        assert_eq!(sentences("move it approx. 2 m, e.g. up"), ["move it approx. 2 m, e.g. up"]);
        assert_eq!(sentences("Is it lit? hide it"), ["Is it lit?", "hide it"]);
        assert_eq!(sentences("save as out.png. Done"), ["save as out.png.", "Done"]);
    }

    #[test]
    fn statements_open_on_what_they_are_about() {
        assert!(states("the cube shld be 50cm wide not 2m"));
        assert!(states("please, it is too dark"));
        assert!(!states("shrink it"));
    }
}
