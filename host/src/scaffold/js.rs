//! JavaScript packs (componentize-js, SpiderMonkey): the templates under
//! generic `templates/js/` and the app unit's pack templates, and how `src/pack.js` is compiled into a component.
//!
//! Layout: `src/pack.js` (one ES module: componentize-js takes a single file), `tests/`
//! (`node --test`, with the `capstan:pack/*` imports replaced by a fake bridge),
//! `package.json` (for `npm test` only; nothing is installed), `pack.json`, README.

use super::build::BuildError;
use super::child;
use super::toolchain;
use super::{Names, ScaffoldError, render_all};
use std::path::{Path, PathBuf};

/// The module componentize-js compiles (it must export `pack`).
pub const ENTRY: &str = "src/pack.js";

/// The files every JavaScript pack has, whatever its app.
const GENERIC: &[(&str, &str)] = &[(".gitignore", include_str!("templates/js/gitignore.tmpl")), ("package.json", include_str!("templates/js/package.json.tmpl"))];

/// The generic files and the app's (its manifest, `src/pack.js`, tests, README).
pub fn files(names: &Names) -> Result<Vec<(String, String)>, ScaffoldError> {
    let app = super::app_templates()?;
    Ok(render_all(GENERIC, names).into_iter().chain(render_all(app.js, names)).collect())
}

/// True when `dir` holds a JavaScript pack.
pub fn is_js_pack(dir: &Path) -> bool {
    dir.join(ENTRY).is_file()
}

/// Compile `dir/src/pack.js` into `work/component.wasm` with every WASI feature
/// disabled (stdio, random, clocks, http, fetch-event: a component that imports
/// nothing but `capstan:pack/*`).
pub fn compile(dir: &Path, work: &Path) -> Result<PathBuf, BuildError> {
    let compiler = toolchain::componentize_js()?;
    super::write_pack_wit(work)?;
    // componentize-js resolves its paths through a WASI shim rooted at the working
    // folder: the source, the WIT and the output all live in `work`.
    let source = dir.join(ENTRY);
    std::fs::copy(&source, work.join("pack.js")).map_err(|e| BuildError::Io { path: source.clone(), detail: e.to_string() })?;
    let mut cmd = std::process::Command::new(&compiler);
    cmd.args(["pack.js", "--wit", "wit", "--world-name", "capability-pack", "--disable", "stdio", "random", "clocks", "http", "fetch-event", "-o", "component.wasm"])
        .current_dir(work);
    child::run(cmd, "componentize-js", &format!("compiling {} with componentize-js {}", source.display(), toolchain::COMPONENTIZE_JS_VERSION))?;
    Ok(work.join("component.wasm"))
}
