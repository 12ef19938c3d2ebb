//! One MCP session: `tools/list` and `tools/call` for the surface it serves. Each
//! surface is its own module (`guided`, `expert`, `planner_tools`); they share the
//! core, the call path and the answers (`results`), and none borrows from another.

use super::Core;
use super::progress::Forwarder;
use super::session::SessionState;
use super::shared::SharedCore;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams, GetTaskResult, Implementation, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use super::record::Recorder;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Which surface this server offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    Guided,
    Expert,
    /// The Planner / Actor / Critic tools (`capstan serve --planner`).
    Planner,
}

/// Tell the client to list tools again (`notifications/tools/list_changed`) when
/// what it was offered changes: the pack store changed (any surface), or, on the
/// expert surface, a server came or went. Runs while the session's transport is open.
async fn watch_tool_list(shared: Arc<SharedCore>, surface: Surface, peer: Peer<RoleServer>) {
    // What decides the expert list: the unavailable servers, and the capabilities the
    // running bridges lack commands for (the add-on skew; read from the availability
    // probe, so this costs a probe per `AVAILABILITY_TTL` at most).
    let hidden_now = |core: Arc<Core>| async move {
        if surface != Surface::Expert {
            return Some((Vec::new(), std::collections::BTreeSet::new()));
        }
        tokio::task::spawn_blocking(move || (core.gate.hidden_server_names(), core.gate.skew().keys)).await.ok()
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
            tracing::info!(hidden_servers = ?hidden.0, lacking_commands = hidden.1.len(), "the offered tools changed; telling the client to list them again");
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
    /// The `requestState` handles this connection issued for steps that need input.
    pending: Arc<super::planner_input::Pending>,
    /// `serve --record`: every answered request, one line each.
    recorder: Option<Arc<Recorder>>,
}

impl CapstanServer {
    pub fn new(shared: Arc<SharedCore>, surface: Surface) -> Self {
        CapstanServer { shared, surface, session: Arc::new(Mutex::new(SessionState::default())), planner: Default::default(), pending: Default::default(), recorder: None }
    }

    /// Record what crosses the boundary ([`super::record`]).
    pub fn recording(mut self, recorder: Option<Arc<Recorder>>) -> Self {
        self.recorder = recorder;
        self
    }

    /// The capability a call names before it runs, as its canonical key (a planner
    /// step's is read from its answer). A name this server does not know is recorded as
    /// [`super::record::UNKNOWN`]: a record never holds a string the client made up.
    fn capability_named(&self, core: &Core, name: &str, args: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
        match self.surface {
            Surface::Guided if name == super::tools::EXECUTE => {
                let key = args.get("key").and_then(|k| k.as_str()).unwrap_or_default();
                Some(match core.runtime.resolve(key) {
                    crate::runtime::Resolution::Canonical => key.to_string(),
                    crate::runtime::Resolution::Alias { canonical } => canonical,
                    crate::runtime::Resolution::NotFound => super::record::UNKNOWN.to_string(),
                })
            }
            Surface::Expert => core.expert_keys.get(name).cloned(),
            _ => None,
        }
    }

    /// The tool's name when this surface has such a tool (offered now, or hidden while
    /// its app is unavailable: a name capstan made either way), else
    /// [`super::record::UNKNOWN`]. Looked up, not listed: no tool is built per call.
    fn tool_named(&self, name: &str) -> String {
        let core = self.core();
        let known = match self.surface {
            Surface::Guided => core.guided_tools.iter().any(|t| t.name == name),
            Surface::Planner => super::planner_tools::tools().iter().any(|t| t.name == name),
            Surface::Expert => name == super::python_exec::TOOL || core.expert_tools.iter().any(|(_, t)| t.name == name),
        };
        if known { name.to_string() } else { super::record::UNKNOWN.to_string() }
    }

    /// The current core (a new one after the pack store changed).
    fn core(&self) -> Arc<Core> {
        self.shared.get()
    }

    fn tool_list(&self) -> Vec<Tool> {
        match self.surface {
            Surface::Guided => self.core().guided_tools.clone(),
            Surface::Planner => super::planner_tools::tools(),
            Surface::Expert => super::expert::tools(&self.core()),
        }
    }
}

impl ServerHandler for CapstanServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tool_list_changed().enable_tasks().build());
        info.server_info = Implementation::new("capstan", env!("CARGO_PKG_VERSION"));
        let apps = crate::app_units::display_names();
        info.instructions = Some(match self.surface {
            Surface::Guided => format!("Drive {apps} safely: router_set_goal, then search_capabilities, get_capability_schema, and execute_capability with the canonical key."),
            Surface::Expert => format!("Every available {apps} capability as its own tool; each runs sandboxed, its arguments checked against its schema."),
            Surface::Planner => "Plan, act and critique: planner_set_goal, planner_plan, then planner_act on each step and planner_critique with expectations measured in the scene; planner_status shows progress.".into(),
        });
        info
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        tokio::spawn(watch_tool_list(self.shared.clone(), self.surface, context.peer));
    }

    async fn list_tools(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData> {
        let started = Instant::now();
        let result = ListToolsResult::with_all_items(self.tool_list());
        if let Some(recorder) = &self.recorder {
            recorder.list(&result, started.elapsed());
        }
        Ok(result)
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        let started = Instant::now();
        let answer = self.answer(&request, context).await;
        if let Some(recorder) = &self.recorder {
            let capability = self.capability_named(&self.core(), &request.name, request.arguments.as_ref().unwrap_or(&Default::default()));
            recorder.call(&request, &self.tool_named(&request.name), capability, answer.as_ref(), started.elapsed());
        }
        answer
    }

    async fn get_task(&self, request: GetTaskParams, _context: RequestContext<RoleServer>) -> Result<GetTaskResult, ErrorData> {
        self.shared.tasks.get_task(&request.task_id).map(GetTaskResult::new)
    }

    async fn update_task(&self, request: UpdateTaskParams, _context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        // capstan's tasks never ask for input; responses to nothing are ignored.
        self.shared.tasks.update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(&self, request: CancelTaskParams, _context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.shared.tasks.cancel_task(&request.task_id)
    }
}

impl CapstanServer {
    /// A long call (`tasks.rs`) of a client that declared the tasks extension: the
    /// capability key and the answer's shape, when this call should run as a task.
    fn as_task(&self, core: &Core, request: &CallToolRequestParams, context: &RequestContext<RoleServer>) -> Option<(String, serde_json::Value, super::execute::Shape)> {
        if !context.client_capabilities().is_some_and(|caps| caps.supports_tasks()) {
            return None;
        }
        let args = request.arguments.clone().unwrap_or_default();
        let (key, arguments, shape) = match self.surface {
            Surface::Guided if request.name == super::tools::EXECUTE => {
                let key = args.get("key").and_then(|k| k.as_str())?;
                if !matches!(core.runtime.resolve(key), crate::runtime::Resolution::Canonical) {
                    return None;
                }
                (key.to_string(), args.get("arguments").cloned().unwrap_or_else(|| serde_json::json!({})), super::execute::Shape::WholeAnswer)
            }
            Surface::Expert => {
                let key = core.expert_keys.get(request.name.as_ref())?.clone();
                let shape = if core.runtime.capability(&key).is_some_and(|spec| spec.output_schema.is_some()) {
                    super::execute::Shape::DeclaredOutput
                } else {
                    super::execute::Shape::WholeAnswer
                };
                (key, serde_json::Value::Object(args), shape)
            }
            _ => return None,
        };
        super::tasks::is_long_call(core, &key).then_some((key, arguments, shape))
    }

    async fn answer(&self, request: &CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        if let Some((key, arguments, shape)) = self.as_task(&self.core(), request, &context) {
            let (core, session) = (self.core(), self.session.clone());
            let label = key.clone();
            let handle = super::tasks::start(&self.shared.tasks, core.clone(), &label, move |sink| async move {
                super::execute::execute(core, &session, &key, &arguments, Some(sink), shape).await
            });
            return Ok(CallToolResponse::Task(handle));
        }
        let args = request.arguments.clone().unwrap_or_default();
        let (core, name, progress) = (self.core(), request.name.as_ref(), Forwarder::for_request(&context));
        let answer = match self.surface {
            Surface::Guided => super::guided::dispatch(core, &self.session, name, &args, progress).await.map(CallToolResponse::from),
            Surface::Expert => super::expert::dispatch(core, &self.session, name, &args, progress).await.map(CallToolResponse::from),
            Surface::Planner => {
                let asking = super::planner_tools::Asking { context: &context, request, pending: &self.pending };
                super::planner_tools::dispatch(core, self.planner.clone(), name, &args, Some(asking)).await
            }
        };
        match answer {
            Some(result) => Ok(result),
            None => Err(ErrorData::invalid_params(format!("no tool named {:?}", crate::echo::preview(name)), None)),
        }
    }
}
