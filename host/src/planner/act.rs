//! One step through the host's call path: resolve, [`Registry::check`] (size, JSON,
//! schema) before any sandbox or bridge work, then [`Registry::run_checked`] (app gate,
//! sandbox, bridge gate, host-merged delta). The name is the step's hint or an explicit override; an
//! alias is mapped to its canonical key before anything runs and reported as such, an
//! unknown name is refused before any call.

use super::Registry;
use super::plan::PlanStep;
use crate::report::ErrorCode;
use crate::runtime::{CallError, CallOutput, Resolution};
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Default)]
pub struct ActRequest {
    pub tool_name: Option<String>,
    /// Replaces the step's args when given (an explicit `{}` included).
    pub tool_args: Option<Value>,
    pub dry_run: bool,
}

/// What was (or would be) run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resolved {
    pub capability: String,
    /// The name asked for when it was an alias.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    /// The capability differs from the step's hint.
    pub routing_override: bool,
    pub args: Value,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum ActError {
    #[error("unknown capability {0:?}; search the capabilities again, do not guess a name")]
    UnknownCapability(String),
    #[error("the arguments are not a JSON object")]
    ArgsNotObject,
    /// The app gate refused: the same error body `execute_capability` answers.
    #[error("{}", .0["message"].as_str().unwrap_or("the app is unavailable"))]
    Refused(Box<Value>),
    /// The step lacks required arguments the goal and the scene did not give: nothing
    /// was sent. The client answers with `tool_args` (the step's args and these).
    #[error("the step needs {}: the goal and the scene do not give it; send tool_args with the step's args and {}", names(.0), if .0.len() == 1 { "it" } else { "them" })]
    NeedsInput(Vec<super::args::NeededInput>),
    #[error(transparent)]
    Call(#[from] CallError),
}

fn names(needs: &[super::args::NeededInput]) -> String {
    needs.iter().map(|n| n.argument.as_str()).collect::<Vec<_>>().join(", ")
}

impl ActError {
    /// The MCP contract's code, as `execute_capability` would answer.
    pub fn code(&self) -> &'static str {
        match self {
            ActError::UnknownCapability(_) => ErrorCode::CapabilityNotFound.as_str(),
            ActError::ArgsNotObject | ActError::NeedsInput(_) => ErrorCode::InvalidCapabilityArguments.as_str(),
            ActError::Refused(_) => ErrorCode::AppUnavailable.as_str(),
            ActError::Call(e) => crate::report::error_code(e).as_str(),
        }
    }

    /// The error body `execute_capability` answers for the same failure.
    pub fn body(&self) -> Value {
        match self {
            ActError::Refused(body) => (**body).clone(),
            ActError::Call(e) => crate::report::error_json(e),
            ActError::NeedsInput(needs) => serde_json::json!({ "code": self.code(), "message": self.to_string(), "needs_input": needs }),
            other => serde_json::json!({ "code": other.code(), "message": other.to_string() }),
        }
    }
}

#[derive(Debug, Clone)]
pub enum ActOutcome {
    DryRun(Resolved),
    Done(Resolved, Box<CallOutput>),
}

/// Resolve a name against the registry: canonical key and the alias it came from.
pub fn resolve(registry: &dyn Registry, name: &str) -> Result<(String, Option<String>), ActError> {
    let name = name.trim();
    match registry.resolve(name) {
        Resolution::Canonical => Ok((name.to_string(), None)),
        Resolution::Alias { canonical } => Ok((canonical, Some(name.to_string()))),
        Resolution::NotFound => {
            // The registry's aliases are lower case; try that before refusing.
            let lower = name.to_lowercase();
            match registry.resolve(&lower) {
                Resolution::Canonical => Ok((lower, Some(name.to_string()))),
                Resolution::Alias { canonical } => Ok((canonical, Some(name.to_string()))),
                Resolution::NotFound => Err(ActError::UnknownCapability(name.to_string())),
            }
        }
    }
}

/// Run (or, with `dry_run`, only resolve and validate) one step.
pub fn act(registry: &dyn Registry, step: &PlanStep, request: &ActRequest) -> Result<ActOutcome, ActError> {
    let name = request.tool_name.as_deref().unwrap_or(&step.tool_hint);
    let (capability, alias) = resolve(registry, name)?;
    // A step the planner could not complete is never sent as it is (no guessing).
    if request.tool_args.is_none() && step.held() {
        return Err(ActError::NeedsInput(step.needs_input.clone()));
    }
    let args = request.tool_args.clone().unwrap_or_else(|| step.args.clone());
    if !args.is_object() {
        return Err(ActError::ArgsNotObject);
    }
    let text = args.to_string();
    registry.check(&capability, &text)?;
    let refused = |e: CallError| match e {
        CallError::NotAdmitted { .. } => ActError::Refused(Box::new(crate::report::error_json(&e))),
        other => ActError::from(other),
    };
    let resolved = Resolved { routing_override: capability != step.tool_hint, capability, alias, args };
    if request.dry_run {
        registry.admit(&resolved.capability).map_err(refused)?;
        return Ok(ActOutcome::DryRun(resolved));
    }
    let output = registry.run_checked(&resolved.capability, &text).map_err(refused)?;
    Ok(ActOutcome::Done(resolved, Box::new(output)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::fake::FakeRegistry;
    use crate::planner::plan::step;
    use serde_json::json;

    #[test]
    fn an_alias_is_resolved_and_reported_never_sent() {
        let reg = FakeRegistry::default();
        let s = step(&reg, "add", "scene.create_object", json!({"type": "cube"})).unwrap();
        let request = ActRequest { tool_name: Some("ADD_OBJECT".into()), ..Default::default() };
        let ActOutcome::Done(resolved, out) = act(&reg, &s, &request).unwrap() else { panic!("not run") };
        assert_eq!(resolved.capability, "scene.create_object");
        assert_eq!(resolved.alias.as_deref(), Some("ADD_OBJECT"));
        assert!(!resolved.routing_override);
        assert_eq!(out.key, "scene.create_object");
        assert_eq!(*reg.calls.lock().unwrap(), [("scene.create_object".to_string(), r#"{"type":"cube"}"#.to_string())]);
    }

    #[test]
    fn unknown_names_and_bad_arguments_make_no_call() {
        let reg = FakeRegistry::default();
        let s = step(&reg, "look", "scene.info", json!({})).unwrap();
        let e = act(&reg, &s, &ActRequest { tool_name: Some("app_nuke".into()), ..Default::default() }).unwrap_err();
        assert_eq!(e.code(), "CAPABILITY_NOT_FOUND");
        let e = act(&reg, &s, &ActRequest { tool_args: Some(json!({"bad": 1})), ..Default::default() }).unwrap_err();
        assert_eq!(e.code(), "INVALID_CAPABILITY_ARGUMENTS");
        let e = act(&reg, &s, &ActRequest { tool_args: Some(json!([1])), ..Default::default() }).unwrap_err();
        assert_eq!(e.code(), "INVALID_CAPABILITY_ARGUMENTS");
        assert_eq!(reg.count(), 0);
    }

    #[test]
    fn a_step_that_needs_input_is_not_sent_until_answered() {
        let reg = FakeRegistry::default();
        let mut s = step(&reg, "add something", "scene.create_object", json!({})).unwrap();
        s.needs_input = vec![crate::planner::args::NeededInput { argument: "type".into(), schema: json!({ "enum": ["cube"] }), candidates: vec![json!("cube")], reason: None }];
        let e = act(&reg, &s, &ActRequest::default()).unwrap_err();
        assert!(matches!(e, ActError::NeedsInput(_)), "{e}");
        assert_eq!(e.body()["needs_input"][0]["argument"], "type");
        assert_eq!(e.code(), "INVALID_CAPABILITY_ARGUMENTS");
        assert_eq!(reg.count(), 0, "nothing sent");
        let answered = ActRequest { tool_args: Some(json!({ "type": "cube" })), ..Default::default() };
        assert!(act(&reg, &s, &answered).is_ok());
    }

    #[test]
    fn dry_run_validates_and_reports_without_calling() {
        let reg = FakeRegistry::default();
        let s = step(&reg, "look", "scene.info", json!({"limit": 3})).unwrap();
        let req = ActRequest { tool_name: Some("material.list".into()), tool_args: Some(json!({})), dry_run: true };
        let ActOutcome::DryRun(r) = act(&reg, &s, &req).unwrap() else { panic!("ran") };
        assert_eq!(r, Resolved { capability: "material.list".into(), alias: None, routing_override: true, args: json!({}) });
        assert_eq!(reg.count(), 0);
    }
}
