//! python-safety: capstan's Python safety checker (world `capstan:checker/code-checker`).
//!
//! A filter, not a sandbox: it parses a script with a real Python parser and rejects
//! whatever could run code outside the script's reach, persist, touch files, or that it
//! cannot analyse (DESIGN.md section 10). The add-on runs accepted scripts in a
//! restricted namespace as the second layer. It runs in capstan's sandbox like any
//! pack, so a pathological input ends in a rejection or a trapped call, never a host
//! crash.

mod aliases;
mod analyze;
mod blender;
mod calls;
mod census;
mod checks;
mod classes;
mod handles;
mod implicit;
mod imports;
mod loops;
mod names;
mod nesting;
pub mod policy;
pub mod rules;
mod source_map;
#[cfg(test)]
mod testing;

#[cfg(target_arch = "wasm32")]
mod component;

pub use policy::Policy;
pub use rules::{Finding, Rule, Verdict};
pub use nesting::MAX_BRACKET_DEPTH;
use ruff_ast::PythonVersion;
use ruff_parser::{Mode, ParseOptions};

/// The Python that runs accepted scripts: Blender 4.5 and 5.0 embed 3.11. Newer
/// syntax is rejected (Blender could not run it, and the checker does not analyse it).
const TARGET: PythonVersion = PythonVersion::PY311;

pub fn check(source: &str, policy: &Policy) -> Verdict {
    let map = source_map::SourceMap::new(source);
    let reject = |rule: Rule, at: usize, message: String| {
        let (line, column) = map.locate(source, at);
        Verdict { allowed: false, findings: vec![Finding { rule, message, line, column }] }
    };
    if let Some(at) = source.find('\0') {
        return reject(Rule::ParseError, at, "the source contains a NUL byte".into());
    }
    if let Some((at, encoding)) = foreign_coding_cookie(source) {
        return reject(Rule::ParseError, at, format!("the coding declaration {encoding:?} is not utf-8; Python would decode this script differently than it reads here"));
    }
    if let Some((too_deep, at)) = nesting::first_too_deep(source) {
        return reject(Rule::NestingTooDeep, at, too_deep.message());
    }
    let parsed = match ruff_parser::parse(source, ParseOptions::from(Mode::Module).with_target_version(TARGET)) {
        Ok(parsed) => parsed,
        Err(e) => return reject(Rule::ParseError, e.location.start().into(), format!("not valid Python 3.11: {}", e.error)),
    };
    if let Some(e) = parsed.unsupported_syntax_errors().first() {
        return reject(Rule::UnsupportedSyntax, e.range.start().into(), format!("{e}; the checker and Blender's Python accept 3.11"));
    }
    let Some(module) = parsed.try_into_module() else {
        return reject(Rule::UnsupportedSyntax, 0, "the source did not parse as a module".into());
    };
    let body = module.syntax();
    // Two walks: the first takes a census of every binding (aliases, constants, loop
    // literals), so the second judges each use knowing all of them.
    let mut census = analyze::Analyzer::collector(source, &map, policy);
    census.stmts(&body.body);
    let mut analyzer = analyze::Analyzer::judge(source, &map, policy, census.into_census());
    analyzer.stmts(&body.body);
    let findings = std::mem::take(&mut analyzer.findings);
    // Inside the sandbox every call gets a fresh instance whose memory is dropped whole;
    // freeing a long tree node by node would only cost time and the guest's stack.
    if cfg!(target_arch = "wasm32") {
        std::mem::forget(module);
    }
    Verdict { allowed: findings.is_empty(), findings }
}

/// A PEP 263 coding declaration (first or second line) naming anything but UTF-8:
/// a script handed to Python as bytes would be decoded differently (UTF-7 turns
/// `+AAo-` into a newline inside what reads here as a comment).
fn foreign_coding_cookie(source: &str) -> Option<(usize, String)> {
    let mut offset = 0;
    for line in source.split_inclusive('\n').take(2) {
        let trimmed = line.trim_start();
        if let Some(comment) = trimmed.strip_prefix('#')
            && let Some(pos) = comment.find("coding")
        {
            let rest = &comment[pos + "coding".len()..];
            if let Some(value) = rest.strip_prefix([':', '=']) {
                let name: String = value.trim_start().chars().take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.')).collect();
                let normal = name.to_ascii_lowercase().replace('_', "-");
                if !name.is_empty() && normal != "utf-8" && normal != "utf8" {
                    return Some((offset, name));
                }
            }
        }
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            break;
        }
        offset += line.len();
    }
    None
}
