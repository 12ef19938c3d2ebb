//! The routing families of every loaded pack, merged into one table.
//!
//! Several packs may declare one family (a third-party pack adding capabilities to
//! `material`, say); their cues are merged. A family's risk is the most a capability of
//! it can do (0 reads, 1 mutates, 2 destroys), and ties in routing go to the lower
//! risk, so an ambiguous goal prefers reading over changing and destroying last.

use super::text;
use crate::plugin::LoadedPack;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    name: String,
    risk: u8,
    /// (weight, cue)
    cues: Vec<(u32, String)>,
}

/// (family, risk, [(weight, cues)]): one family written out by hand.
pub type FamilyRow<'a> = (&'a str, u8, Vec<(u32, Vec<&'a str>)>);

#[derive(Debug, Clone, Default)]
pub struct FamilyTable {
    /// In tie-break order: risk, then name.
    entries: Vec<Entry>,
}

impl FamilyTable {
    pub fn from_packs(packs: &[LoadedPack]) -> Self {
        let mut by_name: BTreeMap<String, Entry> = BTreeMap::new();
        for pack in packs {
            for family in &pack.families {
                let entry = by_name.entry(family.name.clone()).or_insert_with(|| Entry { name: family.name.clone(), risk: 0, cues: Vec::new() });
                for (weight, phrases) in &family.cues {
                    entry.cues.extend(phrases.iter().map(|p| (*weight, p.clone())));
                }
            }
            for cap in &pack.capabilities {
                if let Some(entry) = by_name.get_mut(&cap.family) {
                    entry.risk = entry.risk.max(if cap.destructive { 2 } else { u8::from(cap.mutates) });
                }
            }
        }
        Self::sorted(by_name.into_values().collect())
    }

    /// A table from (family, risk, [(weight, cues)]) rows (tests and tools).
    pub fn from_specs(rows: Vec<FamilyRow<'_>>) -> Self {
        Self::sorted(
            rows.into_iter()
                .map(|(name, risk, cues)| Entry {
                    name: name.to_string(),
                    risk,
                    cues: cues.into_iter().flat_map(|(w, cs)| cs.into_iter().map(move |c| (w, c.to_string()))).collect(),
                })
                .collect(),
        )
    }

    /// Add one family declared outside the packs (the host's workflows), merging cues
    /// with a pack's family of the same name.
    pub fn add(&mut self, family: &crate::plugin::describe::FamilySpec, risk: u8) {
        let mut entries = std::mem::take(&mut self.entries);
        let at = match entries.iter().position(|e| e.name == family.name) {
            Some(i) => i,
            None => {
                entries.push(Entry { name: family.name.clone(), risk: 0, cues: Vec::new() });
                entries.len() - 1
            }
        };
        let entry = &mut entries[at];
        entry.risk = entry.risk.max(risk);
        for (weight, phrases) in &family.cues {
            entry.cues.extend(phrases.iter().map(|p| (*weight, p.clone())));
        }
        *self = Self::sorted(entries);
    }

    fn sorted(mut entries: Vec<Entry>) -> Self {
        entries.sort_by(|a, b| (a.risk, &a.name).cmp(&(b.risk, &b.name)));
        FamilyTable { entries }
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }

    pub fn contains(&self, family: &str) -> bool {
        self.entries.iter().any(|e| e.name == family)
    }

    /// The most a capability of `family` can do: 0 reads, 1 changes, 2 destroys.
    pub fn risk(&self, family: &str) -> Option<u8> {
        self.entries.iter().find(|e| e.name == family).map(|e| e.risk)
    }

    /// Every word of every cue (the router's own vocabulary beside the catalog's).
    pub fn cue_words(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().flat_map(|e| e.cues.iter().flat_map(|(_, cue)| cue.split(' ')))
    }

    /// Family scores from the lexical cues, in tie-break order. A word the goal has
    /// counts once per family however many of its cues match it (`light`, `lighting`).
    pub fn cue_scores(&self, goal: &str) -> Vec<(String, u32)> {
        let padded = text::padded(goal);
        let stems: Vec<String> = text::words(goal).iter().map(|w| text::stem(w)).collect();
        self.entries
            .iter()
            .map(|e| {
                let mut best: BTreeMap<&str, u32> = BTreeMap::new();
                for (weight, cue) in &e.cues {
                    if let Some(matched) = cue_match(&padded, &stems, cue) {
                        let slot = best.entry(matched).or_insert(0);
                        *slot = (*slot).max(*weight);
                    }
                }
                (e.name.clone(), best.values().sum())
            })
            .collect()
    }
}

/// What a cue matched: the phrase itself, or the goal word it matched.
fn cue_match<'a>(padded: &str, stems: &'a [String], cue: &'a str) -> Option<&'a str> {
    if cue.contains(' ') {
        padded.contains(&format!(" {cue} ")).then_some(cue)
    } else {
        let cue_stem = text::stem(cue);
        stems.iter().find(|s| **s == cue_stem || (cue.len() >= 4 && s.starts_with(cue))).map(String::as_str)
    }
}
