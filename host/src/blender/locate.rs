//! Finding a Blender: an executable (`blender`) or a Python interpreter that can
//! `import bpy` (Blender as a module).
//!
//! Order: `--blender PATH`, then `CAPSTAN_BLENDER`, then the Blenders capstan
//! provisioned under `CAPSTAN_HOME` (the default LTS line first, then the others), then
//! `blender` on `PATH`, then the usual install locations of the OS. (Tests hand their
//! `CAPSTAN_TEST_BLENDER` over as `--blender` or `CAPSTAN_BLENDER`, so it wins over any
//! provisioned one.)

use super::process::output_within;
use super::line::BlenderLine;
use super::provision;
use crate::home::CapstanHome;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub const BLENDER_ENV: &str = "CAPSTAN_BLENDER";
const PROBE_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlenderKind {
    /// A Blender executable (`blender -b --python ...`).
    Executable,
    /// A Python interpreter with the `bpy` module.
    PythonModule,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BlenderInstall {
    pub path: PathBuf,
    pub kind: BlenderKind,
    pub version: String,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum LocateError {
    #[error("{path}: {detail}")]
    NotBlender { path: PathBuf, detail: String },
    #[error("no Blender found (looked at --blender, ${BLENDER_ENV}, the provisioned one, PATH and the usual locations); run `capstan blender provision` to install a headless one")]
    NotFound,
}

/// The first dotted version number in `text` (`Blender 4.5.3 LTS` gives `4.5.3`).
pub fn first_version(text: &str) -> Option<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|w| w.contains('.') && w.split('.').all(|p| !p.is_empty()))
        .map(String::from)
}

/// Prints `CAPSTAN_BPY=<version>` for a Python that has `bpy`. The installed package's
/// metadata says it without importing `bpy` (which takes half a second and more, paid
/// at every app start: a batch worker's, `serve`'s); only a `bpy` without package
/// metadata (built from source) is imported to ask. A named `bpy` (`--blender`,
/// `$CAPSTAN_BLENDER`) that is there but cannot be imported (a missing system library)
/// fails at launch, which reports its log's tail; a found one is imported once per
/// process ([`BPY_IMPORTS`]), so a broken one never hides a working one after it.
const BPY_VERSION: &str = "import importlib.util as u, importlib.metadata as m
if u.find_spec('bpy') is None: raise SystemExit(3)
try: v = m.version('bpy')
except m.PackageNotFoundError:
    import bpy; v = bpy.app.version_string
print('CAPSTAN_BPY=' + v)";

/// Prints `CAPSTAN_BPY=<version>` after importing `bpy`: the thorough check.
const BPY_IMPORT: &str = "import bpy; print('CAPSTAN_BPY=' + bpy.app.version_string)";

/// The Pythons whose `bpy` imported in this process, and their executable's modification
/// time: a batch's workers, started together, wait for one import check, not one each.
static BPY_IMPORTS: std::sync::Mutex<Vec<(PathBuf, Option<std::time::SystemTime>)>> = std::sync::Mutex::new(Vec::new());

/// Identify what `path` is by asking it.
pub fn probe(path: &Path) -> Result<BlenderInstall, LocateError> {
    let not = |detail: String| LocateError::NotBlender { path: path.to_path_buf(), detail };
    let mut cmd = Command::new(path);
    cmd.arg("--version");
    let (_, text) = output_within(cmd, PROBE_TIMEOUT).map_err(|e| not(format!("cannot run it: {e}")))?;
    if let Some(line) = text.lines().find(|l| l.trim_start().starts_with("Blender ")) {
        let version = first_version(line).ok_or_else(|| not("no version in its --version output".into()))?;
        return Ok(BlenderInstall { path: path.to_path_buf(), kind: BlenderKind::Executable, version });
    }
    if text.trim_start().starts_with("Python ") {
        let mut cmd = Command::new(path);
        // -I: isolated, so a `bpy.py` in the working folder is never what is imported
        // (the venv's own site-packages stay on the path).
        cmd.args(["-I", "-c", BPY_VERSION]);
        let (ok, out) = output_within(cmd, PROBE_TIMEOUT).map_err(|e| not(format!("cannot run it: {e}")))?;
        // `version_string` carries a suffix on LTS releases ("4.5.15 LTS"): keep the number.
        let version = out.lines().find_map(|l| l.strip_prefix("CAPSTAN_BPY=")).and_then(first_version);
        return match (ok, version) {
            (true, Some(version)) => Ok(BlenderInstall { path: path.to_path_buf(), kind: BlenderKind::PythonModule, version }),
            _ => Err(not("a Python interpreter that cannot import bpy".into())),
        };
    }
    Err(not("neither a Blender executable nor a Python with bpy".into()))
}

fn usual_locations() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            out.push(dir.join(if cfg!(windows) { "blender.exe" } else { "blender" }));
        }
    }
    if cfg!(target_os = "macos") {
        out.push(PathBuf::from("/Applications/Blender.app/Contents/MacOS/Blender"));
    } else if cfg!(windows) {
        if let Some(pf) = std::env::var_os("ProgramFiles") {
            let base = PathBuf::from(pf).join("Blender Foundation");
            if let Ok(entries) = std::fs::read_dir(&base) {
                let mut dirs: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path().join("blender.exe")).collect();
                dirs.sort();
                dirs.reverse();
                out.extend(dirs);
            }
        }
    } else {
        out.extend(["/usr/bin/blender", "/usr/local/bin/blender", "/snap/bin/blender", "/opt/blender/blender"].map(PathBuf::from));
    }
    out
}

/// [`probe`], and for a Python, `bpy` imported once per process: a candidate found by
/// looking, which must not hide the next one by failing only at launch.
fn probe_importing(path: &Path) -> Result<BlenderInstall, LocateError> {
    let install = probe(path)?;
    if install.kind != BlenderKind::PythonModule {
        return Ok(install);
    }
    let stamp = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let mut imported = BPY_IMPORTS.lock().unwrap_or_else(|p| p.into_inner());
    if imported.iter().any(|(p, s)| p == path && *s == stamp) {
        return Ok(install);
    }
    let mut cmd = Command::new(path);
    cmd.args(["-I", "-c", BPY_IMPORT]);
    match output_within(cmd, PROBE_TIMEOUT) {
        Ok((true, out)) if out.contains("CAPSTAN_BPY=") => {
            imported.push((path.to_path_buf(), stamp));
            Ok(install)
        }
        Ok((_, out)) => Err(LocateError::NotBlender { path: path.to_path_buf(), detail: format!("its bpy does not import: {}", out.lines().last().unwrap_or_default()) }),
        Err(e) => Err(LocateError::NotBlender { path: path.to_path_buf(), detail: format!("cannot run it: {e}") }),
    }
}

/// Find a Blender to launch.
pub fn find(home: &CapstanHome, explicit: Option<&Path>) -> Result<BlenderInstall, LocateError> {
    if let Some(path) = explicit {
        return probe(path);
    }
    if let Some(path) = std::env::var_os(BLENDER_ENV).filter(|p| !p.is_empty()) {
        return probe(Path::new(&path));
    }
    let candidates = provisioned(home).into_iter().chain(usual_locations());
    for path in candidates.filter(|p| p.is_file()) {
        if let Ok(install) = probe_importing(&path) {
            return Ok(install);
        }
    }
    Err(LocateError::NotFound)
}

/// The provisioned Blenders' Pythons, the default line first.
fn provisioned(home: &CapstanHome) -> Vec<PathBuf> {
    BlenderLine::ALL.into_iter().map(|line| provision::venv_python(home, line)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_line_is_looked_for_first_under_capstan_home() {
        let home = CapstanHome::at(Path::new("/h"));
        let bin = if cfg!(windows) { "Scripts/python.exe" } else { "bin/python" };
        assert_eq!(
            provisioned(&home),
            vec![Path::new("/h/blender/bpy-5.2.4").join(bin), Path::new("/h/blender/bpy-4.5.15").join(bin)]
        );
    }

    #[test]
    fn versions_are_read_from_banner_lines() {
        assert_eq!(first_version("Blender 4.5.3 LTS").as_deref(), Some("4.5.3"));
        assert_eq!(first_version("Blender 5.0").as_deref(), Some("5.0"));
        assert_eq!(first_version("Python 3.11.7").as_deref(), Some("3.11.7"));
        assert_eq!(first_version("no version here."), None);
    }
}
