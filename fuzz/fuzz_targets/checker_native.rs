//! The checker's analysis natively (instrumented, so libFuzzer sees its coverage),
//! seeded with the corpus: any bytes end in a verdict, never a panic; a rejection
//! has findings with 1-based positions. The `checker` target drives the same code
//! through the host and the sandboxed component.
#![no_main]

use libfuzzer_sys::fuzz_target;
use python_safety::{Policy, check};

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let policy = Policy::new(["bpy", "bmesh", "mathutils", "math", "random", "json", "collections", "functools", "typing", "dataclasses", "enum", "re"].map(String::from), ["hack".to_string()]);
    let verdict = check(source, &policy);
    assert_eq!(verdict.allowed, verdict.findings.is_empty());
    for f in &verdict.findings {
        assert!(f.line >= 1 && f.column >= 1 && !f.message.is_empty(), "{f:?}");
    }
});
