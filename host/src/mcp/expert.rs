//! The expert surface: every available capability as its own tool (its input and
//! output schemas as declared), and `execute_python` when the operator enabled it. A
//! capability whose app is unavailable, or whose running bridge lacks its commands, is
//! not listed; the watcher (`server.rs`) tells the client when either changes.

use super::Core;
use super::execute::{Shape, execute};
use super::progress::Forwarder;
use super::session::SessionState;
use rmcp::model::{CallToolResult, Tool};
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex};

pub fn tools(core: &Core) -> Vec<Tool> {
    let hidden: Vec<String> = core.gate.hidden_server_names();
    let skewed = core.gate.skew().keys;
    let mut tools: Vec<Tool> = core
        .expert_tools
        .iter()
        .filter(|(servers, t)| !servers.iter().any(|s| hidden.contains(s)) && core.expert_keys.get(t.name.as_ref()).is_none_or(|k| !skewed.contains(k)))
        .map(|(_, t)| t.clone())
        .collect();
    if let Some((unit, exec)) = super::python_exec::exec_unit().filter(|(u, _)| super::python_exec::enabled() && !hidden.iter().any(|s| s == u.server())) {
        tools.push(super::python_exec::tool(unit, exec));
    }
    tools
}

/// The expert tool `name`, or None when this surface has no such tool.
pub async fn dispatch(core: Arc<Core>, session: &Mutex<SessionState>, name: &str, args: &Map<String, Value>, progress: Forwarder) -> Option<CallToolResult> {
    if name == super::python_exec::TOOL {
        return Some(super::python_exec::execute(core, args).await);
    }
    let key = core.expert_keys.get(name)?.clone();
    let shape = if core.runtime.capability(&key).is_some_and(|spec| spec.output_schema.is_some()) { Shape::DeclaredOutput } else { Shape::WholeAnswer };
    let result = execute(core, session, &key, &Value::Object(args.clone()), progress.sink(), shape).await;
    progress.finish().await;
    Some(result)
}
