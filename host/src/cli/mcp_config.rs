//! `capstan mcp-config --client NAME`: the JSON a user pastes into their MCP client,
//! with the absolute path of this binary, so nobody hand-writes it.

use super::{CliError, print_json};
use clap::ValueEnum;
use serde_json::{Value, json};
use std::process::ExitCode;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Client {
    /// Claude Desktop (`claude_desktop_config.json`).
    ClaudeDesktop,
    /// Cursor (`.cursor/mcp.json` or `~/.cursor/mcp.json`).
    Cursor,
    /// Any client: just the command and its arguments.
    Generic,
}

pub fn snippet(client: Client, binary: &str, expert: bool, home: Option<&str>) -> Value {
    let mut args = vec!["serve"];
    if expert {
        args.push("--expert");
    }
    let mut server = json!({ "command": binary, "args": args });
    if let Some(home) = home {
        server["env"] = json!({ "CAPSTAN_HOME": home });
    }
    match client {
        Client::ClaudeDesktop | Client::Cursor => json!({ "mcpServers": { "capstan": server } }),
        Client::Generic => server,
    }
}

/// This binary's absolute path, as the clients must run it (`capstan setup` uses it too).
pub fn this_binary() -> Result<String, CliError> {
    let exe = std::env::current_exe().and_then(|p| p.canonicalize()).map_err(|e| CliError::Usage(format!("cannot find this binary's path: {e}")))?;
    Ok(exe.to_string_lossy().into_owned())
}

/// `CAPSTAN_HOME` when it is set (and not empty): the server entry passes it on in `env`.
pub fn capstan_home() -> Option<String> {
    std::env::var(crate::home::HOME_ENV).ok().filter(|h| !h.is_empty())
}

pub fn run(client: Client, expert: bool) -> Result<ExitCode, CliError> {
    print_json(&snippet(client, &this_binary()?, expert, capstan_home().as_deref()));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_name_the_binary_and_the_surface() {
        let s = snippet(Client::ClaudeDesktop, "/opt/capstan/bin/capstan", false, None);
        assert_eq!(s, json!({ "mcpServers": { "capstan": { "command": "/opt/capstan/bin/capstan", "args": ["serve"] } } }));
        let s = snippet(Client::Generic, "/x/capstan", true, Some("/data/capstan"));
        assert_eq!(s["args"], json!(["serve", "--expert"]));
        assert_eq!(s["env"]["CAPSTAN_HOME"], "/data/capstan");
    }
}
