//! `capstan serve`: MCP on stdio, or Streamable HTTP with `--http`.

use super::CliError;
use crate::mcp::{ServeOptions, Surface};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ServeArgs {
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
    /// Append one JSON line per tools/list and tools/call answered to FILE: the tool,
    /// the capability, bytes in and out, the error code, milliseconds and the scene
    /// delta (never the arguments). `capstan eval --agent` reads it.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Talk to the app instance whose runtime record is FILE (under CAPSTAN_HOME), not
    /// the app's session: the instance `capstan eval --agent` started for a suite.
    #[arg(long, value_name = "FILE")]
    instance: Option<PathBuf>,
    /// The server whose instance --instance names (default: the first app unit's).
    #[arg(long, requires = "instance", value_name = "SERVER")]
    app: Option<String>,
}

pub fn run(args: ServeArgs) -> Result<ExitCode, CliError> {
    let surface = if args.expert {
        Surface::Expert
    } else if args.planner {
        Surface::Planner
    } else {
        Surface::Guided
    };
    let home = crate::home::CapstanHome::from_env()?;
    let instance = match args.instance {
        None => None,
        Some(file) => {
            let unit = match &args.app {
                Some(server) => crate::app_units::by_server(server).ok_or_else(|| CliError::Usage(format!("no app unit serves {server:?}")))?,
                None => crate::app_units::all()[0],
            };
            // The record holds the instance's bridge token: only a regular file under
            // this home is read, by its canonical path, so the home's ownership checks
            // apply to it (a path elsewhere, or a FIFO that would block, is refused
            // before anything reads it).
            let canonical = std::fs::canonicalize(&file).ok().filter(|f| std::fs::canonicalize(home.root()).is_ok_and(|h| f.starts_with(h)) && std::fs::metadata(f).is_ok_and(|m| m.is_file()));
            let Some(canonical) = canonical else {
                return Err(CliError::Usage(format!("--instance {}: not a regular file under CAPSTAN_HOME ({})", file.display(), home.root().display())));
            };
            Some((unit.server().to_string(), canonical))
        }
    };
    let options = ServeOptions { record: args.record, instance };
    match args.http {
        Some(addr) => {
            let sessions = crate::mcp::http_sessions::SessionLimits { max_sessions: args.max_sessions, idle_timeout: std::time::Duration::from_secs(args.session_idle_timeout) };
            let http = crate::mcp::http::HttpOptions { addr, allow_non_loopback: args.allow_non_loopback, allowed_origins: args.allow_origin, sessions };
            crate::mcp::http::serve_http(&home, surface, http, options).map_err(|e| CliError::Usage(e.to_string()))?
        }
        None => crate::mcp::serve_stdio(&home, surface, options).map_err(CliError::Usage)?,
    }
    Ok(ExitCode::SUCCESS)
}
