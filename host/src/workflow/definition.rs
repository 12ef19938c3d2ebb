//! A workflow document as it is written (`host/workflows/*.json`), and the checks that
//! turn it into a [`Workflow`] the runtime can offer.
//!
//! Everything a workflow may do is decided here, once, against the loaded capabilities:
//! every step names a canonical key that exists, every `$arg` and condition names an
//! argument the workflow's schema declares, and its reach (the bridge commands, whether
//! it mutates or destroys) is the union of its steps' as their packs declared them. A
//! document that fails any check is refused whole, with every reason.

use super::template;
use crate::plugin::CapabilitySpec;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The family every workflow belongs to (a twentieth beside the catalog's nineteen).
pub const FAMILY: &str = "workflow";
/// The pseudo-pack name workflows are listed under.
pub const OWNER: &str = "capstan-workflows";
/// Steps per workflow, after `each` expansion.
pub const MAX_STEPS: usize = 64;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkflowDoc {
    pub key: String,
    pub summary: String,
    pub description: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub examples: Vec<String>,
    pub input_schema: Value,
    pub steps: Vec<StepDoc>,
    /// Conformance cases, in the language of `crate::conformance`.
    #[serde(default)]
    pub cases: Vec<Value>,
}

/// One step: a capability and the template of its arguments, or a file handed from one
/// app's output folder to another's (`handover`, run by the host: see [`super::handover`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepDoc {
    /// `[a-z][a-z0-9_]*`, unique in the workflow (an `each` step's runs get `_1`, `_2`, ...).
    pub id: String,
    /// The canonical capability key the step runs (empty for a handover).
    #[serde(default)]
    pub key: String,
    /// Instead of a capability: hand a file over between two apps' output folders.
    #[serde(default)]
    pub handover: Option<super::handover::HandoverDoc>,
    /// Why the step is there (shown in the workflow's description of its steps).
    #[serde(default)]
    pub note: Option<String>,
    /// Run the step only when this holds (one condition, or a list that must all hold).
    /// Conditions read arguments, never results, so the whole plan is known, and
    /// checked, before the first step runs.
    #[serde(default)]
    pub when: When,
    /// Run the step once per element of this array argument (`{"$item": ...}` in `args`).
    #[serde(default)]
    pub each: Option<String>,
    /// The arguments: JSON in which `{"$arg": NAME}` is the workflow's argument (a key
    /// whose argument is absent is left out) and `{"$item": true}` the `each` element.
    #[serde(default = "empty_object")]
    pub args: Value,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum When {
    #[default]
    Always,
    One(Condition),
    All(Vec<Condition>),
}

impl When {
    pub fn conditions(&self) -> &[Condition] {
        match self {
            When::Always => &[],
            When::One(c) => std::slice::from_ref(c),
            When::All(all) => all,
        }
    }

    /// The first condition that does not hold.
    pub fn failing(&self, arguments: &serde_json::Map<String, Value>) -> Option<&Condition> {
        self.conditions().iter().find(|c| !c.holds(arguments))
    }
}

/// `{"arg": NAME}` plus exactly one of `equals`, `one_of`, `present`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub arg: String,
    #[serde(default)]
    pub equals: Option<Value>,
    #[serde(default)]
    pub one_of: Option<Vec<Value>>,
    #[serde(default)]
    pub present: Option<bool>,
}

impl Condition {
    pub fn holds(&self, arguments: &serde_json::Map<String, Value>) -> bool {
        let value = arguments.get(&self.arg).filter(|v| !v.is_null());
        if let Some(present) = self.present {
            return value.is_some() == present;
        }
        if let Some(expected) = &self.equals {
            return value == Some(expected);
        }
        self.one_of.as_ref().is_some_and(|set| value.is_some_and(|v| set.contains(v)))
    }
}

impl StepDoc {
    /// What the step runs, for listings: its capability key, or `handover:FROM->TO`.
    pub fn label(&self) -> String {
        match &self.handover {
            Some(h) => format!("handover:{}->{}", h.from, h.to),
            None => self.key.clone(),
        }
    }

    /// The capability the step runs (None for a handover).
    pub fn capability(&self) -> Option<&str> {
        self.handover.is_none().then_some(self.key.as_str())
    }
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

/// A checked workflow, ready to offer and run.
#[derive(Debug)]
pub struct Workflow {
    pub spec: Arc<CapabilitySpec>,
    pub steps: Vec<StepDoc>,
    /// The argument defaults of the schema's top-level properties, applied before the
    /// templates are rendered.
    pub defaults: serde_json::Map<String, Value>,
}

/// What a workflow check needs to know about a capability.
pub trait StepLookup {
    /// The capability behind a canonical key; `None` for an alias or an unknown key.
    fn canonical(&self, key: &str) -> Option<&CapabilitySpec>;
    /// The app server a capability talks to (None: no bridge command, or unknown).
    fn server_of(&self, _key: &str) -> Option<&str> {
        None
    }
}

/// Check one document against the capabilities it chains.
pub fn check(mut doc: WorkflowDoc, lookup: &dyn StepLookup) -> Result<Workflow, Vec<String>> {
    let mut problems = super::embed::expand(&mut doc.input_schema, lookup);
    if !crate::plugin::describe::is_canonical_key(&doc.key) || !doc.key.starts_with("workflow.") {
        problems.push(format!("{:?} is not a workflow key (workflow.verb_noun)", doc.key));
    }
    let schema = &doc.input_schema;
    let properties = schema.get("properties").and_then(Value::as_object);
    if schema.get("type").and_then(Value::as_str) != Some("object") || properties.is_none_or(|p| p.is_empty()) {
        problems.push("input_schema must describe an object with properties".into());
    }
    if schema.get("additionalProperties") != Some(&Value::Bool(false)) {
        problems.push("input_schema must say \"additionalProperties\": false (a misspelt argument is refused, not ignored)".into());
    }
    let declared: BTreeSet<&str> = properties.map(|p| p.keys().map(String::as_str).collect()).unwrap_or_default();
    let validator = match jsonschema::draft202012::new(schema) {
        Ok(v) => Some(Arc::new(v)),
        Err(e) => {
            problems.push(format!("input_schema does not compile: {e}"));
            None
        }
    };
    if doc.steps.is_empty() || doc.steps.len() > MAX_STEPS {
        problems.push(format!("{} steps; a workflow has 1 to {MAX_STEPS}", doc.steps.len()));
    }
    let (mut mutates, mut destructive, mut writes_files, mut commands) = (false, false, false, Vec::<String>::new());
    let mut ids = BTreeSet::new();
    for step in &doc.steps {
        let at = format!("step {:?}", step.id);
        let id_ok = step.id.len() <= 40
            && step.id.starts_with(|c: char| c.is_ascii_lowercase())
            && step.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !id_ok || !ids.insert(step.id.as_str()) {
            problems.push(format!("{at}: ids are unique [a-z][a-z0-9_]* of at most 40 characters"));
        }
        let mut names = Vec::new();
        if let Some(handover) = &step.handover {
            if !step.key.is_empty() {
                problems.push(format!("{at}: a step runs a capability (key) or a handover, not both"));
            }
            problems.extend(handover.check().into_iter().map(|p| format!("{at}: {p}")));
            // The handover's apps are admitted as the workflow's steps are: each must be
            // the app of a capability step, so the app gate already asks for it.
            for server in [&handover.from, &handover.to] {
                if !doc.steps.iter().any(|s| s.handover.is_none() && lookup.server_of(&s.key) == Some(server.as_str())) {
                    problems.push(format!("{at}: no capability step of this workflow talks to {server:?}"));
                }
            }
            template::arg_names(&handover.file, &mut names);
            if let Err(e) = template::check_shape(&json!({ "file": handover.file })) {
                problems.push(format!("{at}: {e}"));
            }
            if step.each.is_some() {
                problems.push(format!("{at}: a handover runs once (no each)"));
            }
            writes_files = true;
        }
        let mut refs = Vec::new();
        template::step_refs(&step.args, &mut refs);
        if let Some(handover) = &step.handover {
            template::step_refs(&handover.file, &mut refs);
        }
        for id in refs {
            // A step reads only a step that always runs before it, once: never a later
            // one, a conditional one (it may not run) or an `each` one (which run?).
            let earlier = doc.steps.iter().take_while(|s| s.id != step.id).find(|s| s.id == id);
            if !earlier.is_some_and(|s| s.each.is_none() && s.when == When::Always && s.handover.is_none()) {
                problems.push(format!("{at}: reads the result of {id:?}, which is not an earlier capability step that always runs once"));
            }
        }
        match lookup.canonical(&step.key) {
            _ if step.handover.is_some() => {}
            None => problems.push(format!("{at}: no capability with the canonical key {:?} is loaded", step.key)),
            Some(cap) if cap.family == FAMILY => problems.push(format!("{at}: a workflow does not run another workflow ({})", step.key)),
            Some(cap) => {
                mutates |= cap.mutates;
                destructive |= cap.destructive;
                writes_files |= cap.writes_files;
                commands.extend(cap.bridge_commands.iter().cloned());
            }
        }
        template::arg_names(&step.args, &mut names);
        for cond in step.when.conditions() {
            let kinds = [cond.equals.is_some(), cond.one_of.is_some(), cond.present.is_some()].iter().filter(|x| **x).count();
            if kinds != 1 {
                problems.push(format!("{at}: a condition has exactly one of equals, one_of, present"));
            }
            names.push(cond.arg.clone());
        }
        if let Some(each) = &step.each {
            names.push(each.clone());
        } else if template::uses_item(&step.args) {
            problems.push(format!("{at}: {{\"$item\": true}} belongs to a step with \"each\""));
        }
        for name in names {
            if !declared.contains(name.as_str()) {
                problems.push(format!("{at}: uses the argument {name:?}, which input_schema does not declare"));
            }
        }
        if let Err(e) = template::check_shape(&step.args) {
            problems.push(format!("{at}: {e}"));
        }
    }
    // The most steps the plan can expand to: an `each` step runs up to its array's
    // `maxItems` times, so a valid argument can never plan past MAX_STEPS.
    let mut most = 0u64;
    for step in &doc.steps {
        most += match &step.each {
            None => 1,
            Some(name) => match properties.and_then(|p| p.get(name)).and_then(|a| a.get("maxItems")).and_then(Value::as_u64) {
                Some(n) => n,
                None => {
                    problems.push(format!("step {:?}: the array {name:?} it runs on needs a maxItems", step.id));
                    0
                }
            },
        };
    }
    if most > MAX_STEPS as u64 {
        problems.push(format!("the steps can expand to {most}; a workflow runs at most {MAX_STEPS} (lower the arrays' maxItems)"));
    }
    let mut conformance = Vec::new();
    for case in &doc.cases {
        match crate::conformance::Case::parse(&case.to_string()) {
            Ok(c) => conformance.push(c),
            Err(e) => problems.push(format!("conformance case: {e}")),
        }
    }
    let (Some(validator), true) = (validator, problems.is_empty()) else {
        return Err(problems.into_iter().map(|p| format!("{}: {p}", doc.key)).collect());
    };
    commands.sort();
    commands.dedup();
    let defaults = properties
        .map(|p| p.iter().filter_map(|(k, v)| Some((k.clone(), v.get("default")?.clone()))).collect())
        .unwrap_or_default();
    let spec = CapabilitySpec {
        key: doc.key,
        family: FAMILY.into(),
        summary: doc.summary,
        description: doc.description,
        input_schema: doc.input_schema,
        output_schema: None,
        tags: doc.tags,
        aliases: doc.aliases,
        examples: doc.examples,
        mutates,
        destructive,
        writes_files,
        bridge_commands: commands,
        conformance,
        validator,
        output_validator: None,
    };
    Ok(Workflow { spec: Arc::new(spec), steps: doc.steps, defaults })
}
