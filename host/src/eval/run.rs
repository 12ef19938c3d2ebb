//! Running a suite: each task in a fresh factory scene, its calls through the checked
//! path, its assertions measured by the critic, its side effects read from the merged
//! delta. A task that cannot run (not valid, naming what this capstan does not have)
//! or whose app is unreachable (the reset or a call fails on transport or
//! availability) is an error, never a pass.

use super::metrics::{CallRecord, Outcome, Status, SuiteReport, TaskReport};
use super::suite::{Call, Suite, Task, TaskEntry};
use crate::bridge::BridgeClient;
use crate::delta::SceneDelta;
use crate::planner::critique::{Context, Critique, Expectation, critique_in};
use crate::planner::plan::{PlanRequest, build};
use crate::planner::{Registry, Router, act};
use crate::call::CallPath;
use crate::runtime::Resolution;
use serde_json::json;

pub struct Env<'a> {
    /// The call path every task's calls, setup and assertions run on (with the app gate).
    pub path: CallPath<'a>,
    pub client: &'a dyn BridgeClient,
    pub router: &'a Router,
    /// The server whose app the suite runs in (its unit names the reset command).
    pub server: &'a str,
    /// Take a small picture of each task's final scene (for the contact sheet).
    pub thumbnails: bool,
    /// Run the planner's own plan for every task, its trajectory ignored (`--planner`).
    pub planner_only: bool,
    /// Run an external agent for every task, talking to capstan over MCP (`--agent`).
    pub agent: Option<&'a super::agent::Agent>,
}

/// Put the app back to its factory state: the unit's host-only reset command.
fn reset(env: &Env<'_>) -> Result<(), String> {
    let app = crate::app_units::display_name(env.server);
    let command = crate::app_units::by_server(env.server)
        .and_then(|u| u.host_commands().reset)
        .ok_or_else(|| format!("{app} has no reset command, so tasks cannot start from a factory state"))?;
    env.path.runtime.send_host_command(env.server, command, &json!({})).map(|_| ()).map_err(|e| format!("{app} did not reset: {e}"))
}

fn all_of_kind(c: &Critique, kind: &str) -> Option<bool> {
    let of: Vec<_> = c.checks.iter().filter(|k| k.expectation["kind"] == kind).collect();
    (!of.is_empty()).then(|| of.iter().all(|k| k.passed))
}

/// Every task an error (the app did not start): no number is made up.
pub fn not_started(suite: &Suite, actor: Actor, app: &str, reason: &str) -> SuiteReport {
    let tasks = suite
        .tasks
        .iter()
        .map(|t| {
            let mut r = TaskReport::blank(&t.id, &t.goal, source_of(t, actor));
            r.error = Some(match &t.task {
                Ok(_) => format!("{app} did not start: {reason}"),
                Err(e) => format!("the task is not valid: {e}"),
            });
            r
        })
        .collect();
    SuiteReport::new(tasks)
}

/// Who acts in a task: an external agent (`--agent`), its trajectory, or the planner
/// (`--planner`, or a task with no trajectory).
#[derive(Debug, Clone, Copy, Default)]
pub struct Actor {
    pub agent: bool,
    pub planner_only: bool,
}

fn source_of(entry: &TaskEntry, actor: Actor) -> &'static str {
    match &entry.task {
        Ok(_) if actor.agent => "agent",
        Ok(t) if t.trajectory.is_some() && !actor.planner_only => "trajectory",
        Ok(_) => "planner",
        Err(_) => "none",
    }
}

/// What makes a valid task impossible to run as written with this capstan: a
/// trajectory or an expected capability naming a key it does not have, an expected
/// family no pack declares, an assertion measuring through a capability that is
/// missing or mutates, constraints the `measures-spatial` capability's schema refuses. Checked before
/// the scene is touched; nothing here calls a pack.
pub fn precheck(registry: &dyn Registry, families: &crate::router::FamilyTable, task: &Task, planner_only: bool) -> Result<(), String> {
    let known = |key: &str| act::resolve(registry, key).is_ok();
    let trajectory: &[_] = if planner_only { &[] } else { task.trajectory.as_deref().unwrap_or_default() };
    let lists = [("setup", task.setup.as_slice()), ("trajectory", trajectory), ("reference", task.reference.as_deref().unwrap_or_default()), ("near_miss", task.near_miss.as_deref().unwrap_or_default())];
    for (what, calls) in lists {
        if let Some((i, call)) = calls.iter().enumerate().find(|(_, c)| !known(&c.key)) {
            return Err(format!("{what} call {} names {:?}, which this capstan does not have", i + 1, call.key));
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
        for key in a.measured_with(registry).map_err(|e| format!("assertion {}: {e}", i + 1))? {
            let key = key.as_str();
            match (registry.resolve(key), registry.describe(key)) {
                (Resolution::Canonical, Some((_, false))) => {}
                (Resolution::Canonical, Some((_, true))) => return Err(format!("assertion {}: {key} changes the scene; only a read-only capability can measure", i + 1)),
                _ => return Err(format!("assertion {}: no read-only capability {key:?} to measure with (a canonical key is needed)", i + 1)),
            }
        }
        let (key, args) = match a {
            Expectation::Read { capability, args, .. } => (capability.clone(), args.clone()),
            Expectation::Spatial { constraints } => match registry.role(crate::roles::Role::MeasuresSpatial) {
                Some(key) => (key, json!({ "constraints": constraints })),
                None => continue,
            },
            _ => continue,
        };
        let key = key.as_str();
        let args = crate::planner::placeholders::stand_in(&args);
        registry.check(key, &args.to_string()).map_err(|e| format!("assertion {}: {e}", i + 1))?;
    }
    Ok(())
}

/// Run one task of the suite.
pub fn run_task(env: &Env<'_>, entry: &TaskEntry) -> TaskReport {
    let started = std::time::Instant::now();
    let source = source_of(entry, Actor { agent: env.agent.is_some(), planner_only: env.planner_only });
    let mut report = TaskReport::blank(&entry.id, &entry.goal, source);
    let (family, capability) = env.router.pick(&entry.goal);
    report.routed_family = family;
    report.routed_capability = capability;
    let outcome = match &entry.task {
        Err(e) => Err(format!("the task is not valid: {e}")),
        Ok(task) => {
            report.family_ok = task.family.as_ref().map(|f| *f == report.routed_family);
            report.capability_ok = task.capability.as_ref().map(|c| Some(c) == report.routed_capability.as_ref());
            report.assertions_total = task.assertions.len();
            precheck(&env.path, env.router.families(), task, env.planner_only)
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
pub(super) fn calls_for(env: &Env<'_>, task: &Task, report: &mut TaskReport) -> Result<Vec<Call>, String> {
    if let Some(calls) = task.trajectory.as_ref().filter(|_| !env.planner_only) {
        return Ok(calls.clone());
    }
    let pick = |t: &str| env.router.pick(t).1;
    let scene = crate::planner::scene_objects(&env.path);
    let steps = build(&env.path, &pick, &PlanRequest { goal: &task.goal, scene: &scene, ..Default::default() }).map_err(|e| format!("planning failed: {e}"))?;
    // A step that needs input is never sent as it is: here nobody answers, so it is held.
    let calls = steps.iter().filter(|s| !s.held()).map(|s| Call { key: s.tool_hint.clone(), args: s.args.clone() }).collect();
    report.held_for_input = steps.iter().filter(|s| s.held()).count();
    report.plan = Some(steps);
    Ok(calls)
}

/// One call as `execute_capability` would run it, recorded; Err when the app went away.
fn run_call(env: &Env<'_>, call: &Call, last_failed: &mut Option<String>, merged: &mut SceneDelta, report: &mut TaskReport) -> Result<(), String> {
    let text = call.args.to_string();
    let sent = json!({ "key": call.key, "arguments": call.args }).to_string().len();
    let mut record = CallRecord { key: call.key.clone(), capability: None, args: call.args.clone(), retry: false, outcome: Outcome::Ok, code: None, message: None, bytes_sent: sent, bytes_received: 0 };
    let answer = match act::resolve(&env.path, &call.key) {
        Err(e) => Err((Outcome::Refused, json!({ "code": e.code(), "message": e.to_string() }))),
        Ok((key, _alias)) => {
            record.capability = Some(key.clone());
            record.retry = last_failed.as_deref() == Some(key.as_str());
            match env.path.check(&key, &text) {
                Err(e) => Err((Outcome::Refused, crate::report::error_json(&e))),
                Ok(()) => {
                    match env.path.run_checked(&key, &text, None) {
                        Ok(out) => {
                            if let Some(d) = &out.delta {
                                merged.then(d);
                            }
                            Ok(crate::report::output_json(out))
                        }
                        Err(e) if e.app_went_away() => return Err(format!("{} failed during {key}: {e}", crate::app_units::display_name(env.server))),
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
    report.args_accepted_first_time += usize::from(record.accepted_first_time());
    report.bytes += record.bytes_sent + record.bytes_received;
    report.calls.push(record);
    Ok(())
}

/// The task's scene preparation: run like any call, not measured; any failure means the
/// task cannot run as written.
fn set_up(env: &Env<'_>, task: &Task) -> Result<(), String> {
    unmeasured(env, "setup", &task.setup)
}

/// Calls run like any call (checked, through the call path), not measured (`what`:
/// `setup`, `reference`); the first failure is the error.
pub(super) fn unmeasured(env: &Env<'_>, what: &str, calls: &[Call]) -> Result<(), String> {
    for (i, call) in calls.iter().enumerate() {
        let (key, _) = act::resolve(&env.path, &call.key).map_err(|e| format!("{what} call {}: {e}", i + 1))?;
        let text = call.args.to_string();
        env.path.check(&key, &text).and_then(|()| env.path.run_checked(&key, &text, None)).map_err(|e| {
            let which = if e.app_went_away() { format!("{} failed during {what} call", crate::app_units::display_name(env.server)) } else { format!("{what} call") };
            format!("{which} {} ({key}) failed: {e}", i + 1)
        })?;
    }
    Ok(())
}

fn run_valid(env: &Env<'_>, task: &Task, report: &mut TaskReport) -> Result<(), String> {
    let prepared = prepare(env, task, report)?;
    if let Some(agent) = env.agent {
        let merged = super::agent::run(env, agent, task, &prepared, report)?;
        return judge(env, task, &prepared, &merged, report);
    }
    let calls = calls_for(env, task, report)?;
    let mut merged = SceneDelta::default();
    let mut last_failed: Option<String> = None;
    for call in &calls {
        run_call(env, call, &mut last_failed, &mut merged, report)?;
    }
    judge(env, task, &prepared, &merged, report)
}

/// A task's scene before it acts: the factory state, its setup, and the assertions that
/// already hold (with an empty delta: one that holds measures nothing the task did, and
/// a task whose every assertion holds cannot fail).
pub(super) fn prepare(env: &Env<'_>, task: &Task, report: &mut TaskReport) -> Result<Prepared, String> {
    reset(env)?;
    set_up(env, task)?;
    let mut prepared = Prepared::default();
    if let Some(calls) = &task.reference {
        prepared = super::image::reference(env, task, calls)?;
        report.reference_picture = prepared.reference_picture.as_ref().map(|p| p.display().to_string());
        reset(env)?;
        set_up(env, task)?;
    }
    let before = critique_in(&env.path, &task.assertions, Some(&SceneDelta::default()), prepared.context());
    report.held_before = before.checks.iter().filter(|c| c.passed).count();
    Ok(prepared)
}

/// What the task's agent is given besides its goal, and what its scene is judged against.
#[derive(Debug, Default)]
pub struct Prepared {
    /// An image goal's reference picture (a PNG file), when the task gives its goal as one.
    pub reference_picture: Option<std::path::PathBuf>,
    /// That picture decoded (what `visual_match` compares with).
    pub reference: Option<crate::planner::visual_match::Picture>,
    /// The private folder holding the picture: it lives as long as this (the task's run).
    pub folder: Option<tempfile::TempDir>,
}

impl Prepared {
    /// What the critic compares against.
    pub fn context(&self) -> Context<'_> {
        Context { reference: self.reference.as_ref() }
    }
}

/// The verdict on the scene after the task's calls (`merged`: their delta, in order):
/// the assertions, the side effects, and whether the last call ended on an error.
pub(super) fn judge(env: &Env<'_>, task: &Task, prepared: &Prepared, merged: &SceneDelta, report: &mut TaskReport) -> Result<(), String> {
    let result = critique_in(&env.path, &task.assertions, Some(merged), prepared.context());
    // A check that failed because the app went away is not a measurement: make sure it
    // is still there before scoring.
    let gone = match env.path.admission.server_available(env.server) {
        Some(available) => !available,
        // No app gate (a test's bridge): ask through the scene list.
        None => env.path.runtime.role(crate::roles::Role::ListsObjects).is_some_and(|list| env.path.execute(list, r#"{"limit":1}"#, None).is_err_and(|e| e.app_went_away())),
    };
    if gone {
        return Err(format!("{} went away while the assertions were checked", crate::app_units::display_name(env.server)));
    }
    report.assertions_met = result.checks.iter().filter(|c| c.passed).count();
    report.constraint_success = all_of_kind(&result, "spatial");
    report.visual_success = all_of_kind(&result, "visual");
    report.visual_match_success = all_of_kind(&result, "visual_match");
    report.side_effects = side_effects(task, merged);
    // An agent that stops right after an error did not finish, whatever the scene says.
    report.ended_on_error = report.calls.last().is_some_and(|c| c.outcome != Outcome::Ok);
    // An agent (`--agent`) that crashed or ran out of time did not finish either.
    let agent_failed = report.agent.as_ref().is_some_and(|a| a.failure().is_some());
    report.status = if result.passed && report.side_effects.is_empty() && !report.ended_on_error && !agent_failed { Status::Passed } else { Status::Failed };
    report.critique = Some(result);
    if env.thumbnails {
        report.thumbnail = thumbnail(env);
    }
    Ok(())
}

/// What the task changed that it was not allowed to: objects changed or removed other
/// than `may_change`, settings domains other than `may_change_settings`. A selection
/// change ([`crate::delta::SELECTION`]) is never one: selecting is how an agent points
/// at things, and it changes nothing in the scene's content.
pub fn side_effects(task: &Task, merged: &SceneDelta) -> Vec<String> {
    let o = &merged.objects;
    let objects = o.changed.iter().chain(&o.removed).filter(|n| !task.may_change.contains(n)).map(|n| format!("object {n}"));
    let settings = merged
        .settings
        .iter()
        .filter(|s| s.as_str() != crate::delta::SELECTION && !task.may_change_settings.contains(s))
        .map(|s| format!("settings {s}"));
    objects.chain(settings).collect()
}

fn thumbnail(env: &Env<'_>) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let args = json!({ "width": 128, "height": 96, "samples": 4 });
    let picture = env.path.runtime.role(crate::roles::Role::PicturesScene)?;
    let out = env.path.execute(picture, &args.to_string(), None).ok()?;
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
/// registry without the app (`capstan eval --check`): (task id, reason).
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
        for (what, calls) in [("call", &task.trajectory), ("reference call", &task.reference), ("near_miss call", &task.near_miss)] {
            for (i, call) in calls.iter().flatten().enumerate() {
                let Ok((key, _)) = act::resolve(registry, &call.key) else { continue };
                if let Err(e) = registry.check(&key, &call.args.to_string()) {
                    out.push((task.id.clone(), format!("{what} {} ({key}): {e}", i + 1)));
                }
            }
        }
    }
    out
}
