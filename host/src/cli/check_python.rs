//! `capstan check-python FILE|- [FILE...] [--json] [--policy FILE]`: the safety
//! checker's verdict on each script. Exit 0 all allowed, 1 any rejected, 2 usage or I/O
//! error (with several files: 2 when any could not be checked, whatever the others'
//! verdicts; each such file is named on stderr and the others are still checked).
//! JSON for one file: `{"allowed": bool, "findings": [{"rule", "message", "line",
//! "column"}]}`; for several, one such object per line with its `"file"` added, in the
//! order given, and `{"file", "error"}` for a file that could not be checked. The
//! checker is loaded once for all of them.

use super::{CliError, print_json};
use crate::checker::{CheckVerdict, CheckerPolicy};
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::runtime::Runtime;
use clap::Args;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
pub struct CheckPythonArgs {
    /// The scripts to check, or `-` to read one from standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[arg(long)]
    json: bool,
    /// A policy file (`{"allowed_modules": [...], "denied_names": [...]}`) instead of
    /// the default.
    #[arg(long)]
    policy: Option<PathBuf>,
}

pub fn run(args: CheckPythonArgs) -> Result<ExitCode, CliError> {
    if args.files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err(CliError::Usage("standard input (`-`) can be read once".into()));
    }
    let policy = match &args.policy {
        Some(path) => CheckerPolicy::load(path).map_err(|e| CliError::Usage(e.to_string()))?,
        None => CheckerPolicy::default(),
    };
    let home = CapstanHome::from_env()?;
    let runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, Arc::new(crate::bridge::Offline))?;
    if let [file] = args.files.as_slice() {
        let verdict = runtime.check_python(&read_source(file)?, &policy).map_err(CliError::Usage)?;
        show(file, &verdict, args.json, false);
        return Ok(if verdict.allowed { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
    let (mut rejected, mut unreadable) = (false, false);
    for file in &args.files {
        let checked = read_source(file).and_then(|source| runtime.check_python(&source, &policy).map_err(CliError::Usage));
        let verdict = match checked {
            Ok(verdict) => verdict,
            Err(e) => {
                // Named on stderr, and in its place among the JSON lines, so that the
                // lines stay one per file in the order given.
                eprintln!("capstan: {e}");
                if args.json {
                    let line = serde_json::json!({ "file": file.display().to_string(), "error": e.to_string() });
                    println!("{}", crate::redact::redact(&line.to_string()));
                }
                unreadable = true;
                continue;
            }
        };
        rejected |= !verdict.allowed;
        show(file, &verdict, args.json, true);
    }
    Ok(if unreadable { ExitCode::from(2) } else if rejected { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// One script's verdict: pretty JSON alone, one JSON line with its file among several,
/// or the findings as `FILE:LINE:COLUMN: rule message` lines.
fn show(file: &Path, verdict: &CheckVerdict, json: bool, among_several: bool) {
    let shown = file.display();
    if json && among_several {
        let mut doc = serde_json::to_value(verdict).expect("a verdict serialises");
        doc["file"] = shown.to_string().into();
        println!("{}", crate::redact::redact(&doc.to_string()));
    } else if json {
        print_json(&serde_json::to_value(verdict).expect("a verdict serialises"));
    } else if verdict.allowed {
        println!("{}allowed", if among_several { format!("{shown}: ") } else { String::new() });
    } else {
        for f in &verdict.findings {
            println!("{shown}:{}:{}: {} {}", f.line, f.column, f.rule, f.message);
        }
        let count = verdict.findings.len();
        println!("{}rejected ({count} finding{})", if among_several { format!("{shown}: ") } else { String::new() }, if count == 1 { "" } else { "s" });
    }
}

/// The script as text, read with a cap one byte past the checker's limit (so an
/// oversized script is still rejected as such, not cut short and passed).
fn read_source(file: &Path) -> Result<String, CliError> {
    let cap = crate::limits::MAX_PYTHON_SOURCE_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let result = if file.as_os_str() == "-" {
        std::io::stdin().take(cap).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(cap).read_to_end(&mut bytes))
    };
    result.map_err(|e| CliError::Usage(format!("cannot read {}: {e}", file.display())))?;
    String::from_utf8(bytes).map_err(|e| CliError::Usage(format!("{} is not UTF-8 text: {e}", file.display())))
}
