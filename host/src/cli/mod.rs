//! The `capstan` command line. Command names are stable (scripts use them).
//! Human output goes to stdout; `--json` prints one JSON document there instead.
//! Logs and diagnostics go to stderr.

mod call;
mod check_python;
mod doctor;
mod eval;
mod mcp_config;
mod pack_dev;
mod pack_store;
mod packs;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "capstan", version, about = crate::app_units::about())]
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
    /// Check a Python script with the sandboxed safety checker (FILE, or - for stdin).
    /// Exit 0 allowed, 1 rejected, 2 error.
    CheckPython(check_python::CheckPythonArgs),
    /// Serve MCP on stdio (or Streamable HTTP with --http): the guided surface (five
    /// tools), or --expert (one tool per capability).
    Serve {
        /// Every available capability as its own tool.
        #[arg(long, conflicts_with = "planner")]
        expert: bool,
        /// The Planner / Actor / Critic tools (planner_set_goal, planner_plan,
        /// planner_act, planner_critique, planner_status), one session per connection.
        #[arg(long)]
        planner: bool,
        /// Serve MCP over Streamable HTTP on this address (loopback only), at /mcp,
        /// behind a bearer token printed once to stderr and written to a 0600 file.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
        /// Allow --http on an address that is not loopback.
        #[arg(long, requires = "http")]
        allow_non_loopback: bool,
        /// A browser origin (http(s)://host[:port]) allowed besides the server's own
        /// address; any other Origin gets 403. Repeatable.
        #[arg(long, requires = "http", value_name = "ORIGIN")]
        allow_origin: Vec<String>,
        /// MCP sessions open at once over --http; a new one beyond it is refused (503).
        #[arg(long, requires = "http", value_name = "N", default_value_t = crate::limits::HTTP_MAX_SESSIONS, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u32).range(1..=100_000), |n| n as usize))]
        max_sessions: usize,
        /// Close an --http session after this many seconds with nothing in flight.
        #[arg(long, requires = "http", value_name = "SECONDS", default_value_t = crate::limits::HTTP_SESSION_IDLE_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..=7 * 24 * 3600))]
        session_idle_timeout: u64,
    },
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
    /// The applications' own commands (from the app units).
    #[command(flatten)]
    App(crate::app_units::AppCommand),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Packs { command } => packs::run(command),
        Command::Call(args) => call::run(args),
        Command::CheckPython(args) => check_python::run(args),
        Command::App(command) => command.run(),
        Command::Serve { expert, planner, http, allow_non_loopback, allow_origin, max_sessions, session_idle_timeout } => {
            let surface = if expert {
                crate::mcp::Surface::Expert
            } else if planner {
                crate::mcp::Surface::Planner
            } else {
                crate::mcp::Surface::Guided
            };
            let sessions = crate::mcp::http_sessions::SessionLimits { max_sessions, idle_timeout: std::time::Duration::from_secs(session_idle_timeout) };
            serve(surface, http, allow_non_loopback, allow_origin, sessions)
        }
        Command::McpConfig { client, expert } => mcp_config::run(client, expert),
        Command::Doctor { json } => doctor::run(json),
        Command::Eval(args) => eval::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("capstan: {}", crate::control_chars::escape(&crate::redact::redact(&e.to_string())));
            ExitCode::from(2)
        }
    }
}

fn serve(
    surface: crate::mcp::Surface,
    http: Option<std::net::SocketAddr>,
    allow_non_loopback: bool,
    allowed_origins: Vec<String>,
    sessions: crate::mcp::http_sessions::SessionLimits,
) -> Result<ExitCode, CliError> {
    let home = crate::home::CapstanHome::from_env()?;
    match http {
        Some(addr) => {
            let options = crate::mcp::http::HttpOptions { addr, allow_non_loopback, allowed_origins, sessions };
            crate::mcp::http::serve_http(&home, surface, options).map_err(|e| CliError::Usage(e.to_string()))?
        }
        None => crate::mcp::serve_stdio(&home, surface).map_err(CliError::Usage)?,
    }
    Ok(ExitCode::SUCCESS)
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
}

/// Print one JSON document on stdout, redacted.
pub(crate) fn print_json(value: &serde_json::Value) {
    let text = serde_json::to_string_pretty(value).expect("JSON values serialise");
    println!("{}", crate::redact::redact(&text));
}
