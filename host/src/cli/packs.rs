//! `capstan packs list|validate` (the store's commands are in pack_store.rs, `new` and
//! `build` in pack_dev.rs).

use super::{CliError, pack_dev, pack_store, print_json};
use crate::engine::AllocationPreference;
use crate::fsutil;
use crate::home::CapstanHome;
use crate::manifest::{self, MANIFEST_FILE};
use crate::plugin::{LoadedPack, PackOrigin, PackSource};
use crate::runtime::Runtime;
use clap::Subcommand;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Subcommand)]
pub enum PacksCommand {
    /// List loaded packs and their capabilities (with schemas in --json).
    List {
        #[arg(long)]
        json: bool,
    },
    /// Install a pack folder into the store after the install gate (manifest, sha256,
    /// platform, every server's app); the previous version stays whole until the swap.
    /// SOURCE is a pack folder, a packed archive (.tar.gz, .tgz, .tar), or the name of
    /// a catalog entry: an official pack (checked, never written: it ships inside
    /// capstan) or an entry of `$CAPSTAN_HOME/catalog.json` (or --catalog), installed
    /// at its pinned commit.
    Install {
        #[arg(value_name = "SOURCE")]
        path: PathBuf,
        /// The catalog file to resolve a name in.
        #[arg(long)]
        catalog: Option<PathBuf>,
        /// Skip the app checks (offline preparation); never the integrity checks.
        #[arg(long)]
        force: bool,
        #[arg(long)]
        json: bool,
    },
    /// List the catalog: the official packs (built in) and the pinned entries of
    /// `$CAPSTAN_HOME/catalog.json` (or --catalog).
    Catalog {
        #[arg(long)]
        catalog: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Write a pack folder as a `.tar.gz` archive that `packs install FILE` takes.
    Pack {
        path: PathBuf,
        /// The archive to write (default: `<name>-<version>.tar.gz` here).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Remove an installed pack.
    Remove { name: String },
    /// Offer an installed pack again.
    Enable { name: String },
    /// Keep an installed pack out of every runtime without removing it.
    Disable { name: String },
    /// Scaffold a pack folder NAME (in --dir, default here) that builds and validates as
    /// generated: a read and a mutating capability calling Blender, conformance cases,
    /// pack.json, README (and unit tests with a fake bridge for Python and JavaScript).
    /// Refuses an existing folder, writing nothing.
    New {
        name: String,
        /// The pack's language: rust (capstan-sdk), python (componentize-py) or js
        /// (componentize-js, Node.js 20+); `packs build` installs the Python and
        /// JavaScript compilers on first use.
        #[arg(long, value_enum, default_value = "rust")]
        lang: crate::scaffold::Lang,
        /// The folder to create the pack folder in.
        #[arg(long, value_name = "PARENT", default_value = ".")]
        dir: PathBuf,
        /// Depend on this local capstan-sdk crate (default: the capstan checkout this
        /// binary runs from or in, or CAPSTAN_SDK_PATH; else the published version).
        #[arg(long, value_name = "PATH", conflicts_with = "sdk_version")]
        sdk: Option<PathBuf>,
        /// Depend on this published version of capstan-sdk.
        #[arg(long, value_name = "V")]
        sdk_version: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Compile a pack folder for wasm32-wasip2, copy the component next to pack.json,
    /// seal pack.json (sha256 and the bridge commands the capabilities declare), and
    /// validate it as `packs validate` and `packs install` do. Exit 0 built and valid
    /// (and installed), 1 refused or invalid, 2 the build failed.
    Build {
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Install the built pack into the store (as `packs install DIR`).
        #[arg(long)]
        install: bool,
        /// Build with cargo's release profile (smaller, faster component).
        #[arg(long)]
        release: bool,
        /// Build a Rust pack even though compiling it runs code on this machine, as you,
        /// outside any sandbox: its build scripts (build.rs), procedural macros or cargo
        /// configuration beyond the SDK's own. Without it such a pack is refused, listing
        /// that code. Only for a pack whose code you have read or wrote yourself.
        #[arg(long)]
        trust_build_code: bool,
        #[arg(long)]
        json: bool,
    },
    /// Check a pack folder (or its pack.json): manifest, component digest, ABI, description.
    /// Exit 0 valid, 1 invalid, 2 usage or I/O error.
    Validate {
        path: PathBuf,
        #[arg(long)]
        json: bool,
        /// Also check every declared server's app on this machine (one line each).
        #[arg(long)]
        install_deps: bool,
    },
}

pub fn run(command: PacksCommand) -> Result<ExitCode, CliError> {
    match command {
        PacksCommand::List { json } => list(json),
        PacksCommand::New { name, lang, dir, sdk, sdk_version, json } => pack_dev::new(name, lang, dir, sdk, sdk_version, json),
        PacksCommand::Build { dir, install, release, trust_build_code, json } => pack_dev::build(dir, install, release, trust_build_code, json),
        PacksCommand::Validate { path, json, install_deps } => validate(path, json, install_deps),
        PacksCommand::Install { path, catalog, force, json } => pack_store::install(path, catalog, force, json),
        PacksCommand::Catalog { catalog, json } => pack_store::catalog(catalog, json),
        PacksCommand::Pack { path, output } => pack_store::pack(path, output),
        PacksCommand::Remove { name } => pack_store::store_op(|s| s.remove(&name).map(|p| format!("removed {name} ({})", p.display()))),
        PacksCommand::Enable { name } => pack_store::store_op(|s| s.set_enabled(&name, true).map(|_| format!("enabled {name}"))),
        PacksCommand::Disable { name } => pack_store::store_op(|s| s.set_enabled(&name, false).map(|_| format!("disabled {name}"))),
    }
}

pub(crate) fn pack_json(pack: &LoadedPack) -> Value {
    json!({
        "name": pack.manifest.name,
        "version": pack.manifest.version.to_string(),
        "description": pack.manifest.description,
        "origin": pack.origin,
        "sha256": pack.component_sha256,
        "limits": pack.limits.limits,
        "servers": pack.manifest.servers,
        "capabilities": pack.capabilities.iter().map(|c| serde_json::to_value(&**c).expect("serialises")).collect::<Vec<_>>(),
    })
}

/// The workflows, listed as one built-in pseudo-pack beside the packs: each with its
/// schema and its steps (capability keys), so a reader sees what it chains.
fn workflows_json(runtime: &Runtime) -> Value {
    let capabilities: Vec<Value> = runtime
        .workflows()
        .map(|w| {
            let mut doc = serde_json::to_value(&*w.spec).expect("serialises");
            doc["steps"] = w.steps.iter().map(|s| json!({ "id": s.id, "key": s.label(), "note": s.note })).collect();
            // The apps its steps talk to (a workflow is available when all of them are).
            let mut apps: Vec<&str> = w.steps.iter().filter_map(|s| s.capability()).filter_map(|k| runtime.server_of(k)).collect();
            apps.sort_unstable();
            apps.dedup();
            doc["apps"] = json!(apps);
            doc
        })
        .collect();
    json!({
        "name": crate::workflow::OWNER,
        "version": env!("CARGO_PKG_VERSION"),
        "description": "Workflows: capabilities of the packs above chained as data, run step by step by the host through each step's own sandbox and gate",
        "origin": "builtin",
        "capabilities": capabilities,
    })
}

fn list(as_json: bool) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    let mut runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, Arc::new(crate::bridge::Offline))?;
    runtime.load_all(&home);
    if as_json {
        print_json(&json!({
            "packs": runtime.packs().iter().map(pack_json).chain(std::iter::once(workflows_json(&runtime))).collect::<Vec<_>>(),
            "refused": runtime.refused(),
            "store": crate::store::Store::new(&home).list(),
        }));
    } else {
        for pack in runtime.packs() {
            let origin = match &pack.origin {
                PackOrigin::Official => "official".to_string(),
                PackOrigin::Folder(p) => p.display().to_string(),
            };
            println!("{} {} ({})", shown(&pack.manifest.name), shown(&pack.manifest.version.to_string()), shown(&origin));
            for c in &pack.capabilities {
                let effect = if c.destructive { "destroys" } else if c.mutates { "mutates" } else { "read-only" };
                println!("  {:<28} {:<10} {:<9} {}", shown(&c.key), shown(&c.family), effect, shown(&c.summary));
            }
        }
        println!("{} (built in)", crate::workflow::OWNER);
        for w in runtime.workflows() {
            let steps: Vec<String> = w.steps.iter().map(|s| s.label()).collect();
            println!("  {:<28} {:<10} {:<9} {} [{}]", shown(&w.spec.key), shown(&w.spec.family), "mutates", shown(&w.spec.summary), steps.join(" > "));
        }
        for r in runtime.refused() {
            println!("refused: {}: {}", shown(&r.source), shown(&r.error.to_string()));
        }
        for entry in crate::store::Store::new(&home).list().iter().filter(|e| !e.enabled) {
            let name = shown(&entry.name);
            println!("{name} {} (disabled: `capstan packs enable {name}`)", shown(entry.version.as_deref().unwrap_or("?")));
        }
    }
    Ok(if runtime.refused().is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn validate(path: PathBuf, as_json: bool, install_deps: bool) -> Result<ExitCode, CliError> {
    let dir = if path.file_name().is_some_and(|n| n == MANIFEST_FILE) {
        path.parent().map(PathBuf::from).unwrap_or_default()
    } else {
        path.clone()
    };
    let mut report = validate_dir(&dir);
    let valid = report["valid"].as_bool() == Some(true);
    if report.get("errors").is_none() {
        report["errors"] = json!([]);
    }
    if install_deps && let Ok(home) = CapstanHome::from_env() {
        let text = fsutil::read_capped(&dir.join(MANIFEST_FILE), crate::limits::MAX_MANIFEST_BYTES).unwrap_or_default();
        if let Ok(m) = manifest::parse(&text) {
            report["availability"] = json!(availability_lines(&m, &home));
        }
    }
    let io_error = report["io_error"].as_bool() == Some(true);
    if let Some(obj) = report.as_object_mut() {
        obj.remove("io_error");
    }
    if as_json {
        print_json(&report);
    } else {
        print_report(&dir, &report);
    }
    Ok(if io_error {
        ExitCode::from(2)
    } else if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A validation report as `packs validate` prints it without --json.
pub(super) fn print_report(dir: &std::path::Path, report: &Value) {
    let valid = report["valid"].as_bool() == Some(true);
    if valid {
        println!("{}: valid", shown(&dir.display().to_string()));
        for c in report["capabilities"].as_array().into_iter().flatten() {
            println!("  {}  {}", shown(c["key"].as_str().unwrap_or("")), shown(c["summary"].as_str().unwrap_or("")));
        }
        for n in report["notes"].as_array().into_iter().flatten() {
            println!("note: {}", shown(n.as_str().unwrap_or("")));
        }
    } else {
        println!("{}: invalid", shown(&dir.display().to_string()));
        for e in report["errors"].as_array().into_iter().flatten() {
            let path = shown(e["path"].as_str().unwrap_or(""));
            let reason = shown(e["message"].as_str().unwrap_or(""));
            if path.is_empty() { println!("  {reason}") } else { println!("  {path}: {reason}") }
        }
    }
    for line in report["availability"].as_array().into_iter().flatten() {
        let server = line["server"].as_str().unwrap_or("");
        let state = line["state"].as_str().unwrap_or("");
        match line["detail"].as_str() {
            Some(detail) => println!("{server}: {state} ({detail}) — {}", line["user_action"].as_str().unwrap_or("")),
            None => println!("{server}: {state}"),
        }
    }
}

/// One line per declared server: does this machine have the app the pack requires?
fn availability_lines(m: &manifest::Manifest, home: &CapstanHome) -> Vec<Value> {
    use crate::apps::requirement::{AppCheck, check};
    let platform = manifest::Platform::current();
    m.servers
        .iter()
        .map(|(server, decl)| {
            let app = crate::app_units::display_name(server);
            if platform.is_some_and(|p| !m.platforms.contains(&p)) {
                let detail = format!("the pack lists platforms {:?}", m.platforms.iter().map(|p| p.key()).collect::<Vec<_>>());
                return json!({ "server": server, "state": "platform_mismatch", "app": { "name": app }, "detail": detail,
                    "user_action": "Use the pack on a platform it lists.", "retry": "never_here" });
            }
            match check(server, decl, platform, home, &crate::apps::expand::Env) {
                AppCheck::NotRequired => json!({ "server": server, "state": "not_required", "app": { "name": app } }),
                AppCheck::Satisfied { path, version } => json!({
                    "server": server, "state": "app_present",
                    "app": { "name": app, "path": path, "version": version.map(|v| v.to_string()), "required": decl.requires.min_version.as_ref().map(|v| v.to_string()) },
                }),
                AppCheck::Unsatisfied(a) => serde_json::to_value(a).expect("serialises"),
            }
        })
        .collect()
}

fn invalid(errors: Value) -> Value {
    json!({ "valid": false, "errors": errors })
}

fn error_list(reason: impl std::fmt::Display) -> Value {
    json!([{ "path": "", "message": reason.to_string() }])
}

/// Validate a pack folder without installing it. An unsealed manifest (no sha256) is
/// checked against the component as found, and the digest it would need is reported.
pub(super) fn validate_dir(dir: &std::path::Path) -> Value {
    let text = match fsutil::read_capped(&dir.join(MANIFEST_FILE), crate::limits::MAX_MANIFEST_BYTES) {
        Ok(t) => t,
        Err(e) => {
            let mut report = invalid(error_list(format!("cannot read {}: {e}", dir.join(MANIFEST_FILE).display())));
            report["io_error"] = json!(true);
            return report;
        }
    };
    let mut parsed = match manifest::parse(&text) {
        Ok(m) => m,
        Err(errors) => return invalid(serde_json::to_value(errors).expect("serialises")),
    };
    let component_path = dir.join(&parsed.component);
    let bytes = match fsutil::read_capped_bytes(&component_path, crate::limits::MAX_COMPONENT_BYTES) {
        Ok(b) => b,
        Err(e) => return invalid(error_list(format!("component {}: {e}", component_path.display()))),
    };
    let digest = fsutil::sha256_hex(&bytes);
    let mut notes = Vec::new();
    if parsed.sha256.is_none() {
        notes.push(format!("the manifest is unsealed; add \"sha256\": \"{digest}\" before installing (`capstan packs build` seals a pack it builds)"));
        parsed.sha256 = Some(digest.clone());
    }
    let mut sealed: Value = serde_json::from_str(&text).expect("parsed above");
    sealed["sha256"] = Value::String(parsed.sha256.clone().unwrap_or_default());
    let source = PackSource { origin: PackOrigin::Folder(dir.to_path_buf()), manifest_text: sealed.to_string(), component: bytes.into() };

    let home = match CapstanHome::from_env() {
        Ok(h) => h,
        Err(e) => return invalid(error_list(e)),
    };
    // An empty runtime (no other pack loaded): the same engine, cache and checks as `serve`.
    let mut runtime = match Runtime::new(&home, AllocationPreference::PoolingIfAvailable, Arc::new(crate::bridge::Offline)) {
        Ok(r) => r,
        Err(e) => return invalid(error_list(e)),
    };
    match runtime.add(source) {
        Ok(pack) => {
            let mut report = pack_json(pack);
            report["valid"] = json!(true);
            report["notes"] = json!(notes);
            report
        }
        Err(e) => invalid(error_list(e)),
    }
}

/// Text that came from a pack (or a manifest, or a path) as a terminal may show it:
/// control characters and escape sequences written out, never acted on.
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    crate::control_chars::escape(text)
}
