//! `capstan batch JOB`: the job's steps on every item, on a local pool of confined
//! headless apps (see [`crate::batch`]). Exit 0 when every item is ok, 1 when any failed
//! or is still pending, 130 when stopped with Ctrl-C (finished items are kept: run again
//! with `--resume`).

use super::{CliError, print_json};
use crate::batch::pool::Event;
use crate::batch::{Options, job::Job};
use crate::home::CapstanHome;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Args)]
pub struct BatchArgs {
    /// The job file (JSON): steps, and items (a list, a .json or .csv file) or frames.
    job: PathBuf,
    /// The results folder (records, manifest, outputs). Default: JOB's name + `.results`
    /// beside it.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Headless apps run at once (default: one per core, within available memory).
    #[arg(long)]
    workers: Option<usize>,
    /// Let every worker's app run on every CPU (default: with at least as many CPUs as
    /// workers, each worker's app gets its own share of them).
    #[arg(long, conflicts_with = "ray")]
    shared_cpus: bool,
    /// Go on with the results folder's batch: finished items are not run again.
    #[arg(long)]
    resume: bool,
    /// With --resume: run the items that failed again too.
    #[arg(long, requires = "resume")]
    retry_failed: bool,
    /// Run the items on the Ray cluster at ADDRESS (host:port of its GCS) instead of the
    /// local pool: one Ray task per item, each running capstan on its node.
    #[arg(long, value_name = "ADDRESS", conflicts_with = "workers")]
    ray: Option<String>,
    /// The Python whose venv holds Ray (default $CAPSTAN_RAY_PYTHON).
    #[arg(long, value_name = "PATH", requires = "ray")]
    ray_python: Option<PathBuf>,
    /// KEY=VALUE for the tasks on the nodes (repeatable): CAPSTAN_BIN, CAPSTAN_HOME,
    /// CAPSTAN_BLENDER... (CAPSTAN_BIN defaults to this capstan's own path).
    #[arg(long = "ray-env", value_name = "KEY=VALUE", requires = "ray")]
    ray_env: Vec<String>,
    /// A folder every node and this machine see at the same path (NFS, a mounted
    /// bucket): outputs go there instead of back through Ray.
    #[arg(long, value_name = "DIR", requires = "ray")]
    ray_shared: Option<PathBuf>,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub fn run(args: BatchArgs) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    let job = Job::load(&args.job).map_err(|e| CliError::Usage(e.to_string()))?;
    if args.workers == Some(0) {
        return Err(CliError::Usage("--workers is at least 1".into()));
    }
    let out = args.out.clone().unwrap_or_else(|| {
        let stem = args.job.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "batch".into());
        args.job.with_file_name(format!("{stem}.results"))
    });
    let out = std::path::absolute(&out).map_err(|e| CliError::Usage(format!("{}: {e}", out.display())))?;
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(stop.clone());
    let options = Options { out, workers: args.workers, resume: args.resume, retry_failed: args.retry_failed, shared_cpus: args.shared_cpus, stop };
    let bar = indicatif::ProgressBar::with_draw_target(Some(job.items.len() as u64), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} items  {msg}  [{elapsed}]").expect("a valid template"));
    let on_event = |event: &Event, results: &crate::batch::manifest::Results| {
        let (ok, failed, _) = results.counts();
        bar.set_position((ok + failed) as u64);
        match event {
            // Printed beside the bar (`println` prints nothing when stderr is no terminal).
            Event::Lost { worker, item, reason } => bar.suspend(|| eprintln!("capstan: {worker} lost item {item} ({reason})")),
            Event::StartFailed { worker, reason } => bar.suspend(|| eprintln!("capstan: {worker} could not start its app: {reason}")),
            Event::Ready { worker, app } => bar.suspend(|| eprintln!("capstan: {worker}: {app}")),
            Event::Finished(_) => {}
        }
        bar.set_message(format!("{ok} ok, {failed} failed"));
    };
    let summary = match &args.ray {
        None => crate::batch::run(&home, &job, &options, on_event),
        Some(address) => {
            let mut env = Vec::new();
            for pair in &args.ray_env {
                let (k, v) = pair.split_once('=').filter(|(k, _)| !k.is_empty()).ok_or_else(|| CliError::Usage(format!("--ray-env takes KEY=VALUE, not {pair:?}")))?;
                env.push((k.to_string(), v.to_string()));
            }
            let python = crate::batch::ray::ray_python(args.ray_python.clone()).map_err(|e| CliError::Usage(e.to_string()))?;
            let shared = match &args.ray_shared {
                None => None,
                Some(dir) if dir.is_dir() => Some(std::path::absolute(dir).map_err(|e| CliError::Usage(format!("{}: {e}", dir.display())))?),
                Some(dir) => return Err(CliError::Usage(format!("--ray-shared {} is not a folder", dir.display()))),
            };
            let ray = crate::batch::ray::RayOptions { address: address.clone(), python, env, shared };
            crate::batch::ray::run(&home, &job, &options, &ray, on_event)
        }
    }
    .map_err(|e| CliError::Usage(e.to_string()))?;
    bar.finish_and_clear();
    if args.json {
        print_json(&serde_json::to_value(&summary).expect("a summary serialises"));
    }
    let results = summary.results.display();
    eprintln!(
        "capstan: {} of {} items ok, {} failed, {} pending ({} finished before), {} worker(s), {:.1} s; results in {results}",
        summary.ok, summary.total, summary.failed, summary.pending, summary.skipped, summary.workers, summary.seconds
    );
    for failure in &summary.start_failures {
        eprintln!("capstan: {failure}");
    }
    Ok(if summary.interrupted {
        eprintln!("capstan: stopped; go on with: capstan batch {} --out {results} --resume", args.job.display());
        ExitCode::from(130)
    } else if summary.failed > 0 || summary.pending > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The first Ctrl-C stops handing out items (those running finish and are recorded);
/// a second one ends capstan at once (its apps end with it: parent-death signal).
fn stop_on_ctrl_c(stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
        rt.block_on(async {
            if tokio::signal::ctrl_c().await.is_err() {
                return;
            }
            stop.store(true, Ordering::SeqCst);
            eprintln!("capstan: stopping after the items running now (Ctrl-C again to stop at once)");
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        });
    });
}
