//! `capstan packs install|catalog|pack|remove|enable|disable`: the pack store.

use crate::control_chars::escape;
use super::{CliError, print_json};
use crate::home::CapstanHome;
use crate::manifest;
use crate::store::{archive, catalog};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn install(path: PathBuf, catalog: Option<PathBuf>, force: bool, as_json: bool) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    let store = crate::store::Store::new(&home);
    let name = path.to_str().filter(|s| !path.exists() && !s.contains(['/', '\\']));
    let outcome = match name {
        Some(name) => store.install_from_catalog(name, &catalog.unwrap_or_else(|| store.default_catalog()), force),
        None if archive::is_archive(&path) => store.install_archive(&path, force),
        None => store.install(&path, force),
    };
    match outcome {
        Ok(done) => {
            if as_json {
                print_json(&json!({ "installed": true, "pack": done }));
            } else {
                let replaced = done.replaced.as_ref().map(|v| format!(", replacing {v}")).unwrap_or_default();
                let text = match done.path {
                    Some(_) => format!("installed {} {}{replaced}: {}", done.name, done.version, done.capabilities.join(", ")),
                    None => format!("{} {} is an official pack and ships inside capstan: its digest and app requirement check out, nothing to write", done.name, done.version),
                };
                println!("{}", escape(&text));
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            if as_json {
                print_json(&json!({ "installed": false, "refused": e.code(), "message": e.to_string(), "error": e }));
            } else {
                eprintln!("capstan: not installed ({}): {}", e.code(), escape(&e.to_string()));
            }
            Ok(ExitCode::from(1))
        }
    }
}

pub fn store_op(op: impl FnOnce(&crate::store::Store) -> Result<String, crate::store::InstallError>) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    match op(&crate::store::Store::new(&home)) {
        Ok(message) => {
            println!("{}", escape(&message));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("capstan: {}", escape(&e.to_string()));
            Ok(ExitCode::from(1))
        }
    }
}

pub fn catalog(file: Option<PathBuf>, as_json: bool) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    let file = file.unwrap_or_else(|| crate::store::Store::new(&home).default_catalog());
    let official = catalog::official_entries();
    // A missing default catalog is an empty one; a named file must exist.
    let pinned = if file.exists() { catalog::load(&file).map_err(|e| CliError::Usage(e.to_string()))? } else { Vec::new() };
    if as_json {
        print_json(&json!({ "official": official, "entries": pinned, "catalog": file }));
    } else {
        for o in &official {
            println!("{} {} (official, built in; sha256 {}): {}", o.name, o.version, &o.sha256[..12.min(o.sha256.len())], escape(&o.description));
        }
        for e in &pinned {
            // A catalog file is someone else's text: shown, never acted on by the terminal.
            let line = format!("{} ({} at {}; sha256 {}): {}", e.name, e.source, &e.commit[..12], &e.sha256[..12], e.description);
            println!("{}", escape(&line));
        }
        if pinned.is_empty() {
            println!("(no pinned entries in {})", file.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn pack(dir: PathBuf, output: Option<PathBuf>) -> Result<ExitCode, CliError> {
    let source = crate::plugin::PackSource::from_dir(&dir).map_err(|e| CliError::Usage(format!("{}: {e}", dir.display())))?;
    let m = manifest::parse(&source.manifest_text).map_err(|e| CliError::Usage(format!("{}: {e}", dir.display())))?;
    if m.sha256.is_none() {
        return Err(CliError::Usage(format!("{}: pack.json has no sha256 of its component; build and seal the pack first (`capstan packs build {}`)", dir.display(), dir.display())));
    }
    let out = output.unwrap_or_else(|| PathBuf::from(format!("{}-{}.tar.gz", m.name, m.version)));
    archive::pack(&dir, &m.name, &[manifest::MANIFEST_FILE, &m.component], &out).map_err(|e| CliError::Usage(e.to_string()))?;
    println!("{}", out.display());
    Ok(ExitCode::SUCCESS)
}
