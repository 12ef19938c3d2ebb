//! The core every session reads, replaced whole when the pack store changes.
//!
//! A running `serve` polls the store's fingerprint (each pack folder's manifest size
//! and mtime, and its enabled flag) once a second. When it changes, a new core is
//! built off the async threads (packs loaded, verified, compiled through the cache)
//! and swapped in; sessions see it from their next request, and each session's
//! watcher tells its client `notifications/tools/list_changed`. A store that fails to
//! load keeps the previous core serving.

use super::Core;
use crate::home::CapstanHome;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

pub struct SharedCore {
    current: RwLock<Arc<Core>>,
    generation: AtomicU64,
    /// The MCP tasks of this served process (`tasks.rs`): one store for every session,
    /// so a task started over HTTP is found by the later requests that poll it.
    pub tasks: rmcp::task_manager::TaskManager,
}

impl SharedCore {
    pub fn new(core: Core) -> Arc<Self> {
        Arc::new(SharedCore { current: RwLock::new(Arc::new(core)), generation: AtomicU64::new(0), tasks: Default::default() })
    }

    pub fn get(&self) -> Arc<Core> {
        self.current.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Bumped at every swap.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    fn replace(&self, core: Core) {
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(core);
        self.generation.fetch_add(1, Ordering::AcqRel);
    }
}

type Fingerprint = Vec<(String, u64, Option<SystemTime>, bool)>;

fn fingerprint(home: &CapstanHome) -> Fingerprint {
    crate::store::Store::new(home).fingerprint()
}

/// Watch the store for as long as the server runs; swap in a fresh core on change.
pub async fn watch_store(shared: Arc<SharedCore>, home: CapstanHome, instance: Option<(String, std::path::PathBuf)>) {
    let blocking = |home: CapstanHome| async move { tokio::task::spawn_blocking(move || fingerprint(&home)).await.unwrap_or_default() };
    let mut seen = blocking(home.clone()).await;
    loop {
        tokio::time::sleep(crate::limits::STORE_WATCH_INTERVAL).await;
        let now = blocking(home.clone()).await;
        if now == seen {
            continue;
        }
        seen = now;
        let (build_home, instance) = (home.clone(), instance.clone());
        match tokio::task::spawn_blocking(move || super::core_for(&build_home, instance.as_ref())).await {
            Ok(Ok(core)) => {
                tracing::info!(packs = core.runtime.packs().len(), "the pack store changed; serving the new set of packs");
                shared.replace(core);
            }
            Ok(Err(e)) => tracing::warn!("the pack store changed but could not be loaded ({e}); still serving the previous packs"),
            Err(e) => tracing::warn!("reloading the pack store ended abnormally: {e}"),
        }
    }
}
