//! The router: goal text to a capability family, deterministically.
//!
//! Family-first: lexical cues (phrases and words, weighted) vote for families; the
//! strongest family wins, ties broken by risk (families whose capabilities only read
//! first, destructive ones last, then by name). Only when no cue fires does keyword
//! scoring over the catalog (summaries, tags, examples) decide. If that is weak or
//! ambiguous, the answer is `inspect`: an unclear request looks before it changes
//! anything. This is a correctness floor, not an embedding model.
//!
//! The families and their cues are not written here: each pack declares the families
//! it serves (`describe`), and [`FamilyTable::from_packs`] merges them.

pub mod families;
pub mod search;
pub mod text;

pub use families::FamilyTable;
pub use search::{SearchHit, SearchIndex};

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
}

/// Route a goal. `index` (the catalog) decides only when no cue fires.
pub fn route(goal: &str, families: &FamilyTable, index: Option<&SearchIndex>) -> Route {
    let scores = families.cue_scores(goal);
    let best = scores.iter().map(|(_, s)| *s).max().unwrap_or(0);
    if best > 0 {
        // Ties go to the family first in the table's order (reading before changing).
        let family = scores.iter().find(|(_, s)| *s == best).map(|(f, _)| f.as_str()).unwrap_or(FALLBACK_FAMILY);
        return Route { family: family.to_string(), basis: RouteBasis::Cues };
    }
    if let Some(index) = index {
        let hits = index.search(goal, None, None, 2);
        match hits.as_slice() {
            [first, second, ..] if first.score >= 2.0 && first.score > second.score * 1.5 => {
                return Route { family: first.family.clone(), basis: RouteBasis::Catalog };
            }
            [only] if only.score >= 2.0 => return Route { family: only.family.clone(), basis: RouteBasis::Catalog },
            _ => {}
        }
    }
    Route { family: FALLBACK_FAMILY.to_string(), basis: RouteBasis::Fallback }
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
