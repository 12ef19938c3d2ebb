//! Finding a FreeCAD: `--freecad PATH`, then `$CAPSTAN_FREECAD`, then `freecadcmd` on
//! `PATH`, then the usual Linux locations. Each candidate is asked its version with
//! FreeCAD's own Python (`freecadcmd -c`), under a throwaway `HOME` (FreeCAD writes its
//! configuration there on start), and must be 0.20 or newer.
//!
//! `freecadcmd --version` is not used: Debian's 0.20.2 prints the Python version and
//! crashes on it.

use crate::app_units::blender::process::output_within;
use crate::apps::version::DottedVersion;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub const FREECAD_ENV: &str = "CAPSTAN_FREECAD";
/// The oldest FreeCAD the bridge supports.
pub const MIN_VERSION: &str = "0.20";
/// How users install it (capstan never installs it: it is the OS package manager's).
pub const INSTALL_HINT: &str = "install FreeCAD 0.20 or newer from your package manager (Debian/Ubuntu: sudo apt-get install freecad)";
const PROBE_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FreecadInstall {
    /// The `freecadcmd` to start (as found; the launch resolves symlinks).
    pub path: PathBuf,
    pub version: String,
    /// The folders FreeCAD reads its code from (its home and resource folders, and its
    /// Python's `sys.path`: the standard library and `dist-packages`), as FreeCAD itself
    /// reported them; granted read-only to a launched instance.
    pub read_dirs: Vec<PathBuf>,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum LocateError {
    #[error("{path}: {detail}")]
    NotFreecad { path: PathBuf, detail: String },
    #[error("{path} is FreeCAD {version}; capstan needs {MIN_VERSION} or newer: {INSTALL_HINT}")]
    TooOld { path: PathBuf, version: String },
    #[error("no FreeCAD found (looked at --freecad, ${FREECAD_ENV}, freecadcmd on PATH and /usr/bin, /usr/local/bin); {INSTALL_HINT}")]
    NotFound,
}

/// What the probe prints before the version.
const MARK: &str = "CAPSTAN_FREECAD_VERSION=";

/// Ask `path` (a `freecadcmd`) which FreeCAD it is.
pub fn probe(path: &Path) -> Result<FreecadInstall, LocateError> {
    let not = |detail: String| LocateError::NotFreecad { path: path.to_path_buf(), detail };
    let scratch = tempfile::tempdir().map_err(|e| not(format!("no scratch folder: {e}")))?;
    let mut cmd = Command::new(path);
    let script = format!(
        "import sys, FreeCAD\nprint('{MARK}' + '.'.join(FreeCAD.Version()[:3]))\nfor p in [FreeCAD.getHomePath(), FreeCAD.getResourceDir()] + sys.path: print('{DIR}' + str(p))"
    );
    cmd.args(["-c", &script])
        .env("HOME", scratch.path())
        .env("XDG_CONFIG_HOME", scratch.path().join("config"))
        .env("XDG_CACHE_HOME", scratch.path().join("cache"))
        .env("XDG_DATA_HOME", scratch.path().join("data"))
        .env("TMPDIR", scratch.path())
        .current_dir(scratch.path());
    let (_, text) = output_within(cmd, PROBE_TIMEOUT).map_err(|e| not(format!("cannot run it: {e}")))?;
    let version = parse_probe(&text).ok_or_else(|| not("it did not report a FreeCAD version (is it freecadcmd?)".into()))?;
    if !meets_minimum(&version) {
        return Err(LocateError::TooOld { path: path.to_path_buf(), version });
    }
    let read_dirs = parse_dirs(&text, scratch.path());
    Ok(FreecadInstall { path: path.to_path_buf(), version, read_dirs })
}

/// What the probe prints before each folder FreeCAD reads code from.
const DIR: &str = "CAPSTAN_FREECAD_DIR=";

/// The folders of the probe's output: absolute, existing, symlinks resolved, none inside
/// `scratch` (the throwaway `HOME`: its macro folders are per-instance), and none
/// beneath another one of the list (a grant covers everything beneath its folder).
pub fn parse_dirs(text: &str, scratch: &Path) -> Vec<PathBuf> {
    let scratch = std::fs::canonicalize(scratch).unwrap_or_else(|_| scratch.to_path_buf());
    let mut dirs: Vec<PathBuf> = text
        .lines()
        .filter_map(|l| l.trim_end().strip_prefix(DIR))
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .filter(|p| !p.starts_with(&scratch) && p != Path::new("/"))
        .collect();
    dirs.sort();
    dirs.dedup();
    let all = dirs.clone();
    dirs.retain(|d| !all.iter().any(|other| other != d && d.starts_with(other)));
    dirs
}

/// The version from the probe's output (`0.20.2`), ignoring FreeCAD's banner.
pub fn parse_probe(text: &str) -> Option<String> {
    let raw = text.lines().find_map(|l| l.trim().strip_prefix(MARK))?;
    let version: String = raw.trim().trim_end_matches('.').to_string();
    DottedVersion::parse(&version).ok().map(|_| version)
}

/// Is `version` at least [`MIN_VERSION`]?
pub fn meets_minimum(version: &str) -> bool {
    match (DottedVersion::parse(version), DottedVersion::parse(MIN_VERSION)) {
        (Ok(v), Ok(min)) => v >= min,
        _ => false,
    }
}

fn usual_locations() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        out.extend(std::env::split_paths(&path).map(|dir| dir.join("freecadcmd")));
    }
    out.extend(["/usr/bin/freecadcmd", "/usr/local/bin/freecadcmd", "/usr/lib/freecad/bin/freecadcmd"].map(PathBuf::from));
    out
}

/// Find a FreeCAD to launch. A named one (`--freecad`, `$CAPSTAN_FREECAD`) that is not
/// a suitable FreeCAD is an error, not a reason to look further.
pub fn find(explicit: Option<&Path>) -> Result<FreecadInstall, LocateError> {
    if let Some(path) = explicit {
        return probe(path);
    }
    if let Some(path) = std::env::var_os(FREECAD_ENV).filter(|p| !p.is_empty()) {
        return probe(Path::new(&path));
    }
    let mut too_old = None;
    for path in usual_locations().into_iter().filter(|p| p.is_file()) {
        match probe(&path) {
            Ok(install) => return Ok(install),
            Err(e @ LocateError::TooOld { .. }) => too_old = too_old.or(Some(e)),
            Err(_) => {}
        }
    }
    Err(too_old.unwrap_or(LocateError::NotFound))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_line_is_read_among_freecads_output() {
        let out = "FreeCAD 0.20.2, Libs: 0.20.2R\n(c) Juergen Riegel\nCAPSTAN_FREECAD_VERSION=0.20.2\n";
        assert_eq!(parse_probe(out).as_deref(), Some("0.20.2"));
        assert_eq!(parse_probe("Python 3.11.2\nSegmentation fault"), None);
        assert_eq!(parse_probe("CAPSTAN_FREECAD_VERSION=nonsense"), None);
    }

    #[test]
    fn code_folders_are_resolved_deduplicated_and_never_the_scratch_home() {
        let tmp = tempfile::tempdir().unwrap();
        let (lib, mods, scratch) = (tmp.path().join("lib"), tmp.path().join("lib/Mod"), tmp.path().join("home"));
        for d in [&mods, &scratch.join("Macro")] {
            std::fs::create_dir_all(d).unwrap();
        }
        let text = format!(
            "noise\n{DIR}{}\n{DIR}{}\n{DIR}{}\n{DIR}relative\n{DIR}/nonexistent/x\n{DIR}{}/\n",
            mods.display(),
            lib.display(),
            scratch.join("Macro").display(),
            lib.display()
        );
        assert_eq!(parse_dirs(&text, &scratch), vec![std::fs::canonicalize(&lib).unwrap()]);
    }

    #[test]
    fn the_minimum_is_0_20() {
        assert!(meets_minimum("0.20"));
        assert!(meets_minimum("0.20.2"));
        assert!(meets_minimum("1.0.1"));
        assert!(!meets_minimum("0.19.4"));
        assert!(!meets_minimum("x"));
    }
}
