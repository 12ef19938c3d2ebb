//! Logging goes to stderr, always: in `capstan serve` stdout is the MCP channel.
//! Every line passes the redactor (`redact`), so registered tokens never reach the log.
//! The level comes from `CAPSTAN_LOG` (tracing's env-filter syntax), default `warn`.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

pub const LOG_ENV: &str = "CAPSTAN_LOG";

pub fn init() {
    let filter = EnvFilter::try_from_env(LOG_ENV).unwrap_or_else(|_| EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(|| crate::redact::RedactingStderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}
