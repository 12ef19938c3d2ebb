//! `capstan serve --planner`: the Planner / Actor / Critic as five MCP tools
//! (`planner_set_goal`, `planner_plan`, `planner_act`, `planner_critique`,
//! `planner_status`) over [`crate::planner`].
//!
//! Each MCP connection has its own [`Session`] (held by its `CapstanServer`), so two
//! clients never share a plan. `planner_act` runs the step like `execute_capability`:
//! the key is resolved and the arguments validated before any sandbox or bridge work,
//! then the app gate answers as it does for `execute_capability`. Every planner tool's
//! arguments are checked against its declared schema first, and the session's work runs
//! on a blocking thread: a long step holds its own session (the connection's other
//! planner calls wait for it) but never the server's async workers.

use super::Core;
use super::results::{error_result, ok_result};
use crate::planner::act::ActRequest;
use crate::planner::critique::Expectation;
use crate::planner::plan::Profile;
use crate::planner::session::{Session, SessionError};
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, Tool, ToolAnnotations};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

pub const SET_GOAL: &str = "planner_set_goal";
pub const PLAN: &str = "planner_plan";
pub const ACT: &str = "planner_act";
pub const CRITIQUE: &str = "planner_critique";
pub const STATUS: &str = "planner_status";

use super::tools::schema;
use crate::limits::tool_inputs::MAX_GOAL_CHARS;

pub fn tools() -> Vec<Tool> {
    let read_only = || ToolAnnotations::new().read_only(true).destructive(false);
    vec![
        Tool::new(
            SET_GOAL,
            "Set this connection's goal (and profile: default, llm-guided, power-user, forensic); clears its plan and critiques.",
            schema(json!({ "type": "object", "properties": {
                "goal": { "type": "string", "minLength": 1, "maxLength": MAX_GOAL_CHARS },
                "profile": { "type": "string", "enum": ["default", "llm-guided", "power-user", "forensic"] }
            }, "required": ["goal"], "additionalProperties": false })),
        )
        .with_annotations(read_only()),
        Tool::new(
            PLAN,
            "A deterministic plan for the goal, one step per instruction in it: steps {step_id, description, tool_hint (a canonical key), family, args (what the goal's words say, with the scene's object names; \"it\" is the step before's object), missing (required arguments the words and the scene do not give), needs_input (for each: its schema and candidates), status (needs_input when anything is missing)}; render goals end with the packs' audits-render then renders-picture capabilities.",
            schema(json!({ "type": "object", "properties": {
                "max_steps": { "type": "integer", "minimum": 1, "maximum": 16 },
                "custom_steps": { "type": "array", "items": { "type": "string", "minLength": 1, "maxLength": 500 }, "maxItems": 16 }
            }, "additionalProperties": false })),
        )
        .with_annotations(read_only()),
        Tool::new(
            ACT,
            "Run one step: its tool_hint (or tool_name, resolved canonically) with its args (or tool_args); dry_run only resolves and validates. A step with status needs_input is never sent as it is: the user is asked (elicitation/create in form mode on 2025-11-25, an input_required result on 2026-07-28), or, when the client can be asked nothing, the answer is INVALID_CAPABILITY_ARGUMENTS with needs_input (each missing argument's schema and candidates) to supply in tool_args.",
            schema(json!({ "type": "object", "properties": {
                "step_id": { "type": "string", "minLength": 1, "maxLength": 64 },
                "tool_name": { "type": "string", "minLength": 1, "maxLength": 64 },
                "tool_args": { "type": "object" },
                "dry_run": { "type": "boolean" }
            }, "required": ["step_id"], "additionalProperties": false })),
        ),
        Tool::new(
            CRITIQUE,
            "Check a done step against typed expectations measured in the scene: object_exists, object_absent, property (a path of the reads-object capability's answer, with equals / at_least / at_most), read (a path of any read-only capability's answer), material, spatial (constraints of the measures-spatial capability), delta, visual (a small render: not empty, not uniform, subject inside the frame). `$added` / `$added:TYPE` stand for the object the step added. Nothing passes by default; a failure adds a diagnostic step {step_id}_fix_N.",
            schema(json!({ "type": "object", "properties": {
                "step_id": { "type": "string", "minLength": 1, "maxLength": 64 },
                "expectations": { "type": "array", "items": { "type": "object" }, "minItems": 1, "maxItems": 32 }
            }, "required": ["step_id", "expectations"], "additionalProperties": false })),
        )
        .with_annotations(read_only()),
        Tool::new(STATUS, "This connection's goal, plan with statuses, progress and critiques.", schema(json!({ "type": "object", "properties": {}, "additionalProperties": false })))
            .with_annotations(read_only()),
    ]
}

fn bad(message: impl Into<String>) -> CallToolResult {
    error_result(json!({ "code": "INVALID_TOOL_ARGUMENTS", "message": message.into() }))
}

fn session_error(e: &SessionError) -> CallToolResult {
    error_result(e.body())
}

/// A failed step: the body `execute_capability` would answer, with the step's id.
fn step_error(e: &SessionError, step_id: &str) -> CallToolResult {
    let mut body = e.body();
    body["step_id"] = json!(step_id);
    error_result(body)
}

fn lock(session: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    session.lock().unwrap_or_else(|p| p.into_inner())
}

/// Each planner tool's input schema, compiled once: a call is checked against the
/// schema it declares (lengths, counts, types, no unknown fields) before anything runs.
static VALIDATORS: std::sync::LazyLock<Vec<(String, jsonschema::Validator)>> = std::sync::LazyLock::new(|| {
    tools()
        .into_iter()
        .map(|t| {
            let schema = Value::Object((*t.input_schema).clone());
            let validator = jsonschema::options().with_draft(jsonschema::Draft::Draft202012).build(&schema).expect("the planner tools' schemas compile");
            (t.name.to_string(), validator)
        })
        .collect()
});

/// Why a planner tool's arguments do not fit its schema (None: they fit).
fn schema_errors(name: &str, args: &Map<String, Value>) -> Option<String> {
    let (_, validator) = VALIDATORS.iter().find(|(n, _)| n == name)?;
    let value = Value::Object(args.clone());
    if validator.is_valid(&value) {
        return None;
    }
    // Each error quotes at most a preview of the failing value, and names the bound.
    let errors: Vec<String> = validator.iter_errors(&value).take(8).map(|e| crate::echo::schema_error(&e)).collect();
    Some(errors.join("; "))
}

/// Run a session operation off the async worker: it may wait for the session's lock
/// (held while one of its steps runs) or for the app.
async fn blocking<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> Result<T, CallToolResult> {
    tokio::task::spawn_blocking(f).await.map_err(|e| error_result(json!({ "code": "INTERNAL_ERROR", "message": format!("{what} ended abnormally: {e}") })))
}

/// What `planner_act` needs to ask the user for a step's missing arguments
/// ([`super::planner_input`]); None where nobody can be asked.
pub struct Asking<'a> {
    pub context: &'a RequestContext<RoleServer>,
    pub request: &'a CallToolRequestParams,
    pub pending: &'a super::planner_input::Pending,
}

/// One planner tool call (None: not a planner tool).
pub async fn dispatch(core: Arc<Core>, session: Arc<Mutex<Session>>, name: &str, args: &Map<String, Value>, asking: Option<Asking<'_>>) -> Option<CallToolResponse> {
    if ![SET_GOAL, PLAN, ACT, CRITIQUE, STATUS].contains(&name) {
        return None;
    }
    if name == ACT
        && let Some(asking) = asking
        && !args.contains_key("tool_args")
        && !args.get("dry_run").and_then(Value::as_bool).unwrap_or(false)
    {
        let step_id = args.get("step_id").and_then(Value::as_str).unwrap_or_default().to_string();
        let waiting = {
            let s = lock(&session);
            s.steps().iter().find(|p| p.step_id == step_id && !p.needs_input.is_empty() && p.status == crate::planner::plan::StepStatus::NeedsInput).cloned().map(|p| (p, s.generation()))
        };
        if let Some((step, generation)) = waiting {
            use super::planner_input::{Asked, Question, ask, merged};
            let question = Question { step_id: &step.step_id, description: &step.description, needs: &step.needs_input, generation };
            match ask(asking.context, asking.request, asking.pending, &question).await {
                // The goal or the plan changed while the user was answering: the answer
                // was for a step that is gone, so nothing runs.
                Asked::Answered(_) if lock(&session).generation() != generation => {
                    let body = json!({ "code": "INVALID_TOOL_ARGUMENTS", "step_id": step.step_id, "message": "the goal or the plan changed while the user was asked; nothing was run: plan again" });
                    return Some(CallToolResponse::from(error_result(body)));
                }
                Asked::Answered(values) => {
                    let mut answered = args.clone();
                    answered.insert("tool_args".into(), merged(&step.args, values));
                    return dispatch_result(core, session, name, &answered).await.map(CallToolResponse::from);
                }
                Asked::InputRequired(result) => return Some(CallToolResponse::from(result)),
                Asked::Declined(why) => {
                    let body = json!({ "code": "INVALID_CAPABILITY_ARGUMENTS", "step_id": step.step_id, "message": format!("step {} was not run: it needs {} and {why}", step.step_id, step.missing().collect::<Vec<_>>().join(", ")), "needs_input": step.needs_input });
                    return Some(CallToolResponse::from(error_result(body)));
                }
                Asked::NotAsked => {}
            }
        }
    }
    dispatch_result(core, session, name, args).await.map(CallToolResponse::from)
}

async fn dispatch_result(core: Arc<Core>, session: Arc<Mutex<Session>>, name: &str, args: &Map<String, Value>) -> Option<CallToolResult> {
    // The goal's bound first, so both goal tools refuse an oversized goal alike.
    if name == SET_GOAL
        && let Some(refusal) = args.get("goal").and_then(Value::as_str).and_then(|g| super::results::too_long("goal", g, MAX_GOAL_CHARS))
    {
        return Some(refusal);
    }
    if let Some(errors) = schema_errors(name, args) {
        return Some(bad(format!("{name}: {errors}")));
    }
    let text = |k: &str| args.get(k).and_then(Value::as_str).map(String::from);
    Some(match name {
        SET_GOAL => {
            let goal = text("goal").unwrap_or_default();
            let profile = match text("profile").map(|p| p.parse::<Profile>()).transpose() {
                Ok(p) => p.unwrap_or_default(),
                Err(e) => return Some(bad(e.to_string())),
            };
            let (g, s) = (goal.clone(), session.clone());
            match blocking("setting the goal", move || lock(&s).set_goal(&g, profile)).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Some(bad(e.to_string())),
                Err(r) => return Some(r),
            }
            let (family, key) = core.pick(&goal);
            ok_result(json!({ "goal": goal.trim(), "profile": profile, "routing_preview": { "family": family, "key": key }, "next": "Call planner_plan." }))
        }
        PLAN => {
            let max_steps = args.get("max_steps").and_then(Value::as_u64).map(|n| n as usize);
            let custom: Vec<String> = args.get("custom_steps").and_then(|v| serde_json::from_value(v.clone()).ok()).unwrap_or_default();
            // Planning reads the scene's names (one read-only bridge call).
            let run = move || {
                let pick = |t: &str| core.pick(t).1;
                let mut s = lock(&session);
                let steps = s.plan(&core.path(), &pick, max_steps, &custom)?.to_vec();
                Ok::<_, SessionError>(json!({ "goal": s.goal(), "plan": steps, "step_count": steps.len() }))
            };
            match blocking("planning", run).await {
                Ok(Ok(doc)) => ok_result(doc),
                Ok(Err(e)) => session_error(&e),
                Err(r) => r,
            }
        }
        ACT => {
            let step_id = text("step_id").unwrap_or_default();
            let request = ActRequest { tool_name: text("tool_name"), tool_args: args.get("tool_args").cloned(), dry_run: args.get("dry_run").and_then(Value::as_bool).unwrap_or(false) };
            let (id, gate) = (step_id.clone(), core.clone());
            match blocking("the step", move || lock(&session).act(&gate.path(), &step_id, &request)).await {
                Ok(Ok(mut doc)) => {
                    let images = super::images::take(&mut doc);
                    let mut r = ok_result(doc);
                    r.content.extend(images);
                    r
                }
                // The call path already forgot what it believed about an app it found gone.
                Ok(Err(e)) => step_error(&e, &id),
                Err(r) => r,
            }
        }
        CRITIQUE => {
            let step_id = text("step_id").unwrap_or_default();
            let expectations: Vec<Expectation> = match args.get("expectations").map(|v| serde_json::from_value(v.clone())) {
                Some(Ok(e)) => e,
                Some(Err(e)) => return Some(bad(format!("expectations: {}", crate::echo::preview(&e.to_string())))),
                None => return Some(bad("expectations are required")),
            };
            if let Some((i, p)) = expectations.iter().enumerate().find_map(|(i, e)| e.problem().map(|p| (i, p))) {
                return Some(bad(format!("expectation {}: {p}", i + 1)));
            }
            match blocking("the critique", move || lock(&session).critique(&core.path(), &step_id, &expectations)).await {
                Ok(Ok(record)) => ok_result(serde_json::to_value(&record).unwrap_or(Value::Null)),
                Ok(Err(e)) => session_error(&e),
                Err(r) => r,
            }
        }
        _ => match blocking("the status", move || lock(&session).status()).await {
            Ok(doc) => ok_result(doc),
            Err(r) => r,
        },
    })
}
