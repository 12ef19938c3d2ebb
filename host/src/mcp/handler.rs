//! The MCP server handler: tools/list and tools/call for both surfaces.
//!
//! Execution is synchronous wasm plus a blocking bridge call. A quick read (every
//! bridge command it may send is a catalog `read` within the default timeout) runs on
//! the thread that received the request: no hand-off, which would cost tens of
//! microseconds. Anything longer runs on tokio's blocking pool, so a render does not
//! stall the session's other requests (or, over HTTP, other sessions).

use super::availability::{AvailabilityCache, ServerPolicy, ServerStatus};
use super::shared::SharedCore;
use super::session::{Execution, LastSearch, SessionState};
use super::progress::Forwarder;
use super::tools;
use crate::bridge::HttpBridgeClient;
use crate::limits::tool_inputs::{MAX_FAMILY_CHARS, MAX_GOAL_CHARS, MAX_KEY_CHARS, MAX_QUERY_CHARS};
use crate::report::{self, ErrorCode};
use crate::router::{self, FamilyTable, SearchIndex};
use crate::runtime::{CallError, Resolution, Runtime};
use crate::sandbox::ProgressSink;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Which surface this server offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    Guided,
    Expert,
    /// The Planner / Actor / Critic tools (`capstan serve --planner`).
    Planner,
}

/// What every session shares: the runtime, the index, the bridge client.
pub struct Core {
    pub runtime: Runtime,
    pub index: SearchIndex,
    /// The routing families every loaded pack declares.
    pub families: FamilyTable,
    pub client: Arc<HttpBridgeClient>,
    pub availability: AvailabilityCache,
    guided_tools: Vec<Tool>,
    expert_tools: Vec<(String, Tool)>,
    expert_keys: HashMap<String, String>,
    /// The server each capability talks to, decided once at start-up.
    server_by_key: HashMap<String, String>,
    /// The bridge commands each capability may send.
    commands_by_key: HashMap<String, Vec<String>>,
}

impl Core {
    pub fn new(runtime: Runtime, client: Arc<HttpBridgeClient>, home: &crate::home::CapstanHome) -> Self {
        let families = runtime.families();
        let index = runtime.search_index(families.clone());
        let servers = ServerPolicy::from_packs(runtime.packs());
        let mut expert_tools = Vec::new();
        let mut expert_keys = HashMap::new();
        let mut server_by_key = HashMap::new();
        let mut commands_by_key = HashMap::new();
        // (capability, its server): the server of a pack capability's bridge commands
        // (one per pack today); a workflow talks to the servers of its steps (one,
        // blender, today), so it is hidden and refused with them.
        let mut offered: Vec<(&crate::plugin::CapabilitySpec, String)> = runtime
            .capabilities()
            .map(|(pack, cap)| {
                let server = cap
                    .bridge_commands
                    .first()
                    .and_then(|c| pack.manifest.server_of(c))
                    .or_else(|| pack.manifest.servers.keys().next().map(String::as_str))
                    .unwrap_or_default()
                    .to_string();
                (&**cap, server)
            })
            .collect();
        let pack_servers: HashMap<&str, String> = offered.iter().map(|(cap, server)| (cap.key.as_str(), server.clone())).collect();
        offered.extend(runtime.workflows().map(|w| {
            let server = w.steps.iter().find_map(|s| pack_servers.get(s.key.as_str())).cloned().unwrap_or_default();
            (&*w.spec, server)
        }));
        for (cap, server) in offered {
            commands_by_key.insert(cap.key.clone(), cap.bridge_commands.clone());
            let tool = tools::expert(cap);
            expert_keys.insert(tool.name.to_string(), cap.key.clone());
            server_by_key.insert(cap.key.clone(), server.clone());
            expert_tools.push((server, tool));
        }
        Core {
            runtime,
            index,
            families,
            client,
            availability: AvailabilityCache::new(servers, home.clone()),
            guided_tools: tools::guided(),
            expert_tools,
            expert_keys,
            server_by_key,
            commands_by_key,
        }
    }

    /// What the running bridges lack (an add-on older than this host), read once per
    /// request: per available server the commands its bridge does not serve, and the
    /// capabilities that need them. Those are hidden, not failed mid-session with
    /// `unknown_command`.
    fn skew(&self) -> Skew {
        let mut missing = HashMap::new();
        for (server, status) in self.availability.all(&self.client) {
            if !status.is_available() {
                continue;
            }
            let Some(live) = self.client.live_identity(&server) else { continue };
            let Some(served) = live.get("commands").and_then(Value::as_array) else { continue };
            let served: std::collections::HashSet<&str> = served.iter().filter_map(Value::as_str).collect();
            let mut lacking: Vec<String> = self
                .commands_by_key
                .iter()
                .filter(|(key, _)| self.server_of(key) == Some(server.as_str()))
                .flat_map(|(_, cmds)| cmds.iter().filter(|c| !served.contains(c.as_str())).cloned())
                .collect();
            lacking.sort();
            lacking.dedup();
            if !lacking.is_empty() {
                missing.insert(server, lacking);
            }
        }
        let keys = self
            .commands_by_key
            .iter()
            .filter(|(key, cmds)| {
                self.server_of(key).and_then(|s| missing.get(s)).is_some_and(|m: &Vec<String>| cmds.iter().any(|c| m.contains(c)))
            })
            .map(|(k, _)| k.clone())
            .collect();
        Skew { missing, keys }
    }

    /// The app gate for one capability, after its arguments were checked: its server is
    /// available and its running add-on serves every command the capability may send.
    /// The error is the body `execute_capability` answers (`APP_UNAVAILABLE` with the
    /// state object), so every surface that runs a capability refuses it alike.
    pub fn admit(&self, key: &str) -> Result<(), Value> {
        if let Some(server) = self.server_of(key)
            && let Some(ServerStatus::Unavailable(state)) = self.availability.status(&self.client, server)
        {
            return Err(json!({ "code": ErrorCode::AppUnavailable, "message": format!("{key} needs {server}, which is unavailable ({})", state.detail), "availability": state }));
        }
        let mut skew = self.skew();
        if skew.keys.contains(key) {
            let server = self.server_of(key).unwrap_or_default().to_string();
            let missing = skew.missing.remove(&server).unwrap_or_default();
            return Err(json!({
                "code": ErrorCode::AppUnavailable,
                "message": format!("{key} needs bridge commands the running {server} add-on lacks ({}); update the add-on (capstan blender install-addon) and restart {server}", missing.join(", ")),
                "availability": { "server": server, "state": "addon_outdated", "missing_commands": missing, "retry": "after_user_action" },
            }));
        }
        Ok(())
    }

    fn server_of(&self, key: &str) -> Option<&str> {
        self.server_by_key.get(key).map(String::as_str)
    }

    fn unavailable_servers(&self) -> Vec<(String, ServerStatus)> {
        self.availability.all(&self.client).into_iter().filter(|(_, s)| !s.is_available()).collect()
    }

    fn hidden_server_names(&self) -> Vec<String> {
        self.unavailable_servers().into_iter().map(|(s, _)| s).collect()
    }
}

/// Version skew between this host and the running add-ons (`Core::skew`).
struct Skew {
    /// server -> commands its running bridge lacks.
    missing: HashMap<String, Vec<String>>,
    /// Capabilities hidden because they need one of those.
    keys: std::collections::BTreeSet<String>,
}

/// Tell the client to list tools again (`notifications/tools/list_changed`) when
/// what it was offered changes: the pack store changed (any surface), or, on the
/// expert surface, a server came or went. Runs while the session's transport is open.
async fn watch_tool_list(shared: Arc<SharedCore>, surface: Surface, peer: Peer<RoleServer>) {
    let hidden_now = |core: Arc<Core>| async move {
        if surface != Surface::Expert {
            return Some(Vec::new());
        }
        tokio::task::spawn_blocking(move || core.hidden_server_names()).await.ok()
    };
    let mut generation = shared.generation();
    let Some(mut offered) = hidden_now(shared.get()).await else { return };
    loop {
        tokio::time::sleep(crate::limits::TOOL_LIST_WATCH_INTERVAL).await;
        if peer.is_transport_closed() {
            return;
        }
        let Some(hidden) = hidden_now(shared.get()).await else { return };
        let now = shared.generation();
        if hidden != offered || now != generation {
            tracing::info!(?hidden, "the offered tools changed; telling the client to list them again");
            (offered, generation) = (hidden, now);
            if peer.notify_tool_list_changed().await.is_err() {
                return;
            }
        }
    }
}

/// One MCP session.
#[derive(Clone)]
pub struct CapstanServer {
    shared: Arc<SharedCore>,
    surface: Surface,
    session: Arc<Mutex<SessionState>>,
    /// This connection's planner session (never shared between connections).
    planner: Arc<Mutex<crate::planner::session::Session>>,
}

pub(super) fn ok_result(doc: Value) -> CallToolResult {
    let text = crate::redact::redact(&doc.to_string()).into_owned();
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(doc);
    r
}

/// A tool error. Every string in it is cut to
/// [`MAX_ERROR_TEXT_CHARS`](crate::echo::MAX_ERROR_TEXT_CHARS) (the last layer of
/// [`crate::echo`]): an error never grows with what the caller sent.
pub(super) fn error_result(mut error: Value) -> CallToolResult {
    crate::echo::cap_strings(&mut error, crate::echo::MAX_ERROR_TEXT_CHARS);
    let doc = json!({ "error": error });
    let text = crate::redact::redact(&doc.to_string()).into_owned();
    let mut r = CallToolResult::error(vec![ContentBlock::text(text)]);
    r.structured_content = Some(doc);
    r
}

fn bad_request(message: impl Into<String>) -> CallToolResult {
    error_result(json!({ "code": ErrorCode::InvalidToolArguments, "message": message.into() }))
}

fn str_arg<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}

/// The refusal of a text argument longer than its declared bound (None: it fits), before
/// anything else looks at it: `INVALID_TOOL_ARGUMENTS` naming the argument and the bound,
/// quoting only a preview of the value.
pub(super) fn too_long(argument: &str, text: &str, max_chars: usize) -> Option<CallToolResult> {
    // Counting stops one past the bound: a fitting value costs no more than its bound.
    text.chars().nth(max_chars)?;
    let chars = text.chars().count();
    Some(error_result(json!({
        "code": ErrorCode::InvalidToolArguments,
        "message": format!("{argument} is {chars} characters; the most accepted is {max_chars}"),
        "limit": { "argument": argument, "max_chars": max_chars, "chars": chars, "bytes": text.len() },
        "value_preview": crate::echo::preview(text),
    })))
}

/// [`too_long`] for each named text argument that is present.
fn check_lengths(args: &Map<String, Value>, bounds: &[(&str, usize)]) -> Result<(), CallToolResult> {
    for (name, max) in bounds {
        if let Some(refusal) = str_arg(args, name).and_then(|text| too_long(name, text, *max)) {
            return Err(refusal);
        }
    }
    Ok(())
}

impl CapstanServer {
    pub fn new(shared: Arc<SharedCore>, surface: Surface) -> Self {
        CapstanServer { shared, surface, session: Arc::new(Mutex::new(SessionState::default())), planner: Default::default() }
    }

    /// The current core (a new one after the pack store changed).
    fn core(&self) -> Arc<Core> {
        self.shared.get()
    }

    fn session(&self) -> std::sync::MutexGuard<'_, SessionState> {
        self.session.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn hidden_lines(&self) -> Vec<Value> {
        let core = self.core();
        let mut lines: Vec<Value> = core.unavailable_servers().iter().map(|(name, status)| {
            let mut line = status.to_json(name);
            line["hidden"] = json!(format!("capabilities of {name} are hidden: {}", match status {
                ServerStatus::Unavailable(a) => a.user_action.clone(),
                ServerStatus::Available { .. } => String::new(),
            }));
            line
        }).collect();
        let skew = core.skew();
        let mut missing: Vec<(&String, &Vec<String>)> = skew.missing.iter().collect();
        missing.sort();
        for (server, commands) in missing {
            let keys: Vec<&String> = skew.keys.iter().filter(|k| core.server_of(k) == Some(server.as_str())).collect();
            lines.push(json!({
                "server": server, "state": "addon_outdated", "missing_commands": commands, "capabilities": keys,
                "hidden": format!("{} capabilities of {server} are hidden: the running add-on lacks commands {} (update it: capstan blender install-addon, then restart {server})", keys.len(), commands.join(", ")),
            }));
        }
        lines
    }

    fn search_hits(&self, query: &str, family: Option<&str>, limit: usize) -> Vec<router::SearchHit> {
        let goal_family = self.session().family.clone();
        let core = self.core();
        let hidden: Vec<String> = core.hidden_server_names();
        let skewed = core.skew().keys;
        let hits = core.index.search(query, family, goal_family.as_deref(), limit + 16 + skewed.len());
        hits.into_iter()
            .filter(|h| core.server_of(&h.key).is_none_or(|s| !hidden.iter().any(|x| x == s)) && !skewed.contains(&h.key))
            .take(limit)
            .collect()
    }

    fn set_goal(&self, args: &Map<String, Value>) -> CallToolResult {
        if let Err(refusal) = check_lengths(args, &[("goal", MAX_GOAL_CHARS)]) {
            return refusal;
        }
        let Some(goal) = str_arg(args, "goal").map(str::trim).filter(|g| !g.is_empty()) else {
            return bad_request("goal must be a non-empty string");
        };
        let core = self.core();
        let route = router::route(goal, &core.families, Some(&core.index));
        {
            let mut s = self.session();
            s.goal = Some(goal.to_string());
            s.family = Some(route.family.clone());
        }
        let suggestions = self.search_hits(goal, Some(&route.family), 5);
        let suggestions = if suggestions.is_empty() { self.search_hits(goal, None, 5) } else { suggestions };
        ok_result(json!({ "goal": goal, "family": route.family, "basis": route.basis, "suggestions": suggestions, "hidden": self.hidden_lines() }))
    }

    fn status(&self) -> CallToolResult {
        let availability: Vec<Value> = self.core().availability.all(&self.core().client).iter().map(|(n, s)| s.to_json(n)).collect();
        let s = self.session().clone();
        ok_result(json!({
            "goal": s.goal, "family": s.family, "last_search": s.last_search,
            "executions": s.executions, "execution_count": s.execution_count, "availability": availability,
        }))
    }

    fn search(&self, args: &Map<String, Value>) -> CallToolResult {
        if let Err(refusal) = check_lengths(args, &[("query", MAX_QUERY_CHARS), ("family", MAX_FAMILY_CHARS)]) {
            return refusal;
        }
        let Some(query) = str_arg(args, "query").filter(|q| !q.trim().is_empty()) else {
            return bad_request("query must be a non-empty string");
        };
        let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(5).clamp(1, 50) as usize;
        let family = str_arg(args, "family");
        let results = self.search_hits(query, family, limit);
        self.session().last_search = Some(LastSearch { query: query.to_string(), family: family.map(String::from), results: results.len() });
        ok_result(json!({ "query": query, "family": family, "results": results, "hidden": self.hidden_lines() }))
    }

    fn resolve_canonical(&self, key: &str) -> Result<(), CallToolResult> {
        match self.core().runtime.resolve(key) {
            Resolution::Canonical => Ok(()),
            Resolution::Alias { canonical } => Err(error_result(report::error_json(&CallError::NonCanonical { key: key.into(), canonical }))),
            Resolution::NotFound => Err(error_result(report::error_json(&CallError::NotFound { key: key.into() }))),
        }
    }

    fn schema(&self, args: &Map<String, Value>) -> CallToolResult {
        let core = self.core();
        if let Err(refusal) = check_lengths(args, &[("key", MAX_KEY_CHARS)]) {
            return refusal;
        }
        let Some(key) = str_arg(args, "key") else { return bad_request("key must be a string") };
        if let Err(e) = self.resolve_canonical(key) {
            return e;
        }
        let spec = core.runtime.capability(key).expect("resolved as canonical");
        ok_result(json!({
            "key": spec.key, "family": spec.family, "summary": spec.summary, "description": spec.description,
            "input_schema": spec.input_schema, "output_schema": spec.output_schema, "mutates": spec.mutates, "destructive": spec.destructive, "examples": spec.examples,
        }))
    }

    /// Run a canonical capability (guided `execute_capability` and every expert tool);
    /// its progress reports go to `progress`.
    async fn execute(&self, key: &str, arguments: &Value, progress: Forwarder) -> CallToolResult {
        let mut result = self.execute_reporting(key, arguments, progress.sink()).await;
        progress.finish().await;
        // An error body is not in a declared output shape, and clients check
        // structuredContent against outputSchema even on errors: the text carries it.
        if result.is_error == Some(true) && self.declares_output(key) {
            result.structured_content = None;
        }
        result
    }

    async fn execute_reporting(&self, key: &str, arguments: &Value, progress: Option<ProgressSink>) -> CallToolResult {
        let core = self.core();
        let args_text = arguments.to_string();
        // Order: key, then arguments, then availability, then the sandbox: bad input
        // never waits on (or reaches) a bridge.
        if let Err(e) = core.runtime.check(key, &args_text) {
            let error = report::error_json(&e);
            self.session().record(Execution { key: key.into(), status: error["code"].as_str().unwrap_or("ERROR").into(), delta: None });
            return error_result(error);
        }
        if let Err(error) = core.admit(key) {
            self.session().record(Execution { key: key.into(), status: error["code"].as_str().unwrap_or("ERROR").into(), delta: None });
            return error_result(error);
        }
        // A quick read runs right here; anything that may take long (a mutation can
        // wait behind Blender's main thread, a render for minutes) runs on a blocking
        // thread, so the session keeps answering meanwhile.
        let outcome = if core.runtime.is_quick_read(key) {
            core.runtime.call_checked_reporting(key, &args_text, progress)
        } else {
            let (core, owned_key) = (core.clone(), key.to_string());
            match tokio::task::spawn_blocking(move || core.runtime.call_checked_reporting(&owned_key, &args_text, progress)).await {
                Ok(outcome) => outcome,
                Err(e) => {
                    tracing::error!(key, "the call's thread ended abnormally: {e}");
                    return error_result(json!({ "code": ErrorCode::InternalError, "message": format!("{key}: the call ended abnormally; capstan logged it") }));
                }
            }
        };
        match outcome {
            Ok(out) => {
                let mut doc = report::output_json(&out);
                self.session().record(Execution { key: key.into(), status: "ok".into(), delta: doc.get("delta").cloned() });
                // An expert tool with an output schema promises structuredContent in that
                // shape: the result alone, as checked (before images are taken out of the
                // text); the text keeps the whole answer. The guided `execute_capability`
                // declares none and keeps the whole answer.
                let structured = self.declares_output(key).then(|| doc["result"].clone());
                let images = super::images::take(&mut doc);
                let mut result = ok_result(doc);
                if let Some(structured) = structured {
                    result.structured_content = Some(structured);
                }
                result.content.extend(images);
                result
            }
            Err(e) => {
                let error = report::error_json(&e);
                if error["code"] == "APP_UNAVAILABLE" {
                    core.availability.invalidate();
                }
                self.session().record(Execution { key: key.into(), status: error["code"].as_str().unwrap_or("ERROR").into(), delta: None });
                error_result(error)
            }
        }
    }

    /// Whether this surface lists `key` with an `outputSchema` (expert tools only).
    fn declares_output(&self, key: &str) -> bool {
        self.surface == Surface::Expert && self.core().runtime.capability(key).is_some_and(|spec| spec.output_schema.is_some())
    }

    async fn dispatch(&self, name: &str, args: &Map<String, Value>, progress: Forwarder) -> Option<CallToolResult> {
        Some(match (self.surface, name) {
            (Surface::Guided, tools::SET_GOAL) => self.set_goal(args),
            (Surface::Guided, tools::GET_STATUS) => self.status(),
            (Surface::Guided, tools::SEARCH) => self.search(args),
            (Surface::Guided, tools::GET_SCHEMA) => self.schema(args),
            (Surface::Guided, tools::EXECUTE) => {
                if let Err(refusal) = check_lengths(args, &[("key", MAX_KEY_CHARS)]) {
                    return Some(refusal);
                }
                let Some(key) = str_arg(args, "key") else { return Some(bad_request("key must be a string")) };
                let arguments = args.get("arguments").cloned().unwrap_or_else(|| json!({}));
                self.execute(key, &arguments, progress).await
            }
            (Surface::Planner, name) => return super::planner_tools::dispatch(self.core(), self.planner.clone(), name, args).await,
            (Surface::Expert, super::python_exec::TOOL) => super::python_exec::execute(self.core(), args).await,
            (Surface::Guided, super::python_exec::TOOL) => super::python_exec::disabled("execute_python exists only on the expert surface (`capstan serve --expert`)"),
            (Surface::Expert, name) => {
                let key = self.core().expert_keys.get(name)?.clone();
                self.execute(&key, &Value::Object(args.clone()), progress).await
            }
            _ => return None,
        })
    }

    fn tool_list(&self) -> Vec<Tool> {
        match self.surface {
            Surface::Guided => self.core().guided_tools.clone(),
            Surface::Planner => super::planner_tools::tools(),
            Surface::Expert => {
                let hidden: Vec<String> = self.core().hidden_server_names();
                let core = self.core();
                let skewed = core.skew().keys;
                let mut tools: Vec<Tool> = core
                    .expert_tools
                    .iter()
                    .filter(|(server, t)| !hidden.contains(server) && core.expert_keys.get(t.name.as_ref()).is_none_or(|k| !skewed.contains(k)))
                    .map(|(_, t)| t.clone())
                    .collect();
                if super::python_exec::enabled() && !hidden.iter().any(|s| s == "blender") {
                    tools.push(super::python_exec::tool());
                }
                tools
            }
        }
    }
}

impl ServerHandler for CapstanServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build());
        info.server_info = Implementation::new("capstan", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(match self.surface {
            Surface::Guided => "Drive Blender safely: router_set_goal, then search_capabilities, get_capability_schema, and execute_capability with the canonical key.".into(),
            Surface::Expert => "Every available Blender capability as its own tool; each runs sandboxed, its arguments checked against its schema.".into(),
            Surface::Planner => "Plan, act and critique: planner_set_goal, planner_plan, then planner_act on each step and planner_critique with expectations measured in the scene; planner_status shows progress.".into(),
        });
        info
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        tokio::spawn(watch_tool_list(self.shared.clone(), self.surface, context.peer));
    }

    async fn list_tools(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tool_list()))
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        match self.dispatch(&request.name, &args, Forwarder::for_request(&context)).await {
            Some(result) => Ok(result.into()),
            None => Err(ErrorData::invalid_params(format!("no tool named {:?}", crate::echo::preview(&request.name)), None)),
        }
    }
}
