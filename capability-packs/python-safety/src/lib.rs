//! python-safety: capstan's Python safety checker (world `capstan:checker/code-checker`).
//!
//! A filter, not a sandbox: it parses a script with a real Python parser and rejects
//! whatever could run code outside the script's reach, persist, touch files, or that it
//! cannot analyse (DESIGN.md section 10). The add-on runs accepted scripts in a
//! restricted namespace as the second layer. It runs in capstan's sandbox like any
//! pack, so a pathological input ends in a rejection or a trapped call, never a host
//! crash.

mod analyze;
mod blender;
mod calls;
mod imports;
mod names;
pub mod policy;
pub mod rules;
mod source_map;

#[cfg(target_arch = "wasm32")]
mod component;

pub use policy::Policy;
pub use rules::{Finding, Rule, Verdict};
use rustpython_parser::{Mode, ast};

/// Bracket nesting beyond this is rejected before parsing.
pub const MAX_BRACKET_DEPTH: usize = 64;

pub fn check(source: &str, policy: &Policy) -> Verdict {
    let map = source_map::SourceMap::new(source);
    let reject = |rule: Rule, at: usize, message: String| {
        let (line, column) = map.locate(source, at);
        Verdict { allowed: false, findings: vec![Finding { rule, message, line, column }] }
    };
    if let Some(at) = source.find('\0') {
        return reject(Rule::ParseError, at, "the source contains a NUL byte".into());
    }
    if let Some(at) = source_map::first_too_deep(source, MAX_BRACKET_DEPTH) {
        return reject(Rule::NestingTooDeep, at, format!("brackets nested more than {MAX_BRACKET_DEPTH} deep"));
    }
    let module = match rustpython_parser::parse(source, Mode::Module, "<script>") {
        Ok(m) => m,
        Err(e) => return reject(Rule::ParseError, usize::from(e.offset), format!("not valid Python 3.11: {}", e.error)),
    };
    let ast::Mod::Module(body) = &module else {
        return reject(Rule::UnsupportedSyntax, 0, "the source did not parse as a module".into());
    };
    // Two walks: the first takes a census of every binding (aliases, constants, loop
    // literals), so the second judges each use knowing all of them.
    let mut census = analyze::Analyzer::collector(source, &map, policy);
    census.stmts(&body.body);
    let mut analyzer = analyze::Analyzer::judge(source, &map, policy, census.into_census());
    analyzer.stmts(&body.body);
    let findings = std::mem::take(&mut analyzer.findings);
    // Inside the sandbox every call gets a fresh instance whose memory is dropped whole;
    // freeing a deeply nested tree node by node would only risk the guest's stack.
    if cfg!(target_arch = "wasm32") {
        std::mem::forget(module);
    }
    Verdict { allowed: findings.is_empty(), findings }
}
