//! `capstan eval`: start a confined headless instance of the app (its unit provisions
//! one if needed), run a suite of goal-conditioned tasks against it, each in a fresh
//! factory state, and report. Exit 0 when every task ran (passed or failed), 1 when
//! any task is an error (not valid, cannot run, the app did not start or went away), 2
//! when the suite cannot be read as a suite. `--check` validates a suite without the app.

use super::CliError;
use crate::engine::AllocationPreference;
use crate::eval::metrics::{HEADER, Status, SuiteReport, summary_row, totals_line};
use crate::eval::agent::{Agent, AgentSurface};
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
    /// Run this agent for every task, measured at the MCP boundary: CMD (split as a
    /// shell would, no shell run) gets the goal as its last argument and in
    /// CAPSTAN_GOAL, and the MCP server to spawn in CAPSTAN_MCP_COMMAND (a JSON array).
    #[arg(long, value_name = "CMD", conflicts_with_all = ["planner", "check"])]
    agent: Option<String>,
    /// The surface the agent's MCP server offers.
    #[arg(long, value_enum, requires = "agent", default_value = "guided")]
    agent_surface: AgentSurface,
    /// Seconds the agent may work on one task before it is stopped.
    #[arg(long, requires = "agent", value_name = "SECONDS", default_value_t = crate::limits::AGENT_TASK_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..=24 * 3600))]
    agent_timeout: u64,
    /// Give the agent each task's trajectory (CAPSTAN_EVAL_TRAJECTORY, a JSON file of
    /// calls): for reference agents that replay it, never for an agent under test.
    #[arg(long, requires = "agent")]
    give_trajectory: bool,
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
    let (result, sheets) = match unit.start_headless(&home, &crate::app_unit::HeadlessOptions { private: true, cpus: None }) {
        Err(reason) => (not_started(&suite, crate::eval::run::Actor { agent: args.agent.is_some(), planner_only: args.planner }, unit.display_name(), &reason), None),
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
            let agent = match &args.agent {
                Some(cmd) => Some(agent_for(cmd, &args, &home, instance.runtime_file())?),
                None => None,
            };
            let env = Env { path, client: client.as_ref(), router: &router, server: unit.server(), thumbnails: args.report.is_some(), planner_only: args.planner, agent: agent.as_ref() };
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

/// The `--agent` command and what its MCP server needs to reach `instance`.
fn agent_for(cmd: &str, args: &EvalArgs, home: &CapstanHome, instance: PathBuf) -> Result<Agent, CliError> {
    let command = shlex::split(cmd).filter(|c| !c.is_empty()).ok_or_else(|| CliError::Usage(format!("--agent {cmd:?}: not a command (empty, or an unclosed quote)")))?;
    let capstan = std::env::current_exe().map_err(|e| CliError::Usage(format!("--agent: cannot name this capstan for the agent's MCP server: {e}")))?;
    Ok(Agent {
        command,
        surface: args.agent_surface,
        timeout: std::time::Duration::from_secs(args.agent_timeout),
        give_trajectory: args.give_trajectory,
        capstan,
        home: home.root().to_path_buf(),
        instance,
    })
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
