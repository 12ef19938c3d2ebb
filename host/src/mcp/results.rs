//! Tool answers and the refusals every surface shares: a success carries the document
//! as structured content and as (redacted) text; an error is `{"error": {...}}` with
//! every string cut to [`MAX_ERROR_TEXT_CHARS`](crate::echo::MAX_ERROR_TEXT_CHARS).

use crate::report::ErrorCode;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value, json};

/// A success. The document is redacted before either copy is made: the structured
/// copy leaves as JSON too, so redacting the text alone would not be enough.
pub fn ok_result(doc: Value) -> CallToolResult {
    ok_result_masked(doc).0
}

/// [`ok_result`], and whether redaction walked the document (it may have held a
/// secret): another copy of the document's parts needs masking only then.
pub fn ok_result_masked(mut doc: Value) -> (CallToolResult, bool) {
    let (text, walked) = crate::redact::redact_document(&mut doc);
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(doc);
    (r, walked)
}

/// A tool error. Every string in it is cut (the last layer of [`crate::echo`]): an
/// error never grows with what the caller sent.
pub fn error_result(mut error: Value) -> CallToolResult {
    crate::echo::cap_strings(&mut error, crate::echo::MAX_ERROR_TEXT_CHARS);
    let mut doc = json!({ "error": error });
    let (text, _) = crate::redact::redact_document(&mut doc);
    let mut r = CallToolResult::error(vec![ContentBlock::text(text)]);
    r.structured_content = Some(doc);
    r
}

pub fn bad_request(message: impl Into<String>) -> CallToolResult {
    error_result(json!({ "code": ErrorCode::InvalidToolArguments, "message": message.into() }))
}

pub fn str_arg<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}

/// The refusal of a text argument longer than its declared bound (None: it fits), before
/// anything else looks at it: `INVALID_TOOL_ARGUMENTS` naming the argument and the bound,
/// quoting only a preview of the value.
pub fn too_long(argument: &str, text: &str, max_chars: usize) -> Option<CallToolResult> {
    // Counting stops one past the bound: a fitting value costs no more than its bound.
    text.chars().nth(max_chars)?;
    let chars = text.chars().count();
    Some(error_result(json!({
        "code": ErrorCode::InvalidToolArguments,
        "message": format!("{argument} is {chars} characters; the most accepted is {max_chars}"),
        "limit": { "argument": argument, "max_chars": max_chars, "chars": chars, "bytes": text.len() },
        "value_preview": crate::echo::preview(text),
    })))
}

/// [`too_long`] for each named text argument that is present.
pub fn check_lengths(args: &Map<String, Value>, bounds: &[(&str, usize)]) -> Result<(), CallToolResult> {
    for (name, max) in bounds {
        if let Some(refusal) = str_arg(args, name).and_then(|text| too_long(name, text, *max)) {
            return Err(refusal);
        }
    }
    Ok(())
}
