//! The guided surface: exactly five tools. A goal routes to a family, search ranks
//! capabilities (hiding those whose app is unavailable or whose bridge lacks commands),
//! a schema is fetched by canonical key, and `execute_capability` runs it.

use super::Core;
use super::execute::{Shape, execute};
use super::progress::Forwarder;
use super::results::{bad_request, check_lengths, error_result, ok_result, str_arg};
use super::session::{LastSearch, SessionState};
use super::tools;
use crate::call::app_gate::update_hint;
use crate::call::availability::ServerStatus;
use crate::limits::tool_inputs::{MAX_FAMILY_CHARS, MAX_GOAL_CHARS, MAX_KEY_CHARS, MAX_QUERY_CHARS};
use crate::report;
use crate::router;
use crate::runtime::{CallError, Resolution};
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex, MutexGuard};

fn lock(session: &Mutex<SessionState>) -> MutexGuard<'_, SessionState> {
    session.lock().unwrap_or_else(|p| p.into_inner())
}

/// The guided tool `name`, or None when this surface has no such tool.
pub async fn dispatch(core: Arc<Core>, session: &Mutex<SessionState>, name: &str, args: &Map<String, Value>, progress: Forwarder) -> Option<CallToolResult> {
    Some(match name {
        tools::SET_GOAL => set_goal(&core, session, args),
        tools::GET_STATUS => status(&core, session),
        tools::SEARCH => search(&core, session, args),
        tools::GET_SCHEMA => schema(&core, args),
        tools::EXECUTE => {
            if let Err(refusal) = check_lengths(args, &[("key", MAX_KEY_CHARS)]) {
                return Some(refusal);
            }
            let Some(key) = str_arg(args, "key") else { return Some(bad_request("key must be a string")) };
            let arguments = args.get("arguments").cloned().unwrap_or_else(|| json!({}));
            let result = execute(core, session, key, &arguments, progress.sink(), Shape::WholeAnswer).await;
            progress.finish().await;
            result
        }
        super::python_exec::TOOL => super::python_exec::disabled("execute_python exists only on the expert surface (`capstan serve --expert`)"),
        _ => return None,
    })
}

/// Why capabilities are hidden: each unavailable server's state, and each running
/// bridge that lacks commands.
fn hidden_lines(core: &Core) -> Vec<Value> {
    let mut lines: Vec<Value> = core
        .gate
        .unavailable_servers()
        .iter()
        .map(|(name, status)| {
            let mut line = status.to_json(name);
            line["hidden"] = json!(format!("capabilities of {name} are hidden: {}", match status {
                ServerStatus::Unavailable(a) => a.user_action.clone(),
                ServerStatus::Available { .. } => String::new(),
            }));
            line
        })
        .collect();
    let skew = core.gate.skew();
    let mut missing: Vec<(&String, &Vec<String>)> = skew.missing.iter().collect();
    missing.sort();
    for (server, commands) in missing {
        let keys: Vec<&String> = skew.keys.iter().filter(|k| core.gate.server_of(k) == Some(server.as_str())).collect();
        lines.push(json!({
            "server": server, "state": "addon_outdated", "missing_commands": commands, "capabilities": keys,
            "hidden": format!("{} capabilities of {server} are hidden: the running add-on lacks commands {} (update it{}, then restart {server})", keys.len(), commands.join(", "), update_hint(server)),
        }));
    }
    lines
}

fn search_hits(core: &Core, session: &Mutex<SessionState>, query: &str, family: Option<&str>, limit: usize, reads_only: bool) -> Vec<router::SearchHit> {
    let goal_family = lock(session).family.clone();
    let hidden: Vec<String> = core.gate.hidden_server_names();
    let skewed = core.gate.skew().keys;
    let hits = core.index.search_as(query, family, goal_family.as_deref(), limit + 16 + skewed.len(), reads_only);
    hits.into_iter()
        .filter(|h| !core.gate.servers_of(&h.key).iter().any(|s| hidden.iter().any(|x| x == s)) && !skewed.contains(&h.key))
        .take(limit)
        .collect()
}

fn set_goal(core: &Core, session: &Mutex<SessionState>, args: &Map<String, Value>) -> CallToolResult {
    if let Err(refusal) = check_lengths(args, &[("goal", MAX_GOAL_CHARS)]) {
        return refusal;
    }
    let Some(goal) = str_arg(args, "goal").map(str::trim).filter(|g| !g.is_empty()) else {
        return bad_request("goal must be a non-empty string");
    };
    let route = router::route(goal, &core.families, Some(&core.index));
    let family = route.family.clone();
    // The one capability the router picks for the whole goal is suggested first (what
    // `capstan eval` scores and `planner_set_goal` previews): a plain edit of an object
    // ("hide the camera") is the capability a pack declared for such edits, though the
    // goal's family (DESIGN §8's floor: "move the camera" is camera) is another.
    let (picked_family, first) = core.pick(goal);
    let why = match &first {
        Some(key) if picked_family != family => format!("{}; a plain edit of an object (move, turn, size, hide, rename), so {key} first", route.why),
        _ => route.why.clone(),
    };
    {
        let mut s = lock(session);
        s.goal = Some(goal.to_string());
        s.family = Some(family.clone());
    }
    // A goal that only asks gets only suggestions that change nothing.
    let reads_only = route.intent == router::Intent::Read;
    let mut suggestions = search_hits(core, session, goal, Some(&family), 5, reads_only);
    if suggestions.is_empty() {
        suggestions = search_hits(core, session, goal, None, 5, reads_only);
    }
    if let Some(key) = first {
        match suggestions.iter().position(|h| h.key == key) {
            Some(at) => {
                let hit = suggestions.remove(at);
                suggestions.insert(0, hit);
            }
            // Hidden (its app unavailable) or skewed, it is not suggested at all.
            None => {
                if let Some(hit) = search_hits(core, session, &key, None, 1, reads_only).into_iter().find(|h| h.key == key) {
                    suggestions.insert(0, hit);
                    suggestions.truncate(5);
                }
            }
        }
    }
    ok_result(json!({
        "goal": goal, "family": family, "basis": route.basis, "intent": route.intent, "why": why,
        "suggestions": suggestions, "hidden": hidden_lines(core),
    }))
}

fn status(core: &Core, session: &Mutex<SessionState>) -> CallToolResult {
    let availability: Vec<Value> = core.gate.availability.all(core.client()).iter().map(|(n, s)| s.to_json(n)).collect();
    // Serialised under the lock, not cloned first: the list's deltas can be large.
    let s = lock(session);
    ok_result(json!({
        "goal": s.goal, "family": s.family, "last_search": s.last_search,
        "executions": s.executions, "execution_count": s.execution_count, "availability": availability,
    }))
}

fn search(core: &Core, session: &Mutex<SessionState>, args: &Map<String, Value>) -> CallToolResult {
    if let Err(refusal) = check_lengths(args, &[("query", MAX_QUERY_CHARS), ("family", MAX_FAMILY_CHARS)]) {
        return refusal;
    }
    let Some(query) = str_arg(args, "query").filter(|q| !q.trim().is_empty()) else {
        return bad_request("query must be a non-empty string");
    };
    let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(5).clamp(1, 50) as usize;
    let family = str_arg(args, "family");
    let results = search_hits(core, session, query, family, limit, false);
    lock(session).last_search = Some(LastSearch { query: query.to_string(), family: family.map(String::from), results: results.len() });
    ok_result(json!({ "query": query, "family": family, "results": results, "hidden": hidden_lines(core) }))
}

fn schema(core: &Core, args: &Map<String, Value>) -> CallToolResult {
    if let Err(refusal) = check_lengths(args, &[("key", MAX_KEY_CHARS)]) {
        return refusal;
    }
    let Some(key) = str_arg(args, "key") else { return bad_request("key must be a string") };
    match core.runtime.resolve(key) {
        Resolution::Canonical => {}
        Resolution::Alias { canonical } => return error_result(report::error_json(&CallError::NonCanonical { key: key.into(), canonical })),
        Resolution::NotFound => return error_result(report::error_json(&CallError::NotFound { key: key.into() })),
    }
    let spec = core.runtime.capability(key).expect("resolved as canonical");
    ok_result(json!({
        "key": spec.key, "family": spec.family, "summary": spec.summary, "description": spec.description,
        "input_schema": spec.input_schema, "output_schema": spec.output_schema, "mutates": spec.mutates, "destructive": spec.destructive, "examples": spec.examples,
    }))
}
