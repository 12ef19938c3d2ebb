//! The router: goal text to a capability family, deterministically.
//!
//! Family-first: lexical cues (phrases and words, weighted) vote for families; the
//! strongest family wins, ties broken by risk (families whose capabilities only read
//! first, destructive ones last, then by name). Only when no cue fires does keyword
//! scoring over the catalog (summaries, tags, examples) decide. If that is weak or
//! ambiguous, the answer is `inspect`: an unclear request looks before it changes
//! anything. This is a correctness floor, not an embedding model.
//!
//! Intent comes before family ([`intent`]): a goal that only asks routes among the
//! families that can answer without changing anything, and its suggestions are
//! read-only; a goal that mixes a question with an instruction routes as an
//! instruction, by all its words.
//!
//! The families and their cues are not written here: each pack declares the families
//! it serves (`describe`), and [`FamilyTable::from_packs`] merges them.

pub mod families;
pub mod intent;
pub mod search;
pub mod text;

pub use families::FamilyTable;
pub use intent::Intent;
pub use search::{SearchHit, SearchIndex};

/// How much a family's best catalog match counts beside its cues: measured on
/// `routing_goals.tsv`, the catalog (key, tags, summary, examples) tells families
/// apart better than the cues alone, which then break ties.
const CATALOG_WEIGHT: f32 = 10.0;
/// Without a cue, the least catalog score that decides (below it: inspection first).
const CATALOG_FLOOR: f32 = 2.0;

/// The fallback for unclear goals.
pub const FALLBACK_FAMILY: &str = "inspect";

/// Why the router chose a family (for status reports and debugging).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteBasis {
    /// Lexical cues decided.
    Cues,
    /// No cue fired; the catalog's keywords decided.
    Catalog,
    /// Nothing decided clearly; fell back to inspection.
    Fallback,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Route {
    pub family: String,
    pub basis: RouteBasis,
    /// Read: every instruction asks, so only read-only capabilities serve it.
    pub intent: Intent,
    /// Why this family, in a sentence an agent can pass on.
    pub why: String,
}

/// Route a goal. `index` (the catalog) decides only when no cue fires.
pub fn route(goal: &str, families: &FamilyTable, index: Option<&SearchIndex>) -> Route {
    // Typos mended first, so the intent, the cues and the catalog read the same words.
    let spelled = index.map(|i| i.spelled(goal));
    let goal = spelled.as_deref().unwrap_or(goal);
    let intent = intent::of(goal);
    let asks = intent == Intent::Read;
    let why_of = |why: String| if asks { format!("every instruction in the goal is a question or a check, so only capabilities that change nothing; {why}") } else { why };
    // A goal that mixes a question with an instruction is routed as an instruction, by
    // all its words: its question often names what the instruction acts on ("what
    // samples are set? bump them to 512"). Routing by the instructions' words alone was
    // measured and routed worse (`routing_goals.tsv`: 87.9% against 88.3%).
    if let Some((family, basis, why)) = decide(goal, asks, families, index) {
        return Route { family, basis, intent, why: why_of(why) };
    }
    Route {
        family: FALLBACK_FAMILY.to_string(),
        basis: RouteBasis::Fallback,
        intent,
        why: why_of("nothing in the goal points clearly to one family, so inspection first: look at the scene before changing it".to_string()),
    }
}

/// The family `text` points to clearly, if any: by its cues (with the catalog's best
/// match per family weighed in), else by a catalog match clearly ahead of other families.
fn decide(text: &str, asks: bool, families: &FamilyTable, index: Option<&SearchIndex>) -> Option<(String, RouteBasis, String)> {
    // A goal that only asks is answered by a family that can read (without the
    // catalog, by a family whose capabilities all read).
    let can_answer = |family: &str| !asks || index.map_or(families.risk(family) == Some(0), |i| i.family_has_reads(family));
    let scores: Vec<(String, u32)> = families.cue_scores(text).into_iter().filter(|(f, _)| can_answer(f)).collect();
    let best = scores.iter().map(|(_, s)| *s).max().unwrap_or(0);
    if best > 0 {
        // Each family: its cues, plus (weighted) how well its best capability matches.
        let hits = index.map(|i| i.search_as(text, None, None, 64, asks)).unwrap_or_default();
        let combined: Vec<(&str, f32)> = scores
            .iter()
            .map(|(f, cue)| (f.as_str(), *cue as f32 + CATALOG_WEIGHT * hits.iter().filter(|h| &h.family == f).map(|h| h.score).fold(0.0, f32::max)))
            .collect();
        let top = combined.iter().map(|(_, s)| *s).fold(0.0, f32::max);
        // Ties go to the family first in the table's order (reading before changing).
        let family = combined.iter().find(|(_, s)| *s == top).map(|(f, _)| *f).unwrap_or(FALLBACK_FAMILY);
        return Some((family.to_string(), RouteBasis::Cues, format!("the goal's words point to {family}")));
    }
    // A family whose best match is clearly ahead of every other family's decides; two
    // capabilities of one family tying is no doubt about the family, but two families
    // tying is ambiguous.
    let hits = index?.search_as(text, None, None, 16, asks);
    let first = hits.first().filter(|h| h.score >= CATALOG_FLOOR)?;
    let runner_up = hits.iter().find(|h| h.family != first.family).map_or(0.0, |h| h.score);
    (first.score > runner_up).then(|| (first.family.clone(), RouteBasis::Catalog, format!("the catalog's {} fits the goal best", first.key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> FamilyTable {
        FamilyTable::from_specs(vec![
            ("inspect", 0, vec![(3, vec!["what s in", "list"])]),
            ("mutate", 2, vec![(5, vec!["delete"]), (3, vec!["move"])]),
            ("camera", 1, vec![(4, vec!["camera"])]),
            ("create", 1, vec![(3, vec!["add"]), (1, vec!["cube"])]),
        ])
    }

    #[test]
    fn cues_decide_and_ties_go_to_the_safer_family() {
        let t = table();
        assert_eq!(route("add a cube", &t, None).family, "create");
        assert_eq!(route("move the camera", &t, None).family, "camera");
        assert_eq!(route("delete the default cube", &t, None).family, "mutate");
        assert_eq!(route("what's in the scene", &t, None).family, "inspect");
        // "list" (inspect 3) against "move" (mutate 3): reading wins the tie.
        assert_eq!(route("list and move", &t, None).family, "inspect");
    }

    #[test]
    fn ambiguous_goals_fall_back_to_inspection() {
        for phrase in ["make this feel more premium somehow", "hmm", "do the thing", ""] {
            let r = route(phrase, &table(), None);
            assert_eq!(r.family, "inspect", "{phrase}");
            assert_eq!(r.basis, RouteBasis::Fallback, "{phrase}");
        }
    }
}
