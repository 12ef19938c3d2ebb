//! One conformance case run and checked against a real app, as both conformance suites
//! (`tests/conformance.rs` for Blender, `tests/freecad_conformance.rs` for FreeCAD) do
//! it: the setup steps, the call, then the expectations (error code, delta, result,
//! picture, reads). Resetting the app first is each suite's own.

use capstan::conformance::{Case, Png, check};
use capstan::report;
use capstan::runtime::{CallError, Runtime};
use serde_json::Value;

/// The codes a failure answers to: capstan's own, then the app's when it gave one.
pub fn error_codes(e: &CallError) -> Vec<String> {
    let mut codes = vec![report::error_code(e).as_str().to_string()];
    codes.extend(e.app_code().map(str::to_string));
    codes
}

/// Run `case` of `key` on `rt` (its app already reset) and check what it expects:
/// `Ok` with the result when the call succeeded, `Ok(None)` when it failed as expected,
/// `Err` with every problem found, a line each. `png` checks a `png` expectation
/// against the result, pushing what is wrong.
pub fn run_and_check(rt: &Runtime, key: &str, case: &Case, png: impl Fn(&Value, &Png, &mut Vec<String>)) -> Result<Option<Value>, String> {
    for step in &case.setup {
        rt.call(&step.key, &step.arguments.to_string()).map_err(|e| format!("setup {}: {e}", step.key))?;
    }
    let spec = rt.capability(key).ok_or("the capability vanished")?.clone();
    let outcome = rt.call(key, &case.arguments.to_string());
    let mut problems = Vec::new();
    let mut answered = None;
    let e = &case.expect;
    match (&e.error, outcome) {
        (Some(code), Err(err)) => {
            let got = error_codes(&err);
            if !got.contains(code) {
                problems.push(format!("failed with {got:?}, expected {code}: {err}"));
            }
            if !spec.mutates
                && let CallError::Pack { delta: Some(d), .. } = &err
            {
                problems.push(format!("a read-only capability reported changes: {}", d.to_json()));
            }
        }
        (Some(code), Ok(out)) => problems.push(format!("succeeded, expected {code}: {}", out.result)),
        (None, Err(err)) => problems.push(format!("failed: {}", report::error_json(&err))),
        (None, Ok(out)) => {
            let delta = out.delta.clone().unwrap_or_default();
            if !spec.mutates && !delta.is_empty() {
                problems.push(format!("a read-only capability reported changes: {}", delta.to_json()));
            }
            if let Some(want) = &e.delta {
                check::delta(&delta, want, &mut problems);
            }
            if !delta.incomplete.is_empty() {
                problems.push(format!("the bridge flagged its delta incomplete: {:?}", delta.incomplete));
            }
            if let Some(want) = &e.result {
                check::contains(&out.result, want, "result", &mut problems);
            }
            if let Some(want) = &e.png {
                png(&out.result, want, &mut problems);
            }
            for read in &e.reads {
                let reader = rt.capability(&read.key).ok_or_else(|| format!("reads: no capability {}", read.key))?;
                if reader.mutates {
                    problems.push(format!("reads: {} is not read-only", read.key));
                    continue;
                }
                match rt.call(&read.key, &read.arguments.to_string()) {
                    Ok(got) => check::contains(&got.result, &read.result, &format!("{} {}", read.key, read.arguments), &mut problems),
                    Err(err) => problems.push(format!("reads: {} failed: {err}", read.key)),
                }
            }
            answered = Some(out.result);
        }
    }
    if problems.is_empty() { Ok(answered) } else { Err(problems.join("\n")) }
}
