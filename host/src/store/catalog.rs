//! The catalog: named packs pinned to a git commit and a component digest.
//!
//! `$CAPSTAN_HOME/catalog.json` (or `--catalog FILE`) is a JSON array of
//! `{name, description, source, commit, sha256, platforms, path?}`: `source` a git URL,
//! `commit` a full 40-hex sha, `sha256` the component's digest, `path` the pack's folder
//! inside the repository (default: its root).
//!
//! Security reasoning: a name resolves to exactly one commit and one component digest.
//! capstan clones the repository, checks out that commit detached (never a branch
//! tip, which can move), confirms HEAD *is* that commit, and refuses a component whose
//! sha256 differs from the catalog's before the install gate runs its own checks.
//! git runs with no terminal prompts and no hooks from the cloned repository.

use crate::manifest::Platform;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogEntry {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub source: String,
    pub commit: String,
    pub sha256: String,
    pub platforms: Vec<String>,
    #[serde(default)]
    pub path: Option<String>,
}

/// An official pack as a catalog entry. It ships inside this binary, so its source is
/// the binary and its pin is the component digest the build sealed into its manifest;
/// `capstan packs install NAME` re-checks that digest and the app requirement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OfficialEntry {
    pub name: String,
    pub description: String,
    pub version: String,
    pub sha256: String,
    pub platforms: Vec<String>,
}

/// The official packs, as catalog entries (sorted by name).
pub fn official_entries() -> Vec<OfficialEntry> {
    let mut entries: Vec<OfficialEntry> = crate::packs::official()
        .iter()
        .filter_map(|o| crate::manifest::parse(o.manifest).ok())
        .map(|m| OfficialEntry {
            name: m.name,
            description: m.description,
            version: m.version.to_string(),
            sha256: m.sha256.unwrap_or_default(),
            platforms: m.platforms.iter().map(|p| p.key().to_string()).collect(),
        })
        .collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    entries
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    #[error("cannot read the catalog {path}: {detail}")]
    Unreadable { path: PathBuf, detail: String },
    #[error("the catalog {path} is invalid: {detail}")]
    Invalid { path: PathBuf, detail: String },
    #[error("no catalog entry named {name:?}")]
    NotFound { name: String },
    #[error("fetching {name} from {source_url} at {commit}: {detail}")]
    Fetch { name: String, source_url: String, commit: String, detail: String },
    #[error("{name}: the component's sha256 is {actual}, the catalog pins {expected}")]
    DigestMismatch { name: String, expected: String, actual: String },
}

fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Read and check a catalog file.
pub fn load(path: &Path) -> Result<Vec<CatalogEntry>, CatalogError> {
    let text = crate::fsutil::read_capped(path, crate::limits::MAX_MANIFEST_BYTES * 16)
        .map_err(|e| CatalogError::Unreadable { path: path.to_path_buf(), detail: e.to_string() })?;
    let invalid = |detail: String| CatalogError::Invalid { path: path.to_path_buf(), detail };
    let entries: Vec<CatalogEntry> = serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    for (i, e) in entries.iter().enumerate() {
        let at = format!("[{i}] ({})", e.name);
        if !is_hex(&e.commit, 40) {
            return Err(invalid(format!("{at}.commit must be a full 40-hex commit sha, not a branch or a short sha")));
        }
        if !is_hex(&e.sha256, 64) {
            return Err(invalid(format!("{at}.sha256 must be 64 lowercase hex digits")));
        }
        if e.source.starts_with('-') || e.source.is_empty() {
            return Err(invalid(format!("{at}.source must be a git URL")));
        }
        if let Some(p) = &e.path
            && !is_plain_relative(p)
        {
            return Err(invalid(format!("{at}.path must be a plain relative folder inside the repository")));
        }
        if let Some(bad) = e.platforms.iter().find(|p| Platform::parse(p).is_none()) {
            return Err(invalid(format!("{at}.platforms: unknown platform {bad:?}")));
        }
        if crate::packs::official().iter().any(|o| o.name == e.name) {
            return Err(invalid(format!("{at}: {:?} is the name of an official pack, which ships inside capstan", e.name)));
        }
        if entries[..i].iter().any(|o| o.name == e.name) {
            return Err(invalid(format!("{at}: the name is listed twice")));
        }
    }
    Ok(entries)
}

/// `a/b/c`: no leading `/`, no `..` or `.` parts, no backslash, no scheme.
fn is_plain_relative(p: &str) -> bool {
    !p.is_empty() && !p.starts_with('/') && !p.contains(['\\', ':']) && p.split('/').all(|part| !part.is_empty() && part != ".." && part != ".")
}

pub fn find<'a>(entries: &'a [CatalogEntry], name: &str) -> Result<&'a CatalogEntry, CatalogError> {
    entries.iter().find(|e| e.name == name).ok_or_else(|| CatalogError::NotFound { name: name.into() })
}

/// Check out `entry`'s pinned commit into `work` and return the pack folder in it,
/// with its component's digest confirmed against the catalog.
pub fn fetch(entry: &CatalogEntry, work: &Path) -> Result<PathBuf, CatalogError> {
    let fail = |detail: String| CatalogError::Fetch { name: entry.name.clone(), source_url: entry.source.clone(), commit: entry.commit.clone(), detail };
    let repo = work.join("repo");
    git(work, &["clone", "--quiet", "--no-checkout", "--", &entry.source, "repo"]).map_err(fail)?;
    git(&repo, &["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", &entry.commit]).map_err(fail)?;
    let head = git(&repo, &["rev-parse", "HEAD"]).map_err(fail)?;
    if head.trim() != entry.commit {
        return Err(fail(format!("HEAD is {}, not the pinned commit", head.trim())));
    }
    let dir = match &entry.path {
        Some(p) => repo.join(p),
        None => repo,
    };
    let manifest = crate::manifest::load(&dir).map_err(|e| fail(format!("the pinned commit has no valid pack.json: {e}")))?;
    let bytes = crate::fsutil::read_capped_bytes(&dir.join(&manifest.component), crate::limits::MAX_COMPONENT_BYTES)
        .map_err(|e| fail(format!("the pinned commit has no component {}: {e}", manifest.component)))?;
    let actual = crate::fsutil::sha256_hex(&bytes);
    if actual != entry.sha256 {
        return Err(CatalogError::DigestMismatch { name: entry.name.clone(), expected: entry.sha256.clone(), actual });
    }
    Ok(dir)
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never"])
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!("git {} failed: {}", args.first().unwrap_or(&""), String::from_utf8_lossy(&out.stderr).trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, entries: serde_json::Value) -> PathBuf {
        let p = dir.join("catalog.json");
        std::fs::write(&p, entries.to_string()).unwrap();
        p
    }

    #[test]
    fn entries_must_pin_a_full_commit_and_digest() {
        let dir = tempfile::tempdir().unwrap();
        let good = serde_json::json!({ "name": "p", "source": "/srv/p.git", "commit": "a".repeat(40), "sha256": "b".repeat(64), "platforms": ["linux"] });
        assert_eq!(load(&write(dir.path(), serde_json::json!([good]))).unwrap().len(), 1);
        for (key, value) in [("commit", "main"), ("commit", "abc1234"), ("sha256", "xyz"), ("source", "--upload-pack=evil"), ("platforms", "haiku")] {
            let mut bad = good.clone();
            bad[key] = if key == "platforms" { serde_json::json!([value]) } else { serde_json::json!(value) };
            assert!(load(&write(dir.path(), serde_json::json!([bad]))).is_err(), "{key}={value}");
        }
        let mut extra = good.clone();
        extra["branch"] = serde_json::json!("main");
        assert!(load(&write(dir.path(), serde_json::json!([extra]))).is_err(), "unknown keys are refused");
        let mut escape = good.clone();
        escape["path"] = serde_json::json!("../outside");
        assert!(load(&write(dir.path(), serde_json::json!([escape]))).is_err());
        assert!(load(&write(dir.path(), serde_json::json!([good.clone(), good]))).is_err(), "duplicate names");
    }
}
