//! Running a workflow: the plan first, whole and checked, then the steps one by one
//! through the same path as any capability call.
//!
//! Order and reasoning:
//! 1. The workflow's own arguments were validated against its schema and the workflow
//!    admitted by the app gate, on the call path ([`CallPath`]).
//! 2. [`plan`] applies the schema's defaults, evaluates every condition (conditions read
//!    arguments only) and renders every step's arguments.
//! 3. Every planned step is checked against its capability's schema (`CallPath::check`)
//!    before the first one runs: an argument a later step would refuse costs no bridge
//!    call and changes nothing.
//! 4. Each step runs with `CallPath::run_checked`: admitted again, then its own pack's
//!    sandbox, limits and gate (the step's scope, never a wider one), one undo step per step.
//! 5. The first failure stops the workflow; there is no rollback (what the steps before
//!    it changed is reported in the merged delta and per step). A step that failed in
//!    any way, a fault or the app's error, is a failed step in the answer.

use super::Workflow;
use crate::delta::SceneDelta;
use crate::report;
use crate::call::CallPath;
use crate::runtime::{CallError, CallOutput};
use crate::sandbox::progress::CallProgress;
use crate::sandbox::{BridgeCallRecord, ProgressSink};
use serde_json::{Map, Value, json};

/// One step of a plan, with its rendered arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedStep {
    pub id: String,
    /// The capability key (for a handover: `handover:FROM->TO`).
    pub key: String,
    /// For a handover step: its from and to apps (`arguments` is `{"file": NAME}`).
    pub handover: Option<(String, String)>,
    /// The arguments read an earlier step's result (`$step`): rendered from `template`
    /// and checked when the step's turn comes.
    pub deferred: bool,
    /// Rendered arguments (for a deferred step: with its `$step` markers still in).
    pub arguments: Value,
    /// The step's template and its `each` element, for a deferred step's rendering.
    pub template: Value,
    pub item: Option<Value>,
}

/// A step left out by its condition, for the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct SkippedStep {
    pub id: String,
    pub key: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub steps: Vec<PlannedStep>,
    pub skipped: Vec<SkippedStep>,
    /// The workflow's arguments with the schema's defaults applied.
    pub arguments: Map<String, Value>,
}

/// The plan for `arguments` (already valid against the workflow's schema).
pub fn plan(workflow: &Workflow, arguments: &Value) -> Result<Plan, Vec<String>> {
    let mut merged: Map<String, Value> = workflow.defaults.clone();
    if let Some(given) = arguments.as_object() {
        merged.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    let (mut steps, mut skipped, mut problems) = (Vec::new(), Vec::new(), Vec::new());
    for step in &workflow.steps {
        if let Some(cond) = step.when.failing(&merged) {
            let value = merged.get(&cond.arg).map(Value::to_string).unwrap_or_else(|| "absent".into());
            skipped.push(SkippedStep { id: step.id.clone(), key: step.key.clone(), reason: format!("{} is {value}", cond.arg) });
            continue;
        }
        let items: Vec<Option<&Value>> = match &step.each {
            None => vec![None],
            Some(name) => match merged.get(name) {
                Some(Value::Array(items)) => items.iter().map(Some).collect(),
                None | Some(Value::Null) => Vec::new(),
                Some(_) => {
                    problems.push(format!("step {:?}: {name} must be an array", step.id));
                    continue;
                }
            },
        };
        if step.each.is_some() && items.is_empty() {
            skipped.push(SkippedStep { id: step.id.clone(), key: step.key.clone(), reason: format!("{} is absent or empty", step.each.as_deref().unwrap_or_default()) });
        }
        let numbered = step.each.is_some();
        for (i, item) in items.into_iter().enumerate() {
            let id = if numbered { format!("{}_{}", step.id, i + 1) } else { step.id.clone() };
            let template = match &step.handover {
                Some(h) => json!({ "file": h.file }),
                None => step.args.clone(),
            };
            let arguments = super::template::render(&template, &merged, item).unwrap_or_else(|| json!({}));
            if !arguments.is_object() {
                problems.push(format!("step {id:?}: its arguments are not an object"));
                continue;
            }
            // Deferred when the template (never a value) reads an earlier result.
            let mut refs = Vec::new();
            super::template::step_refs(&template, &mut refs);
            let handover = step.handover.as_ref().map(|h| (h.from.clone(), h.to.clone()));
            steps.push(PlannedStep { id, key: step.label(), handover, deferred: !refs.is_empty(), arguments, template, item: item.cloned() });
        }
    }
    if steps.len() > super::definition::MAX_STEPS {
        problems.push(format!("{} steps planned; a workflow runs at most {}", steps.len(), super::definition::MAX_STEPS));
    }
    if problems.is_empty() { Ok(Plan { steps, skipped, arguments: merged }) } else { Err(problems) }
}

/// Run a workflow whose arguments passed [`CallPath::check`] and which was admitted.
///
/// `progress` hears one report per step as it starts and one when the last has run (the
/// steps' own reports are not passed on: they would not advance the workflow's count).
pub fn execute(path: &CallPath<'_>, workflow: &Workflow, arguments_json: &str, progress: Option<ProgressSink>) -> Result<CallOutput, CallError> {
    let key = workflow.spec.key.as_str();
    let invalid = |errors| CallError::InvalidArguments { key: key.into(), errors };
    let arguments: Value = serde_json::from_str(arguments_json).map_err(|e| invalid(vec![format!("the arguments are not JSON: {e}")]))?;
    let plan = plan(workflow, &arguments).map_err(invalid)?;
    // Every step's arguments are checked before the first step runs (those that read an
    // earlier step's result, once it exists, before they run).
    let texts: Vec<String> = plan.steps.iter().map(|s| s.arguments.to_string()).collect();
    let mut errors = Vec::new();
    for (step, text) in plan.steps.iter().zip(&texts) {
        if step.deferred {
            continue;
        }
        if step.handover.is_some() {
            if let Some(name) = step.arguments["file"].as_str().filter(|n| !super::handover::is_bare_name(n)) {
                errors.push(format!("step {}: {}", step.id, super::handover::HandoverError::NotBareName(name.into())));
            }
            continue;
        }
        match path.check(&step.key, text) {
            Ok(()) => {}
            Err(CallError::InvalidArguments { errors: e, .. }) => errors.extend(e.into_iter().map(|e| format!("step {} ({}): {e}", step.id, step.key))),
            Err(other) => errors.push(format!("step {} ({}): {other}", step.id, step.key)),
        }
    }
    if !errors.is_empty() {
        return Err(invalid(errors));
    }

    let mut reports = Vec::new();
    let mut bridge_calls: Vec<BridgeCallRecord> = Vec::new();
    let mut delta = SceneDelta::default();
    let mut last_path = None;
    let mut progress = CallProgress::new(progress);
    let total = plan.steps.len() as u64;
    let mut results = super::template::Results::new();
    let mut apps: Vec<String> = Vec::new();
    for (index, (step, text)) in plan.steps.iter().zip(&texts).enumerate() {
        tracing::info!(workflow = key, step = step.id, capability = step.key, "workflow step");
        progress.report(index as u64, total, &format!("step {} of {total}: {} ({})", index + 1, step.id, step.key));
        let filled = if step.deferred {
            super::template::render_with_results(&step.template, &plan.arguments, step.item.as_ref(), &results).map(|v| v.unwrap_or_else(|| json!({})))
        } else {
            Ok(step.arguments.clone())
        };
        let outcome = match &filled {
            Err(unfilled) => Err(CallError::InvalidArguments { key: step.key.clone(), errors: vec![unfilled.to_string()] }),
            Ok(arguments) => run_step(path, step, arguments, if step.deferred { None } else { Some(text) }),
        };
        let arguments = filled.unwrap_or_else(|_| step.arguments.clone());
        let app = match &step.handover {
            Some((_, to)) => Some(to.as_str()),
            None => path.runtime.server_of(&step.key),
        };
        if let Some(app) = app.filter(|a| !apps.iter().any(|x| x == a)) {
            apps.push(app.to_string());
        }
        match outcome {
            Ok(out) => {
                results.insert(step.id.clone(), out.result.clone());
                bridge_calls.extend(out.bridge_calls.iter().cloned());
                if let Some(d) = &out.delta {
                    delta.then(d);
                }
                if let Some(path) = out.result.get("path").and_then(Value::as_str) {
                    last_path = Some(path.to_string());
                }
                let mut doc = report::output_json(out);
                doc["id"] = json!(step.id);
                doc["status"] = json!("ok");
                doc["arguments"] = arguments;
                step_app(&mut doc, step, app);
                reports.push(doc);
            }
            Err(cause) => {
                if let CallError::Fault { bridge_calls: b, delta: d, .. } | CallError::Pack { bridge_calls: b, delta: d, .. } = &cause {
                    bridge_calls.extend(b.iter().cloned());
                    if let Some(d) = d {
                        delta.then(d);
                    }
                }
                let mut doc = json!({ "id": step.id, "key": step.key, "status": "failed", "arguments": arguments, "error": report::error_json(&cause) });
                step_app(&mut doc, step, app);
                reports.push(doc);
                reports.extend(plan.steps[index + 1..].iter().map(|s| json!({ "id": s.id, "key": s.key, "status": "not_run" })));
                let doc = answer(key, "failed", reports, &plan, last_path, &apps);
                return Err(CallError::Workflow {
                    key: key.into(),
                    step: step.id.clone(),
                    cause: Box::new(cause),
                    report: Box::new(doc),
                    bridge_calls,
                    delta: Some(Box::new(delta)).filter(|d| !d.is_empty()),
                });
            }
        }
    }
    progress.report(total, total, &format!("{total} of {total} steps done"));
    let result = answer(key, "ok", reports, &plan, last_path, &apps);
    Ok(CallOutput { key: key.into(), pack: super::OWNER.into(), result, bridge_calls, delta: workflow.spec.mutates.then_some(delta) })
}

/// One step through the call path (a handover: the host's copy between two apps).
/// `checked` is the step's argument text when it passed [`CallPath::check`] with the
/// plan; a step that read an earlier result is checked here, before it runs.
fn run_step(path: &CallPath<'_>, step: &PlannedStep, arguments: &Value, checked: Option<&String>) -> Result<CallOutput, CallError> {
    if let Some((from, to)) = &step.handover {
        let file = arguments["file"].as_str().unwrap_or_default();
        let result = super::handover::hand_over(path.runtime.bridge_client(), from, to, file).map_err(|e| handover_error(&step.key, e))?;
        return Ok(CallOutput { key: step.key.clone(), pack: super::OWNER.into(), result, bridge_calls: Vec::new(), delta: None });
    }
    match checked {
        Some(text) => path.run_checked(&step.key, text, None),
        None => {
            let text = arguments.to_string();
            path.check(&step.key, &text)?;
            path.run_checked(&step.key, &text, None)
        }
    }
}

/// A handover's failure as the call path's error: `failed`, or the app's absence.
fn handover_error(key: &str, e: super::handover::HandoverError) -> CallError {
    let bridge_code = e.app_unavailable().then(|| "app_unavailable".to_string());
    let kind = if bridge_code.is_some() { "bridge" } else { "failed" };
    let failure = crate::runtime::PackFailure { kind: kind.into(), message: e.to_string(), bridge_code, app_error: None };
    CallError::Pack { key: key.into(), failure: Box::new(failure), bridge_calls: Vec::new(), availability: None, delta: None }
}

/// Name the app a step ran in (a handover: the apps it went between).
fn step_app(doc: &mut Value, step: &PlannedStep, app: Option<&str>) {
    match &step.handover {
        Some((from, to)) => {
            doc["from"] = json!(from);
            doc["to"] = json!(to);
        }
        None => doc["app"] = json!(app),
    }
}

fn answer(key: &str, status: &str, steps: Vec<Value>, plan: &Plan, path: Option<String>, apps: &[String]) -> Value {
    let skipped: Vec<Value> = plan.skipped.iter().map(|s| json!({ "id": s.id, "key": s.key, "reason": s.reason })).collect();
    let mut doc = json!({ "workflow": key, "status": status, "apps": apps, "steps": steps, "skipped": skipped });
    if let Some(path) = path {
        doc["path"] = json!(path);
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::CapabilitySpec;
    use crate::workflow::definition::{self, StepLookup, WorkflowDoc};
    use std::sync::Arc;

    struct One(CapabilitySpec);

    impl StepLookup for One {
        fn canonical(&self, key: &str) -> Option<&CapabilitySpec> {
            (key == self.0.key).then_some(&self.0)
        }
    }

    fn lookup() -> One {
        let schema = json!({ "type": "object", "properties": { "name": { "type": "string" }, "size": { "type": "number" } } });
        One(CapabilitySpec {
            key: "scene.create_object".into(),
            family: "create".into(),
            summary: String::new(),
            description: String::new(),
            validator: Arc::new(jsonschema::draft202012::new(&schema).unwrap()),
            input_schema: schema,
            output_schema: None,
            output_validator: None,
            tags: vec![],
            aliases: vec![],
            examples: vec![],
            mutates: true,
            destructive: false,
            writes_files: false,
            bridge_commands: vec!["create_object".into()],
            conformance: vec![],
        })
    }

    fn workflow() -> Workflow {
        let doc: WorkflowDoc = serde_json::from_value(json!({
            "key": "workflow.make_things", "summary": "s", "description": "d",
            "input_schema": { "type": "object", "additionalProperties": false, "properties": {
                "size": { "type": "number", "default": 2 },
                "extra": { "type": "boolean" },
                "names": { "type": "array", "maxItems": 3, "items": { "type": "object" } } } },
            "steps": [
                { "id": "first", "key": "scene.create_object", "args": { "name": "First", "size": { "$arg": "size" } } },
                { "id": "each", "key": "scene.create_object", "each": "names", "args": { "$item": true } },
                { "id": "extra", "key": "scene.create_object", "when": [{ "arg": "extra", "equals": true }, { "arg": "size", "present": true }], "args": {} }
            ]
        }))
        .unwrap();
        definition::check(doc, &lookup()).unwrap()
    }

    #[test]
    fn defaults_conditions_and_each_make_the_plan() {
        let w = workflow();
        assert!(w.spec.mutates && w.spec.bridge_commands == ["create_object"]);
        let p = plan(&w, &json!({ "names": [{ "name": "A" }, { "name": "B" }] })).unwrap();
        let ids: Vec<&str> = p.steps.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["first", "each_1", "each_2"]);
        assert_eq!(p.steps[0].arguments, json!({ "name": "First", "size": 2 }), "the schema default applies");
        assert_eq!(p.steps[2].arguments, json!({ "name": "B" }));
        assert_eq!(p.skipped, [SkippedStep { id: "extra".into(), key: "scene.create_object".into(), reason: "extra is absent".into() }]);
        let p = plan(&w, &json!({ "size": 5, "extra": true })).unwrap();
        let ids: Vec<&str> = p.steps.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["first", "extra"]);
        assert_eq!(p.skipped[0].reason, "names is absent or empty");
        assert_eq!(p.steps[0].arguments["size"], 5);
    }
}
