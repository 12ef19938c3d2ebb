//! What can go wrong inside the sandbox, as types. The MCP layer reports these as
//! `PACK_FAULT` with the limit or trap named; nothing here is a bare string.

use super::limiter::LimitExceeded;
use serde::Serialize;
use wasmtime::Trap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "fault", rename_all = "snake_case")]
pub enum PackFault {
    #[error("the pack computed past its time limit of {limit_ms} ms (timeout_ms, bridge waits not counted) and was stopped")]
    Timeout { limit_ms: u64 },
    #[error("the call ran past its whole-call deadline of {limit_ms} ms (deadline_ms, bridge waits included) and was stopped")]
    Deadline { limit_ms: u64 },
    #[error("the pack tried to grow its memory to {requested_bytes} bytes; the limit is {limit_bytes} bytes")]
    MemoryLimit { limit_bytes: u64, requested_bytes: u64 },
    #[error("the pack tried to grow a table to {requested} elements; the limit is {limit}")]
    TableLimit { limit: u64, requested: u64 },
    #[error("the pack overflowed its stack (unbounded recursion?)")]
    StackOverflow,
    #[error("the pack accessed memory out of bounds (its shadow stack overflowed, or a bug)")]
    MemoryFault,
    #[error("the pack panicked{}", message.as_deref().map(|m| format!(": {m}")).unwrap_or_default())]
    Panic { message: Option<String> },
    #[error("the pack trapped: {trap}")]
    Trap { trap: String },
    #[error("the arguments are {size_bytes} bytes; the limit is {limit_bytes} bytes")]
    InputTooLarge { limit_bytes: u64, size_bytes: u64 },
    #[error("the pack's result is {size_bytes} bytes; the limit is {limit_bytes} bytes")]
    OutputTooLarge { limit_bytes: u64, size_bytes: u64 },
    #[error("the pack could not be instantiated: {detail}")]
    Instantiation { detail: String },
    #[error("the pack broke the contract: {detail}")]
    Contract { detail: String },
}

impl PackFault {
    /// The limit this fault is about, in manifest terms, if it is a limit.
    pub fn limit(&self) -> Option<&'static str> {
        match self {
            PackFault::Timeout { .. } => Some("timeout_ms"),
            PackFault::Deadline { .. } => Some("deadline_ms"),
            PackFault::MemoryLimit { .. } => Some("memory_mib"),
            PackFault::TableLimit { .. } => Some("table_elements"),
            PackFault::StackOverflow => Some("wasm_stack"),
            PackFault::InputTooLarge { .. } | PackFault::OutputTooLarge { .. } => Some("max_io_bytes"),
            _ => None,
        }
    }

    /// Classify an error from a guest call. `stderr` is what the guest wrote to stderr
    /// during the call (the panic message lives there).
    pub fn classify(error: &wasmtime::Error, limit_hit: Option<LimitExceeded>, timeout_ms: u64, stderr: &str) -> Self {
        let limit = error.downcast_ref::<LimitExceeded>().copied().or(limit_hit);
        if let Some(limit) = limit {
            return match limit {
                LimitExceeded::Memory { limit, requested } => {
                    PackFault::MemoryLimit { limit_bytes: limit, requested_bytes: requested }
                }
                LimitExceeded::Table { limit, requested } => PackFault::TableLimit { limit, requested },
            };
        }
        match error.downcast_ref::<Trap>() {
            Some(Trap::Interrupt) => PackFault::Timeout { limit_ms: timeout_ms },
            Some(Trap::StackOverflow) => PackFault::StackOverflow,
            Some(Trap::MemoryOutOfBounds) => PackFault::MemoryFault,
            Some(Trap::UnreachableCodeReached) => PackFault::Panic { message: panic_message(stderr) },
            Some(trap) => PackFault::Trap { trap: trap.to_string() },
            None => PackFault::Trap { trap: format!("{error:#}") },
        }
    }
}

/// The panic message a Rust guest printed (`panicked at src/lib.rs:3:5:\nboom`).
fn panic_message(stderr: &str) -> Option<String> {
    let at = stderr.find("panicked at")?;
    let text: String = stderr[at..].lines().take(3).collect::<Vec<_>>().join(" ");
    Some(text.chars().take(500).collect())
}
