//! The one wasmtime `Engine` of the process and how it is configured.
//!
//! Security reasoning:
//! - **Epoch interruption is always on.** Every call gets a deadline counted in epoch
//!   ticks, and a deadline that passes *traps* (it never yields or extends), so an
//!   infinite loop ends in a typed timeout and the host keeps serving.
//! - **Pooling allocator where the machine allows it.** It makes a fresh instance per
//!   call cheap (memory slots are reused, not mmapped anew) and bounds how many
//!   instances and memories can exist at once. Where the reservation fails (a small
//!   address space, strict overcommit) we fall back to on-demand allocation, which
//!   is slower but enforces the same per-call limits through the store limiter.
//! - Only features packs need are enabled (component model); threads, GC proposals
//!   and friends are off by default in this build.

mod cache;
mod ticker;

pub use cache::{CacheOutcome, CacheStats, ComponentCache, SHARED_CACHE_ENV, location as cache_location};

use crate::limits;
use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

/// How instances get their memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Allocation {
    Pooling,
    OnDemand,
}

/// Which allocation to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllocationPreference {
    /// Pooling, falling back to on-demand if the machine refuses the reservation.
    PoolingIfAvailable,
    /// On-demand only (benchmarks compare the two).
    OnDemand,
}

/// The engine plus how it was built. Cloning is cheap (the engine is shared).
#[derive(Clone)]
pub struct SandboxEngine {
    engine: Engine,
    allocation: Allocation,
}

impl SandboxEngine {
    pub fn new(preference: AllocationPreference) -> wasmtime::Result<Self> {
        if preference == AllocationPreference::PoolingIfAvailable {
            match Engine::new(&config(Some(pooling_config()))) {
                Ok(engine) => return Ok(Self::start(engine, Allocation::Pooling)),
                Err(e) => tracing::warn!(
                    error = %e,
                    "pooling allocator unavailable on this machine; using on-demand allocation"
                ),
            }
        }
        let engine = Engine::new(&config(None))?;
        Ok(Self::start(engine, Allocation::OnDemand))
    }

    fn start(engine: Engine, allocation: Allocation) -> Self {
        ticker::spawn(&engine, limits::EPOCH_TICK);
        SandboxEngine { engine, allocation }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn allocation(&self) -> Allocation {
        self.allocation
    }

    /// Epoch ticks that cover `timeout` (rounded up, at least one).
    pub fn deadline_ticks(timeout: std::time::Duration) -> u64 {
        let tick = limits::EPOCH_TICK.as_nanos();
        (timeout.as_nanos().div_ceil(tick) as u64).max(1)
    }
}

fn config(pooling: Option<PoolingAllocationConfig>) -> Config {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    // Deep recursion must end in a stack-overflow trap well before the host's own
    // stack is at risk; wasm runs on the calling thread's stack.
    config.max_wasm_stack(1 << 20);
    if let Some(pool) = pooling {
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    config
}

fn pooling_config() -> PoolingAllocationConfig {
    let mut pool = PoolingAllocationConfig::new();
    let instances = limits::POOLED_INSTANCES;
    pool.total_component_instances(instances);
    pool.total_core_instances(instances * 4);
    pool.total_memories(instances * limits::MAX_MEMORIES_PER_CALL as u32);
    pool.total_tables(instances * 8);
    pool.max_memory_size(limits::CEILING_LIMITS.memory_bytes as usize);
    pool.max_memories_per_component(limits::MAX_MEMORIES_PER_CALL as u32);
    pool.max_tables_per_component(limits::MAX_TABLES_PER_CALL as u32);
    // Reset a freed slot by zeroing its first pages instead of handing them back to
    // the kernel: a typical pack touches well under this per call, and returning pages
    // costs a page fault per page on the next call plus TLB shootdowns.
    pool.linear_memory_keep_resident(limits::POOL_KEEP_RESIDENT_BYTES);
    pool.table_keep_resident(64 * 1024);
    // On Linux 6.7+ reset only the pages a call actually dirtied (PAGEMAP_SCAN);
    // elsewhere this quietly falls back to the memset above.
    pool.pagemap_scan(Enabled::Auto);
    pool
}
