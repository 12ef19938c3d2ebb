//! `CAPSTAN_HOME`: the one folder capstan writes to (packs, compiled-code cache, runtime
//! files). Setting the variable isolates a run completely, which is how tests work.

use std::path::{Path, PathBuf};

pub const HOME_ENV: &str = "CAPSTAN_HOME";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapstanHome {
    root: PathBuf,
}

impl CapstanHome {
    /// `$CAPSTAN_HOME` if set and non-empty, else `~/.capstan`.
    pub fn from_env() -> Result<Self, HomeError> {
        match std::env::var_os(HOME_ENV) {
            Some(v) if !v.is_empty() => Ok(Self::at(PathBuf::from(v))),
            _ => {
                let home = std::env::var_os("HOME")
                    .or_else(|| std::env::var_os("USERPROFILE"))
                    .filter(|h| !h.is_empty())
                    .ok_or(HomeError::NoHome)?;
                Ok(Self::at(PathBuf::from(home).join(".capstan")))
            }
        }
    }

    pub fn at(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let root = if root.is_relative() {
            std::env::current_dir().map(|d| d.join(&root)).unwrap_or(root)
        } else {
            root
        };
        CapstanHome { root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    /// Installed (non-official) packs, one folder each.
    pub fn packs_dir(&self) -> PathBuf {
        self.root.join("packs")
    }
    /// Compiled components, keyed by component digest and engine compatibility.
    pub fn cache_dir(&self) -> PathBuf {
        self.root.join("cache").join("components")
    }
    /// Runtime files written by app bridges (`run/<server>/server.json`).
    pub fn run_dir(&self) -> PathBuf {
        self.root.join("run")
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HomeError {
    #[error("neither CAPSTAN_HOME nor HOME is set; set CAPSTAN_HOME to a folder capstan may write to")]
    NoHome,
}
