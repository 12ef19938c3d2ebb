//! Running one capability for an MCP tool (the guided `execute_capability`, every
//! expert tool), on the one call path.
//!
//! Execution is synchronous wasm plus a blocking bridge call. Resolve and validate run
//! first, on the thread that received the request, so bad input is answered at once;
//! then the rest of the path. A quick read (every bridge command it may send is a
//! catalog `read` within the default timeout) runs right there: no hand-off, which
//! would cost tens of microseconds. Anything longer runs on tokio's blocking pool, so
//! a render does not stall the session's other requests (or, over HTTP, other sessions).

use super::Core;
use super::results::{error_result, ok_result_masked};
use super::session::{Execution, SessionState};
use crate::report::{self, ErrorCode};
use crate::sandbox::ProgressSink;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// How the answer is shaped: an expert tool with an output schema promises
/// structuredContent in that shape (the result alone); the guided tool declares none.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    WholeAnswer,
    DeclaredOutput,
}

pub async fn execute(core: Arc<Core>, session: &Mutex<SessionState>, key: &str, arguments: &Value, progress: Option<ProgressSink>, shape: Shape) -> CallToolResult {
    let mut result = run(core, session, key, arguments, progress, shape).await;
    // An error body is not in a declared output shape, and clients check
    // structuredContent against outputSchema even on errors: the text carries it.
    if result.is_error == Some(true) && shape == Shape::DeclaredOutput {
        result.structured_content = None;
    }
    result
}

async fn run(core: Arc<Core>, session: &Mutex<SessionState>, key: &str, arguments: &Value, progress: Option<ProgressSink>, shape: Shape) -> CallToolResult {
    let record = |status: &str, delta: Option<Value>| {
        session.lock().unwrap_or_else(|p| p.into_inner()).record(Execution { key: key.into(), status: status.into(), delta });
    };
    let args_text = arguments.to_string();
    if let Err(e) = core.path().check(key, &args_text) {
        let error = report::error_json(&e);
        record(error["code"].as_str().unwrap_or("ERROR"), None);
        return error_result(error);
    }

    let outcome = if core.runtime.is_quick_read(key) {
        // The spent store is dropped after the answer is written (`sandbox::retire`),
        // and the pack's next instance made then (`runtime::spare`).
        let deferral = crate::sandbox::retire::Deferral::begin();
        let outcome = core.path().run_checked(key, &args_text, progress);
        let (spare_core, spare_key) = (core.clone(), key.to_string());
        deferral.end_after_answer_then(move || spare_core.runtime.refill_spare(&spare_key));
        outcome
    } else {
        let (core, owned_key) = (core.clone(), key.to_string());
        match tokio::task::spawn_blocking(move || core.path().run_checked(&owned_key, &args_text, progress)).await {
            Ok(outcome) => outcome,
            Err(e) => {
                tracing::error!(key, "the call's thread ended abnormally: {e}");
                return error_result(json!({ "code": ErrorCode::InternalError, "message": format!("{key}: the call ended abnormally; capstan logged it") }));
            }
        }
    };

    match outcome {
        Ok(out) => {
            let mut doc = report::output_json(out);
            record("ok", doc.get("delta").cloned());
            // The structured result as checked (before images are taken out of the
            // text); the text keeps the whole answer.
            let structured = (shape == Shape::DeclaredOutput).then(|| doc["result"].clone());
            let images = super::images::take(&mut doc);
            let (mut result, walked) = ok_result_masked(doc);
            if let Some(mut structured) = structured {
                // A part of the answer, redacted as the answer was: walked when the
                // answer was, or when a picture left the answer but not this copy.
                if walked || !images.is_empty() {
                    crate::redact::redact_json(&mut structured);
                }
                result.structured_content = Some(structured);
            }
            result.content.extend(images);

            result
        }
        Err(e) => {
            let error = report::error_json(&e);
            record(error["code"].as_str().unwrap_or("ERROR"), None);
            error_result(error)
        }
    }
}
