//! A strict reader for JSON objects: every key must be asked for, or it is reported
//! as unknown with its JSON path. Errors are collected, not thrown, so one run of the
//! parser tells a pack author everything that is wrong.

use super::error::{ManifestError, ManifestErrors};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A JSON path such as `servers.blender.commands[2]`.
pub fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() { key.to_string() } else { format!("{parent}.{key}") }
}

pub fn index(parent: &str, i: usize) -> String {
    format!("{parent}[{i}]")
}

pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub struct ObjectReader<'a> {
    path: String,
    map: &'a Map<String, Value>,
    seen: BTreeSet<&'static str>,
}

impl<'a> ObjectReader<'a> {
    /// Start reading `value` at `path`; records an error and returns None if it is not an object.
    pub fn new(value: &'a Value, path: &str, errors: &mut ManifestErrors) -> Option<Self> {
        match value {
            Value::Object(map) => Some(ObjectReader { path: path.to_string(), map, seen: BTreeSet::new() }),
            other => {
                errors.push(ManifestError::new(path, format!("expected an object, found {}", type_name(other))));
                None
            }
        }
    }

    pub fn path(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// The value at `key`, if present (marks the key as known).
    pub fn optional(&mut self, key: &'static str) -> Option<&'a Value> {
        self.seen.insert(key);
        self.map.get(key)
    }

    /// The value at `key`, or an error naming it.
    pub fn required(&mut self, key: &'static str, errors: &mut ManifestErrors) -> Option<&'a Value> {
        let v = self.optional(key);
        if v.is_none() {
            errors.push(ManifestError::new(&self.path(key), "is required"));
        }
        v
    }

    pub fn required_str(&mut self, key: &'static str, errors: &mut ManifestErrors) -> Option<&'a str> {
        let v = self.required(key, errors)?;
        as_str(v, &self.path(key), errors)
    }

    pub fn optional_str(&mut self, key: &'static str, errors: &mut ManifestErrors) -> Option<&'a str> {
        let v = self.optional(key)?;
        as_str(v, &self.path(key), errors)
    }

    /// A positive integer no larger than `max`.
    pub fn optional_count(&mut self, key: &'static str, max: u64, errors: &mut ManifestErrors) -> Option<u64> {
        let v = self.optional(key)?;
        let path = self.path(key);
        match v.as_u64() {
            Some(n) if n >= 1 && n <= max => Some(n),
            Some(n) if n >= 1 => {
                errors.push(ManifestError::new(&path, format!("{n} is larger than {max}")));
                None
            }
            _ => {
                errors.push(ManifestError::new(&path, format!("expected a whole number from 1 to {max}, found {v}")));
                None
            }
        }
    }

    /// Every key that was present but never asked for is an error.
    pub fn finish(self, errors: &mut ManifestErrors) {
        for key in self.map.keys() {
            if !self.seen.contains(key.as_str()) {
                errors.push(ManifestError::new(&join(&self.path, key), "unknown key"));
            }
        }
    }
}

pub fn as_str<'a>(v: &'a Value, path: &str, errors: &mut ManifestErrors) -> Option<&'a str> {
    match v {
        Value::String(s) => Some(s),
        other => {
            errors.push(ManifestError::new(path, format!("expected a string, found {}", type_name(other))));
            None
        }
    }
}

/// A list of strings; each non-string item is reported at its index.
pub fn as_str_list<'a>(v: &'a Value, path: &str, errors: &mut ManifestErrors) -> Option<Vec<(String, &'a str)>> {
    let Value::Array(items) = v else {
        errors.push(ManifestError::new(path, format!("expected an array of strings, found {}", type_name(v))));
        return None;
    };
    Some(
        items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let p = index(path, i);
                as_str(item, &p, errors).map(|s| (p, s))
            })
            .collect(),
    )
}
