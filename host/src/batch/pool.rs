//! The local worker pool: N confined headless apps, each with its own instance folder
//! and port ([`crate::containment::instance`]), taking items from one queue.
//!
//! Each worker starts its app the way `capstan eval` does (`AppUnit::start_headless`,
//! private, so no live session's record is touched) and runs every item through the one
//! call path ([`crate::call::CallPath`]): the same validation, sandbox, app gate and bridge
//! gate as every call, inside the same kernel wall. Before each item the app is put back
//! to its factory state (the unit's host-only reset), so no item sees another's scene.
//!
//! # Failure
//!
//! - An item whose call fails on its own (invalid arguments, the app refused) is
//!   recorded `failed` with the structured error; running it again would fail again.
//! - An item whose app went away (killed, crashed, stopped answering) is **lost**, not
//!   failed: its worker drops the app (stopping what is left of it) and starts a fresh
//!   one, and the item goes back to the queue, at most `retries` more times. Its record
//!   counts every attempt and says why each earlier one was lost.
//! - No app outlives capstan: each is started from its worker thread with a
//!   parent-death signal (`PR_SET_PDEATHSIG`), and the thread lives as long as its app,
//!   so even a SIGKILL of capstan ends them.

use super::job::{Item, Job, arguments_for};
use super::manifest::Record;
use super::outputs;
use super::watchdog::Watchdog;
use crate::app_unit::{AppUnit, HeadlessOptions, RunningApp};
use crate::bridge::HttpBridgeClient;
use crate::call::CallPath;
use crate::call::app_gate::AppGate;
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::runtime::{CallError, Runtime};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// Starts of its app in a row that may fail before a worker gives up.
const MAX_FAILED_STARTS: u32 = 3;

/// One queued attempt of an item.
#[derive(Debug, Clone)]
pub struct Task {
    pub index: usize,
    /// Attempts already made (lost ones).
    pub attempts: u32,
    pub lost: Vec<String>,
}

/// What workers tell the coordinator.
#[derive(Debug)]
pub enum Event {
    /// A worker's app is up.
    Ready { worker: String, app: String },
    /// A worker's app could not start; the worker stops.
    StartFailed { worker: String, reason: String },
    /// An attempt was lost; the item was queued again (or recorded failed, when out of retries).
    Lost { worker: String, item: String, reason: String },
    Finished(Box<Record>),
}

struct Queue {
    tasks: VecDeque<Task>,
    in_flight: usize,
}

/// The shared queue and the stop flag (Ctrl-C).
pub struct Shared {
    queue: Mutex<Queue>,
    wake: Condvar,
    pub stop: Arc<AtomicBool>,
}

impl Shared {
    pub fn new(tasks: Vec<Task>, stop: Arc<AtomicBool>) -> Arc<Shared> {
        Arc::new(Shared { queue: Mutex::new(Queue { tasks: tasks.into(), in_flight: 0 }), wake: Condvar::new(), stop })
    }

    /// The next task, waiting while others are in flight (one of them may come back);
    /// None when the queue is done or the batch was stopped.
    fn take(&self) -> Option<Task> {
        let mut q = self.queue.lock().unwrap();
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return None;
            }
            if let Some(task) = q.tasks.pop_front() {
                q.in_flight += 1;
                return Some(task);
            }
            if q.in_flight == 0 {
                return None;
            }
            q = self.wake.wait_timeout(q, std::time::Duration::from_millis(200)).unwrap().0;
        }
    }

    /// An attempt ended; `again` goes back to the front of the queue.
    fn done(&self, again: Option<Task>) {
        let mut q = self.queue.lock().unwrap();
        q.in_flight -= 1;
        if let Some(task) = again {
            q.tasks.push_front(task);
        }
        self.wake.notify_all();
    }

    /// Tasks nobody ran (every worker stopped, or the batch was stopped).
    pub fn left(&self) -> usize {
        self.queue.lock().unwrap().tasks.len()
    }
}

/// A worker's app and the runtime that calls it.
struct WorkerApp {
    runtime: Runtime,
    gate: AppGate,
    client: Arc<HttpBridgeClient>,
    /// For an eval job: the planner's router over this runtime's capabilities.
    router: Option<crate::planner::Router>,
    output: PathBuf,
    /// The app's process (a child of this worker's thread), for the watchdog.
    pid: u32,
    running: Box<dyn RunningApp>,
}

/// A worker lets its app go after its last item, whose results are on disk, or after a
/// lost attempt, when the app is gone or hung: either way nothing in it is worth a
/// graceful stop (which waits for the app to tear its scene down, most of a second
/// after a heavy item, and up to its grace period for a hung one), so it is ended at
/// once. What a lost attempt left in its output folder is no one's and goes too, so
/// the instance's folder is removed as the app drops (a batch leaves none behind).
impl Drop for WorkerApp {
    fn drop(&mut self) {
        self.running.end_now();
        outputs::clear(&self.output);
    }
}

impl WorkerApp {
    fn start(home: &CapstanHome, unit: &'static dyn AppUnit, eval: bool, cpus: Option<Vec<usize>>) -> Result<WorkerApp, String> {
        let running = unit.start_headless(home, &HeadlessOptions { private: true, cpus })?;
        let client = Arc::new(HttpBridgeClient::for_runtime_file(home, unit.server(), running.runtime_file()));
        let mut runtime = Runtime::new(home, AllocationPreference::PoolingIfAvailable, client.clone()).map_err(|e| e.to_string())?;
        runtime.load_all(home);
        let output = runtime.bridge_client().output_folder(unit.server()).map_err(|e| e.to_string())?;
        let gate = AppGate::new(&runtime, client.clone(), home);
        let router = eval.then(|| crate::planner::Router::for_runtime(&runtime));
        let pid = running.pid();
        Ok(WorkerApp { runtime, gate, client, router, output, pid, running })
    }

    /// After a failed call: whether the app still answers. A call that failed because
    /// the app hung (its own deadline ran out first) is then a lost attempt.
    fn gone(&self, server: &str, watchdog: &Watchdog) -> Option<String> {
        if let Some(why) = watchdog.verdict() {
            return Some(why);
        }
        self.client.ping(server).err().map(|e| format!("the app no longer answers: {}", crate::redact::redact(&e.to_string())))
    }
}

/// What one attempt came to.
enum Attempt {
    Done(Record),
    Lost(String),
}

/// Everything a worker needs, shared by all of them.
pub struct PoolContext<'a> {
    pub home: &'a CapstanHome,
    pub unit: &'static dyn AppUnit,
    pub job: &'a Job,
    pub results_dir: &'a Path,
    pub shared: Arc<Shared>,
}

/// Run a worker until the queue is done, the batch is stopped, or its app cannot start.
pub fn worker(ctx: &PoolContext<'_>, name: &str, cpus: Option<Vec<usize>>, events: &Sender<Event>) {
    let mut app: Option<WorkerApp> = None;
    let mut failed_starts = 0;
    while let Some(mut task) = ctx.shared.take() {
        if app.is_none() {
            match WorkerApp::start(ctx.home, ctx.unit, ctx.job.eval.is_some(), cpus.clone()) {
                Ok(a) => {
                    failed_starts = 0;
                    // Where the app really runs: a share the kernel did not take is not claimed.
                    let placed = cpus.as_ref().and_then(|_| crate::launched::cpus_of(a.pid));
                    let _ = events.send(Event::Ready { worker: name.into(), app: format!("{}{}", a.running.describe(), super::cpus::describe(placed.as_deref())) });
                    app = Some(a);
                }
                Err(reason) => {
                    // Not the item's fault: it goes back. A worker whose app cannot start
                    // several times in a row stops; the others go on.
                    failed_starts += 1;
                    ctx.shared.done(Some(task));
                    let stops = failed_starts >= MAX_FAILED_STARTS;
                    let reason = if stops { format!("{reason} ({failed_starts} starts failed in a row: this worker stops)") } else { format!("{reason} (starting it again)") };
                    let _ = events.send(Event::StartFailed { worker: name.into(), reason });
                    if stops {
                        return;
                    }
                    continue;
                }
            }
        }
        let item = &ctx.job.items[task.index];
        task.attempts += 1;
        let started = Instant::now();
        let app_now = app.as_ref().expect("started above");
        let attempt = match &ctx.job.eval {
            None => run_item(ctx, app_now, item, name),
            Some(eval) => run_eval_task(ctx, app_now, &eval.suite.tasks[task.index], eval.planner, name),
        };
        match attempt {
            Attempt::Done(mut record) => {
                record.attempts = task.attempts;
                record.lost = std::mem::take(&mut task.lost);
                record.seconds = started.elapsed().as_secs_f64();
                ctx.shared.done(None);
                let _ = events.send(Event::Finished(Box::new(record)));
            }
            Attempt::Lost(reason) => {
                // Whatever is left of the app goes; the next task starts a fresh one.
                drop(app.take());
                let _ = events.send(Event::Lost { worker: name.into(), item: item.id.clone(), reason: reason.clone() });
                task.lost.push(reason.clone());
                if task.attempts <= ctx.job.retries {
                    ctx.shared.done(Some(task));
                } else {
                    let error = json!({ "code": "WORKER_LOST", "message": format!("every attempt was lost ({} attempts); the last: {reason}", task.attempts) });
                    let record = Record { attempts: task.attempts, seconds: started.elapsed().as_secs_f64(), lost: task.lost, ..Record::failed(&item.id, name, error) };
                    ctx.shared.done(None);
                    let _ = events.send(Event::Finished(Box::new(record)));
                }
            }
        }
    }
}

/// Why an attempt was lost: the watchdog's verdict when it ended the app, else the error.
fn why_lost(e: &CallError, watchdog: &Watchdog) -> String {
    watchdog.verdict().unwrap_or_else(|| crate::redact::redact(&e.to_string()).into_owned())
}

/// Whether a failed call means the app is gone or hung, not that the item is wrong.
fn lost(e: &CallError) -> bool {
    let timed_out = match e {
        CallError::Pack { failure, .. } => failure.bridge_code.as_deref() == Some("timeout"),
        CallError::Workflow { cause, .. } => lost(cause),
        _ => false,
    };
    timed_out || e.app_went_away()
}

fn run_item(ctx: &PoolContext<'_>, app: &WorkerApp, item: &Item, worker: &str) -> Attempt {
    let server = ctx.unit.server();
    let watchdog = &Watchdog::start(app.pid);
    if let Some(Err(e)) = ctx.unit.host_commands().reset.map(|reset| app.runtime.send_host_command(server, reset, &json!({}))) {
        let why = watchdog.verdict().unwrap_or_else(|| format!("the app did not reset: {}", crate::redact::redact(&e.to_string())));
        return Attempt::Lost(why);
    }
    // Anything an earlier, lost attempt left is no one's output.
    outputs::clear(&app.output);
    let path = CallPath::new(&app.runtime, &app.gate);
    let mut steps = Vec::new();
    let mut error = None;
    for step in &ctx.job.steps {
        let arguments = match arguments_for(step, item) {
            Ok(a) => a,
            Err(message) => {
                error = Some(json!({ "code": "INVALID_ITEM", "message": message }));
                break;
            }
        };
        match path.execute(&step.run, &arguments.to_string(), None) {
            Ok(out) => steps.push(json!({ "run": step.run, "result": out.result, "delta": out.delta })),
            Err(e) if lost(&e) => return Attempt::Lost(why_lost(&e, watchdog)),
            Err(e) => {
                if let Some(why) = app.gone(server, watchdog) {
                    return Attempt::Lost(why);
                }
                let body = crate::report::error_json(&e);
                steps.push(json!({ "run": step.run, "error": body }));
                error = Some(json!({ "code": body["code"], "message": body["message"] }));
                break;
            }
        }
    }
    let collected = outputs::collect(&app.output, ctx.results_dir, &item.id).unwrap_or_else(|e| outputs::Collected { files: vec![], skipped: vec![format!("the output folder could not be read: {e}")] });
    let landed = ctx.results_dir.join("outputs").join(&item.id);
    let mut steps = Value::Array(steps);
    rebase_paths(&mut steps, &app.output, &landed);
    let Value::Array(steps) = steps else { unreachable!() };
    Attempt::Done(Record::ran(&item.id, worker, steps, collected, error))
}

/// One task of an eval job, as `capstan eval` runs it (its own reset, calls, critic);
/// its report is the item's result. A task in error whose app no longer answers is
/// lost, not failed.
fn run_eval_task(ctx: &PoolContext<'_>, app: &WorkerApp, entry: &crate::eval::suite::TaskEntry, planner: bool, worker: &str) -> Attempt {
    let router = app.router.as_ref().expect("an eval worker has a router");
    let env = crate::eval::run::Env { path: CallPath::new(&app.runtime, &app.gate), client: app.client.as_ref(), router, server: ctx.unit.server(), thumbnails: false, planner_only: planner, agent: None };
    outputs::clear(&app.output);
    let watchdog = Watchdog::start(app.pid);
    let report = crate::eval::run::run_task(&env, entry);
    if report.status == crate::eval::metrics::Status::Error
        && let Some(why) = app.gone(ctx.unit.server(), &watchdog)
    {
        return Attempt::Lost(format!("{} ({why})", report.error.clone().unwrap_or_default()));
    }
    let collected = outputs::collect(&app.output, ctx.results_dir, &entry.id).unwrap_or_default();
    let result = serde_json::to_value(&report).unwrap_or(Value::Null);
    Attempt::Done(Record::ran(&entry.id, worker, vec![json!({ "run": "eval", "result": result })], collected, None))
}

/// Paths into the worker's output folder, in results, now name where the files landed.
pub(super) fn rebase_paths(v: &mut Value, from: &Path, to: &Path) {
    match v {
        Value::String(s) => {
            if let Ok(rest) = Path::new(s.as_str()).strip_prefix(from) {
                *s = to.join(rest).to_string_lossy().into_owned();
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rebase_paths(x, from, to)),
        Value::Object(o) => o.values_mut().for_each(|x| rebase_paths(x, from, to)),
        _ => {}
    }
}

/// Workers for this machine when `--workers` is not given: one per core, at most one
/// per 1.5 GiB of available memory (a headless Blender with a scene), at most one per
/// item, at least one.
pub fn default_workers(items: usize) -> usize {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let by_memory = available_memory_bytes().map(|b| (b / (3 << 29)) as usize).unwrap_or(cores);
    cores.min(by_memory).min(items).max(1)
}

fn available_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kib| kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_into_the_output_folder_name_where_they_landed() {
        let mut v = json!({ "file": "/h/instances/x/output/shot.png", "other": "/elsewhere/a.png", "list": ["/h/instances/x/output/f/1.png"] });
        rebase_paths(&mut v, Path::new("/h/instances/x/output"), Path::new("/r/outputs/a"));
        assert_eq!(v, json!({ "file": "/r/outputs/a/shot.png", "other": "/elsewhere/a.png", "list": ["/r/outputs/a/f/1.png"] }));
    }

    #[test]
    fn the_queue_waits_for_attempts_in_flight_and_takes_them_back_first() {
        let tasks = (0..2).map(|index| Task { index, attempts: 0, lost: vec![] }).collect();
        let shared = Shared::new(tasks, Arc::new(AtomicBool::new(false)));
        let a = shared.take().unwrap();
        let b = shared.take().unwrap();
        assert_eq!((a.index, b.index), (0, 1));
        let other = {
            let shared = shared.clone();
            std::thread::spawn(move || shared.take().map(|t| t.index))
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        shared.done(Some(Task { attempts: 1, ..a }));
        assert_eq!(other.join().unwrap(), Some(0), "a lost attempt goes to a waiting worker");
        shared.done(None);
        shared.done(None);
        assert!(shared.take().is_none(), "nothing queued, nothing in flight: done");
    }

    #[test]
    fn a_stopped_batch_hands_out_nothing() {
        let stop = Arc::new(AtomicBool::new(false));
        let shared = Shared::new(vec![Task { index: 0, attempts: 0, lost: vec![] }], stop.clone());
        stop.store(true, Ordering::SeqCst);
        assert!(shared.take().is_none());
        assert_eq!(shared.left(), 1);
    }

    #[test]
    fn workers_default_to_at_least_one_and_at_most_the_items() {
        assert_eq!(default_workers(1), 1);
        assert!(default_workers(1000) >= 1);
    }
}
