//! `capstan call KEY --args JSON [--json]`: one capability through the sandbox and the
//! bridge, for scripts and debugging. Exit 0 on success, 1 when the call failed.

use super::{CliError, print_json};
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::report::error_json;
use crate::runtime::Runtime;
use clap::Args;
use serde_json::json;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
pub struct CallArgs {
    /// Canonical capability key, e.g. scene.create_object.
    key: String,
    /// Arguments as a JSON object.
    #[arg(long, default_value = "{}")]
    args: String,
    #[arg(long)]
    json: bool,
}

pub fn run(args: CallArgs) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    let client = Arc::new(crate::bridge::HttpBridgeClient::for_home(&home));
    let mut runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, client.clone())?;
    runtime.load_all(&home);
    client.adopt_declared(runtime.packs(), &home);
    // The same path as every MCP surface: an unavailable app is refused with its state.
    let gate = crate::call::app_gate::AppGate::new(&runtime, client.clone(), &home);
    match crate::call::CallPath::new(&runtime, &gate).execute(&args.key, &args.args, None) {
        Ok(out) => {
            if args.json {
                print_json(&json!({ "ok": true, "key": out.key, "result": out.result, "bridge_calls": out.bridge_calls }));
            } else {
                print_json(&out.result);
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            let error = error_json(&e);
            if args.json {
                print_json(&json!({ "ok": false, "error": error }));
            } else {
                let text = format!("capstan: {}: {}", error["code"].as_str().unwrap_or("ERROR"), e);
                eprintln!("{}", crate::redact::redact(&text));
            }
            Ok(ExitCode::from(1))
        }
    }
}
