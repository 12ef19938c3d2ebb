//! `capstan setup claude-desktop|cursor|vscode|claude-code [--dry-run] [--expert] [--config PATH]`:
//! merge capstan's server entry (this binary's absolute path with `serve`, and
//! `CAPSTAN_HOME` in `env` when it is set: the entry `capstan mcp-config` prints, built
//! by the same code) into the client's own config file.
//!
//! **Where** (the user-level file each client documents; `--config PATH` names another):
//!
//! | client | key | Linux | macOS | Windows |
//! |---|---|---|---|---|
//! | Claude Desktop | `mcpServers` | `$XDG_CONFIG_HOME/Claude/claude_desktop_config.json` (else `~/.config`) | `~/Library/Application Support/Claude/claude_desktop_config.json` | `%APPDATA%\Claude\claude_desktop_config.json` |
//! | Cursor | `mcpServers` | `~/.cursor/mcp.json` | same | `%USERPROFILE%\.cursor\mcp.json` |
//! | VS Code | `servers` (`"type": "stdio"`) | `$XDG_CONFIG_HOME/Code/User/mcp.json` (else `~/.config`) | `~/Library/Application Support/Code/User/mcp.json` | `%APPDATA%\Code\User\mcp.json` |
//! | Claude Code | top-level `mcpServers` (user scope) | `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set) | same | `%USERPROFILE%\.claude.json` |
//!
//! Sources (searched, not guessed): Claude Desktop's macOS and Windows paths as the
//! client pages publish them (playwright.dev/mcp/clients/claude-desktop; Anaconda's
//! `anaconda-mcp claude-desktop path` reference); Anthropic ships no Linux build, so Linux
//! takes the XDG folder that community builds and installers use. Cursor: cursor.com/docs/mcp
//! (global `~/.cursor/mcp.json`, `C:\Users\<you>` on Windows). VS Code: its MCP configuration
//! reference, code.visualstudio.com/docs/agents/reference/mcp-configuration (user-profile
//! `mcp.json`, top-level `servers`, `type` for stdio) and its settings-file locations,
//! code.visualstudio.com/docs/getstarted/settings (the profile's `User` folder per OS;
//! another profile or VS Code Insiders: use `--config`). Claude Code: code.claude.com/docs/en/mcp
//! (user scope is the top-level `mcpServers` of `~/.claude.json`); `CLAUDE_CONFIG_DIR`
//! moving that file is Claude Code's documented override as other installers honour it
//! (e.g. DataDog/pup#622).
//!
//! **How the file is changed.**
//! - The text is edited, not re-serialised: jsonc-parser's concrete syntax tree keeps
//!   every other key and server in its order, the indentation and (VS Code) the comments;
//!   the new entry is appended to the server table. serde_json's `preserve_order` stays
//!   off (turning it on would change key order in every JSON capstan prints and hashes).
//!   The result is re-parsed and must equal the old document plus the entry.
//! - VS Code reads `mcp.json` as JSONC, so comments and trailing commas are accepted
//!   there and kept; the other clients read strict JSON, so a comment there is refused
//!   with a message saying comments are why.
//! - Idempotent: when the entry already equals the one wanted, nothing is written and no
//!   backup is made. An existing, different `capstan` entry is replaced, and the old one
//!   printed.
//! - Backup before a change: a sibling `<file>.capstan-backup-<UTC YYYYMMDDTHHMMSSZ>`
//!   (created exclusively, never overwriting; the file's permissions), so each change
//!   keeps the version before it.
//! - Atomic: a temporary file in the same folder with the old file's permissions, synced,
//!   renamed over the file. A missing file (and folder) is created, owner-only (0600):
//!   these files often hold credentials. The owner is whoever runs the command.
//! - A file that cannot be parsed, is not valid UTF-8, or whose top level or server
//!   table is not an object is refused, untouched, with the file, line and column.
//!
//! **Symbolic links: refused.** The config path must be a regular file (or missing).
//! Following a link would write wherever the link points, a file the user did not name
//! (and in a shared folder, one someone else chose); replacing the link by renaming over
//! it would silently cut a dotfiles checkout loose. Refusing says so; the user can pass
//! the link's target with `--config`. The check is made on the open file too (Unix
//! `O_NOFOLLOW`), so a link swapped in after the check is not followed.

mod locate;
mod merge;
mod write;

pub use locate::SetupClient;

use super::CliError;
use super::mcp_config::{Client, capstan_home, snippet, this_binary};
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct SetupArgs {
    /// The client whose config file to edit.
    #[arg(value_enum)]
    pub client: SetupClient,
    /// Print the change (file, entry before and after) and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Configure the expert surface instead of the guided one.
    #[arg(long)]
    pub expert: bool,
    /// Edit this file instead of the client's documented one.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// Why `capstan setup` changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("{}: the file has other hard links, which a replace would cut loose; nothing was changed. Pass the file you mean with --config after removing the other links", path.display())]
    HardLinked { path: std::path::PathBuf },
    #[error("{}: larger than {max} bytes, too large for a client's config; nothing was changed", path.display())]
    TooLarge { path: std::path::PathBuf, max: u64 },
    #[error("cannot find {client}'s config folder: {var} is not set (name the file with --config)")]
    NoConfigFolder { client: &'static str, var: &'static str },
    #[error("{}: not a regular file (a symbolic link or a folder); nothing was changed. Pass the real file with --config", path.display())]
    NotRegularFile { path: PathBuf },
    #[error("{}: not valid UTF-8; nothing was changed", path.display())]
    NotUtf8 { path: PathBuf },
    #[error("{}:{line}:{column}: cannot parse: {reason}; nothing was changed", path.display())]
    Parse { path: PathBuf, line: usize, column: usize, reason: String },
    #[error("{}: {what} is not a JSON object; nothing was changed", path.display())]
    NotAnObject { path: PathBuf, what: String },
    #[error("{}: the edited text did not parse back to the old document plus the entry; nothing was changed", path.display())]
    EditCheck { path: PathBuf },
    #[error("{}: cannot {action}: {source}", path.display())]
    Io { path: PathBuf, action: &'static str, source: std::io::Error },
}

/// The entry for `client`: `mcp-config`'s generic snippet, plus `"type": "stdio"` for VS Code.
pub fn entry(client: SetupClient, binary: &str, expert: bool, home: Option<&str>) -> Value {
    let mut server = snippet(Client::Generic, binary, expert, home);
    if client == SetupClient::Vscode {
        server["type"] = "stdio".into();
    }
    server
}

pub fn run(args: SetupArgs) -> Result<ExitCode, CliError> {
    let client = args.client;
    let path = match args.config {
        Some(p) => p,
        None => client.config_path(locate::Os::current(), &|k| std::env::var_os(k))?,
    };
    let wanted = entry(client, &this_binary()?, args.expert, capstan_home().as_deref());
    let existing = write::read(&path)?;
    let original = existing.as_ref().map(|(text, _)| text.as_str());
    let key = client.servers_key();
    let m = merge::merge(&path, original, key, &wanted, client.jsonc())?;
    println!("{} config: {}", client.name(), path.display());
    if !m.changed {
        println!("`{key}.{}` is already this entry; nothing changed.", merge::NAME);
        return Ok(ExitCode::SUCCESS);
    }
    let verb = match (&m.before, original) {
        (Some(_), _) => "replace",
        (None, None) => "create the file with",
        (None, Some(_)) => "add",
    };
    // The entry's text comes from the file: control characters are shown, not sent.
    let shown = |t: &str| t.lines().map(|l| crate::control_chars::escape(l).into_owned()).collect::<Vec<_>>().join("\n");
    println!("before: {}", m.before.as_deref().map_or("(no entry)".into(), shown));
    println!("after:  {}", shown(&m.after));
    if args.dry_run {
        println!("dry run: would {verb} `{key}.{}`; the file was not written.", merge::NAME);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some((text, perms)) = &existing {
        let saved = write::backup(&path, text, perms)?;
        println!("backup: {}", saved.display());
    }
    write::replace(&path, &m.text, existing.as_ref().map(|(_, p)| p))?;
    let done = match verb {
        "replace" => "replaced",
        "add" => "added",
        _ => "created the file with",
    };
    println!("{done} `{key}.{}`. Restart {} to load it.", merge::NAME, client.name());
    Ok(ExitCode::SUCCESS)
}
