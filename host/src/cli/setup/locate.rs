//! Where each client keeps the file `capstan setup` edits, per operating system.
//! The sources for each location are in the module doc of `setup` (mod.rs).

use super::SetupError;
use clap::ValueEnum;
use std::ffi::OsString;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SetupClient {
    /// Claude Desktop: `claude_desktop_config.json`, `mcpServers`.
    ClaudeDesktop,
    /// Cursor: `~/.cursor/mcp.json`, `mcpServers`.
    Cursor,
    /// VS Code: the user profile's `mcp.json`, `servers` (JSON with comments).
    Vscode,
    /// Claude Code: `~/.claude.json`, top-level `mcpServers` (user scope).
    ClaudeCode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    Mac,
    Windows,
}

impl Os {
    pub fn current() -> Os {
        if cfg!(windows) {
            Os::Windows
        } else if cfg!(target_os = "macos") {
            Os::Mac
        } else {
            Os::Linux
        }
    }
}

impl SetupClient {
    pub fn name(self) -> &'static str {
        match self {
            SetupClient::ClaudeDesktop => "Claude Desktop",
            SetupClient::Cursor => "Cursor",
            SetupClient::Vscode => "VS Code",
            SetupClient::ClaudeCode => "Claude Code",
        }
    }

    /// The top-level key holding the servers.
    pub fn servers_key(self) -> &'static str {
        match self {
            SetupClient::Vscode => "servers",
            _ => "mcpServers",
        }
    }

    /// VS Code reads `mcp.json` as JSONC (comments, trailing commas); the others as JSON.
    pub fn jsonc(self) -> bool {
        self == SetupClient::Vscode
    }

    /// The documented user-level config file on `os`, from the environment `env`.
    pub fn config_path(self, os: Os, env: &dyn Fn(&str) -> Option<OsString>) -> Result<PathBuf, SetupError> {
        let var = |name: &'static str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let need = |name: &'static str| var(name).ok_or(SetupError::NoConfigFolder { client: self.name(), var: name });
        let home = || need(if os == Os::Windows { "USERPROFILE" } else { "HOME" });
        // The per-user application-data folder Electron apps (Claude Desktop, VS Code) use.
        let app_data = || -> Result<PathBuf, SetupError> {
            match os {
                Os::Windows => need("APPDATA"),
                Os::Mac => Ok(home()?.join("Library").join("Application Support")),
                // XDG: only an absolute XDG_CONFIG_HOME counts, else ~/.config.
                Os::Linux => match var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()) {
                    Some(p) => Ok(p),
                    None => Ok(home()?.join(".config")),
                },
            }
        };
        Ok(match self {
            SetupClient::ClaudeDesktop => app_data()?.join("Claude").join("claude_desktop_config.json"),
            SetupClient::Cursor => home()?.join(".cursor").join("mcp.json"),
            SetupClient::Vscode => app_data()?.join("Code").join("User").join("mcp.json"),
            SetupClient::ClaudeCode => match var("CLAUDE_CONFIG_DIR") {
                Some(dir) => dir.join(".claude.json"),
                None => home()?.join(".claude.json"),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn documented_locations_per_os() {
        use SetupClient::*;
        let unix = env(&[("HOME", "/h")]);
        let p = |c: SetupClient, os, e: &dyn Fn(&str) -> Option<OsString>| c.config_path(os, e).unwrap();
        assert_eq!(p(ClaudeDesktop, Os::Mac, &unix), PathBuf::from("/h/Library/Application Support/Claude/claude_desktop_config.json"));
        assert_eq!(p(ClaudeDesktop, Os::Linux, &unix), PathBuf::from("/h/.config/Claude/claude_desktop_config.json"));
        assert_eq!(p(Vscode, Os::Mac, &unix), PathBuf::from("/h/Library/Application Support/Code/User/mcp.json"));
        assert_eq!(p(Vscode, Os::Linux, &env(&[("HOME", "/h"), ("XDG_CONFIG_HOME", "/x")])), PathBuf::from("/x/Code/User/mcp.json"));
        assert_eq!(p(Vscode, Os::Linux, &env(&[("HOME", "/h"), ("XDG_CONFIG_HOME", "rel")])), PathBuf::from("/h/.config/Code/User/mcp.json"));
        assert_eq!(p(Cursor, Os::Linux, &unix), PathBuf::from("/h/.cursor/mcp.json"));
        assert_eq!(p(ClaudeCode, Os::Mac, &unix), PathBuf::from("/h/.claude.json"));
        assert_eq!(p(ClaudeCode, Os::Linux, &env(&[("HOME", "/h"), ("CLAUDE_CONFIG_DIR", "/c")])), PathBuf::from("/c/.claude.json"));
        let win = env(&[("USERPROFILE", "U"), ("APPDATA", "A")]);
        assert_eq!(p(ClaudeDesktop, Os::Windows, &win), PathBuf::from("A").join("Claude").join("claude_desktop_config.json"));
        assert_eq!(p(Vscode, Os::Windows, &win), PathBuf::from("A").join("Code").join("User").join("mcp.json"));
        assert_eq!(p(Cursor, Os::Windows, &win), PathBuf::from("U").join(".cursor").join("mcp.json"));
        assert!(matches!(Cursor.config_path(Os::Linux, &env(&[])), Err(SetupError::NoConfigFolder { var: "HOME", .. })));
    }
}
