//! Ending a spent store after the answer has gone out, on the thread that ran it.
//!
//! Dropping a call's `Store` resets its pooled slot (the pages the call dirtied are
//! restored from the pack's image, the rest decommitted): about 7 µs that sat between
//! the guest's result and the MCP answer. A caller that runs a call inline on a
//! current-thread runtime (`mcp/execute.rs`, a quick read on the stdio session's one
//! thread) opens a [`Deferral`] around it; the call's store is then kept instead of
//! dropped, and dropped by a task that yields behind the tasks already woken (the
//! one that writes the answer among them) once the caller has called
//! [`Deferral::end_after_answer_then`].
//!
//! What keeps this safe and bounded:
//! - **Isolation is unchanged.** A spent store is never run again, and its slot returns
//!   to the pool, reset, only when it is dropped; until then the pool hands out others.
//! - **At most one store is kept in the whole process** ([`OUTSTANDING`]). A call that
//!   ends while another's drop is still pending drops its own at once, so pipelined
//!   calls hold at most one extra pool slot, never one each.
//! - **Only on a current-thread runtime.** There the drop task runs on the same
//!   thread, after the answer's write; on a multi-thread runtime (`serve --http`) a
//!   spawned task may be stolen by another worker and run before the answer is
//!   written, so no deferral is opened there and the store is dropped at once.
//!   (Moving the drop to another thread on purpose was measured and cost more than
//!   the drop: `host/BENCHMARKS.md`, issue 30.)
//! - **Nothing the answer waits for stays in a kept store**: the sandbox takes the
//!   call's progress sink out before it retires the store (`sandbox/mod.rs`), or the
//!   progress forwarder, which the answer waits for, would wait for the drop.
//! - A deferral opened while another is open on the thread keeps nothing; one dropped
//!   without [`Deferral::end_after_answer_then`] (an early return, a panic) drops its store.
//! - The same task may then make the next call's spare instance
//!   ([`Deferral::end_after_answer_then`], `runtime::spare`): after the answer, after
//!   the spent store's slot is back in the pool.

use std::any::Any;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// A spent store: kept (`Some`) only while a deferral is open on this thread.
type Kept = Option<Box<dyn Any + Send>>;

thread_local! {
    /// `None`: no deferral open, stores end at once. `Some(slot)`: a deferral is open;
    /// the first store retired goes into the slot, any further one ends at once.
    static OPEN: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// A kept store's drop is pending somewhere in the process.
static OUTSTANDING: AtomicBool = AtomicBool::new(false);

/// While open, the first store that ends on this thread is kept, not dropped.
pub struct Deferral {
    /// This deferral opened the thread's slot (false: inert, another one is open, or
    /// the runtime is not a current-thread one).
    owner: bool,
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Deferral {
    /// Start keeping this thread's next spent store, when the current runtime is a
    /// current-thread one and no deferral is open on the thread already.
    pub fn begin() -> Deferral {
        let current_thread = tokio::runtime::Handle::try_current().is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::CurrentThread);
        let owner = current_thread
            && OPEN.with(|open| {
                let mut open = open.borrow_mut();
                let free = open.is_none();
                if free {
                    *open = Some(None);
                }
                free
            });
        Deferral { owner, _not_send: std::marker::PhantomData }
    }

    /// Close the deferral and take what it kept.
    fn close(&mut self) -> Kept {
        if !std::mem::take(&mut self.owner) {
            return None;
        }
        OPEN.with(|open| open.borrow_mut().take()).flatten()
    }

    /// Close the deferral; drop what it kept once the tasks already woken on this
    /// thread (the answer's write among them) have run. When another kept store's
    /// drop is still pending, this one is dropped at once.
    ///
    /// Then, in the same task, run `then` (making the next call's spare instance:
    /// `runtime::spare`). `then` runs only when the drop was deferred, so never before
    /// the answer; otherwise it is dropped unrun.
    pub fn end_after_answer_then(mut self, then: impl FnOnce() + Send + 'static) {
        let Some(store) = self.close() else { return };
        let handle = match tokio::runtime::Handle::try_current() {
            Ok(handle) if OUTSTANDING.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_ok() => handle,
            _ => return drop(store),
        };
        let pending = Pending(Some(store));
        handle.spawn(async move {
            // A yield puts this task behind the tasks already woken, the one that
            // writes the answer included (a current-thread runtime runs a yielded
            // task again only once its run queue is empty).
            tokio::task::yield_now().await;
            drop(pending);
            then();
        });
    }
}

/// The kept store on its way out: dropping it (when the task runs, or when a runtime
/// that shuts down drops the task unrun) ends the store, then clears [`OUTSTANDING`].
struct Pending(Kept);

impl Drop for Pending {
    fn drop(&mut self) {
        drop(self.0.take());
        OUTSTANDING.store(false, Ordering::Release);
    }
}

impl Drop for Deferral {
    fn drop(&mut self) {
        drop(self.close());
    }
}

/// Drop `store` now, or keep it in the thread's open [`Deferral`] if its slot is free.
pub fn retire<T: Any + Send>(store: T) {
    let not_kept = OPEN.with(|open| match open.borrow_mut().as_mut() {
        Some(slot @ None) => {
            *slot = Some(Box::new(store));
            None
        }
        _ => Some(store),
    });
    drop(not_kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;

    struct Counted(Arc<AtomicUsize>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn current_thread() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    }

    fn dropped() -> (Arc<AtomicUsize>, impl Fn() -> usize) {
        let count = Arc::new(AtomicUsize::new(0));
        let seen = count.clone();
        (count, move || seen.load(Ordering::SeqCst))
    }

    /// OUTSTANDING is process-wide: the tests that spawn a drop run one at a time.
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

    #[test]
    fn a_runtime_that_ends_before_the_drop_still_drops_and_clears_the_mark() {
        let _serial = SERIAL.lock().unwrap();
        let (count, seen) = dropped();
        let rt = current_thread();
        rt.block_on(async {
            let deferral = Deferral::begin();
            retire(Counted(count.clone()));
            deferral.end_after_answer_then(|| ());
        });
        drop(rt);
        assert_eq!(seen(), 1);
        assert!(!OUTSTANDING.load(Ordering::SeqCst), "the next call may keep its store again");
    }

    #[test]
    fn without_a_deferral_a_store_ends_at_once() {
        let (count, seen) = dropped();
        retire(Counted(count));
        assert_eq!(seen(), 1);
    }

    #[test]
    fn outside_a_current_thread_runtime_nothing_is_kept() {
        let (count, seen) = dropped();
        let deferral = Deferral::begin();
        retire(Counted(count.clone()));
        assert_eq!(seen(), 1, "no runtime");
        deferral.end_after_answer_then(|| ());
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).build().unwrap();
        rt.block_on(async {
            let deferral = Deferral::begin();
            retire(Counted(count.clone()));
            assert_eq!(seen(), 2, "a multi-thread runtime: the store ends at once");
            deferral.end_after_answer_then(|| ());
        });
    }

    #[test]
    fn a_deferral_dropped_early_drops_what_it_kept_and_a_nested_one_keeps_nothing() {
        let _serial = SERIAL.lock().unwrap();
        let (count, seen) = dropped();
        current_thread().block_on(async {
            {
                let _outer = Deferral::begin();
                let inner = Deferral::begin();
                retire(Counted(count.clone()));
                assert_eq!(seen(), 0, "the outer deferral keeps it");
                inner.end_after_answer_then(|| ());
                assert_eq!(seen(), 0, "the inner one did not close the outer");
                retire(Counted(count.clone()));
                assert_eq!(seen(), 1, "one store per deferral: the second ends at once");
            }
            assert_eq!(seen(), 2, "dropped with the deferral");
        });
    }

    /// What follows the drop (the next spare's making) runs after the tasks already
    /// woken and after the drop, and never when the drop was not deferred.
    #[test]
    fn what_follows_the_drop_runs_after_the_answer_and_only_when_the_drop_was_deferred() {
        let _serial = SERIAL.lock().unwrap();
        let (count, seen) = dropped();
        let followed = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = |what: &'static str| {
            let followed = followed.clone();
            move || followed.lock().unwrap().push(what)
        };
        current_thread().block_on(async {
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            let writer_log = log("answer written");
            let writer = tokio::spawn(async move {
                rx.await.unwrap();
                writer_log();
            });
            tokio::task::yield_now().await;
            let deferral = Deferral::begin();
            retire(Counted(count.clone()));
            let drops = count.clone();
            let then_log = log("spare made");
            deferral.end_after_answer_then(move || {
                // The second call's store ended at once, this one's before this runs.
                assert_eq!(drops.load(Ordering::SeqCst), 2, "the spent store went first");
                then_log();
            });
            // A second call while the first drop is pending: its store ends at once and
            // what would follow it does not run.
            let second = Deferral::begin();
            retire(Counted(count.clone()));
            second.end_after_answer_then(log("never"));
            // A call that kept no store has nothing to follow.
            Deferral::begin().end_after_answer_then(log("never"));
            tx.send(()).unwrap();
            writer.await.unwrap();
            for _ in 0..3 {
                tokio::task::yield_now().await;
            }
        });
        assert_eq!(*followed.lock().unwrap(), ["answer written", "spare made"]);
        assert_eq!(seen(), 2);
        // No runtime to defer on (as on `serve --http`'s worker threads, where no
        // deferral is opened): nothing follows.
        let deferral = Deferral::begin();
        retire(Counted(count.clone()));
        deferral.end_after_answer_then(log("never"));
        assert_eq!(seen(), 3);
        assert_eq!(followed.lock().unwrap().len(), 2);
    }

    #[test]
    fn on_a_runtime_the_drop_waits_for_the_tasks_already_woken_and_one_is_kept_at_most() {
        let _serial = SERIAL.lock().unwrap();
        let (count, seen) = dropped();
        let (seen_by_writer, seen_after_second) = current_thread().block_on(async {
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            let watch = count.clone();
            let writer = tokio::spawn(async move {
                rx.await.unwrap();
                watch.load(Ordering::SeqCst)
            });
            // The writer waits on its channel, as the MCP loop waits for an answer.
            tokio::task::yield_now().await;
            // The writer is woken after the drop's task is spawned, as the MCP loop's
            // writing task is woken after the call ends: the yield still puts it first.
            let deferral = Deferral::begin();
            retire(Counted(count.clone()));
            deferral.end_after_answer_then(|| ());
            // A second call ending while the first drop is pending: dropped at once.
            let second = Deferral::begin();
            retire(Counted(count.clone()));
            second.end_after_answer_then(|| ());
            let seen_after_second = seen();
            tx.send(()).unwrap();
            let seen_by_writer = writer.await.unwrap();
            for _ in 0..3 {
                tokio::task::yield_now().await;
            }
            (seen_by_writer, seen_after_second)
        });
        assert_eq!(seen_after_second, 1, "the second store was not kept");
        assert_eq!(seen_by_writer, 1, "the woken task ran before the first drop");
        assert_eq!(seen(), 2);
        assert!(!OUTSTANDING.load(Ordering::SeqCst), "the pending mark is cleared");
    }
}
