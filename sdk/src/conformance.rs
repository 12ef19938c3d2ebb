//! Conformance cases: what a capability must do against the real application.
//!
//! A case is arguments plus expectations; the host's conformance suite runs every case
//! of every capability against the real application, reset to its factory scene before each
//! case, and checks them (the language is checked by the host when the pack loads;
//! `host/src/conformance/` documents it):
//!
//! - `setup`: capability calls made first (their own deltas are not checked);
//! - `delta`: objects added, removed and changed (exact names), the aspects that changed
//!   per object, the settings domains, the datablocks; a read-only capability's delta
//!   must be empty whatever the case says;
//! - `result`: values the answer must contain (numbers within 1e-4);
//! - `reads`: read-only capability calls made afterwards and values they must answer;
//! - `error`: the call must fail with this code (an application code such as
//!   `not_found`, or an MCP code such as `INVALID_CAPABILITY_ARGUMENTS`);
//! - `png`: the answer's `path` is a PNG of this width and height.

use serde_json::{Map, Value, json};

/// One case. Serialised to JSON for the host.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    doc: Map<String, Value>,
}

impl Case {
    pub fn new(name: &str) -> Self {
        let mut doc = Map::new();
        doc.insert("name".into(), json!(name));
        doc.insert("arguments".into(), json!({}));
        doc.insert("expect".into(), json!({}));
        Case { doc }
    }

    fn expect(&mut self) -> &mut Map<String, Value> {
        self.doc.get_mut("expect").and_then(Value::as_object_mut).expect("expect is an object")
    }

    fn delta(&mut self) -> &mut Map<String, Value> {
        let expect = self.expect();
        expect.entry("delta").or_insert_with(|| json!({})).as_object_mut().expect("delta is an object")
    }

    /// Run capability `key` with `arguments` before the case.
    pub fn setup(mut self, key: &str, arguments: Value) -> Self {
        let setup = self.doc.entry("setup").or_insert_with(|| json!([]));
        setup.as_array_mut().expect("setup is a list").push(json!({ "key": key, "arguments": arguments }));
        self
    }

    pub fn args(mut self, arguments: Value) -> Self {
        self.doc.insert("arguments".into(), arguments);
        self
    }

    /// Exactly these objects are added.
    pub fn added(mut self, names: &[&str]) -> Self {
        self.delta().insert("added".into(), json!(names));
        self
    }
    /// Exactly these objects are removed.
    pub fn removed(mut self, names: &[&str]) -> Self {
        self.delta().insert("removed".into(), json!(names));
        self
    }
    /// Exactly these objects change (besides those added).
    pub fn changed(mut self, names: &[&str]) -> Self {
        self.delta().insert("changed".into(), json!(names));
        self
    }
    /// These aspects of `object` change (among others the delta may list).
    pub fn fields(mut self, object: &str, aspects: &[&str]) -> Self {
        let fields = self.delta().entry("fields").or_insert_with(|| json!({}));
        fields.as_object_mut().expect("fields is an object").insert(object.into(), json!(aspects));
        self
    }
    /// Exactly these settings domains change.
    pub fn settings(mut self, domains: &[&str]) -> Self {
        self.delta().insert("settings".into(), json!(domains));
        self
    }
    /// These datablocks of `kind` (`materials`, `worlds`, ...) are added.
    pub fn datablocks_added(mut self, kind: &str, names: &[&str]) -> Self {
        let blocks = self.delta().entry("datablocks").or_insert_with(|| json!({}));
        blocks.as_object_mut().expect("datablocks is an object").insert(kind.into(), json!({ "added": names }));
        self
    }
    /// The answer contains these values.
    pub fn result(mut self, subset: Value) -> Self {
        self.expect().insert("result".into(), subset);
        self
    }
    /// Afterwards, read-only capability `key` answers with (at least) `subset`.
    pub fn reads(mut self, key: &str, arguments: Value, subset: Value) -> Self {
        let reads = self.expect().entry("reads").or_insert_with(|| json!([]));
        reads.as_array_mut().expect("reads is a list").push(json!({ "key": key, "arguments": arguments, "result": subset }));
        self
    }
    /// The call fails with this code.
    pub fn error(mut self, code: &str) -> Self {
        self.expect().insert("error".into(), json!(code));
        self
    }
    /// The answer's `path` is a PNG of this size.
    pub fn png(mut self, width: u32, height: u32) -> Self {
        self.expect().insert("png".into(), json!({ "width": width, "height": height }));
        self
    }

    pub fn name(&self) -> &str {
        self.doc["name"].as_str().unwrap_or("")
    }

    pub fn to_json(&self) -> String {
        Value::Object(self.doc.clone()).to_string()
    }
}
