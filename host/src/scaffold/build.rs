//! `capstan packs build DIR`: compile a pack folder, seal its `pack.json`, and hand it
//! to the same checks `packs validate` and `packs install` run.
//!
//! 0. for a Rust pack, what compiling it would run natively (build scripts, procedural
//!    macros, cargo configuration beyond the SDK's own) is refused unless the user says
//!    `--trust-build-code` (`build_code`, which holds the reasoning);
//! 1. the language is read off the folder (`Cargo.toml`: Rust, `src/app.py`: Python,
//!    `src/pack.js`: JavaScript) and its compiler writes a component: cargo for
//!    `wasm32-wasip2` (`cargo rustc --lib --crate-type cdylib`), componentize-py or
//!    componentize-js against the pack contract this binary carries (`toolchain.rs`
//!    finds or installs them), their messages streamed to stderr under a spinner;
//! 2. the component is copied next to `pack.json` under the manifest's `component` name;
//! 3. the component is described in the sandbox (after the ABI and import check, so a
//!    pack importing `wasi:sockets` is refused here, naming the import), and the bridge
//!    commands its capabilities declare become each server's `commands`;
//! 4. `sha256` is written, and the caller validates the sealed folder.
//!
//! Sealing writes only `sha256` and `servers.<name>.commands`; every other key of
//! `pack.json` is kept as the author wrote it, in the manifest's order.

use crate::bridge::catalog::Catalogs;
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::manifest::MANIFEST_FILE;
use crate::plugin::bindings::PackDescription;
use crate::runtime::Runtime;
use crate::sandbox::CallSetup;
use serde::Serialize;
use serde_json::Value;
use super::Lang;
use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

pub const WASM_TARGET: &str = "wasm32-wasip2";

pub struct BuildOptions {
    pub dir: PathBuf,
    pub release: bool,
    /// Build a Rust pack even though building it runs code natively (its build
    /// scripts, procedural macros or cargo configuration beyond the SDK's own:
    /// `build_code`). Without it such a pack is refused before cargo compiles anything.
    pub trust_build_code: bool,
}

/// A compiled and sealed pack folder.
#[derive(Debug, Clone, Serialize)]
pub struct Built {
    pub dir: PathBuf,
    pub component: PathBuf,
    pub sha256: String,
    pub size_bytes: usize,
    pub lang: Lang,
    /// What compiled it: cargo's profile (`debug`, `release`) or the tool and its version.
    pub profile: String,
    /// Per server, the bridge commands written into pack.json.
    pub commands: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Clone, thiserror::Error, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum BuildError {
    #[error("{}: no pack.json here; `capstan packs new NAME` scaffolds a pack folder", path.display())]
    NotAPack { path: PathBuf },
    #[error("{}: no source to build: a Rust pack has Cargo.toml, a Python pack src/app.py, a JavaScript pack src/pack.js", path.display())]
    NotBuildable { path: PathBuf },
    #[error("cannot run {tool} ({detail}){}", if tool == "cargo" { "; install Rust with rustup (https://rustup.rs)" } else { "" })]
    ToolNotRun { tool: String, detail: String },
    #[error("{tool} is not available: {detail}")]
    ToolUnavailable { tool: String, detail: String },
    #[error("cargo metadata failed: {detail}")]
    Metadata { detail: String },
    #[error("{tool} failed ({}); its messages are above, the last lines:\n{tail}", exit_text(*exit_code))]
    ToolFailed { tool: String, exit_code: Option<i32>, tail: String },
    #[error("the compiler succeeded but wrote no component at {}", path.display())]
    NoComponent { path: PathBuf },
    #[error("pack.json: {detail}")]
    Manifest { detail: String },
    #[error("the component is refused: {detail}")]
    Refused { detail: String },
    #[error(
        "building {} would run code on this machine, as you, outside any sandbox: {}. Read that code first; if you trust it, build again with --trust-build-code",
        dir.display(),
        found.iter().map(|f| f.to_string()).collect::<Vec<_>>().join("; ")
    )]
    UntrustedBuildCode { dir: PathBuf, found: Vec<super::build_code::BuildCode> },
    #[error("capability {capability:?} uses the bridge command {command:?}, which none of the servers in pack.json ({servers}) has")]
    UnknownCommand { capability: String, command: String, servers: String },
    #[error("{}: {detail}", path.display())]
    Io { path: PathBuf, detail: String },
}

fn exit_text(code: Option<i32>) -> String {
    match code {
        Some(c) => format!("exit code {c}"),
        None => "killed by a signal".to_string(),
    }
}

impl BuildError {
    pub fn code(&self) -> &'static str {
        match self {
            BuildError::NotAPack { .. } => "not_a_pack",
            BuildError::NotBuildable { .. } => "not_buildable",
            BuildError::ToolNotRun { .. } => "tool_not_run",
            BuildError::ToolUnavailable { .. } => "tool_unavailable",
            BuildError::Metadata { .. } => "metadata",
            BuildError::ToolFailed { .. } => "compile_failed",
            BuildError::NoComponent { .. } => "no_component",
            BuildError::Manifest { .. } => "manifest",
            BuildError::Refused { .. } => "refused",
            BuildError::UntrustedBuildCode { .. } => "untrusted_build_code",
            BuildError::UnknownCommand { .. } => "unknown_command",
            BuildError::Io { .. } => "io",
        }
    }
}

fn io_error(path: &Path, e: impl std::fmt::Display) -> BuildError {
    BuildError::Io { path: path.to_path_buf(), detail: e.to_string() }
}

/// Compile, copy and seal the pack in `options.dir`.
pub fn build(options: &BuildOptions) -> Result<Built, BuildError> {
    let dir = &options.dir;
    let manifest_path = dir.join(MANIFEST_FILE);
    if !manifest_path.is_file() {
        return Err(BuildError::NotAPack { path: dir.clone() });
    }
    let lang = detect(dir).ok_or_else(|| BuildError::NotBuildable { path: dir.clone() })?;
    let text = crate::fsutil::read_capped(&manifest_path, crate::limits::MAX_MANIFEST_BYTES).map_err(|e| io_error(&manifest_path, e))?;
    let mut doc: Value = serde_json::from_str(&text).map_err(|e| BuildError::Manifest { detail: format!("not valid JSON: {e}") })?;
    check_before_compiling(&text)?;
    let component_name = doc["component"].as_str().ok_or_else(|| BuildError::Manifest { detail: "`component` names no file".into() })?.to_string();
    let pack_name = doc["name"].as_str().unwrap_or("pack").to_string();

    let work = tempfile::Builder::new().prefix("capstan-build-").tempdir().map_err(|e| io_error(&std::env::temp_dir(), e))?;
    let wasm = match lang {
        Lang::Rust => cargo_build(dir, options.release, options.trust_build_code)?,
        Lang::Python => super::python::compile(dir, work.path())?,
        Lang::Js => super::js::compile(dir, work.path())?,
    };
    let profile = super::toolchain::compiler(lang).unwrap_or_else(|| if options.release { "release" } else { "debug" }.to_string());
    let bytes = std::fs::read(&wasm).map_err(|_| BuildError::NoComponent { path: wasm.clone() })?;
    let component = dir.join(&component_name);
    if component.file_name().map(|n| n.to_string_lossy().into_owned()) != Some(component_name.clone()) {
        return Err(BuildError::Manifest { detail: format!("`component` must be a plain file name, found {component_name:?}") });
    }
    std::fs::write(&component, &bytes).map_err(|e| io_error(&component, e))?;

    let description = describe(&bytes, &pack_name)?;
    let catalogs = Catalogs::builtin().map_err(|e| BuildError::Refused { detail: e.to_string() })?;
    let commands = derive_commands(&doc, &description, &catalogs)?;
    let sha256 = crate::fsutil::sha256_hex(&bytes);
    doc["sha256"] = Value::String(sha256.clone());
    for (server, list) in &commands {
        doc["servers"][server]["commands"] = serde_json::json!(list);
    }
    std::fs::write(&manifest_path, manifest_text(&doc)).map_err(|e| io_error(&manifest_path, e))?;
    Ok(Built {
        dir: dir.clone(),
        component,
        sha256,
        size_bytes: bytes.len(),
        lang,
        profile,
        commands,
    })
}

/// The manifest's errors, before minutes of compiling, except in what sealing writes
/// (`sha256`, each server's `commands`, which may start empty).
fn check_before_compiling(text: &str) -> Result<(), BuildError> {
    let Err(errors) = crate::manifest::parse(text) else { return Ok(()) };
    let sealed_by_build = |path: &str| path == "sha256" || (path.starts_with("servers.") && (path.ends_with(".commands") || path.contains(".commands[")));
    let left: Vec<String> = errors.iter().filter(|e| !sealed_by_build(&e.path)).map(|e| e.to_string()).collect();
    if left.is_empty() {
        return Ok(());
    }
    Err(BuildError::Manifest { detail: format!("fix these before building:\n{}", left.join("\n")) })
}

/// The pack's language, read off its folder.
pub fn detect(dir: &Path) -> Option<Lang> {
    if super::rust::is_rust_pack(dir) {
        Some(Lang::Rust)
    } else if super::python::is_python_pack(dir) {
        Some(Lang::Python)
    } else if super::js::is_js_pack(dir) {
        Some(Lang::Js)
    } else {
        None
    }
}

fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// `cargo metadata` of the pack with its resolved dependency graph (cargo resolves, and
/// may download, but compiles and runs nothing), run in the pack folder.
fn metadata(dir: &Path) -> Result<Value, BuildError> {
    let out = Command::new(cargo())
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| BuildError::ToolNotRun { tool: "cargo".into(), detail: e.to_string() })?;
    if !out.status.success() {
        return Err(BuildError::Metadata { detail: String::from_utf8_lossy(&out.stderr).trim().to_string() });
    }
    serde_json::from_slice(&out.stdout).map_err(|e| BuildError::Metadata { detail: e.to_string() })
}

/// The pack crate's library name and the target directory cargo will use.
fn lib_and_target(doc: &Value) -> Result<(String, PathBuf), BuildError> {
    let target_dir = doc["target_directory"].as_str().map(PathBuf::from).ok_or_else(|| BuildError::Metadata { detail: "no target_directory".into() })?;
    let root = doc["resolve"]["root"].as_str();
    let lib = doc["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| root.is_none_or(|r| p["id"].as_str() == Some(r)))
        .flat_map(|p| p["targets"].as_array().into_iter().flatten())
        .find(|t| t["kind"].as_array().is_some_and(|k| k.iter().any(|k| matches!(k.as_str(), Some("lib" | "rlib" | "cdylib")))))
        .and_then(|t| t["name"].as_str())
        .ok_or_else(|| BuildError::Metadata { detail: "the crate has no library target ([lib] in Cargo.toml)".into() })?;
    Ok((lib.replace('-', "_"), target_dir))
}

/// Refuse what building the pack in `dir` would run natively (`build_code`), unless
/// `trust` (then it is listed on stderr, and built).
fn refuse_build_code(dir: &Path, found: Vec<super::build_code::BuildCode>, trust: bool) -> Result<(), BuildError> {
    if found.is_empty() {
        return Ok(());
    }
    if !trust {
        return Err(BuildError::UntrustedBuildCode { dir: dir.to_path_buf(), found });
    }
    eprintln!("capstan: --trust-build-code: building {} runs this code natively, as you:", dir.display());
    for f in &found {
        eprintln!("  - {f}");
    }
    Ok(())
}

/// `cargo rustc` for wasm32-wasip2; the path of the component it wrote. Refused before
/// cargo resolves anything when the folder's configuration would run programs, and
/// before it compiles anything when the graph holds build code beyond the SDK's.
fn cargo_build(dir: &Path, release: bool, trust: bool) -> Result<PathBuf, BuildError> {
    // cargo runs in the pack folder (whatever folder the user stands in), so the
    // configuration it reads is the configuration checked here.
    let dir = &std::fs::canonicalize(dir).map_err(|e| io_error(dir, e))?;
    let in_folder = super::build_code::folder_findings(dir);
    if !trust && !in_folder.is_empty() {
        return Err(BuildError::UntrustedBuildCode { dir: dir.to_path_buf(), found: in_folder });
    }
    let doc = metadata(dir)?;
    let mut found = in_folder;
    let trusted_sdk = super::build_code::trusted_local_sdk();
    found.extend(super::build_code::graph_findings(&doc, trusted_sdk.as_deref()).map_err(|detail| BuildError::Metadata { detail })?);
    refuse_build_code(dir, found, trust)?;
    let (lib, target_dir) = lib_and_target(&doc)?;
    let mut cmd = Command::new(cargo());
    cmd.args(["rustc", "--lib", "--target", WASM_TARGET, "--crate-type", "cdylib", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .current_dir(dir)
        .env("CARGO_TERM_PROGRESS_WHEN", "never");
    if release {
        cmd.arg("--release");
    }
    if std::io::stderr().is_terminal() {
        cmd.args(["--color", "always"]);
    }
    super::child::run(cmd, "cargo", &format!("compiling {lib} for {WASM_TARGET}"))?;
    let profile = if release { "release" } else { "debug" };
    let wasm = target_dir.join(WASM_TARGET).join(profile).join(format!("{lib}.wasm"));
    if !wasm.is_file() {
        return Err(BuildError::NoComponent { path: wasm });
    }
    Ok(wasm)
}

/// The pack's own description, read in the sandbox after the ABI and import check
/// (the same engine, cache and limits as loading it).
fn describe(bytes: &[u8], pack_name: &str) -> Result<PackDescription, BuildError> {
    let refused = |detail: String| BuildError::Refused { detail };
    let home = CapstanHome::from_env().map_err(|e| refused(e.to_string()))?;
    let runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, Arc::new(crate::bridge::Offline)).map_err(|e| refused(e.to_string()))?;
    let sandbox = runtime.sandbox();
    let engine = sandbox.engine().engine();
    let sha = crate::fsutil::sha256_hex(bytes);
    let (component, _) = runtime.cache().load_or_compile(engine, &sha, bytes).map_err(|e| refused(format!("it does not compile: {e:#}")))?;
    let version = crate::plugin::abi::check(&component, engine).map_err(|e| refused(e.to_string()))?;
    let pre = sandbox.prepare(&component, version).map_err(|e| refused(format!("it does not link against the pack contract: {e:#}")))?;
    let setup = CallSetup::offline(pack_name, crate::limits::DESCRIBE_LIMITS);
    let (described, _) = pre.describe(sandbox, setup);
    described.map_err(|e| refused(format!("describe() failed: {e}")))
}

/// Every bridge command a capability declares, under the declared server whose
/// catalog has it.
fn derive_commands(doc: &Value, description: &PackDescription, catalogs: &Catalogs) -> Result<BTreeMap<String, Vec<String>>, BuildError> {
    let servers: Vec<String> = doc["servers"].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    if servers.is_empty() {
        return Err(BuildError::Manifest { detail: "`servers` declares no server (\"servers\": {\"sculptor\": {\"commands\": []}})".into() });
    }
    let mut found: BTreeMap<String, BTreeSet<String>> = servers.iter().map(|s| (s.clone(), BTreeSet::new())).collect();
    for cap in &description.capabilities {
        for command in &cap.bridge_commands {
            let server = servers.iter().find(|s| catalogs.for_server(s).is_some_and(|c| c.command(command).is_some()));
            match server {
                Some(s) => {
                    found.get_mut(s).expect("listed").insert(command.clone());
                }
                None => {
                    return Err(BuildError::UnknownCommand {
                        capability: crate::control_chars::escape(&cap.key).into_owned(),
                        command: crate::control_chars::escape(command).into_owned(),
                        servers: servers.join(", "),
                    });
                }
            }
        }
    }
    Ok(found.into_iter().map(|(s, set)| (s, set.into_iter().collect())).collect())
}

/// pack.json as written back: the manifest's keys in their documented order (then any
/// others), one line each when short.
fn manifest_text(doc: &Value) -> String {
    const ORDER: &[&str] = &["schema", "name", "version", "description", "component", "sha256", "platforms", "limits", "servers"];
    let Some(map) = doc.as_object() else { return serde_json::to_string_pretty(doc).expect("serialises") };
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort_by_key(|k| ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len()));
    let entries: Vec<String> = keys
        .iter()
        .map(|k| {
            let v = &map[k.as_str()];
            let compact = serde_json::to_string(v).expect("serialises");
            let value = if compact.len() <= 100 {
                compact
            } else {
                serde_json::to_string_pretty(v).expect("serialises").replace('\n', "\n  ")
            };
            format!("  {}: {value}", serde_json::to_string(k).expect("serialises"))
        })
        .collect();
    format!("{{\n{}\n}}\n", entries.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sealed_manifest_keeps_the_documented_key_order() {
        let doc = serde_json::json!({ "servers": { "sculptor": { "commands": ["a"] } }, "name": "x", "schema": 1, "sha256": "ab", "extra": 1 });
        let text = manifest_text(&doc);
        let at = |k: &str| text.find(&format!("\"{k}\"")).unwrap();
        assert!(at("schema") < at("name") && at("name") < at("sha256") && at("sha256") < at("servers") && at("servers") < at("extra"), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), doc);
    }

    #[test]
    fn manifest_errors_stop_the_build_except_in_what_sealing_writes() {
        let base = |extra: &str| format!(r#"{{"schema":1,"name":"p","version":"0.1.0","component":"p.wasm","servers":{{"sculptor":{{"commands":[]}}}}{extra}}}"#);
        assert!(check_before_compiling(&base("")).is_ok(), "empty commands are filled by the build");
        let e = check_before_compiling(&base(r#","limits":{"memory_mib":"lots"}"#)).unwrap_err();
        assert!(e.to_string().contains("limits.memory_mib"), "{e}");
    }

    #[test]
    fn the_language_is_read_off_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(detect(tmp.path()), None);
        std::fs::create_dir(tmp.path().join("src")).unwrap();
        std::fs::write(tmp.path().join("src/pack.js"), "").unwrap();
        assert_eq!(detect(tmp.path()), Some(Lang::Js));
        std::fs::write(tmp.path().join("src/app.py"), "").unwrap();
        assert_eq!(detect(tmp.path()), Some(Lang::Python));
        std::fs::write(tmp.path().join("Cargo.toml"), "").unwrap();
        assert_eq!(detect(tmp.path()), Some(Lang::Rust));
    }
}
