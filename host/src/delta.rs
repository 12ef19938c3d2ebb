//! Scene deltas on the host: what one capability call changed, merged from the deltas
//! the bridge reported for each of its bridge calls.
//!
//! The host merges them itself, from the answers it carried, instead of trusting a
//! pack's own account: a pack cannot hide a change, and when a later bridge call fails
//! the changes of the earlier ones (and the partial delta the bridge attaches to a
//! failed mutating command) are still reported.
//!
//! Merging is sequential: an object added and then removed within one call is not
//! reported; one removed and added again under its name is changed; a rename carries
//! what was known about the old name over to the new one.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    #[serde(default)]
    pub added: BTreeSet<String>,
    #[serde(default)]
    pub removed: BTreeSet<String>,
    #[serde(default)]
    pub changed: BTreeSet<String>,
}

impl Changes {
    fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }

    fn then(&mut self, next: &Changes) {
        // A name both removed and added by one command is an object replaced under its
        // name (the bridge cancels one added and removed again): the removal came first.
        for n in &next.removed {
            if !self.added.remove(n) {
                self.changed.remove(n);
                self.removed.insert(n.clone());
            }
        }
        for n in &next.added {
            if self.removed.remove(n) {
                self.changed.insert(n.clone());
            } else {
                self.added.insert(n.clone());
            }
        }
        for n in &next.changed {
            if !self.added.contains(n) {
                self.changed.insert(n.clone());
            }
        }
    }
}

/// The settings domain a delta lists when the selection or the active object changed.
/// Selection is state the user sees and undo restores, so a delta reports it; it is
/// not a change to the scene's content (eval never counts it as a side effect).
pub const SELECTION: &str = "selection";

/// The delta of a call, in the bridge's own shape.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SceneDelta {
    #[serde(flatten)]
    pub objects: Changes,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, BTreeSet<String>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub renamed: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub datablocks: BTreeMap<String, Changes>,
    #[serde(default)]
    pub settings: BTreeSet<String>,
    /// Collections whose size moved other than the bridge reported (see the add-on's
    /// delta tracker): re-inspect before relying on this delta.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub incomplete: BTreeSet<String>,
}

impl SceneDelta {
    /// The delta in a bridge answer (`None` when there is none or it is malformed).
    pub fn from_answer(answer: &Value) -> Option<Self> {
        serde_json::from_value(answer.get("delta")?.clone()).ok()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty() && self.settings.is_empty() && self.datablocks.values().all(Changes::is_empty) && self.incomplete.is_empty()
    }

    /// This delta followed by `next`.
    pub fn then(&mut self, next: &SceneDelta) {
        for (new, old) in &next.renamed {
            let original = self.renamed.remove(old).unwrap_or_else(|| old.clone());
            if self.objects.added.remove(old) {
                self.objects.added.insert(new.clone());
            } else {
                self.objects.changed.remove(old);
                self.renamed.insert(new.clone(), original);
            }
            if let Some(f) = self.fields.remove(old) {
                self.fields.insert(new.clone(), f);
            }
        }
        self.objects.then(&next.objects);
        for (name, aspects) in &next.fields {
            if !self.objects.added.contains(name) {
                self.fields.entry(name.clone()).or_default().extend(aspects.iter().cloned());
            }
        }
        self.fields.retain(|name, _| self.objects.changed.contains(name));
        self.renamed.retain(|name, _| self.objects.changed.contains(name) || next.objects.changed.contains(name));
        for (kind, changes) in &next.datablocks {
            self.datablocks.entry(kind.clone()).or_default().then(changes);
        }
        self.datablocks.retain(|_, c| !c.is_empty());
        self.settings.extend(next.settings.iter().cloned());
        self.incomplete.extend(next.incomplete.iter().cloned());
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a delta serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn d(v: Value) -> SceneDelta {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn an_object_replaced_under_its_name_in_one_command_is_changed() {
        let mut m = SceneDelta::default();
        m.then(&d(json!({ "added": ["Text"], "removed": ["Text"], "changed": [], "settings": [] })));
        assert_eq!(m.objects.changed, BTreeSet::from(["Text".to_string()]));
        assert!(m.objects.added.is_empty() && m.objects.removed.is_empty());
        // Added by an earlier call of the same capability, then replaced: still added.
        let mut m = d(json!({ "added": ["Text"], "removed": [], "changed": [], "settings": [] }));
        m.then(&d(json!({ "added": ["Text"], "removed": ["Text"], "changed": [], "settings": [] })));
        assert_eq!(m.objects.added, BTreeSet::from(["Text".to_string()]));
        assert!(m.objects.removed.is_empty() && m.objects.changed.is_empty());
    }

    #[test]
    fn calls_merge_in_order() {
        let mut m = d(json!({ "added": ["Key"], "removed": [], "changed": [], "settings": [] }));
        m.then(&d(json!({ "added": ["Fill"], "removed": [], "changed": ["Key", "Cube"], "fields": { "Key": ["transform"], "Cube": ["modifiers"] }, "settings": ["world"] })));
        assert_eq!(m.to_json(), json!({ "added": ["Fill", "Key"], "removed": [], "changed": ["Cube"], "fields": { "Cube": ["modifiers"] }, "settings": ["world"] }));
    }

    #[test]
    fn transient_objects_vanish_and_recreated_ones_are_changed() {
        let mut m = d(json!({ "added": ["Tmp"], "removed": ["Cube"], "changed": [], "settings": [] }));
        m.then(&d(json!({ "added": ["Cube"], "removed": ["Tmp"], "changed": [], "settings": [] })));
        assert_eq!((m.objects.added.len(), m.objects.removed.len()), (0, 0));
        assert_eq!(m.objects.changed, BTreeSet::from(["Cube".to_string()]));
    }

    #[test]
    fn a_rename_after_a_change_keeps_what_was_known() {
        let mut m = d(json!({ "added": [], "removed": [], "changed": ["A"], "fields": { "A": ["transform"] }, "settings": [] }));
        m.then(&d(json!({ "added": [], "removed": [], "changed": ["B"], "fields": { "B": ["name"] }, "renamed": { "B": "A" }, "settings": [] })));
        assert_eq!(m.to_json(), json!({ "added": [], "removed": [], "changed": ["B"], "fields": { "B": ["name", "transform"] }, "renamed": { "B": "A" }, "settings": [] }));
    }

    #[test]
    fn eval_never_counts_a_selection_change_as_a_side_effect() {
        let task: crate::eval::Task = serde_json::from_value(json!({ "id": "t", "goal": "select the lights", "assertions": [] })).unwrap();
        let selected = d(json!({ "added": [], "removed": [], "changed": [], "settings": [SELECTION] }));
        assert!(crate::eval::run::side_effects(&task, &selected).is_empty());
        // Another domain beside it still is one.
        let both = d(json!({ "added": [], "removed": [], "changed": [], "settings": [SELECTION, "render"] }));
        assert_eq!(crate::eval::run::side_effects(&task, &both), ["settings render"]);
    }

    #[test]
    fn datablocks_and_incomplete_flags_merge() {
        let mut m = SceneDelta::default();
        m.then(&d(json!({ "added": [], "removed": [], "changed": [], "settings": [], "datablocks": { "materials": { "added": ["M"] } }, "incomplete": ["objects"] })));
        assert!(!m.is_empty());
        assert_eq!(m.to_json()["datablocks"], json!({ "materials": { "added": ["M"], "removed": [], "changed": [] } }));
        assert_eq!(m.to_json()["incomplete"], json!(["objects"]));
    }
}
