//! Running a suite: each task in a fresh factory scene, its calls through the checked
//! path, its assertions measured by the critic, its side effects read from the merged
//! delta. A task that cannot run (not valid, naming what this capstan does not have)
//! or whose Blender is unreachable (the reset or a call fails on transport or
//! availability) is an error, never a pass.

use super::metrics::{CallRecord, Outcome, Status, SuiteReport, TaskReport};
use super::suite::{Call, Suite, Task, TaskEntry};
use crate::bridge::{BridgeClient, BridgeRequest};
use crate::delta::SceneDelta;
use crate::planner::critique::{Critique, Expectation, critique};
use crate::planner::plan::{PlanRequest, build};
use crate::planner::{Registry, Router, act};
use crate::runtime::{CallError, Resolution, Runtime};
use serde_json::json;

pub struct Env<'a> {
    pub runtime: &'a Runtime,
    pub client: &'a dyn BridgeClient,
    pub router: &'a Router,
    /// Take a small picture of each task's final scene (for the contact sheet).
    pub thumbnails: bool,
    /// Run the planner's own plan for every task, its trajectory ignored (`--planner`).
    pub planner_only: bool,
}

fn reset(env: &Env<'_>) -> Result<(), String> {
    let spec = env.runtime.bridge_command("blender", "reset_scene").ok_or("the catalog has no reset_scene")?;
    let params = json!({});
    env.client
        .call(BridgeRequest { server: "blender", command: "reset_scene", params: &params, timeout: spec.timeout })
        .map(|_| ())
        .map_err(|e| format!("Blender did not reset the scene: {e}"))
}

/// A failure that means Blender is not there, not that the task went wrong.
fn unreachable_blender(e: &CallError) -> bool {
    match e {
        CallError::Pack { failure, .. } => matches!(failure.bridge_code.as_deref(), Some("transport") | Some("app_unavailable")),
        CallError::Workflow { cause, .. } => unreachable_blender(cause),
        _ => false,
    }
}

fn all_of_kind(c: &Critique, kind: &str) -> Option<bool> {
    let of: Vec<_> = c.checks.iter().filter(|k| k.expectation["kind"] == kind).collect();
    (!of.is_empty()).then(|| of.iter().all(|k| k.passed))
}

/// Every task an error (Blender did not start): no number is made up.
pub fn not_started(suite: &Suite, reason: &str) -> SuiteReport {
    let tasks = suite
        .tasks
        .iter()
        .map(|t| {
            let mut r = TaskReport::blank(&t.id, &t.goal, source_of(t, false));
            r.error = Some(match &t.task {
                Ok(_) => format!("Blender did not start: {reason}"),
                Err(e) => format!("the task is not valid: {e}"),
            });
            r
        })
        .collect();
    SuiteReport::new(tasks)
}

fn source_of(entry: &TaskEntry, planner_only: bool) -> &'static str {
    match &entry.task {
        Ok(t) if t.trajectory.is_some() && !planner_only => "trajectory",
        Ok(_) => "planner",
        Err(_) => "none",
    }
}

/// What makes a valid task impossible to run as written with this capstan: a
/// trajectory or an expected capability naming a key it does not have, an expected
/// family no pack declares, an assertion measuring through a capability that is
/// missing or mutates, `spatial.assert` constraints its schema refuses. Checked before
/// the scene is touched; nothing here calls a pack.
pub fn precheck(registry: &dyn Registry, families: &crate::router::FamilyTable, task: &Task, planner_only: bool) -> Result<(), String> {
    let known = |key: &str| act::resolve(registry, key).is_ok();
    for (i, call) in task.setup.iter().enumerate() {
        if !known(&call.key) {
            return Err(format!("setup call {} names {:?}, which this capstan does not have", i + 1, call.key));
        }
    }
    if !planner_only {
        for (i, call) in task.trajectory.iter().flatten().enumerate() {
            if !known(&call.key) {
                return Err(format!("trajectory call {} names {:?}, which this capstan does not have", i + 1, call.key));
            }
        }
    }
    if let Some(key) = &task.capability {
        match registry.resolve(key) {
            Resolution::Canonical => {}
            Resolution::Alias { canonical } => return Err(format!("the expected capability {key:?} is an alias; name {canonical:?}")),
            Resolution::NotFound => return Err(format!("the expected capability {key:?} does not exist")),
        }
    }
    if let Some(f) = &task.family
        && !families.contains(f)
    {
        return Err(format!("the expected family {f:?} is not one any pack declares ({})", families.names().collect::<Vec<_>>().join(", ")));
    }
    for (i, a) in task.assertions.iter().enumerate() {
        for key in a.measured_with() {
            match (registry.resolve(key), registry.describe(key)) {
                (Resolution::Canonical, Some((_, false))) => {}
                (Resolution::Canonical, Some((_, true))) => return Err(format!("assertion {}: {key} changes the scene; only a read-only capability can measure", i + 1)),
                _ => return Err(format!("assertion {}: no read-only capability {key:?} to measure with (a canonical key is needed)", i + 1)),
            }
        }
        let (key, args) = match a {
            Expectation::Read { capability, args, .. } => (capability.as_str(), args.clone()),
            Expectation::Spatial { constraints } => ("spatial.assert", json!({ "constraints": constraints })),
            _ => continue,
        };
        let args = crate::planner::placeholders::stand_in(&args);
        registry.check(key, &args.to_string()).map_err(|e| format!("assertion {}: {e}", i + 1))?;
    }
    Ok(())
}

/// Run one task of the suite.
pub fn run_task(env: &Env<'_>, entry: &TaskEntry) -> TaskReport {
    let started = std::time::Instant::now();
    let mut report = TaskReport::blank(&entry.id, &entry.goal, source_of(entry, env.planner_only));
    let (family, capability) = env.router.pick(&entry.goal);
    report.routed_family = family;
    report.routed_capability = capability;
    let outcome = match &entry.task {
        Err(e) => Err(format!("the task is not valid: {e}")),
        Ok(task) => {
            report.family_ok = task.family.as_ref().map(|f| *f == report.routed_family);
            report.capability_ok = task.capability.as_ref().map(|c| Some(c) == report.routed_capability.as_ref());
            report.assertions_total = task.assertions.len();
            precheck(env.runtime, env.router.families(), task, env.planner_only)
                .map_err(|e| format!("cannot run: {e}"))
                .and_then(|()| run_valid(env, task, &mut report))
        }
    };
    report.seconds = started.elapsed().as_secs_f64();
    if let Err(e) = outcome {
        report.status = Status::Error;
        report.error = Some(e);
    }
    report
}

/// The calls of a task: its trajectory, or the planner's plan for its goal in the
/// scene as it is now (the plan is kept in the report).
fn calls_for(env: &Env<'_>, task: &Task, report: &mut TaskReport) -> Result<Vec<Call>, String> {
    if let Some(calls) = task.trajectory.as_ref().filter(|_| !env.planner_only) {
        return Ok(calls.clone());
    }
    let pick = |t: &str| env.router.pick(t).1;
    let scene = crate::planner::scene_objects(env.runtime);
    let steps = build(env.runtime, &pick, &PlanRequest { goal: &task.goal, scene: &scene, ..Default::default() }).map_err(|e| format!("planning failed: {e}"))?;
    let calls = steps.iter().map(|s| Call { key: s.tool_hint.clone(), args: s.args.clone() }).collect();
    report.plan = Some(steps);
    Ok(calls)
}

/// One call as `execute_capability` would run it, recorded; Err when Blender went away.
fn run_call(env: &Env<'_>, call: &Call, last_failed: &mut Option<String>, merged: &mut SceneDelta, report: &mut TaskReport) -> Result<(), String> {
    let text = call.args.to_string();
    let sent = json!({ "key": call.key, "arguments": call.args }).to_string().len();
    let mut record = CallRecord { key: call.key.clone(), capability: None, args: call.args.clone(), retry: false, outcome: Outcome::Ok, code: None, message: None, bytes_sent: sent, bytes_received: 0 };
    let answer = match act::resolve(env.runtime, &call.key) {
        Err(e) => Err((Outcome::Refused, json!({ "code": e.code(), "message": e.to_string() }))),
        Ok((key, _alias)) => {
            record.capability = Some(key.clone());
            record.retry = last_failed.as_deref() == Some(key.as_str());
            match env.runtime.check(&key, &text) {
                Err(e) => Err((Outcome::Refused, crate::report::error_json(&e))),
                Ok(()) => {
                    if !record.retry {
                        report.args_accepted_first_time += 1;
                    }
                    match env.runtime.call_checked(&key, &text) {
                        Ok(out) => {
                            if let Some(d) = &out.delta {
                                merged.then(d);
                            }
                            Ok(crate::report::output_json(&out))
                        }
                        Err(e) if unreachable_blender(&e) => return Err(format!("Blender failed during {key}: {e}")),
                        Err(e) => {
                            if let Some(d) = e.delta() {
                                merged.then(d);
                            }
                            Err((Outcome::Failed, crate::report::error_json(&e)))
                        }
                    }
                }
            }
        }
    };
    match answer {
        Ok(doc) => {
            record.bytes_received = doc.to_string().len();
            *last_failed = None;
        }
        Err((outcome, error)) => {
            record.bytes_received = json!({ "error": error }).to_string().len();
            record.outcome = outcome;
            record.code = error["code"].as_str().map(String::from);
            record.message = error["message"].as_str().map(|m| crate::control_chars::escape(m).into_owned());
            report.calls_failed += 1;
            *last_failed = record.capability.clone().or_else(|| Some(call.key.clone()));
        }
    }
    report.tool_calls += 1;
    report.retries += usize::from(record.retry);
    report.bytes += record.bytes_sent + record.bytes_received;
    report.calls.push(record);
    Ok(())
}

/// The task's scene preparation: run like any call, not measured; any failure means the
/// task cannot run as written.
fn set_up(env: &Env<'_>, task: &Task) -> Result<(), String> {
    for (i, call) in task.setup.iter().enumerate() {
        let (key, _) = act::resolve(env.runtime, &call.key).map_err(|e| format!("setup call {}: {e}", i + 1))?;
        let text = call.args.to_string();
        env.runtime.check(&key, &text).and_then(|()| env.runtime.call_checked(&key, &text)).map_err(|e| {
            let which = if unreachable_blender(&e) { "Blender failed during setup call" } else { "setup call" };
            format!("{which} {} ({key}) failed: {e}", i + 1)
        })?;
    }
    Ok(())
}

fn run_valid(env: &Env<'_>, task: &Task, report: &mut TaskReport) -> Result<(), String> {
    reset(env)?;
    set_up(env, task)?;
    // The assertions on the scene before the task acts (with an empty delta): one that
    // already holds measures nothing the task did, and a task whose every assertion
    // holds cannot fail.
    let before = critique(env.runtime, &task.assertions, Some(&SceneDelta::default()));
    report.held_before = before.checks.iter().filter(|c| c.passed).count();
    let calls = calls_for(env, task, report)?;
    let mut merged = SceneDelta::default();
    let mut last_failed: Option<String> = None;
    for call in &calls {
        run_call(env, call, &mut last_failed, &mut merged, report)?;
    }
    let result = critique(env.runtime, &task.assertions, Some(&merged));
    // A check that failed because Blender went away is not a measurement: make sure it
    // is still there before scoring.
    if let Err(e) = env.runtime.call("scene.info", r#"{"limit":1}"#)
        && unreachable_blender(&e)
    {
        return Err(format!("Blender failed while the assertions were checked: {e}"));
    }
    report.assertions_met = result.checks.iter().filter(|c| c.passed).count();
    report.constraint_success = all_of_kind(&result, "spatial");
    report.visual_success = all_of_kind(&result, "visual");
    report.side_effects = side_effects(task, &merged);
    // An agent that stops right after an error did not finish, whatever the scene says.
    report.ended_on_error = report.calls.last().is_some_and(|c| c.outcome != Outcome::Ok);
    report.status = if result.passed && report.side_effects.is_empty() && !report.ended_on_error { Status::Passed } else { Status::Failed };
    report.critique = Some(result);
    if env.thumbnails {
        report.thumbnail = thumbnail(env);
    }
    Ok(())
}

/// What the task changed that it was not allowed to: objects changed or removed other
/// than `may_change`, settings domains other than `may_change_settings`.
pub fn side_effects(task: &Task, merged: &SceneDelta) -> Vec<String> {
    let o = &merged.objects;
    let objects = o.changed.iter().chain(&o.removed).filter(|n| !task.may_change.contains(n)).map(|n| format!("object {n}"));
    let settings = merged.settings.iter().filter(|s| !task.may_change_settings.contains(s)).map(|s| format!("settings {s}"));
    objects.chain(settings).collect()
}

fn thumbnail(env: &Env<'_>) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let args = json!({ "width": 128, "height": 96, "samples": 4 });
    let out = env.runtime.call("inspect.viewport", &args.to_string()).ok()?;
    out.result["image"]["data"].as_str().and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok())
}

/// Run every task (`progress`: a bar on stderr).
pub fn run_suite(env: &Env<'_>, suite: &Suite, progress: bool) -> SuiteReport {
    let bar = if progress { indicatif::ProgressBar::new(suite.tasks.len() as u64) } else { indicatif::ProgressBar::hidden() };
    bar.set_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} [{elapsed}]").expect("a valid template"));
    let mut tasks = Vec::new();
    for entry in &suite.tasks {
        bar.set_message(entry.id.clone());
        tasks.push(run_task(env, entry));
        bar.inc(1);
    }
    bar.finish_and_clear();
    SuiteReport::new(tasks)
}

/// Every problem that would stop a task of `suite` from running, checked against a
/// registry without Blender (`capstan eval --check`): (task id, reason).
pub fn check_suite(registry: &dyn Registry, families: &crate::router::FamilyTable, suite: &Suite, planner_only: bool) -> Vec<(String, String)> {
    suite
        .tasks
        .iter()
        .filter_map(|entry| {
            let problem = match &entry.task {
                Err(e) => Some(format!("not valid: {e}")),
                Ok(task) => precheck(registry, families, task, planner_only).err(),
            };
            problem.map(|p| (entry.id.clone(), p))
        })
        .collect()
}

/// The arguments of every trajectory call that its capability's schema refuses (they
/// will be counted as not accepted; fine when the trajectory models an agent's mistake).
pub fn refused_arguments(registry: &dyn Registry, suite: &Suite) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for task in suite.valid() {
        for (i, call) in task.trajectory.iter().flatten().enumerate() {
            let Ok((key, _)) = act::resolve(registry, &call.key) else { continue };
            if let Err(e) = registry.check(&key, &call.args.to_string()) {
                out.push((task.id.clone(), format!("call {} ({key}): {e}", i + 1)));
            }
        }
    }
    out
}
