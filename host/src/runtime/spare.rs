//! Spare instances, made in the idle time after an answer for the pack that just
//! answered, so the next call of that pack finds its instance made (issue 30: the
//! store, the WASI context and the instantiation, about 15 µs of a quick read's path,
//! more when the process runs cold between an agent's calls).
//!
//! Security reasoning (isolation is unchanged):
//! - **A spare is a fresh instance**, made as every call's own is
//!   ([`crate::sandbox::Ready`]): a new store from the pack's `InstancePre` under the
//!   pack's limits, with no gate while it is made. It is taken by **one** call and
//!   retired with that call's store; nothing else ever runs in it, so no call sees
//!   another's state, as before. The call that takes it brings its own gate.
//! - **Bounded**: at most one spare per pack and [`crate::limits::MAX_SPARES`] per
//!   runtime (one pool slot each); the one made longest ago gives way.
//! - **Made in idle time**: the stdio session makes it after the answer has been
//!   written ([`crate::sandbox::retire::Deferral::end_after_answer_then`]), never
//!   before it. A request that arrives meanwhile waits for it: at most
//!   [`crate::limits::SPARE_INSTANTIATION_BUDGET`] of guest time (instantiation runs
//!   only the pack's start functions). A pack whose spare failed
//!   [`crate::limits::SPARE_FAILURES_BEFORE_GIVING_UP`] times in a row is not tried
//!   again: each try would cost idle time, and its calls make their own instance and
//!   report any fault themselves.
//! - **The time a spare took to be made is not its call's**: a call in a spare gets
//!   its whole timeout from when it begins, so a pack whose start functions are slow
//!   gets up to the budget more than in an instance made for the call (whose
//!   instantiation counts toward the call's time).
//! - **It dies with its runtime**: a pack store change builds a new runtime, so a
//!   spare is never used for a pack that has been replaced.

use crate::limits::{MAX_SPARES, SPARE_FAILURES_BEFORE_GIVING_UP};
use crate::plugin::instance::PackInstance;
use crate::sandbox::Ready;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The spares, the packs whose spares failed, and how many spares calls took.
#[derive(Default)]
pub struct Spares {
    inner: Mutex<Inner>,
    taken: AtomicU64,
}

#[derive(Default)]
struct Inner {
    /// Per pack (its index in the runtime), oldest first.
    waiting: VecDeque<(usize, Ready<PackInstance>)>,
    /// Failures in a row, per pack.
    failures: BTreeMap<usize, u32>,
}

impl Spares {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The spare for `pack`, taken (None: there is none for it).
    pub fn take(&self, pack: usize) -> Option<Ready<PackInstance>> {
        let mut inner = self.lock();
        let at = inner.waiting.iter().position(|(p, _)| *p == pack)?;
        let (_, ready) = inner.waiting.remove(at)?;
        self.taken.fetch_add(1, Ordering::Relaxed);
        Some(ready)
    }

    /// Whether a spare for `pack` is waiting.
    pub fn has(&self, pack: usize) -> bool {
        self.lock().waiting.iter().any(|(p, _)| *p == pack)
    }

    /// How many spares calls have taken.
    pub fn taken(&self) -> u64 {
        self.taken.load(Ordering::Relaxed)
    }

    /// Make a spare for `pack` with `make` unless one is waiting or its spares keep
    /// failing. The oldest spare gives way when [`MAX_SPARES`] are waiting.
    pub fn refill(&self, pack: usize, make: impl FnOnce() -> Option<Ready<PackInstance>>) {
        {
            let inner = self.lock();
            if inner.failures.get(&pack).is_some_and(|n| *n >= SPARE_FAILURES_BEFORE_GIVING_UP) || inner.waiting.iter().any(|(p, _)| *p == pack) {
                return;
            }
        }
        // Made outside the lock: a call on another thread is never held up by it.
        let made = make();
        let mut inner = self.lock();
        let Some(ready) = made else {
            *inner.failures.entry(pack).or_default() += 1;
            return;
        };
        inner.failures.remove(&pack);
        let mut gone = Vec::new();
        if let Some(at) = inner.waiting.iter().position(|(p, _)| *p == pack) {
            gone.extend(inner.waiting.remove(at));
        }
        inner.waiting.push_back((pack, ready));
        while inner.waiting.len() > MAX_SPARES {
            gone.extend(inner.waiting.pop_front());
        }
        drop(inner);
        for (_, ready) in gone {
            ready.discard();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A spare that cannot be made is tried a few times, then not again; another
    /// pack's are unaffected, and a success starts the count afresh.
    #[test]
    fn a_pack_whose_spares_keep_failing_is_given_up_after_a_few_tries() {
        let spares = Spares::default();
        let tries = Cell::new(0);
        let fail = || {
            tries.set(tries.get() + 1);
            None
        };
        for _ in 0..SPARE_FAILURES_BEFORE_GIVING_UP + 2 {
            spares.refill(7, fail);
        }
        assert_eq!(tries.get(), SPARE_FAILURES_BEFORE_GIVING_UP);
        assert!(!spares.has(7) && spares.take(7).is_none());
        spares.refill(8, fail);
        assert_eq!(tries.get(), SPARE_FAILURES_BEFORE_GIVING_UP + 1, "another pack is still tried");
        assert_eq!(spares.taken(), 0);
    }
}
