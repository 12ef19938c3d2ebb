//! `capstan call KEY --args JSON [--json]`: one capability through the sandbox and the
//! bridge, for scripts and debugging. Exit 0 on success, 1 when the call failed.

use super::{CliError, print_json};
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::runtime::{CallError, Runtime};
use clap::Args;
use serde_json::{Value, json};
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

/// The error object of a failed call: `{"code", "message", ...details}`.
pub fn error_json(e: &CallError) -> Value {
    match e {
        CallError::NotFound { .. } => json!({ "code": "CAPABILITY_NOT_FOUND", "message": e.to_string() }),
        CallError::NonCanonical { canonical, .. } => {
            json!({ "code": "NON_CANONICAL_CAPABILITY", "message": e.to_string(), "canonical": canonical })
        }
        CallError::InvalidArguments { errors, .. } => {
            json!({ "code": "INVALID_CAPABILITY_ARGUMENTS", "message": e.to_string(), "errors": errors })
        }
        CallError::Fault { fault, bridge_calls, .. } => json!({
            "code": "PACK_FAULT", "message": e.to_string(), "fault": fault, "limit": fault.limit(), "bridge_calls": bridge_calls,
        }),
        CallError::Pack { failure, bridge_calls, availability, .. } => {
            let code = match failure.bridge_code.as_deref() {
                Some("permission_denied") | Some("budget_exceeded") => "PERMISSION_DENIED",
                Some("app_unavailable") => "APP_UNAVAILABLE",
                Some(_) => "BRIDGE_ERROR",
                None if failure.kind == "invalid_arguments" => "INVALID_CAPABILITY_ARGUMENTS",
                None => "CAPABILITY_FAILED",
            };
            let mut error = json!({ "code": code, "message": e.to_string(), "failure": failure, "bridge_calls": bridge_calls });
            if let Some(state) = availability {
                error["code"] = json!("APP_UNAVAILABLE");
                error["availability"] = json!(state);
            }
            error
        }
    }
}

pub fn run(args: CallArgs) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    let client = crate::bridge::HttpBridgeClient::for_home(&home);
    let mut runtime = Runtime::new(&home, AllocationPreference::PoolingIfAvailable, Arc::new(client))?;
    runtime.load_all(&home);
    match runtime.call(&args.key, &args.args) {
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
