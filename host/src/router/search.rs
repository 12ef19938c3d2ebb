//! Search over the capability catalog: ranked summaries only.
//!
//! An inverted index from term stems to (capability, weight), built once per catalog:
//! a query costs one postings lookup per term plus a top-k sort, so it stays well
//! under 100 µs for a thousand capabilities. Weights favour what a capability is
//! (key, tags) over how it is described (summary); the routed family of the query and
//! the session's goal family add a bonus; an exact key wins outright. A destructive
//! capability's score is halved unless the query names the destruction, so it comes
//! first only for "delete ...", "purge ...", never for "tidy ..." (see `intent`).

use super::text;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// What the index needs to know about a capability.
#[derive(Debug, Clone)]
pub struct CapabilityText<'a> {
    pub key: &'a str,
    pub family: &'a str,
    pub summary: &'a str,
    pub mutates: bool,
    pub destructive: bool,
    /// It writes files (an export, a saved copy): never the answer to a question.
    pub writes_files: bool,
    pub tags: &'a [String],
    pub aliases: &'a [String],
    pub examples: &'a [String],
}

#[derive(Debug, Clone)]
struct Entry {
    key: String,
    family: String,
    summary: String,
    mutates: bool,
    destructive: bool,
    writes_files: bool,
}

impl Entry {
    /// It answers a question without changing anything: no scene change, no file written.
    fn only_reads(&self) -> bool {
        !self.mutates && !self.writes_files
    }
}

/// One ranked result: a summary, never a schema.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    pub key: String,
    pub family: String,
    pub summary: String,
    pub mutates: bool,
    /// It writes files (listed only when it does).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub writes_files: bool,
    pub score: f32,
}

#[derive(Debug, Default)]
pub struct SearchIndex {
    families: super::FamilyTable,
    /// Every word of every family cue, gathered once: the vocabulary [`Self::spelled`]
    /// knows beside the catalog's terms.
    cue_words: HashSet<String>,
    entries: Vec<Entry>,
    postings: HashMap<String, Vec<(u32, f32)>>,
    keys: HashMap<String, u32>,
}

const KEY_WEIGHT: f32 = 3.0;
const TAG_WEIGHT: f32 = 2.5;
const FAMILY_WEIGHT: f32 = 2.0;
const ALIAS_WEIGHT: f32 = 2.0;
const EXAMPLE_WEIGHT: f32 = 1.5;
const SUMMARY_WEIGHT: f32 = 1.0;
const ROUTED_FAMILY_BONUS: f32 = 2.0;
const GOAL_FAMILY_BONUS: f32 = 1.0;
const EXACT_KEY_SCORE: f32 = 100.0;
/// A destructive capability's score when the query does not name the destruction.
const UNNAMED_DESTRUCTION_FACTOR: f32 = 0.5;

impl SearchIndex {
    pub fn build<'a>(items: impl IntoIterator<Item = CapabilityText<'a>>, families: super::FamilyTable) -> Self {
        let cue_words = families.cue_words().map(str::to_string).collect();
        let mut index = SearchIndex { families, cue_words, ..SearchIndex::default() };
        for item in items {
            let id = index.entries.len() as u32;
            let mut weights: HashMap<String, f32> = HashMap::new();
            let mut add = |t: &str, w: f32| {
                for term in text::terms(t) {
                    let e = weights.entry(term).or_insert(0.0);
                    *e = e.max(w);
                }
            };
            // The key's name says what the capability does; its namespace ("scene.",
            // "render.") is mostly the family again, so it counts as the family does.
            let (namespace, name) = item.key.split_once('.').unwrap_or(("", item.key));
            add(namespace, FAMILY_WEIGHT);
            add(item.family, FAMILY_WEIGHT);
            add(&name.replace('_', " "), KEY_WEIGHT);
            add(item.summary, SUMMARY_WEIGHT);
            item.tags.iter().for_each(|t| add(t, TAG_WEIGHT));
            item.aliases.iter().for_each(|a| add(&a.replace(['.', '_'], " "), ALIAS_WEIGHT));
            item.examples.iter().for_each(|e| add(e, EXAMPLE_WEIGHT));
            for (term, w) in weights {
                index.postings.entry(term).or_default().push((id, w));
            }
            index.keys.insert(item.key.to_string(), id);
            index.entries.push(Entry {
                key: item.key.to_string(),
                family: item.family.to_string(),
                summary: item.summary.to_string(),
                mutates: item.mutates,
                destructive: item.destructive,
                writes_files: item.writes_files,
            });
        }
        index
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `term`, or the one index term a typo away from it ("camrea" -> "camera", "scael"
    /// -> "scale"): an unknown word of five or more letters, the same first letter, one
    /// edit (a transposition counts as one). Ties go to the alphabetically first term,
    /// so the answer is deterministic.
    fn known_term(&self, term: String) -> String {
        if term.chars().count() < 5 || self.postings.contains_key(&term) || term.chars().any(|c| c.is_ascii_digit()) {
            return term;
        }
        self.nearest(&term, self.postings.keys().map(String::as_str)).map(str::to_string).unwrap_or(term)
    }

    /// The word of `vocabulary` one edit from `word` (five or more letters, the same first
    /// letter). A swap or a wrong letter ("camrea", "scael") is the likelier typo, so a
    /// word of the same length comes before one a letter longer or shorter ("scael" is
    /// "scale", not the stem "scal"); then the alphabetically first, so the answer is
    /// deterministic.
    fn nearest<'a>(&self, word: &str, vocabulary: impl Iterator<Item = &'a str>) -> Option<&'a str> {
        let (first, len) = (word.chars().next(), word.chars().count());
        vocabulary
            .filter(|k| k.chars().next() == first && k.chars().count().abs_diff(len) <= 1)
            .filter(|k| strsim::damerau_levenshtein(word, k) == 1)
            .min_by_key(|k| (k.chars().count() != len, *k))
    }

    /// `goal` with each misspelt word replaced by the word it misspells ("rotaet the
    /// camrea" -> "rotate the camera"), everything else (punctuation, clauses, numbers)
    /// as written, so that the intent, the cues and the search all read the same words.
    /// A word is misspelt when neither it nor its stem is in the catalog's or the cues'
    /// vocabulary, and one word of that vocabulary is a typo away ([`Self::known_term`]'s
    /// rule: five or more letters, the same first letter, one edit).
    pub fn spelled(&self, goal: &str) -> String {
        let known = |w: &str| self.postings.contains_key(w) || self.cue_words.contains(w) || text::is_stop_word(w);
        let mut out = String::with_capacity(goal.len());
        let mut rest = goal;
        while let Some(start) = rest.find(|c: char| c.is_alphabetic()) {
            out.push_str(&rest[..start]);
            let word_len = rest[start..].find(|c: char| !c.is_alphanumeric()).unwrap_or(rest.len() - start);
            let word = &rest[start..start + word_len];
            let lower = word.to_lowercase();
            let fixed = if lower.chars().count() < 5 || lower.chars().any(|c| c.is_ascii_digit()) || known(&lower) || known(&text::stem(&lower)) {
                None
            } else {
                self.nearest(&lower, self.postings.keys().map(String::as_str).chain(self.cue_words.iter().map(String::as_str)))
            };
            out.push_str(fixed.unwrap_or(word));
            rest = &rest[start + word_len..];
        }
        out.push_str(rest);
        out
    }

    /// The family of the capability `key`, if the catalog has it.
    pub fn family_of(&self, key: &str) -> Option<&str> {
        self.keys.get(key).map(|id| self.entries[*id as usize].family.as_str())
    }

    /// Whether `family` has a capability that changes nothing.
    pub fn family_has_reads(&self, family: &str) -> bool {
        self.entries.iter().any(|e| e.family == family && e.only_reads())
    }

    /// The best `limit` capabilities for `query`, optionally only of `family`.
    /// `goal_family` (the session's routed goal) nudges ties toward the goal.
    pub fn search(&self, query: &str, family: Option<&str>, goal_family: Option<&str>, limit: usize) -> Vec<SearchHit> {
        self.search_as(query, family, goal_family, limit, false)
    }

    /// [`Self::search`], with only capabilities that change nothing when `reads_only`
    /// (a goal that only asks, see [`super::intent`]).
    pub fn search_as(&self, query: &str, family: Option<&str>, goal_family: Option<&str>, limit: usize, reads_only: bool) -> Vec<SearchHit> {
        let destruction_named = super::intent::names_destruction(query);
        let mut scores = vec![0.0f32; self.entries.len()];
        let mut terms: Vec<String> = text::terms(query).into_iter().map(|t| self.known_term(t)).collect();
        terms.extend(text::asked_terms(query).into_iter().map(text::stem));
        terms.sort_unstable();
        terms.dedup();
        for term in &terms {
            if let Some(list) = self.postings.get(term) {
                for (id, w) in list {
                    scores[*id as usize] += w;
                }
            }
        }
        if let Some(id) = self.keys.get(query.trim()) {
            scores[*id as usize] += EXACT_KEY_SCORE;
        }
        let cues = self.families.cue_scores(query);
        let best = cues.iter().map(|(_, s)| *s).max().unwrap_or(0);
        let routed = (best > 0).then(|| cues.iter().find(|(_, s)| *s == best).map(|(f, _)| f.as_str())).flatten();
        let mut ranked: Vec<(f32, u32)> = Vec::new();
        for (id, score) in scores.iter().enumerate() {
            if *score <= 0.0 {
                continue;
            }
            let e = &self.entries[id];
            if family.is_some_and(|f| f != e.family) || (reads_only && !e.only_reads()) {
                continue;
            }
            let mut s = *score;
            if e.destructive && !destruction_named {
                s *= UNNAMED_DESTRUCTION_FACTOR;
            }
            if routed == Some(e.family.as_str()) {
                s += ROUTED_FAMILY_BONUS;
            }
            if goal_family == Some(e.family.as_str()) {
                s += GOAL_FAMILY_BONUS;
            }
            ranked.push((s, id as u32));
        }
        let by_rank = |a: &(f32, u32), b: &(f32, u32)| {
            b.0.total_cmp(&a.0).then_with(|| self.entries[a.1 as usize].key.cmp(&self.entries[b.1 as usize].key))
        };
        if ranked.len() > limit {
            ranked.select_nth_unstable_by(limit, by_rank);
            ranked.truncate(limit);
        }
        ranked.sort_unstable_by(by_rank);
        ranked
            .into_iter()
            .map(|(score, id)| {
                let e = &self.entries[id as usize];
                SearchHit { key: e.key.clone(), family: e.family.clone(), summary: e.summary.clone(), mutates: e.mutates, writes_files: e.writes_files, score: (score * 100.0).round() / 100.0 }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn index() -> SearchIndex {
        let caps = [
            ("scene.set_material", "material", "Give an object a material", strings(&["chrome", "metal", "color"]), strings(&["make it look like chrome"])),
            ("scene.create_object", "create", "Add a primitive", strings(&["cube", "sphere"]), strings(&["add a cube"])),
            ("scene.render", "render", "Render the camera to a PNG", strings(&["png", "image"]), strings(&["render a png"])),
            ("scene.info", "inspect", "List the scene", strings(&["objects", "overview"]), strings(&["what's in the scene"])),
        ];
        let none: Vec<String> = vec![];
        SearchIndex::build(caps.iter().map(|(k, f, s, t, e)| CapabilityText {
            key: k,
            family: f,
            summary: s,
            mutates: *f != "inspect",
            destructive: false,
            writes_files: false,
            tags: t,
            aliases: &none,
            examples: e,
        }), super::super::FamilyTable::default())
    }

    #[test]
    fn a_question_is_never_answered_by_writing_a_file() {
        let caps = [("io.save", "Save the scene as a .blend copy", true), ("scene.info", "List the scene and its objects", false)];
        let none: Vec<String> = vec![];
        let index = SearchIndex::build(caps.iter().map(|(k, s, writes)| CapabilityText {
            key: k,
            family: "io",
            summary: s,
            mutates: false,
            destructive: false,
            writes_files: *writes,
            tags: &none,
            aliases: &none,
            examples: &none,
        }), super::super::FamilyTable::default());
        let keys = |reads_only| index.search_as("save the scene objects", None, None, 5, reads_only).into_iter().map(|h| h.key).collect::<Vec<_>>();
        assert_eq!(keys(false), ["io.save", "scene.info"]);
        assert_eq!(keys(true), ["scene.info"], "a read-only answer writes no file");
        assert!(index.family_has_reads("io"));
    }

    #[test]
    fn queries_find_their_capability_first() {
        let idx = index();
        assert_eq!(idx.search("chrome material", None, None, 5)[0].key, "scene.set_material");
        assert_eq!(idx.search("add a cube", None, None, 5)[0].key, "scene.create_object");
        assert_eq!(idx.search("render final image", None, None, 5)[0].key, "scene.render");
        assert_eq!(idx.search("scene.info", None, None, 5)[0].key, "scene.info");
    }

    #[test]
    fn family_filter_and_limit_apply() {
        let idx = index();
        let hits = idx.search("cube png chrome", Some("render"), None, 5);
        assert!(hits.iter().all(|h| h.family == "render"));
        assert_eq!(idx.search("cube png chrome scene", None, None, 2).len(), 2);
        assert!(idx.search("zzz", None, None, 5).is_empty());
    }

    #[test]
    fn a_typo_finds_the_word_it_misspells() {
        let idx = index();
        assert_eq!(idx.search("rendr a png", None, None, 5)[0].key, "scene.render");
        assert_eq!(idx.search("chorme please", None, None, 5)[0].key, "scene.set_material");
    }

    #[test]
    fn a_goal_is_read_with_its_typos_mended_and_its_punctuation_kept() {
        let idx = index();
        assert_eq!(idx.spelled("rendr the scene, please. Then chorme?"), "render the scene, please. Then chrome?");
        assert_eq!(idx.spelled("cube 1920x1080 xyzzyq"), "cube 1920x1080 xyzzyq");
    }

    #[test]
    fn ranking_is_deterministic() {
        let idx = index();
        assert_eq!(idx.search("scene", None, None, 10), idx.search("scene", None, None, 10));
    }
}
