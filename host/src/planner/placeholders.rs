//! `$added` in an expectation: the object the judged calls added, whatever they named it.
//!
//! A goal rarely names what it makes ("add a torus"), so an expectation that must hold
//! for any agent cannot name it either. `$added` stands for the one object the calls
//! added, `$added:TYPE` for the one added object of a type one of the app units lists
//! ([`crate::app_unit::AppUnit::object_types`]: `MESH`, `LIGHT`, `CAMERA`, ...). Any string of an expectation
//! that is exactly such a placeholder is replaced (an object name, a constraint's
//! object or support, a read's argument). None added, or more than one that fits, is
//! not a guess: the check fails with the count.

use super::Registry;
use crate::delta::SceneDelta;
use serde_json::{Value, json};
use std::collections::BTreeMap;

const PREFIX: &str = "$added";

/// Every object type `$added:TYPE` may name: the registered apps' own.
fn object_types() -> Vec<&'static str> {
    crate::app_units::all().iter().flat_map(|u| u.object_types().iter().copied()).collect()
}

/// The type a placeholder names (None: any), or why it is not a placeholder.
fn parse(placeholder: &str) -> Result<Option<String>, String> {
    match placeholder.strip_prefix(PREFIX) {
        Some("") => Ok(None),
        Some(rest) => match rest.strip_prefix(':') {
            Some(ty) if object_types().contains(&ty.to_uppercase().as_str()) => Ok(Some(ty.to_uppercase())),
            Some(ty) => Err(format!("{placeholder:?}: {ty:?} is not an object type of {} ({})", crate::app_units::display_names(), object_types().join(", "))),
            None => Err(format!("{placeholder:?} is not a placeholder: write $added or $added:TYPE")),
        },
        None => Err(format!("{placeholder:?} is not a placeholder")),
    }
}

/// The first malformed placeholder in a value, described.
pub fn malformed(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if s.starts_with(PREFIX) => parse(s).err(),
        Value::Array(items) => items.iter().find_map(malformed),
        Value::Object(map) => map.values().find_map(malformed),
        _ => None,
    }
}

/// The added objects' types, read once (only when a placeholder needs them).
pub struct Added<'a> {
    registry: &'a dyn Registry,
    names: Vec<String>,
    types: Option<BTreeMap<String, String>>,
}

impl<'a> Added<'a> {
    pub fn new(registry: &'a dyn Registry, delta: Option<&SceneDelta>) -> Added<'a> {
        Added { registry, names: delta.map(|d| d.objects.added.iter().cloned().collect()).unwrap_or_default(), types: None }
    }

    fn types(&mut self) -> &BTreeMap<String, String> {
        if self.types.is_none() {
            let mut types = BTreeMap::new();
            for name in &self.names {
                let key = self.registry.role(crate::roles::Role::ReadsObject);
                let info = key.and_then(|key| super::read_only(self.registry, &key, json!({ "name": name })).ok());
                if let Some(ty) = info.and_then(|r| r["type"].as_str().map(str::to_uppercase)) {
                    types.insert(name.clone(), ty);
                }
            }
            self.types = Some(types);
        }
        self.types.as_ref().expect("just filled")
    }

    /// The name a placeholder stands for.
    fn resolve(&mut self, placeholder: &str) -> Result<String, String> {
        let fits: Vec<String> = match parse(placeholder)? {
            None => self.names.clone(),
            Some(ty) => self.types().iter().filter(|(_, t)| **t == ty).map(|(n, _)| n.clone()).collect(),
        };
        match fits.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(format!("cannot measure: {placeholder} stands for the one object added, and none fits ({} added in all)", self.names.len())),
            many => Err(format!("cannot measure: {placeholder} stands for one object, and {} fit ({})", many.len(), many.join(", "))),
        }
    }

    /// `value` with every placeholder string replaced.
    pub fn substitute(&mut self, value: &Value) -> Result<Value, String> {
        Ok(match value {
            Value::String(s) if s.starts_with(PREFIX) => Value::String(self.resolve(s)?),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.substitute(v)).collect::<Result<_, _>>()?),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| Ok((k.clone(), self.substitute(v)?))).collect::<Result<_, String>>()?),
            other => other.clone(),
        })
    }
}

/// `value` with every placeholder replaced by a plain object name: for checking an
/// expectation's arguments against a schema before anything was added.
pub fn stand_in(value: &Value) -> Value {
    match value {
        Value::String(s) if s.starts_with(PREFIX) => Value::String("Added".into()),
        Value::Array(items) => Value::Array(items.iter().map(stand_in).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), stand_in(v))).collect()),
        other => other.clone(),
    }
}

/// Whether a value holds a placeholder anywhere.
pub fn has_placeholder(value: &Value) -> bool {
    match value {
        Value::String(s) => s.starts_with(PREFIX),
        Value::Array(items) => items.iter().any(has_placeholder),
        Value::Object(map) => map.values().any(has_placeholder),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::fake::FakeRegistry;

    #[test]
    fn added_stands_for_the_one_object_added() {
        let reg = FakeRegistry::default();
        reg.answer("scene.object_info", json!({ "type": "MESH" }));
        let mut d = SceneDelta::default();
        d.objects.added.insert("Torus".into());
        let mut added = Added::new(&reg, Some(&d));
        let e = json!({ "kind": "property", "object": "$added", "path": "type", "nested": ["$added:mesh", 1] });
        assert_eq!(added.substitute(&e).unwrap(), json!({ "kind": "property", "object": "Torus", "path": "type", "nested": ["Torus", 1] }));
        assert!(added.substitute(&json!("$added:LIGHT")).unwrap_err().contains("none fits"));
        assert!(added.substitute(&json!("$addedx")).is_err());
        assert!(malformed(&json!({ "a": ["$added:BANANA"] })).unwrap().contains("is not an object type of"));
        assert!(malformed(&json!("$added.1")).unwrap().contains("write $added or $added:TYPE"));
        assert_eq!(malformed(&json!(["$added", "$added:light", "Cube"])), None);
        d.objects.added.insert("Ring".into());
        let mut two = Added::new(&reg, Some(&d));
        assert!(two.substitute(&json!("$added")).unwrap_err().contains("2 fit (Ring, Torus)"));
        let mut none = Added::new(&reg, None);
        assert!(none.substitute(&json!("$added")).unwrap_err().contains("none fits (0 added"));
        assert!(has_placeholder(&e) && !has_placeholder(&json!({ "object": "Cube" })));
    }
}
