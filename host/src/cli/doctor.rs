//! `capstan doctor [--json]`: walk the chain for every declared server (app found?
//! version? session? runtime file? pid alive? ping answers? right peer?), then the
//! packs and the compiled cache, and end with what to do. Exit 0 healthy (no pack
//! refused, at least one app usable), 1 otherwise.

use super::{CliError, print_json};
use crate::apps::requirement::AppCheck;
use crate::bridge::HttpBridgeClient;
use crate::bridge::endpoint;
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::call::availability::{AvailabilityCache, ServerPolicy, ServerStatus};
use crate::runtime::Runtime;
use serde_json::{Value, json};
use std::process::ExitCode;
use std::sync::Arc;

/// One link of the chain: what was checked, whether it holds, and what was seen.
fn step(check: &str, ok: Option<bool>, detail: impl Into<String>) -> Value {
    let status = match ok {
        Some(true) => "ok",
        Some(false) => "failed",
        None => "skipped",
    };
    json!({ "check": check, "status": status, "detail": crate::redact::redact(&detail.into()) })
}

fn server_report(policy: &ServerPolicy, availability: &AvailabilityCache, client: &HttpBridgeClient) -> Value {
    let name = policy.name.as_str();
    let mut steps = Vec::new();
    match availability.install_check(policy) {
        AppCheck::NotRequired => steps.push(step("app installed", None, "the packs require nothing of the install")),
        AppCheck::Satisfied { path, version } => {
            steps.push(step("app installed", Some(true), path.display().to_string()));
            if let Some(v) = version {
                steps.push(step("app version", Some(true), format!("{v}")));
            }
        }
        AppCheck::Unsatisfied(a) => steps.push(step("app installed and new enough", Some(false), format!("{}: {}", serde_json::to_value(a.state).unwrap_or_default().as_str().unwrap_or(""), a.detail))),
    }
    if policy.decl.as_ref().is_some_and(|d| d.requires.interactive_session) {
        match crate::apps::session::interactive() {
            Ok(()) => steps.push(step("interactive session", Some(true), "a graphical login session")),
            Err(why) => steps.push(step("interactive session", Some(false), why)),
        }
    }
    match client.liveness(name) {
        None => steps.push(step("runtime file", Some(false), "capstan does not know where this server publishes its runtime file")),
        Some(live) => {
            let path = live.runtime_file.path.display().to_string();
            match endpoint::read(&live.runtime_file) {
                Ok(ep) => {
                    steps.push(step("runtime file", Some(true), path));
                    steps.push(step("pid alive", Some(true), format!("pid {}", ep.pid)));
                    match client.ping(name) {
                        Ok(ping) => {
                            steps.push(step("ping answers", Some(true), format!("{} on {}", ping["app"].as_str().unwrap_or("?"), ep.addr)));
                            steps.push(step("right peer", Some(true), format!("capstan bridge, protocol {}", ping["protocol"])));
                        }
                        Err(e) => {
                            let wrong_peer = matches!(&e, crate::bridge::BridgeFailure::Transport { reason, .. } if reason == "wrong_peer");
                            steps.push(step("ping answers", Some(wrong_peer), e.to_string()));
                            if wrong_peer {
                                steps.push(step("right peer", Some(false), e.to_string()));
                            }
                        }
                    }
                }
                Err(endpoint::EndpointError::DeadPid { pid }) => {
                    steps.push(step("runtime file", Some(true), path));
                    steps.push(step("pid alive", Some(false), format!("pid {pid} is gone: the file is stale")));
                }
                Err(e) => steps.push(step("runtime file", Some(false), e.to_string())),
            }
        }
    }
    let status = availability.status(client, name);
    let state = match &status {
        Some(s) => s.to_json(name),
        None => json!({ "server": name, "state": "unknown" }),
    };
    json!({ "server": name, "available": matches!(status, Some(ServerStatus::Available { .. })), "steps": steps, "state": state })
}

/// The containment layers of each registered app's running instance (DESIGN §3a), by server.
fn containment_report(client: &HttpBridgeClient) -> serde_json::Map<String, Value> {
    crate::app_units::all()
        .iter()
        .map(|unit| {
            let server = unit.server();
            let ep = client.liveness(server).and_then(|live| endpoint::read(&live.runtime_file).ok());
            let ping = ep.as_ref().and_then(|_| client.ping(server).ok());
            (server.to_string(), crate::containment::layers::report(ep.is_some(), ep.as_ref().and_then(|e| e.containment.as_ref()), ping.as_ref()))
        })
        .collect()
}

pub fn run(as_json: bool) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    let client = Arc::new(HttpBridgeClient::for_home(&home));
    let mut runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client.clone())?;
    runtime.load_all(&home);
    client.adopt_declared(runtime.packs(), &home);
    let availability = AvailabilityCache::new(ServerPolicy::from_packs(runtime.packs()), home.clone());

    let servers: Vec<Value> = availability.policies().iter().map(|p| server_report(p, &availability, &client)).collect();
    let packs: Vec<Value> = runtime
        .packs()
        .iter()
        .map(|p| json!({ "name": p.name(), "version": p.manifest.version.to_string(), "origin": format!("{:?}", p.origin), "capabilities": p.capabilities.len(), "integrity": "sha256 verified" }))
        .collect();
    let refused: Vec<Value> = runtime.refused().iter().map(|r| json!({ "source": r.source, "error": r.error.to_string() })).collect();
    let stats = &runtime.cache().stats;
    let cache = json!({ "dir": runtime.cache().dir(), "hits": stats.hits(), "compiled": stats.compiled_total() });

    let mut actions: Vec<String> = servers
        .iter()
        .filter(|s| s["available"] == false)
        .map(|s| format!("{}: {}", s["server"].as_str().unwrap_or(""), s["state"]["user_action"].as_str().unwrap_or("see the failed step above")))
        .collect();
    actions.extend(refused.iter().map(|r| format!("remove or reinstall the pack at {}: {}", r["source"].as_str().unwrap_or(""), r["error"].as_str().unwrap_or(""))));
    // Healthy: no pack refused and at least one app usable. With several apps
    // registered, an app a user does not run (FreeCAD beside Blender) is no fault: its
    // capabilities are hidden and its line above says how to bring it in, but the
    // session works. With none usable, nothing works.
    let usable = servers.is_empty() || servers.iter().any(|s| s["available"] == true);
    let healthy = refused.is_empty() && usable;
    let containment = containment_report(&client);

    if as_json {
        print_json(&json!({ "healthy": healthy, "home": home.root(), "servers": servers, "packs": packs, "refused_packs": refused, "cache": cache, "containment": containment, "actions": actions }));
    } else {
        println!("capstan doctor ({})", home.root().display());
        for s in &servers {
            println!("\n{}:", s["server"].as_str().unwrap_or(""));
            for st in s["steps"].as_array().into_iter().flatten() {
                let mark = match st["status"].as_str() {
                    Some("ok") => "ok  ",
                    Some("failed") => "FAIL",
                    _ => "--  ",
                };
                println!("  [{mark}] {}: {}", st["check"].as_str().unwrap_or(""), st["detail"].as_str().unwrap_or(""));
            }
            println!("  => {}", s["state"]["state"].as_str().unwrap_or(""));
        }
        for (server, report) in &containment {
            println!("\ncontainment of the running {}:", crate::app_units::display_name(server));
            for layer in ["landlock", "seccomp", "privileges_dropped", "checker", "guard"] {
                let on = report[layer]["on"].as_bool().unwrap_or(false);
                let extra = match layer {
                    "landlock" => format!(" (ABI {}, kernel offers {})", report[layer]["abi"], report[layer]["kernel_abi"]),
                    "checker" | "guard" => format!(" ({})", report[layer]["detail"].as_str().unwrap_or("")),
                    _ => String::new(),
                };
                println!("  {layer}: {}{extra}", if on { "on" } else { "OFF" });
            }
            println!("  execute_python: {}", report["execute_python"].as_str().unwrap_or(""));
        }
        println!("\npacks: {} loaded, {} refused; cache {} ({} hits, {} compiled)", packs.len(), refused.len(), runtime.cache().dir().display(), stats.hits(), stats.compiled_total());
        if healthy && actions.is_empty() {
            println!("\nhealthy: nothing to do");
        } else if healthy {
            println!("\nhealthy; to bring in the apps that are not available:");
            for a in &actions {
                println!("  - {a}");
            }
        } else {
            println!("\nwhat to do:");
            for a in &actions {
                println!("  - {a}");
            }
        }
    }
    Ok(if healthy { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
