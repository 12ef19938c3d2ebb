//! The checker's analysis natively (instrumented, so libFuzzer sees its coverage):
//! any UTF-8 ends in a verdict, never a panic; allowed exactly when there are no
//! findings; every finding has a message and a 1-based position. Seed it with the
//! corpus (README.md). The host's `fuzz/` target `checker` drives the same code
//! through the sandboxed component.
#![no_main]

use libfuzzer_sys::fuzz_target;
use python_safety::{Policy, check};

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let modules = ["bpy", "bmesh", "mathutils", "math", "random", "json", "collections", "functools", "typing", "dataclasses", "enum", "re"];
    let policy = Policy::new(modules.map(String::from), ["hack".to_string()]);
    let verdict = check(source, &policy);
    assert_eq!(verdict.allowed, verdict.findings.is_empty());
    for f in &verdict.findings {
        assert!(f.line >= 1 && f.column >= 1 && !f.message.is_empty(), "{f:?}");
    }
});
