//! The `capstan` command line. Command names are stable (scripts use them).
//! Human output goes to stdout; `--json` prints one JSON document there instead.
//! Logs and diagnostics go to stderr.

mod batch;
mod call;
mod check_python;
mod doctor;
mod eval;
mod mcp_config;
mod pack_dev;
mod pack_store;
mod serve;
mod packs;
mod setup;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "capstan", version = crate::app_units::version_line(), about = crate::app_units::about())]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Manage and inspect capability packs.
    Packs {
        #[command(subcommand)]
        command: packs::PacksCommand,
    },
    /// Run one capability through the sandbox and the bridge.
    Call(call::CallArgs),
    /// Run a job's steps on many items (a CSV or JSON list, or frame ranges) on a pool
    /// of confined headless apps, one record per item; --resume goes on after a stop.
    Batch(batch::BatchArgs),
    /// Check a Python script with the sandboxed safety checker (FILE, or - for stdin).
    /// Exit 0 allowed, 1 rejected, 2 error.
    CheckPython(check_python::CheckPythonArgs),
    /// Serve MCP on stdio (or Streamable HTTP with --http): the guided surface (five
    /// tools), or --expert (one tool per capability).
    Serve(serve::ServeArgs),
    /// Run a suite of goal-conditioned tasks against a headless app instance (each in a fresh
    /// factory scene) and report their measured metrics. Exit 1 when any task errors.
    Eval(eval::EvalArgs),
    /// Walk the chain for every declared server (app, version, session, runtime file,
    /// pid, ping, peer), then packs and cache, and say what to do. Exit 0 healthy, 1 findings.
    Doctor {
        #[arg(long)]
        json: bool,
    },
    /// Print the configuration snippet for an MCP client.
    McpConfig {
        #[arg(long, value_enum)]
        client: mcp_config::Client,
        /// Configure the expert surface instead of the guided one.
        #[arg(long)]
        expert: bool,
    },
    /// Add capstan to an MCP client's own config file (backed up first; idempotent;
    /// --dry-run shows the change and writes nothing).
    Setup(setup::SetupArgs),
    /// The applications' own commands (from the app units).
    #[command(flatten)]
    App(crate::app_units::AppCommand),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Packs { command } => packs::run(command),
        Command::Call(args) => call::run(args),
        Command::Batch(args) => batch::run(args),
        Command::CheckPython(args) => check_python::run(args),
        Command::App(command) => command.run(),
        Command::Serve(args) => serve::run(args),
        Command::McpConfig { client, expert } => mcp_config::run(client, expert),
        Command::Doctor { json } => doctor::run(json),
        Command::Eval(args) => eval::run(args),
        Command::Setup(args) => setup::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // Line by line: a message listing several problems keeps its lines, and each
            // line is still escaped (no terminal control reaches the screen).
            let text = e.to_string();
            for line in crate::redact::redact(&text).lines() {
                eprintln!("capstan: {}", crate::control_chars::escape(line));
            }
            ExitCode::from(2)
        }
    }
}

/// Errors that stop a command before it can say anything structured.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Home(#[from] crate::home::HomeError),
    #[error(transparent)]
    Runtime(#[from] crate::runtime::RuntimeError),
    #[error("{0}")]
    Usage(String),
    /// `packs new` refused (bad NAME, existing folder, ...); nothing was written.
    #[error("packs new: {0}")]
    Scaffold(#[from] crate::scaffold::ScaffoldError),
    /// `packs build` could not build (cargo failed, no pack.json, ...).
    #[error("packs build: {0}")]
    Build(#[from] crate::scaffold::build::BuildError),
    /// `setup` refused or failed; the config file was not changed.
    #[error("setup: {0}")]
    Setup(#[from] setup::SetupError),
}

/// Print one JSON document on stdout, redacted.
pub(crate) fn print_json(value: &serde_json::Value) {
    let text = serde_json::to_string_pretty(value).expect("JSON values serialise");
    println!("{}", crate::redact::redact(&text));
}
