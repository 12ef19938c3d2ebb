//! `capstan batch JOB`: one job's steps on many items, on a pool of confined headless
//! apps, with a record per item that survives any crash.
//!
//! - [`job`]: the job file (steps, items from JSON or CSV, frame ranges), checked whole
//!   before any app starts.
//! - [`pool`]: the local workers (one instance folder and port each), retries of lost
//!   attempts, and why no app outlives capstan.
//! - [`outputs`]: moving an item's files out of its worker's folder without following
//!   what the confined app planted there.
//! - [`manifest`]: the results folder, its atomic records and `--resume`.
//! - [`ray`]: the same job on a Ray cluster (`--ray ADDRESS`), one Ray task per item,
//!   each running `capstan batch` for its item on its node.
//!
//! Every item runs through the same call path, sandbox, gates and kernel wall as any
//! call: a batch is many calls, never a way around one.

pub mod cpus;
pub mod job;
pub mod manifest;
pub mod outputs;
pub mod pool;
pub mod ray;
pub mod watchdog;

use crate::home::CapstanHome;
use job::Job;
use manifest::Results;
use pool::{Event, PoolContext, Shared, Task};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error(transparent)]
    Job(#[from] job::JobError),
    #[error(transparent)]
    Results(#[from] manifest::ResultsError),
    #[error("{0}")]
    Refused(String),
}

pub struct Options {
    pub out: PathBuf,
    /// None: [`pool::default_workers`].
    pub workers: Option<usize>,
    pub resume: bool,
    /// With `resume`: run the items that failed again too.
    pub retry_failed: bool,
    /// Every worker's app may run on every CPU (no shares: [`cpus`]).
    pub shared_cpus: bool,
    /// Set by Ctrl-C: no new item starts; those running finish and are recorded.
    pub stop: Arc<AtomicBool>,
}

/// How the batch ended.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Summary {
    pub results: PathBuf,
    pub total: usize,
    /// Items finished before this run (`--resume`), not run again.
    pub skipped: usize,
    pub ok: usize,
    pub failed: usize,
    pub pending: usize,
    /// Local workers started, or the Ray nodes that answered.
    pub workers: usize,
    pub interrupted: bool,
    /// Workers whose app could not start, and why.
    pub start_failures: Vec<String>,
    pub seconds: f64,
}

/// The app server the job runs on: its `app`, else the first registered app.
pub fn server_of(job: &Job) -> Result<&'static str, BatchError> {
    match &job.app {
        None => Ok(crate::app_units::all()[0].server()),
        Some(name) => crate::app_units::by_server(name).map(|u| u.server()).ok_or_else(|| BatchError::Refused(format!("no app unit serves {name:?} (apps: {})", crate::app_units::display_names()))),
    }
}

/// Check `job` against the capabilities (keys and every item's arguments) without an
/// app: a job that cannot run is refused before anything starts.
pub fn check(home: &CapstanHome, job: &Job, server: &str) -> Result<(), BatchError> {
    let client = Arc::new(crate::bridge::HttpBridgeClient::for_home(home));
    let mut runtime = crate::runtime::Runtime::new(home, crate::engine::AllocationPreference::OnDemand, client).map_err(|e| BatchError::Refused(e.to_string()))?;
    runtime.load_all(home);
    let mut problems = Vec::new();
    for step in &job.steps {
        match runtime.one_server_of(&step.run) {
            Some(s) if s == server => {}
            Some(s) => problems.push(format!("{} talks to {s}, and this batch runs {server}", step.run)),
            None if runtime.resolve(&step.run) == crate::runtime::Resolution::NotFound => problems.push(format!("no capability {:?}", step.run)),
            None => {}
        }
    }
    if problems.is_empty() {
        'items: for item in &job.items {
            for step in &job.steps {
                let arguments = job::arguments_for(step, item).map_err(BatchError::Refused)?;
                if let Err(e) = runtime.check(&step.run, &arguments.to_string()) {
                    problems.push(format!("item {}: {}", item.id, crate::redact::redact(&e.to_string())));
                    if problems.len() >= 10 {
                        break 'items;
                    }
                }
            }
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(BatchError::Refused(format!("the job cannot run, nothing started:\n  {}", problems.join("\n  ")))),
    }
}

/// Where a run starts from, on the local pool and on Ray alike: the job checked against
/// the capabilities, the results folder open (its failed items reopened with
/// `--retry-failed`), and the items still to run.
struct Prepared {
    started: std::time::Instant,
    server: &'static str,
    results: Results,
    /// The items to run, as indexes into the job's items.
    pending: Vec<usize>,
    /// Items finished before this run, not run again.
    skipped: usize,
}

fn prepare(home: &CapstanHome, job: &Job, options: &Options) -> Result<Prepared, BatchError> {
    let started = std::time::Instant::now();
    let server = server_of(job)?;
    check(home, job, server)?;
    let mut results = Results::open(&options.out, job, options.resume)?;
    if options.retry_failed {
        results.reopen_failed();
    }
    let pending: Vec<usize> = job.items.iter().enumerate().filter(|(_, item)| results.finished(&item.id).is_none()).map(|(index, _)| index).collect();
    let skipped = job.items.len() - pending.len();
    Ok(Prepared { started, server, results, pending, skipped })
}

impl Prepared {
    /// The manifest written for the last time, and how the run ended.
    fn finish(mut self, job: &Job, options: &Options, workers: usize, mut start_failures: Vec<String>, ended: Option<String>) -> Result<Summary, BatchError> {
        let interrupted = options.stop.load(std::sync::atomic::Ordering::SeqCst);
        self.results.write_manifest(interrupted)?;
        let (ok, failed, pending) = self.results.counts();
        if pending > 0 && !interrupted {
            start_failures.extend(ended.map(|why| format!("{why} with {pending} item(s) unanswered")));
        }
        let seconds = self.started.elapsed().as_secs_f64();
        Ok(Summary { results: options.out.clone(), total: job.items.len(), skipped: self.skipped, ok, failed, pending, workers, interrupted, start_failures, seconds })
    }
}

/// Run `job` on the local pool. `on_event` sees every worker event (for a progress bar)
/// after its record, if any, is on disk.
pub fn run(home: &CapstanHome, job: &Job, options: &Options, mut on_event: impl FnMut(&Event, &Results)) -> Result<Summary, BatchError> {
    let mut prepared = prepare(home, job, options)?;
    let unit = crate::app_units::by_server(prepared.server).expect("server_of names a unit");
    let tasks: Vec<Task> = prepared.pending.iter().map(|&index| Task { index, attempts: 0, lost: vec![] }).collect();
    let workers = options.workers.unwrap_or_else(|| pool::default_workers(tasks.len())).clamp(1, tasks.len().max(1));
    let shared = Shared::new(tasks, options.stop.clone());
    let (events, received) = std::sync::mpsc::channel();
    let ctx = PoolContext { home, unit, job, results_dir: &options.out, shared: shared.clone() };
    let mut start_failures = Vec::new();
    let mut write_error = None;
    let allowed = (!options.shared_cpus).then(crate::launched::allowed_cpus).flatten();
    let shares = allowed.map_or_else(|| vec![None; workers], |allowed| cpus::shares(&cpus::by_core(&allowed, cpus::sysfs_topology), workers, prepared.pending.len()));
    std::thread::scope(|scope| {
        for (n, share) in (1..=workers).zip(shares) {
            let ctx = &ctx;
            let name = format!("local-{n}");
            let events = events.clone();
            // Each app is started, and dies with, its worker's thread (parent-death signal).
            scope.spawn(move || pool::worker(ctx, &name, share, &events));
        }
        // The loop ends when the last worker has stopped.
        drop(events);
        for event in received.iter() {
            match &event {
                Event::Finished(record) => {
                    if let Err(e) = prepared.results.write((**record).clone()) {
                        write_error.get_or_insert(e);
                        options.stop.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                }
                Event::StartFailed { worker, reason } => start_failures.push(format!("{worker}: {reason}")),
                _ => {}
            }
            on_event(&event, &prepared.results);
        }
    });
    if let Some(e) = write_error {
        return Err(e.into());
    }
    prepared.finish(job, options, workers, start_failures, None)
}
