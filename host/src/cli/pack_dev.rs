//! `capstan packs new|build`: writing a pack (the work is in `crate::scaffold`).

use super::{CliError, packs, print_json};
use crate::control_chars::escape;
use crate::home::CapstanHome;
use crate::scaffold::build::{BuildError, BuildOptions};
use crate::scaffold::{Lang, NewOptions, SdkChoice, SdkSource};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn new(name: String, lang: Lang, parent: PathBuf, sdk: Option<PathBuf>, sdk_version: Option<String>, as_json: bool) -> Result<ExitCode, CliError> {
    let options = NewOptions { name, lang, parent, sdk: SdkChoice { path: sdk, version: sdk_version } };
    match crate::scaffold::new_pack(&options) {
        Ok(made) => {
            if as_json {
                print_json(&json!({ "created": true, "pack": made }));
            } else {
                let built_with = match &made.sdk {
                    Some(SdkSource::Path(p)) => format!("capstan-sdk from {}", p.display()),
                    Some(SdkSource::Version(v)) => format!("capstan-sdk {v}"),
                    None => crate::scaffold::toolchain::compiler(made.lang).unwrap_or_default(),
                };
                println!("created {} ({} pack, built with {built_with}): {}", made.dir.display(), made.lang.as_str(), made.capabilities.join(", "));
                let test = match made.lang {
                    Lang::Rust => None,
                    Lang::Python => Some("python3 -m unittest discover -s tests"),
                    Lang::Js => Some("node --test tests/"),
                };
                if let Some(test) = test {
                    println!("test: cd {} && {test}", made.dir.display());
                }
                println!("next: capstan packs build {} --install", made.dir.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) if as_json => {
            print_json(&json!({ "created": false, "error": e, "message": e.to_string() }));
            Ok(ExitCode::from(if matches!(e, crate::scaffold::ScaffoldError::Io { .. }) { 2 } else { 1 }))
        }
        Err(e) => Err(CliError::Scaffold(e)),
    }
}

pub fn build(dir: PathBuf, install: bool, release: bool, trust_build_code: bool, as_json: bool) -> Result<ExitCode, CliError> {
    let built = match crate::scaffold::build::build(&BuildOptions { dir: dir.clone(), release, trust_build_code }) {
        Ok(b) => b,
        // A component the host would refuse (a forbidden import, a failing describe), or
        // a pack whose build would run its own code natively: refused (exit 1), like an
        // invalid pack.
        Err(BuildError::UntrustedBuildCode { found, .. }) if !as_json => {
            eprintln!("capstan: {}: not built: building it would run this code on this machine, as you, outside any sandbox:", escape(&dir.display().to_string()));
            for f in &found {
                eprintln!("  - {}", escape(&f.to_string()));
            }
            eprintln!("capstan: read that code first; if you trust it, build again with --trust-build-code");
            return Ok(ExitCode::from(1));
        }
        Err(e @ (BuildError::Refused { .. } | BuildError::UntrustedBuildCode { .. })) => {
            if as_json {
                print_json(&json!({ "built": false, "valid": false, "error": e, "message": e.to_string() }));
            } else {
                eprintln!("capstan: {}: not built: {}", dir.display(), escape(&e.to_string()));
            }
            return Ok(ExitCode::from(1));
        }
        Err(e) if as_json => {
            print_json(&json!({ "built": false, "error": e, "message": e.to_string() }));
            return Ok(ExitCode::from(2));
        }
        Err(e) => return Err(CliError::Build(e)),
    };
    let mut report = packs::validate_dir(&dir);
    let valid = report["valid"].as_bool() == Some(true);
    if let Some(obj) = report.as_object_mut() {
        obj.remove("io_error");
    }
    let installed = if install && valid {
        let home = CapstanHome::from_env()?;
        Some(crate::store::Store::new(&home).install(&dir, false))
    } else {
        None
    };
    let ok = valid && installed.as_ref().is_none_or(|r| r.is_ok());
    if as_json {
        let install_json = installed.as_ref().map(|r| match r {
            Ok(done) => json!({ "installed": true, "pack": done }),
            Err(e) => json!({ "installed": false, "refused": e.code(), "message": e.to_string(), "error": e }),
        });
        print_json(&json!({ "built": built, "validation": report, "install": install_json }));
    } else {
        let commands: Vec<String> = built.commands.iter().map(|(s, c)| format!("{s}: {}", c.join(", "))).collect();
        println!(
            "built {} ({}, {} KiB, sha256 {}); sealed pack.json ({})",
            built.component.display(),
            built.profile,
            built.size_bytes.div_ceil(1024),
            &built.sha256[..12],
            commands.join("; ")
        );
        packs::print_report(&dir, &report);
        match &installed {
            Some(Ok(done)) => {
                let replaced = done.replaced.as_ref().map(|v| format!(", replacing {v}")).unwrap_or_default();
                println!("{}", escape(&format!("installed {} {}{replaced}: {}", done.name, done.version, done.capabilities.join(", "))));
            }
            Some(Err(e)) => eprintln!("capstan: not installed ({}): {}", e.code(), escape(&e.to_string())),
            None if install => eprintln!("capstan: not installed: the pack is invalid"),
            None => println!("next: capstan packs install {}", dir.display()),
        }
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
