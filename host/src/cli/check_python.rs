//! `capstan check-python FILE|- [--json] [--policy FILE]`: the safety checker's
//! verdict on one script. Exit 0 allowed, 1 rejected, 2 usage or I/O error.
//! JSON: `{"allowed": bool, "findings": [{"rule", "message", "line", "column"}]}`.

use super::{CliError, print_json};
use crate::checker::CheckerPolicy;
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::runtime::Runtime;
use clap::Args;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
pub struct CheckPythonArgs {
    /// The script to check, or `-` to read it from standard input.
    file: PathBuf,
    #[arg(long)]
    json: bool,
    /// A policy file (`{"allowed_modules": [...], "denied_names": [...]}`) instead of
    /// the default.
    #[arg(long)]
    policy: Option<PathBuf>,
}

pub fn run(args: CheckPythonArgs) -> Result<ExitCode, CliError> {
    let source = read_source(&args.file)?;
    let policy = match &args.policy {
        Some(path) => CheckerPolicy::load(path).map_err(|e| CliError::Usage(e.to_string()))?,
        None => CheckerPolicy::default(),
    };
    let home = CapstanHome::from_env()?;
    let runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, Arc::new(crate::bridge::Offline))?;
    let verdict = runtime.check_python(&source, &policy).map_err(CliError::Usage)?;
    if args.json {
        print_json(&serde_json::to_value(&verdict).expect("a verdict serialises"));
    } else if verdict.allowed {
        println!("allowed");
    } else {
        let shown = args.file.display();
        for f in &verdict.findings {
            println!("{shown}:{}:{}: {} {}", f.line, f.column, f.rule, f.message);
        }
        println!("rejected ({} finding{})", verdict.findings.len(), if verdict.findings.len() == 1 { "" } else { "s" });
    }
    Ok(if verdict.allowed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The script as text, read with a cap one byte past the checker's limit (so an
/// oversized script is still rejected as such, not cut short and passed).
fn read_source(file: &PathBuf) -> Result<String, CliError> {
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
