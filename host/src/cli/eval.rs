//! `capstan eval`: launch a headless Blender like `capstan demo` (provisioning one if
//! needed), run a suite of goal-conditioned tasks against it, each in a fresh factory
//! scene, and report. Exit 0 when every task ran (passed or failed), 1 when any task
//! is an error (not valid, cannot run, Blender did not start or went away), 2 when the
//! suite cannot be read as a suite. `--check` validates a suite without Blender.

use super::CliError;
use crate::blender::launch::{LaunchOptions, launch};
use crate::blender::{locate, provision};
use crate::engine::AllocationPreference;
use crate::eval::metrics::{HEADER, Status, SuiteReport, summary_row, totals_line};
use crate::eval::run::{Env, check_suite, not_started, refused_arguments, run_suite};
use crate::eval::{Suite, report};
use crate::home::CapstanHome;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// The suite shipped with capstan (`host/eval/suite.json`).
const DEFAULT_SUITE: &str = include_str!("../../eval/suite.json");

#[derive(clap::Args)]
pub struct EvalArgs {
    /// The suite (format: host/eval/README.md); default: the shipped suite.
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
    /// Print the whole report as one JSON document.
    #[arg(long)]
    json: bool,
    /// Run the planner's own plan for every task (arguments from the goal's words and
    /// the scene's names), ignoring the tasks' trajectories: measures the planner.
    #[arg(long)]
    planner: bool,
    /// Write report.json, report.md and contact-sheet.png into DIR.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Only check the suite against this capstan's capabilities (no Blender): every
    /// task that could not run, and every trajectory call whose arguments would be
    /// refused. Exit 0 when every task can run, 1 otherwise.
    #[arg(long, conflicts_with_all = ["report", "json"])]
    check: bool,
}

pub fn run(args: EvalArgs) -> Result<ExitCode, CliError> {
    let suite = match &args.suite {
        Some(path) => Suite::load(path),
        None => Suite::parse(DEFAULT_SUITE),
    }
    .map_err(|e| CliError::Usage(e.to_string()))?;
    let home = CapstanHome::from_env()?;
    if args.check {
        return check(&home, &suite, args.planner);
    }
    let started = start_blender(&home);
    let (result, install) = match started {
        Err(reason) => (not_started(&suite, &reason), None),
        Ok((install, blender)) => {
            // This instance's own record: a live session's Blender is left alone.
            let client = Arc::new(crate::bridge::HttpBridgeClient::for_runtime_file(&home, blender.runtime_file.clone()));
            let mut runtime = crate::runtime::Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client.clone())?;
            runtime.load_all(&home);
            let router = crate::planner::Router::for_runtime(&runtime);
            let env = Env { runtime: &runtime, client: client.as_ref(), router: &router, thumbnails: args.report.is_some(), planner_only: args.planner };
            let result = run_suite(&env, &suite, true);
            drop(blender);
            (result, Some(install))
        }
    };
    if let Some(dir) = &args.report {
        match report::write(dir, &result, install.as_ref()) {
            Ok(files) => files.iter().for_each(|f| eprintln!("capstan: wrote {}", f.display())),
            Err(e) => eprintln!("capstan: the report is incomplete: {e}"),
        }
    }
    if args.json {
        super::print_json(&serde_json::to_value(&result).expect("reports serialise"));
    } else {
        print_table(&result);
    }
    Ok(if result.tasks.iter().any(|t| t.status == Status::Error) { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `--check`: the suite against the capabilities this capstan loads, without Blender.
fn check(home: &CapstanHome, suite: &Suite, planner_only: bool) -> Result<ExitCode, CliError> {
    let mut runtime = crate::runtime::Runtime::new(home, AllocationPreference::PoolingIfAvailable, Arc::new(crate::bridge::Offline))?;
    runtime.load_all(home);
    let router = crate::planner::Router::for_runtime(&runtime);
    let problems = check_suite(&runtime, router.families(), suite, planner_only);
    for (id, problem) in &problems {
        println!("{id}: cannot run: {}", crate::control_chars::escape(problem));
    }
    if !planner_only {
        for (id, refused) in refused_arguments(&runtime, suite) {
            println!("{id}: note: {} (counted as not accepted first time)", crate::control_chars::escape(&refused));
        }
    }
    println!("{} of {} tasks can run", suite.tasks.len() - problems.len(), suite.tasks.len());
    Ok(if problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn start_blender(home: &CapstanHome) -> Result<(locate::BlenderInstall, crate::blender::launch::RunningBlender), String> {
    // Provision only when there is no Blender at all; a named one that is not Blender
    // (`$CAPSTAN_BLENDER`) is an error, not a reason to download another.
    let install = match locate::find(home, None) {
        Ok(found) => found,
        Err(e @ locate::LocateError::NotBlender { .. }) => return Err(e.to_string()),
        Err(locate::LocateError::NotFound) => {
            eprintln!("capstan: no Blender found; provisioning a headless one");
            let python = provision::provision(home, crate::blender::line::BlenderLine::DEFAULT).map_err(|e| e.to_string())?;
            locate::probe(&python).map_err(|e| e.to_string())?
        }
    };
    eprintln!("capstan: Blender {} ({})", install.version, install.path.display());
    let blender = launch(home, &install, &LaunchOptions { background: true, private: true, ..Default::default() }).map_err(|e| e.to_string())?;
    Ok((install, blender))
}

fn print_table(result: &SuiteReport) {
    println!("{}", HEADER.join("\t"));
    for t in &result.tasks {
        let row: Vec<String> = summary_row(t).iter().map(|c| crate::control_chars::escape(c).into_owned()).collect();
        println!("{}", crate::redact::redact(&row.join("\t")));
        if t.status != Status::Passed {
            for reason in t.reasons() {
                println!("  {}", crate::redact::redact(&crate::control_chars::escape(&reason)));
            }
        }
    }
    println!("total: {}", totals_line(&result.totals));
}
