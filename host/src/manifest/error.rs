//! Manifest errors: each names the JSON path and the reason.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ManifestError {
    /// JSON path of the offending value (`servers.blender.commands[0]`; empty for the document).
    pub path: String,
    #[serde(rename = "message")]
    pub reason: String,
}

impl ManifestError {
    pub fn new(path: &str, reason: impl Into<String>) -> Self {
        ManifestError { path: path.to_string(), reason: reason.into() }
    }
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "{}: {}", self.path, self.reason)
        }
    }
}

/// Every problem found in one manifest, in document order of discovery.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct ManifestErrors(pub Vec<ManifestError>);

impl ManifestErrors {
    pub fn push(&mut self, e: ManifestError) {
        self.0.push(e);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = &ManifestError> {
        self.0.iter()
    }
    /// True if some error is at `path` and its reason contains `needle` (for tests and tools).
    pub fn has(&self, path: &str, needle: &str) -> bool {
        self.0.iter().any(|e| e.path == path && e.reason.contains(needle))
    }
}

impl fmt::Display for ManifestErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ManifestErrors {}
