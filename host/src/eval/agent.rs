//! `capstan eval --agent CMD`: an external agent runs each task, talking to capstan
//! over MCP only, and is measured at that boundary.
//!
//! Per task, after the scene is reset and set up, capstan runs CMD (split like a shell
//! would, no shell involved) with the goal as its last argument and in the environment:
//!
//! - `CAPSTAN_GOAL`: the goal (an image goal's reference picture named at its end);
//! - `CAPSTAN_MCP_COMMAND`: a JSON array, the stdio MCP server to spawn: this capstan's
//!   `serve` for the suite's own app instance, recording every request it answers
//!   (`--record`, [`crate::mcp::record`]); `--planner` when the agent drives the planner;
//! - `CAPSTAN_EVAL_TASK_ID`, and `CAPSTAN_EVAL_PICTURE` for an image goal;
//! - `CAPSTAN_EVAL_TRAJECTORY`, only with `--give-trajectory`: a JSON file of the
//!   task's calls (its trajectory, or the planner's plan when it has none, as capstan's
//!   own run would make them), for a reference agent that replays them. An agent under
//!   test is never given it.
//!
//! The agent's stdin is empty; its stdout and stderr go to files whose ends are kept.
//! When it exits (or is killed after the timeout, with its whole process group), every
//! process it started is ended too, so nothing acts on the next task's scene: on Linux
//! capstan is a child subreaper, so a process that left the group (a daemon that called
//! `setsid`) is reparented to capstan when its parent ends, and every child capstan did
//! not have before the agent started is killed and reaped ([`strays`]). Then the
//! record is read: the calls per tool, bytes in and out, errors by code, retries, and
//! the scene deltas of the capabilities it ran, merged for the side-effect check. The
//! scene is judged by the task's assertions as for any run.
//!
//! Security reasoning: the agent is a program the operator named, run with the
//! operator's rights; capstan adds nothing to them, and takes nothing away. This is a
//! measurement, not a sandbox: the agent is trusted to act through MCP. It is not
//! handed the bridge token (not in its arguments or environment), but with the
//! operator's rights it could read the instance's runtime record under CAPSTAN_HOME,
//! write the record file its server is told to write, or talk to Blender without MCP,
//! and then the numbers would be its own. What it does through MCP runs on the same
//! checked path as any client's. Containing a hostile agent would need capstan to own
//! the MCP server and the record and the agent to run without the home; not built.

use super::metrics::{CallRecord, Outcome, TaskReport};
use super::run::{Env, Prepared};
use super::suite::Task;
use crate::delta::SceneDelta;
use crate::mcp::record::{self, Entry};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Which MCP surface the agent is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AgentSurface {
    /// The five guided tools.
    Guided,
    /// The planner tools (`serve --planner`).
    Planner,
}

/// The external agent and how to reach the suite's app from its MCP server.
#[derive(Debug, Clone)]
pub struct Agent {
    /// The program and its arguments (the goal is appended).
    pub command: Vec<String>,
    pub surface: AgentSurface,
    pub timeout: Duration,
    /// Give the agent the task's trajectory (`--give-trajectory`: reference agents).
    pub give_trajectory: bool,
    /// The capstan executable the agent's MCP server runs.
    pub capstan: PathBuf,
    pub home: PathBuf,
    /// The suite's app instance (its runtime record).
    pub instance: PathBuf,
}

/// How the agent ran on one task and what crossed the MCP boundary.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AgentRun {
    /// Its exit code (None: killed, or ended by a signal).
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    /// Wall time from start to exit.
    pub seconds: f64,
    /// `tools/call` requests per tool.
    pub calls_by_tool: BTreeMap<String, usize>,
    /// `tools/list` requests.
    pub lists: usize,
    /// JSON bytes the agent sent (requests' params) and received (results).
    pub bytes_in: usize,
    pub bytes_out: usize,
    /// Error answers per code.
    pub errors_by_code: BTreeMap<String, usize>,
    /// Calls repeating a tool and capability right after it answered an error.
    pub retries: usize,
    /// Time capstan spent answering, in milliseconds.
    pub server_ms: f64,
    /// Why the run failed ([`AgentRun::failure`], kept for the JSON report).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// The end of what the agent wrote (a failing run's explanation).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stdout_tail: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stderr_tail: String,
}

impl AgentRun {
    /// Why the run itself failed (None: it exited 0 in time).
    pub fn failure(&self) -> Option<String> {
        if self.timed_out {
            return Some(format!("the agent did not finish within {:.0} s and was stopped", self.seconds));
        }
        match self.exit_code {
            Some(0) => None,
            Some(code) => Some(format!("the agent exited with status {code}: {}", last_line(&self.stderr_tail))),
            None => Some(format!("the agent was ended by a signal: {}", last_line(&self.stderr_tail))),
        }
    }
}

fn last_line(text: &str) -> String {
    text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("(no output)").chars().take(300).collect()
}

/// Run the agent on one task (its scene prepared); the merged delta of its calls. The
/// report gets the MCP record; a run that failed fails the task (never an error: the
/// agent is what is measured).
pub fn run(env: &Env<'_>, agent: &Agent, task: &Task, prepared: &Prepared, report: &mut TaskReport) -> Result<SceneDelta, String> {
    let work = tempfile::Builder::new().prefix("capstan-agent-").tempdir().map_err(|e| format!("cannot make the agent's folder: {e}"))?;
    let record_file = work.path().join("mcp-record.jsonl");
    let mut goal = task.goal.clone();
    if let Some(picture) = &prepared.reference_picture {
        goal.push_str(&format!("\n\nThe reference picture: {}", picture.display()));
    }
    let mut serve = vec![agent.capstan.display().to_string(), "serve".into()];
    if agent.surface == AgentSurface::Planner {
        serve.push("--planner".into());
    }
    serve.extend(["--record".into(), record_file.display().to_string(), "--instance".into(), agent.instance.display().to_string(), "--app".into(), env.server.to_string()]);
    let (program, args) = agent.command.split_first().ok_or("--agent names no program")?;
    let mut command = Command::new(program);
    command
        .args(args)
        .arg(&goal)
        .env("CAPSTAN_HOME", &agent.home)
        .env("CAPSTAN_GOAL", &goal)
        .env("CAPSTAN_MCP_COMMAND", serde_json::to_string(&serve).expect("strings serialise"))
        .env("CAPSTAN_EVAL_TASK_ID", &task.id)
        .stdin(Stdio::null());
    if let Some(picture) = &prepared.reference_picture {
        command.env("CAPSTAN_EVAL_PICTURE", picture);
    }
    if agent.give_trajectory {
        // The task's calls as capstan's own run makes them: its trajectory, or the
        // planner's plan for a task that has none (kept in the report as `plan`).
        let calls = super::run::calls_for(env, task, report)?;
        let file = work.path().join("trajectory.json");
        std::fs::write(&file, serde_json::to_vec_pretty(&calls).expect("calls serialise")).map_err(|e| format!("cannot write the trajectory for the agent: {e}"))?;
        command.env("CAPSTAN_EVAL_TRAJECTORY", file);
    }
    let mut run = supervise(&mut command, work.path(), agent.timeout, true)?;
    let entries = if record_file.exists() { record::read(&record_file)? } else { Vec::new() };
    let merged = measure(&entries, &mut run, report);
    report.agent = Some(run);
    merged
}

/// Start the agent in its own process group, wait up to `timeout`, end the group.
fn supervise(command: &mut Command, work: &Path, timeout: Duration, sweep: bool) -> Result<AgentRun, String> {
    use std::os::unix::process::CommandExt as _;
    let before = if sweep { strays::adopt_orphans() } else { Default::default() };
    let (out_path, err_path) = (work.join("stdout.txt"), work.join("stderr.txt"));
    let file = |p: &Path| std::fs::File::create(p).map_err(|e| format!("cannot make the agent's output file: {e}"));
    command.stdout(file(&out_path)?).stderr(file(&err_path)?).process_group(0);
    let started = Instant::now();
    let mut child = command.spawn().map_err(|e| format!("cannot start the agent {:?}: {e}", command.get_program()))?;
    let group = child.id() as libc::pid_t;
    let mut run = AgentRun::default();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() >= timeout => {
                run.timed_out = true;
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("cannot wait for the agent: {e}")),
        }
    };
    // Whatever the agent left running (its MCP server, helpers) ends with it. SAFETY:
    // killpg only sends a signal to the group this child leads.
    unsafe { libc::killpg(group, libc::SIGKILL) };
    let status = match status {
        Some(s) => Some(s),
        None => child.wait().ok(),
    };
    if sweep {
        strays::end_new_children(&before);
    }
    run.seconds = started.elapsed().as_secs_f64();
    run.exit_code = if run.timed_out { None } else { status.and_then(|s| s.code()) };
    run.stdout_tail = tail(&out_path);
    run.stderr_tail = tail(&err_path);
    run.failed = run.failure();
    Ok(run)
}

/// The agent's processes that left its process group.
mod strays {
    use std::collections::BTreeSet;

    /// Make capstan the reaper of its descendants' orphans (Linux), and name the children
    /// it has now (the app instance): those are never ended.
    pub fn adopt_orphans() -> BTreeSet<i32> {
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only sets a flag on this process.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        };
        children()
    }

    /// Kill and reap every child not in `before`, until none is left (a killed stray's
    /// own children are reparented to capstan in turn).
    pub fn end_new_children(before: &BTreeSet<i32>) {
        for _ in 0..20 {
            let new: Vec<i32> = children().difference(before).copied().collect();
            if new.is_empty() {
                return;
            }
            for pid in new {
                // SAFETY: signals and reaps a process that is capstan's own child.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), 0);
                }
            }
        }
        tracing::warn!("the agent's processes kept starting new ones; some may still run");
    }

    /// This process's children, from /proc (empty where there is none).
    fn children() -> BTreeSet<i32> {
        let me = std::process::id() as i32;
        let Ok(entries) = std::fs::read_dir("/proc") else { return BTreeSet::new() };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| {
                // `pid (comm) state ppid ...`: comm may hold spaces and parentheses.
                std::fs::read_to_string(format!("/proc/{pid}/stat")).ok().and_then(|s| s.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok())) == Some(me)
            })
            .collect()
    }
}

/// The end of an output file, read from there (an agent may have written gigabytes).
fn tail(path: &Path) -> String {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let mut bytes = Vec::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        let len = f.metadata().map_or(0, |m| m.len());
        let keep = crate::limits::AGENT_OUTPUT_TAIL_BYTES as u64;
        if f.seek(SeekFrom::Start(len.saturating_sub(keep))).is_ok() {
            let _ = f.take(keep).read_to_end(&mut bytes);
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    crate::redact::redact(&crate::control_chars::escape(&text)).into_owned()
}

/// The codes of a call refused before it ran (as eval's own runs count them).
const REFUSED: &[&str] = &["INVALID_CAPABILITY_ARGUMENTS", "UNKNOWN_CAPABILITY", "INVALID_TOOL_ARGUMENTS"];

/// Fill the report from the record; the merged delta of every capability that ran.
fn measure(entries: &[Entry], run: &mut AgentRun, report: &mut TaskReport) -> Result<SceneDelta, String> {
    let mut merged = SceneDelta::default();
    let mut last_error: Option<(String, Option<String>)> = None;
    for e in entries {
        run.bytes_in += e.bytes_in;
        run.bytes_out += e.bytes_out;
        run.server_ms += e.ms;
        if e.method == "tools/list" {
            run.lists += 1;
            continue;
        }
        let tool = e.tool.clone().unwrap_or_default();
        *run.calls_by_tool.entry(tool.clone()).or_default() += 1;
        let this = (tool, e.capability.clone());
        let retry = last_error.as_ref() == Some(&this);
        run.retries += usize::from(retry);
        if let Some(code) = &e.code {
            *run.errors_by_code.entry(code.clone()).or_default() += 1;
        }
        last_error = e.is_error.then(|| this.clone());
        if let Some(delta) = &e.delta {
            // Both sides are capstan's: a delta it cannot read would hide a side effect.
            let delta: SceneDelta = serde_json::from_value(delta.clone()).map_err(|err| format!("the MCP record's delta of a {} call cannot be read: {err}", e.tool.as_deref().unwrap_or("tools/call")))?;
            merged.then(&delta);
        }
        // A call that ran (or tried to run) a capability is one of the task's calls.
        let Some(capability) = &e.capability else { continue };
        let outcome = match (&e.code, e.is_error) {
            (_, false) => Outcome::Ok,
            (Some(code), true) if REFUSED.contains(&code.as_str()) => Outcome::Refused,
            _ => Outcome::Failed,
        };
        let record = CallRecord {
            key: capability.clone(),
            capability: Some(capability.clone()),
            args: serde_json::Value::Null,
            retry,
            outcome,
            code: e.code.clone(),
            message: None,
            bytes_sent: e.bytes_in,
            bytes_received: e.bytes_out,
        };
        report.calls_failed += usize::from(outcome != Outcome::Ok);
        report.args_accepted_first_time += usize::from(record.accepted_first_time());
        report.calls.push(record);
    }
    // As in every run: the capability calls (the task's calls); every MCP call is in
    // `calls_by_tool`, and the bytes are every byte that crossed.
    report.tool_calls = report.calls.len();
    report.retries = run.retries;
    report.bytes = run.bytes_in + run.bytes_out;
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(tool: &str, capability: Option<&str>, code: Option<&str>, delta: Option<serde_json::Value>) -> Entry {
        Entry { method: "tools/call".into(), tool: Some(tool.into()), capability: capability.map(String::from), bytes_in: 10, bytes_out: 100, is_error: code.is_some(), code: code.map(String::from), ms: 1.0, delta }
    }

    #[test]
    fn the_record_counts_tools_errors_retries_and_merges_deltas() {
        let entries = vec![
            Entry { method: "tools/list".into(), tool: None, capability: None, bytes_in: 0, bytes_out: 900, is_error: false, code: None, ms: 0.5, delta: None },
            entry("search_capabilities", None, None, None),
            entry("execute_capability", Some("scene.create_object"), Some("INVALID_CAPABILITY_ARGUMENTS"), None),
            entry("execute_capability", Some("scene.create_object"), None, Some(json!({ "added": ["Ball"] }))),
            entry("execute_capability", Some("scene.modify_object"), Some("APP_REFUSED"), Some(json!({ "changed": ["Cube"] }))),
        ];
        let (mut run, mut report) = (AgentRun::default(), TaskReport::blank("t", "g", "agent"));
        let merged = measure(&entries, &mut run, &mut report).unwrap();
        assert_eq!(run.lists, 1);
        assert_eq!(run.calls_by_tool["execute_capability"], 3);
        assert_eq!(run.calls_by_tool["search_capabilities"], 1);
        assert_eq!(run.errors_by_code["INVALID_CAPABILITY_ARGUMENTS"], 1);
        assert_eq!(run.errors_by_code["APP_REFUSED"], 1);
        assert_eq!((run.retries, report.retries), (1, 1));
        assert_eq!((run.bytes_in, run.bytes_out), (40, 1300));
        assert_eq!(report.tool_calls, 3, "capability calls; the search is in calls_by_tool");
        assert_eq!(report.bytes, 1340);
        let outcomes: Vec<Outcome> = report.calls.iter().map(|c| c.outcome).collect();
        assert_eq!(outcomes, [Outcome::Refused, Outcome::Ok, Outcome::Failed]);
        assert_eq!(report.calls_failed, 2);
        assert_eq!(report.args_accepted_first_time, 0, "the success was a retry");
        assert!(merged.objects.added.contains("Ball") && merged.objects.changed.contains("Cube"));
        let unreadable = vec![entry("execute_capability", Some("scene.create_object"), None, Some(json!({ "added": "Ball" })))];
        let err = measure(&unreadable, &mut AgentRun::default(), &mut TaskReport::blank("t", "g", "agent")).unwrap_err();
        assert!(err.contains("cannot be read"), "{err}");
    }

    #[test]
    fn a_run_that_failed_says_why() {
        let ok = AgentRun { exit_code: Some(0), ..Default::default() };
        assert_eq!(ok.failure(), None);
        let bad = AgentRun { exit_code: Some(3), stderr_tail: "Traceback\nValueError: no key\n\n".into(), ..Default::default() };
        assert!(bad.failure().unwrap().contains("status 3: ValueError: no key"));
        let slow = AgentRun { timed_out: true, seconds: 300.2, ..Default::default() };
        assert!(slow.failure().unwrap().contains("300 s"));
    }

    #[test]
    fn a_timed_out_agent_and_its_children_are_ended() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("child-alive");
        let script = format!("(sleep 2; touch {}) & sleep 30", marker.display());
        let mut command = Command::new("sh");
        command.arg("-c").arg(script);
        // No sweep here: other tests of this process start children of their own.
        let run = supervise(&mut command, dir.path(), Duration::from_millis(300), false).unwrap();
        assert!(run.timed_out && run.exit_code.is_none());
        std::thread::sleep(Duration::from_millis(2500));
        assert!(!marker.exists(), "the agent's child outlived it");
    }
}
