//! Fuzz entry point, shared by the cargo-fuzz target `tool_arguments` and the corpus
//! replay in host/tests/fuzz_corpus.rs: arbitrary bytes as the arguments of an MCP
//! tool call, through the same steps as the MCP surfaces take before any sandbox or
//! bridge work (key resolution, size, JSON, the capability's schema: `Runtime::check`).
//!
//! First byte even: the guided `execute_capability` tool; the rest is its JSON
//! arguments `{"key", "arguments"}`. Odd: an expert tool (the second byte picks the
//! capability); the rest is the JSON object passed as the capability's arguments.
//! What must hold: no panic; an accepted call names a canonical capability and passes
//! again (validation is deterministic); every refusal is one of the documented errors,
//! with its details (schema errors listed, the canonical key of an alias, the limit
//! of an input that is too large), and serialises to an MCP error with its code.

use capstan::runtime::{CallError, Resolution, Runtime};
use serde_json::{Value, json};

pub fn run(runtime: &Runtime, data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    let mut keys: Vec<String> = runtime.capabilities().map(|(_, c)| c.key.clone()).collect();
    keys.sort();
    assert!(!keys.is_empty(), "the runtime has capabilities to fuzz");
    let (key, arguments) = if mode % 2 == 0 {
        let Ok(Value::Object(args)) = serde_json::from_slice::<Value>(rest) else { return };
        let Some(key) = args.get("key").and_then(Value::as_str) else { return };
        (key.to_string(), args.get("arguments").cloned().unwrap_or_else(|| json!({})))
    } else {
        let Some((&pick, json)) = rest.split_first() else { return };
        let Ok(arguments @ Value::Object(_)) = serde_json::from_slice::<Value>(json) else { return };
        (keys[usize::from(pick) % keys.len()].clone(), arguments)
    };
    let text = arguments.to_string();
    let outcome = runtime.check(&key, &text);
    match &outcome {
        Ok(()) => {
            assert!(matches!(runtime.resolve(&key), Resolution::Canonical), "{key} was accepted but is not canonical");
            assert!(runtime.check(&key, &text).is_ok(), "validation is not deterministic");
        }
        Err(CallError::NotFound { key: k }) => assert!(k == &key && matches!(runtime.resolve(&key), Resolution::NotFound)),
        Err(CallError::NonCanonical { canonical, .. }) => assert!(keys.contains(canonical), "{canonical}"),
        Err(CallError::InvalidArguments { errors, .. }) => {
            assert!(!errors.is_empty() && errors.iter().all(|e| !e.is_empty()), "a refusal without its schema errors");
        }
        Err(CallError::Fault { fault, .. }) => assert!(fault.to_string().contains("bytes"), "{fault}"),
        Err(other) => panic!("validation ended in {other}"),
    }
    if let Err(e) = &outcome {
        let error = capstan::report::error_json(e);
        assert!(error["code"].as_str().is_some_and(|c| !c.is_empty()), "{error}");
    }
}
