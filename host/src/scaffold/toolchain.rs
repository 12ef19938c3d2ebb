//! The compilers of Python and JavaScript packs, at pinned versions: found, or installed
//! once into a tools folder that capstan owns (never globally, never on PATH).
//!
//! - componentize-py: `CAPSTAN_COMPONENTIZE_PY` (an executable you installed), else
//!   `<tools>/componentize-py-<V>/bin/componentize-py`, else a venv made there with
//!   Python 3 (`CAPSTAN_PYTHON`, `python3.11`, `python3`) and `pip install
//!   componentize-py==<V>`;
//! - componentize-js: `CAPSTAN_COMPONENTIZE_JS`, else
//!   `<tools>/componentize-js-<V>/node_modules/.bin/componentize-js`, else `npm install`
//!   there; it needs Node.js 20 or later.
//!
//! `<tools>` is `CAPSTAN_TOOLS_DIR`, else `<CAPSTAN_HOME>/tools`. The layout is the one
//! `scripts/foreign_packs.sh` uses, so the test command shares one install.
//!
//! Why pinned: the WIT bindings each tool generates (names, error conventions, how WASI
//! is stubbed) change between releases; the templates are tested with these versions.
//! An installed tool is used only when it reports the pinned version.

use super::build::BuildError;
use super::child;
use crate::home::CapstanHome;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const COMPONENTIZE_PY_VERSION: &str = "0.25.1";
pub const COMPONENTIZE_JS_VERSION: &str = "0.23.0";
/// componentize-js 0.23 needs Node.js 20 or later.
pub const NODE_MAJOR_MIN: u32 = 20;

/// The pinned compiler of a Python or JavaScript pack, as `name version` (Rust packs
/// build with the toolchain the crate names: none here).
pub fn compiler(lang: super::Lang) -> Option<String> {
    match lang {
        super::Lang::Rust => None,
        super::Lang::Python => Some(format!("componentize-py {COMPONENTIZE_PY_VERSION}")),
        super::Lang::Js => Some(format!("componentize-js {COMPONENTIZE_JS_VERSION}")),
    }
}

fn unavailable(tool: &str, detail: impl Into<String>) -> BuildError {
    BuildError::ToolUnavailable { tool: tool.to_string(), detail: detail.into() }
}

/// Where capstan installs its pack compilers.
pub fn tools_dir() -> Result<PathBuf, BuildError> {
    if let Some(dir) = std::env::var_os("CAPSTAN_TOOLS_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let home = CapstanHome::from_env().map_err(|e| unavailable("tools folder", e.to_string()))?;
    Ok(home.root().join("tools"))
}

/// The first line a command prints for `args`, if it runs and succeeds.
fn first_line(program: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).stdin(std::process::Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").trim().to_string())
}

/// One install at a time per tools folder (two builds may start together): an
/// advisory lock on `<tools>/.lock`, released when dropped.
fn lock(tools: &Path) -> Result<std::fs::File, BuildError> {
    let io = |e: std::io::Error| BuildError::Io { path: tools.to_path_buf(), detail: e.to_string() };
    std::fs::create_dir_all(tools).map_err(io)?;
    let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(tools.join(".lock")).map_err(io)?;
    file.lock().map_err(io)?;
    Ok(file)
}

/// componentize-py at the pinned version.
pub fn componentize_py() -> Result<PathBuf, BuildError> {
    const TOOL: &str = "componentize-py";
    let wanted = format!("componentize-py {COMPONENTIZE_PY_VERSION}");
    if let Some(path) = std::env::var_os("CAPSTAN_COMPONENTIZE_PY").filter(|p| !p.is_empty()).map(PathBuf::from) {
        return match first_line(&path, &["--version"]) {
            Some(v) if v == wanted => Ok(path),
            found => Err(unavailable(TOOL, format!("CAPSTAN_COMPONENTIZE_PY={} reports {found:?}; capstan's templates need {wanted}", path.display()))),
        };
    }
    let tools = tools_dir()?;
    let dir = tools.join(format!("componentize-py-{COMPONENTIZE_PY_VERSION}"));
    let exe = dir.join("bin").join("componentize-py");
    if first_line(&exe, &["--version"]).as_deref() == Some(wanted.as_str()) {
        return Ok(exe);
    }
    let _lock = lock(&tools)?;
    if first_line(&exe, &["--version"]).as_deref() == Some(wanted.as_str()) {
        return Ok(exe);
    }
    let python = python3().ok_or_else(|| unavailable(TOOL, "installing it needs Python 3 with venv (python3.11 or python3; or set CAPSTAN_PYTHON, or CAPSTAN_COMPONENTIZE_PY to an installed componentize-py)"))?;
    let _ = std::fs::remove_dir_all(&dir);
    let mut venv = Command::new(&python);
    venv.args(["-m", "venv"]).arg(&dir);
    child::run(venv, "python3 -m venv", &format!("installing {wanted} into {} (once)", dir.display()))?;
    let mut pip = Command::new(dir.join("bin").join("pip"));
    pip.args(["install", "--quiet", "--disable-pip-version-check", &format!("componentize-py=={COMPONENTIZE_PY_VERSION}")]);
    child::run(pip, "pip", &format!("pip install componentize-py=={COMPONENTIZE_PY_VERSION}"))?;
    match first_line(&exe, &["--version"]) {
        Some(v) if v == wanted => Ok(exe),
        found => Err(unavailable(TOOL, format!("installed into {}, but it reports {found:?}", dir.display()))),
    }
}

fn python3() -> Option<PathBuf> {
    let asked = std::env::var_os("CAPSTAN_PYTHON").filter(|p| !p.is_empty()).map(PathBuf::from);
    asked.into_iter().chain(["python3.11", "python3"].map(PathBuf::from)).find(|p| first_line(p, &["-c", "import venv, ensurepip"]).is_some())
}

/// The major version of `node`, if it runs.
fn node_major() -> Option<u32> {
    let v = first_line(Path::new("node"), &["--version"])?;
    v.trim_start_matches('v').split('.').next()?.parse().ok()
}

/// The version in an installed componentize-js's package.json.
fn installed_js_version(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("node_modules/@bytecodealliance/componentize-js/package.json")).ok()?;
    let doc: serde_json::Value = serde_json::from_str(&text).ok()?;
    doc["version"].as_str().map(str::to_string)
}

/// componentize-js at the pinned version (and a Node.js that can run it).
pub fn componentize_js() -> Result<PathBuf, BuildError> {
    const TOOL: &str = "componentize-js";
    match node_major() {
        Some(major) if major >= NODE_MAJOR_MIN => {}
        found => {
            let found = found.map(|m| format!("Node.js {m}")).unwrap_or_else(|| "no `node` on PATH".into());
            return Err(unavailable(TOOL, format!("JavaScript packs need Node.js {NODE_MAJOR_MIN} or later with npm ({found}); install it from your package manager")));
        }
    }
    if let Some(path) = std::env::var_os("CAPSTAN_COMPONENTIZE_JS").filter(|p| !p.is_empty()).map(PathBuf::from) {
        return if path.is_file() { Ok(path) } else { Err(unavailable(TOOL, format!("CAPSTAN_COMPONENTIZE_JS={} is not a file", path.display()))) };
    }
    let tools = tools_dir()?;
    let dir = tools.join(format!("componentize-js-{COMPONENTIZE_JS_VERSION}"));
    let exe = dir.join("node_modules/.bin/componentize-js");
    let ready = || exe.is_file() && installed_js_version(&dir).as_deref() == Some(COMPONENTIZE_JS_VERSION);
    if ready() {
        return Ok(exe);
    }
    let _lock = lock(&tools)?;
    if ready() {
        return Ok(exe);
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| BuildError::Io { path: dir.clone(), detail: e.to_string() })?;
    std::fs::write(dir.join("package.json"), "{\"name\":\"capstan-pack-tools\",\"private\":true}\n").map_err(|e| BuildError::Io { path: dir.clone(), detail: e.to_string() })?;
    let mut npm = Command::new("npm");
    npm.args(["install", "--silent", "--no-fund", "--no-audit", "--no-save", "--include=optional"])
        .arg(format!("@bytecodealliance/componentize-js@{COMPONENTIZE_JS_VERSION}"))
        .current_dir(&dir);
    child::run(npm, "npm", &format!("installing componentize-js {COMPONENTIZE_JS_VERSION} into {} (once)", dir.display()))?;
    if ready() { Ok(exe) } else { Err(unavailable(TOOL, format!("npm ran, but {} is not componentize-js {COMPONENTIZE_JS_VERSION}", exe.display()))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test command builds foreign-packs/ with scripts/foreign_packs.sh into the same
    /// tools folder layout: the pinned versions must agree, or each would reinstall.
    #[test]
    fn the_pinned_versions_are_the_foreign_pack_scripts() {
        let script = include_str!("../../../scripts/foreign_packs.sh");
        assert!(script.contains(&format!("CPY_VERSION={COMPONENTIZE_PY_VERSION}\n")), "scripts/foreign_packs.sh pins another componentize-py");
        assert!(script.contains(&format!("CJS_VERSION={COMPONENTIZE_JS_VERSION}\n")), "scripts/foreign_packs.sh pins another componentize-js");
    }
}
