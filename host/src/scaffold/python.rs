//! Python packs (componentize-py): the generic `templates/python/` and the app unit's pack templates, and how
//! `src/` is compiled into a component.
//!
//! Layout: `src/app.py` (the contract's glue: describe/execute, errors), `src/capabilities.py`
//! (plain Python: the declarations and handlers, given the bridge as a function, so
//! `tests/` runs them with a fake bridge in any CPython), `pack.json`, README.
//!
//! Only `src/` goes into the component (componentize-py embeds the Python path it is
//! given): the component written beside `pack.json`, tests and notes stay out of it.

use super::build::BuildError;
use super::child;
use super::toolchain;
use super::{Names, ScaffoldError, render_all};
use std::path::{Path, PathBuf};

/// The module componentize-py loads (`src/app.py`, class `Pack`).
pub const ENTRY: &str = "src/app.py";

/// The files every Python pack has, whatever its app.
const GENERIC: &[(&str, &str)] = &[(".gitignore", include_str!("templates/python/gitignore.tmpl"))];

/// The generic files and the app's (its manifest, `src/app.py`, capabilities, tests, README).
pub fn files(names: &Names) -> Result<Vec<(String, String)>, ScaffoldError> {
    let app = super::app_templates()?;
    Ok(render_all(GENERIC, names).into_iter().chain(render_all(app.python, names)).collect())
}

/// True when `dir` holds a Python pack.
pub fn is_python_pack(dir: &Path) -> bool {
    dir.join(ENTRY).is_file()
}

/// Compile `dir/src` into `work/component.wasm`, with every WASI import stubbed
/// (`--stub-wasi`: a trapping stub inside the component, so the component imports
/// nothing but `capstan:pack/*` and the sandbox grants nothing).
pub fn compile(dir: &Path, work: &Path) -> Result<PathBuf, BuildError> {
    let compiler = toolchain::componentize_py()?;
    let wit = super::write_pack_wit(work)?;
    let out = work.join("component.wasm");
    let mut cmd = std::process::Command::new(&compiler);
    cmd.arg("-d")
        .arg(&wit)
        .args(["-w", "capability-pack", "componentize", "--stub-wasi", "-p"])
        .arg(dir.join("src"))
        .arg("app")
        .arg("-o")
        .arg(&out)
        .current_dir(work)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    child::run(cmd, "componentize-py", &format!("compiling {} with componentize-py {}", dir.join("src").display(), toolchain::COMPONENTIZE_PY_VERSION))?;
    Ok(out)
}
