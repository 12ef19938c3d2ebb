//! `planner_act` on a step that needs input: the question goes to the user, in the form
//! the connection's protocol revision has.
//!
//! - **2026-07-28 and later**: a server may not send requests of its own; the tool call
//!   answers an `input_required` result holding one `elicitation/create` (form mode) and
//!   an opaque `requestState`. The client asks its user and calls again with the
//!   answers (`inputResponses`) and the same `requestState`.
//! - **2025-11-25** (and 2025-06-18): when the client declared form elicitation, the
//!   server sends `elicitation/create` while the tool call waits, and runs the step with
//!   the answer.
//! - Otherwise the step comes back as a structured answer (`needs_input`), and the
//!   client answers with `tool_args`.
//!
//! Security reasoning: the answers come from the client, so they are only ever
//! arguments of the step the user was asked about. They are merged into the step's
//! arguments and the step then runs through the same call path as any other (schema
//! validation, the app gate, the sandbox, the bridge gate): an answer cannot choose
//! another capability or skip a check. `requestState` is untrusted (the client echoes
//! it): it is a random handle the server keeps beside the step it was issued for, used
//! once; a state that was not issued here, was issued for another step, or was used
//! already asks again instead of running anything.

use crate::planner::args::NeededInput;
use rmcp::model::{CallToolRequestParams, ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, InputRequest, InputRequiredResult, ProtocolVersion};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::{Map, Value, json};
use std::sync::Mutex;

/// The key of the one input request an `input_required` result holds.
const REQUEST_KEY: &str = "step_input";
/// At most this many unanswered `requestState` handles per connection (the oldest go).
const MAX_PENDING: usize = 16;

/// The `requestState` handles this connection issued, each for one step.
#[derive(Default)]
pub struct Pending {
    /// (handle, step id, plan generation)
    issued: Mutex<Vec<(String, String, u64)>>,
}

impl Pending {
    fn issue(&self, step_id: &str, generation: u64) -> String {
        let handle = format!("{:032x}", rand_u128());
        let mut issued = self.issued.lock().unwrap_or_else(|p| p.into_inner());
        if issued.len() >= MAX_PENDING {
            issued.remove(0);
        }
        issued.push((handle.clone(), step_id.to_string(), generation));
        handle
    }

    /// Take a handle issued for `step_id` of this plan (once).
    fn redeem(&self, handle: &str, step_id: &str, generation: u64) -> bool {
        let mut issued = self.issued.lock().unwrap_or_else(|p| p.into_inner());
        match issued.iter().position(|(h, s, g)| h == handle && s == step_id && *g == generation) {
            Some(i) => {
                issued.remove(i);
                true
            }
            None => false,
        }
    }
}

fn rand_u128() -> u128 {
    let mut bytes = [0u8; 16];
    // Without randomness the handle is still unique to this process (a counter), and
    // redeeming checks the step as well: guessing one runs nothing it was not asked for.
    if getrandom::fill(&mut bytes).is_err() {
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        bytes[..8].copy_from_slice(&COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed).to_le_bytes());
    }
    u128::from_le_bytes(bytes)
}

/// What asking gave.
pub enum Asked {
    /// The user's values, by argument.
    Answered(Map<String, Value>),
    /// The user declined or cancelled.
    Declined(&'static str),
    /// Return this and wait for the client's second call (2026-07-28).
    InputRequired(InputRequiredResult),
    /// The client can be asked nothing: answer with the structured `needs_input`.
    NotAsked,
}

/// An answer field: the argument's own schema when the form can hold it (a string,
/// number, integer, boolean or a choice), else a string holding JSON.
fn field(need: &NeededInput) -> (Value, bool) {
    let s = &need.schema;
    let kind = match s.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    };
    let description = need.reason.clone().or_else(|| s.get("description").and_then(Value::as_str).map(String::from)).unwrap_or_else(|| need.argument.clone());
    let choices: Vec<&Value> = need.candidates.iter().filter(|c| c.is_string()).collect();
    if !choices.is_empty() && (kind == Some("string") || s.get("enum").is_some() || kind.is_none()) {
        return (json!({ "type": "string", "title": need.argument, "description": description, "enum": choices }), false);
    }
    match kind {
        Some(t @ ("string" | "number" | "integer" | "boolean")) => (json!({ "type": t, "title": need.argument, "description": description }), false),
        _ => (json!({ "type": "string", "title": need.argument, "description": format!("{description} (as JSON: {})", crate::echo::preview(&s.to_string())) }), true),
    }
}

/// The form for the step's missing arguments: its schema, the keys it asks, and which
/// fields carry JSON. A rule "at least one of" becomes its choices as optional fields
/// (JSON text: the need does not carry their schemas); a step the schema refuses as a
/// whole cannot be put as a form (None: the client gets the structured answer).
fn form(needs: &[NeededInput]) -> Option<(ElicitationSchema, Vec<String>, Vec<String>)> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut as_json = Vec::new();
    for need in needs {
        if need.argument == "arguments" {
            return None;
        }
        if need.argument.contains(" | ") {
            for choice in need.candidates.iter().filter_map(Value::as_str) {
                let description = format!("{} (as JSON); {}", choice, need.reason.as_deref().unwrap_or("at least one of these"));
                properties.insert(choice.to_string(), json!({ "type": "string", "title": choice, "description": description }));
                as_json.push(choice.to_string());
            }
            continue;
        }
        let (schema, json_text) = field(need);
        if json_text {
            as_json.push(need.argument.clone());
        }
        properties.insert(need.argument.clone(), schema);
        required.push(need.argument.clone());
    }
    let asked: Vec<String> = properties.keys().cloned().collect();
    let schema = json!({ "type": "object", "properties": properties, "required": required });
    serde_json::from_value(schema).ok().map(|s| (s, asked, as_json))
}

fn message(step_id: &str, description: &str, needs: &[NeededInput]) -> String {
    let names: Vec<&str> = needs.iter().map(|n| n.argument.as_str()).collect();
    format!("Step {step_id} ({}) needs {} that the goal and the scene do not give.", crate::echo::preview(description), names.join(", "))
}

/// The values of an accepted answer for the arguments asked (JSON fields parsed; any
/// other key the client put in is dropped), or why there are none.
fn values(result: &ElicitResult, asked: &[String], as_json: &[String]) -> Result<Map<String, Value>, &'static str> {
    match result.action {
        ElicitationAction::Accept => {}
        ElicitationAction::Decline => return Err("the user declined to give it"),
        _ => return Err("the user cancelled"),
    }
    let mut out: Map<String, Value> = result.content.as_ref().and_then(Value::as_object).ok_or("the answer holds no values")?.iter().filter(|(k, _)| asked.contains(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
    if out.is_empty() {
        return Err("the answer holds none of the values asked for");
    }
    for key in as_json {
        if let Some(Value::String(text)) = out.get(key).cloned() {
            out.insert(key.clone(), serde_json::from_str(&text).unwrap_or(Value::String(text)));
        }
    }
    Ok(out)
}

fn supports_form(context: &RequestContext<RoleServer>) -> bool {
    context.client_capabilities().and_then(|c| c.elicitation).is_some_and(|e| e.form.is_some() || e.url.is_none())
}

/// Ask the user for a step's missing arguments, the way this connection can.
/// The step being asked about: its id, what it does, what it needs, and the plan it
/// belongs to.
pub struct Question<'a> {
    pub step_id: &'a str,
    pub description: &'a str,
    pub needs: &'a [NeededInput],
    pub generation: u64,
}

pub async fn ask(context: &RequestContext<RoleServer>, request: &CallToolRequestParams, pending: &Pending, q: &Question<'_>) -> Asked {
    let (step_id, description, needs) = (q.step_id, q.description, q.needs);
    let Some((schema, asked, as_json)) = form(needs) else { return Asked::NotAsked };
    let params = ElicitRequestParams::FormElicitationParams { meta: None, message: message(step_id, description, needs), requested_schema: schema };
    if context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28) {
        // The second call: answers for the state this connection issued for this step.
        if let (Some(state), Some(responses)) = (&request.request_state, &request.input_responses)
            && pending.redeem(state, step_id, q.generation)
            && let Some(answer) = responses.get(REQUEST_KEY).and_then(|v| serde_json::from_value::<ElicitResult>(v.clone()).ok())
        {
            return match values(&answer, &asked, &as_json) {
                Ok(v) => Asked::Answered(v),
                Err(why) => Asked::Declined(why),
            };
        }
        let requests = [(REQUEST_KEY.to_string(), InputRequest::Elicitation(ElicitRequest::new(params)))].into_iter().collect();
        return Asked::InputRequired(InputRequiredResult::new(Some(requests), Some(pending.issue(step_id, q.generation))));
    }
    if !supports_form(context) {
        return Asked::NotAsked;
    }
    match context.peer.create_elicitation_with_timeout(params, Some(crate::limits::ELICITATION_TIMEOUT)).await {
        Ok(answer) => match values(&answer, &asked, &as_json) {
            Ok(v) => Asked::Answered(v),
            Err(why) => Asked::Declined(why),
        },
        Err(e) => {
            tracing::info!(error = %e, "elicitation failed; answering with needs_input");
            Asked::NotAsked
        }
    }
}

/// The step's arguments with the user's answers in.
pub fn merged(args: &Value, answers: Map<String, Value>) -> Value {
    let mut out = args.as_object().cloned().unwrap_or_default();
    out.extend(answers);
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(argument: &str, schema: Value, candidates: Vec<Value>) -> NeededInput {
        NeededInput { argument: argument.into(), schema, candidates, reason: None }
    }

    #[test]
    fn the_form_holds_primitives_choices_and_json_text() {
        let needs = [
            need("text", json!({ "type": "string", "description": "What it says" }), vec![]),
            need("type", json!({ "enum": ["cube", "uv_sphere"] }), vec![json!("cube"), json!("uv_sphere")]),
            need("location", json!({ "type": ["array", "null"], "maxItems": 3 }), vec![]),
        ];
        let (schema, asked, as_json) = form(&needs).unwrap();
        let doc = serde_json::to_value(&schema).unwrap();
        assert_eq!(doc["properties"]["text"]["type"], "string");
        assert_eq!(doc["properties"]["type"]["enum"], json!(["cube", "uv_sphere"]));
        assert_eq!(doc["properties"]["location"]["type"], "string", "an array is asked as JSON text");
        assert_eq!(as_json, ["location"]);
        let answer: ElicitResult = serde_json::from_value(json!({ "action": "accept", "content": { "text": "hi", "location": "[1, 2, 3]" } })).unwrap();
        assert_eq!(asked, ["location", "text", "type"]);
        assert_eq!(Value::Object(values(&answer, &asked, &as_json).unwrap()), json!({ "text": "hi", "location": [1, 2, 3] }));
        let no: ElicitResult = serde_json::from_value(json!({ "action": "decline" })).unwrap();
        assert!(values(&no, &asked, &as_json).is_err());
        // Only what was asked: a key the form did not hold never reaches the step.
        let sly: ElicitResult = serde_json::from_value(json!({ "action": "accept", "content": { "text": "hi", "object": "Camera" } })).unwrap();
        assert_eq!(Value::Object(values(&sly, &asked, &as_json).unwrap()), json!({ "text": "hi" }));
        let none: ElicitResult = serde_json::from_value(json!({ "action": "accept", "content": { "object": "Camera" } })).unwrap();
        assert!(values(&none, &asked, &as_json).is_err());
    }

    #[test]
    fn one_of_several_is_optional_fields_and_a_refused_whole_is_not_a_form() {
        let any = NeededInput { argument: "location | scale".into(), schema: json!({}), candidates: vec![json!("location"), json!("scale")], reason: Some("at least one of location, scale".into()) };
        let (schema, asked, as_json) = form(&[any]).unwrap();
        let doc = serde_json::to_value(&schema).unwrap();
        assert_eq!(asked, ["location", "scale"]);
        assert_eq!(as_json, ["location", "scale"]);
        assert!(doc["required"].as_array().is_none_or(|r| r.is_empty()), "{doc}");
        let answer: ElicitResult = serde_json::from_value(json!({ "action": "accept", "content": { "scale": "[2, 2, 2]" } })).unwrap();
        assert_eq!(Value::Object(values(&answer, &asked, &as_json).unwrap()), json!({ "scale": [2, 2, 2] }));
        let whole = NeededInput { argument: "arguments".into(), schema: json!({}), candidates: vec![], reason: Some("refused".into()) };
        assert!(form(&[whole]).is_none());
    }

    #[test]
    fn a_request_state_is_good_once_and_only_for_its_step() {
        let pending = Pending::default();
        let handle = pending.issue("step_2", 1);
        assert!(!pending.redeem(&handle, "step_3", 1), "another step");
        assert!(!pending.redeem(&handle, "step_2", 2), "the same step id of a later plan");
        assert!(!pending.redeem("forged", "step_2", 1));
        assert!(pending.redeem(&handle, "step_2", 1));
        assert!(!pending.redeem(&handle, "step_2", 1), "once");
    }
}
