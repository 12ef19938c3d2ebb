//! Ending a spent store after the answer has gone out, on the thread that ran it.
//!
//! Dropping a call's `Store` resets its pooled slot (the pages the call dirtied are
//! restored from the pack's image, the rest decommitted): about 7 µs that sat between
//! the guest's result and the MCP answer. A caller that runs a call inline on an
//! async thread (`mcp/execute.rs`, a quick read) opens a [`Deferral`] around it; the
//! call's store is then kept in the deferral instead of dropped, and the caller ends
//! it once the answer is on its way ([`Deferral::end_after_answer`]).
//!
//! Isolation is unchanged: a spent store is never run again, and its slot returns to
//! the pool, reset, only when the store is dropped; until then the pool hands out
//! other slots. Nothing crosses threads: moving the drop to another thread was
//! measured and cost more than the drop (`host/BENCHMARKS.md`, issue 30).

use std::any::Any;
use std::cell::RefCell;

thread_local! {
    static SPENT: RefCell<Option<Vec<Box<dyn Any + Send>>>> = const { RefCell::new(None) };
}

/// While alive, stores that end on this thread are kept, not dropped.
pub struct Deferral {
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Deferral {
    /// Start keeping this thread's spent stores. Nested deferrals share one list.
    pub fn begin() -> Deferral {
        SPENT.with(|s| {
            s.borrow_mut().get_or_insert_with(Vec::new);
        });
        Deferral { _not_send: std::marker::PhantomData }
    }

    /// Stop keeping, and take what was kept.
    fn take(self) -> Vec<Box<dyn Any + Send>> {
        SPENT.with(|s| s.borrow_mut().take()).unwrap_or_default()
    }

    /// Stop keeping; drop what was kept once the current task has let the others on
    /// this thread run (the answer's write among them). Outside a tokio runtime it is
    /// dropped at once.
    pub fn end_after_answer(self) {
        let spent = self.take();
        if spent.is_empty() {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                handle.spawn(async move {
                    // A yield puts this task behind the tasks already woken, the one
                    // that writes the answer included.
                    tokio::task::yield_now().await;
                    drop(spent);
                });
            }
            Err(_) => drop(spent),
        }
    }
}

impl Drop for Deferral {
    fn drop(&mut self) {
        // A deferral dropped without `end_after_answer` (an early return, a panic)
        // drops what it kept here.
        let spent = SPENT.with(|s| s.borrow_mut().take());
        drop(spent);
    }
}

/// Drop `store` now, or keep it for the thread's open [`Deferral`].
pub fn retire<T: Any + Send>(store: T) {
    let kept = SPENT.with(|s| match s.borrow_mut().as_mut() {
        Some(list) => {
            list.push(Box::new(store));
            None
        }
        None => Some(store),
    });
    drop(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counted(Arc<AtomicUsize>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn without_a_deferral_a_store_ends_at_once() {
        let dropped = Arc::new(AtomicUsize::new(0));
        retire(Counted(dropped.clone()));
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_deferral_keeps_stores_until_it_ends() {
        let dropped = Arc::new(AtomicUsize::new(0));
        let deferral = Deferral::begin();
        retire(Counted(dropped.clone()));
        retire(Counted(dropped.clone()));
        assert_eq!(dropped.load(Ordering::SeqCst), 0);
        deferral.end_after_answer();
        assert_eq!(dropped.load(Ordering::SeqCst), 2, "no runtime: dropped at once");
        retire(Counted(dropped.clone()));
        assert_eq!(dropped.load(Ordering::SeqCst), 3, "the deferral ended: no more keeping");
    }

    #[test]
    fn a_deferral_dropped_early_drops_what_it_kept() {
        let dropped = Arc::new(AtomicUsize::new(0));
        {
            let _deferral = Deferral::begin();
            retire(Counted(dropped.clone()));
        }
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn on_a_runtime_the_drop_waits_for_the_tasks_already_woken() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let dropped = Arc::new(AtomicUsize::new(0));
        let seen_by_writer = rt.block_on(async {
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            let counter = dropped.clone();
            let writer = tokio::spawn(async move {
                rx.await.unwrap();
                counter.load(Ordering::SeqCst)
            });
            // The writer waits on its channel, as the MCP loop waits for an answer.
            tokio::task::yield_now().await;
            // The writer is woken after the drop's task is spawned, as the MCP loop's
            // writing task is woken after the call ends: the yield still puts it first.
            let deferral = Deferral::begin();
            retire(Counted(dropped.clone()));
            deferral.end_after_answer();
            tx.send(()).unwrap();
            let seen = writer.await.unwrap();
            tokio::task::yield_now().await;
            tokio::task::yield_now().await;
            seen
        });
        assert_eq!(seen_by_writer, 0, "the woken task ran before the drop");
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
    }
}
