//! The per-call resource limiter: linear memory, tables, instance counts.
//!
//! wasmtime's stock `StoreLimits` reports a hit as an untyped error; this limiter
//! returns [`LimitExceeded`], which traps the guest at the growth and can be recognised
//! by type afterwards, so the caller gets `PACK_FAULT` naming the limit.

use crate::limits;
use wasmtime::ResourceLimiter;

/// A resource limit a guest ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LimitExceeded {
    #[error("linear memory limit: the pack asked for {requested} bytes, the limit is {limit} bytes")]
    Memory { limit: u64, requested: u64 },
    #[error("table limit: the pack asked for {requested} elements, the limit is {limit}")]
    Table { limit: u64, requested: u64 },
}

#[derive(Debug)]
pub struct CallLimiter {
    memory_bytes: u64,
    /// The first limit hit during this call, if any.
    pub hit: Option<LimitExceeded>,
}

impl CallLimiter {
    pub fn new(memory_bytes: u64) -> Self {
        CallLimiter { memory_bytes, hit: None }
    }
}

impl ResourceLimiter for CallLimiter {
    fn memory_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired as u64 > self.memory_bytes {
            let e = LimitExceeded::Memory { limit: self.memory_bytes, requested: desired as u64 };
            self.hit.get_or_insert(e);
            return Err(wasmtime::Error::new(e));
        }
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > limits::MAX_TABLE_ELEMENTS {
            let e = LimitExceeded::Table { limit: limits::MAX_TABLE_ELEMENTS as u64, requested: desired as u64 };
            self.hit.get_or_insert(e);
            return Err(wasmtime::Error::new(e));
        }
        Ok(true)
    }

    fn instances(&self) -> usize {
        limits::MAX_CORE_INSTANCES_PER_CALL
    }

    fn memories(&self) -> usize {
        limits::MAX_MEMORIES_PER_CALL
    }

    fn tables(&self) -> usize {
        limits::MAX_TABLES_PER_CALL
    }
}
