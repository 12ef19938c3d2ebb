//! `capstan eval`: start a confined headless instance of the app (its unit provisions
//! one if needed), run a suite of goal-conditioned tasks against it, each in a fresh
//! factory state, and report. Exit 0 when every task ran (passed or failed), 1 when
//! any task is an error (not valid, cannot run, the app did not start or went away), 2
//! when the suite cannot be read as a suite. `--check` validates a suite without the app.

use super::CliError;
use crate::engine::AllocationPreference;
use crate::eval::metrics::{HEADER, Status, SuiteReport, summary_row, totals_line};
use crate::eval::run::{Env, check_suite, not_started, refused_arguments, run_suite};
use crate::eval::{Suite, report};
use crate::home::CapstanHome;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;


#[derive(clap::Args)]
pub struct EvalArgs {
    /// The suite (format: host/eval/README.md); default: the suite the app's unit ships.
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
    /// Only check the suite against this capstan's capabilities (no app): every
    /// task that could not run, and every trajectory call whose arguments would be
    /// refused. Exit 0 when every task can run, 1 otherwise.
    #[arg(long, conflicts_with_all = ["report", "json"])]
    check: bool,
    /// The server whose app the suite runs in (default: the first registered app unit).
    #[arg(long, value_name = "SERVER")]
    app: Option<String>,
}

pub fn run(args: EvalArgs) -> Result<ExitCode, CliError> {
    let unit = match &args.app {
        Some(server) => crate::app_units::by_server(server).ok_or_else(|| CliError::Usage(format!("no app unit serves {server:?}")))?,
        None => crate::app_units::all()[0],
    };
    let suite = match (&args.suite, unit.eval_suite()) {
        (Some(path), _) => Suite::load(path),
        (None, Some(shipped)) => Suite::parse(shipped),
        (None, None) => return Err(CliError::Usage(format!("capstan ships no suite for {}: pass --suite FILE", unit.display_name()))),
    }
    .map_err(|e| CliError::Usage(e.to_string()))?;
    let home = CapstanHome::from_env()?;
    if args.check {
        return check(&home, &suite, args.planner);
    }
    let (result, sheets) = match unit.start_headless(&home, true) {
        Err(reason) => (not_started(&suite, unit.display_name(), &reason), None),
        Ok(instance) => {
            // This instance's own record: a live session's instance is left alone.
            let client = Arc::new(crate::bridge::HttpBridgeClient::for_runtime_file(&home, unit.server(), instance.runtime_file()));
            let mut runtime = crate::runtime::Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client.clone())?;
            runtime.load_all(&home);
            let router = crate::planner::Router::for_runtime(&runtime);
            // The same app gate as every surface: a task whose app went away is refused
            // with its state, not run against nothing.
            let gate = crate::call::app_gate::AppGate::new(&runtime, client.clone(), &home);
            let path = crate::call::CallPath::new(&runtime, &gate);
            let env = Env { path, client: client.as_ref(), router: &router, server: unit.server(), thumbnails: args.report.is_some(), planner_only: args.planner };
            let result = run_suite(&env, &suite, true);
            let sheets = instance.contact_sheets();
            drop(instance);
            (result, sheets)
        }
    };
    if let Some(dir) = &args.report {
        match report::write(dir, &result, sheets.as_deref()) {
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

/// `--check`: the suite against the capabilities this capstan loads, without the app.
fn check(home: &CapstanHome, suite: &Suite, planner_only: bool) -> Result<ExitCode, CliError> {
    let mut runtime = crate::runtime::Runtime::new(home, AllocationPreference::PoolingIfAvailable, Arc::new(crate::bridge::Offline))?;
    runtime.load_all(home);
    let router = crate::planner::Router::for_runtime(&runtime);
    let path = crate::call::CallPath::ungated(&runtime);
    let problems = check_suite(&path, router.families(), suite, planner_only);
    for (id, problem) in &problems {
        println!("{id}: cannot run: {}", crate::control_chars::escape(problem));
    }
    if !planner_only {
        for (id, refused) in refused_arguments(&path, suite) {
            println!("{id}: note: {} (counted as not accepted first time)", crate::control_chars::escape(&refused));
        }
    }
    println!("{} of {} tasks can run", suite.tasks.len() - problems.len(), suite.tasks.len());
    Ok(if problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
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
