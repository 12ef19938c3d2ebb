//! Admission for `capstan serve --http`: how many connections and requests the
//! server holds at once, how long it waits for them, and how it says no.
//!
//! Security reasoning (each rule holds on its own; the numbers are in limits.rs):
//! - **Connections are capped.** At most `max_connections` are open. When a new one
//!   arrives at the cap, the connection that has been idle longest (no request in
//!   flight: a half-sent request, or a kept-alive connection between requests) is
//!   closed to make room, so a flood of idle or half-open connections cannot lock a
//!   well-behaved client out; only when every open connection is busy is the new one
//!   answered 503 and closed. The server's file descriptors are therefore bounded by
//!   the cap, whatever the client side does.
//! - **Idle connections expire.** One that has not completed a first request within
//!   `header_timeout`, or sits idle between requests beyond `idle_timeout`, is closed
//!   by the reaper (hyper's own header read timeout is a second layer).
//! - **Requests in flight are capped** (`max_requests`, 503 beyond it), and a
//!   request's body must arrive within `body_timeout` and `max_body_bytes` (http.rs).
//! - **Accept errors back off.** When `accept` fails (out of file descriptors), the
//!   loop waits 1 ms, doubling per consecutive failure up to a second, instead of
//!   spinning; on descriptor exhaustion it also closes the longest-idle connection.
//! - **Refusals are logged at a bounded rate:** at most one line per reason per
//!   second, with the count since the last line.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::AbortHandle;

/// The numbers admission works with.
#[derive(Debug, Clone, Copy)]
pub struct HttpLimits {
    pub max_connections: usize,
    pub max_requests: usize,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    pub body_timeout: Duration,
    pub max_body_bytes: usize,
}

impl Default for HttpLimits {
    fn default() -> Self {
        use crate::limits as l;
        HttpLimits {
            max_connections: l::HTTP_MAX_CONNECTIONS,
            max_requests: l::HTTP_MAX_REQUESTS_IN_FLIGHT,
            header_timeout: l::HTTP_HEADER_TIMEOUT,
            idle_timeout: l::HTTP_IDLE_TIMEOUT,
            body_timeout: l::HTTP_BODY_TIMEOUT,
            max_body_bytes: l::HTTP_MAX_BODY_BYTES,
        }
    }
}

struct Connection {
    in_flight: u32,
    served: u64,
    idle_since: Instant,
    abort: Option<AbortHandle>,
}

pub struct Admission {
    limits: HttpLimits,
    open: Mutex<BTreeMap<u64, Connection>>,
    next: AtomicU64,
    requests: Arc<Semaphore>,
    pub refusals: RefusalLog,
}

impl Admission {
    pub fn new(limits: HttpLimits) -> Arc<Self> {
        Arc::new(Admission {
            limits,
            open: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(1),
            requests: Arc::new(Semaphore::new(limits.max_requests)),
            refusals: RefusalLog::default(),
        })
    }

    pub fn limits(&self) -> &HttpLimits {
        &self.limits
    }

    fn open(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Connection>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Connections open now.
    pub fn open_connections(&self) -> usize {
        self.open().len()
    }

    /// Admit a new connection, closing the longest-idle one when at the cap; `None`
    /// when every open connection is busy.
    pub fn admit(self: &Arc<Self>) -> Option<ConnectionTicket> {
        let mut open = self.open();
        if open.len() >= self.limits.max_connections {
            if !evict_longest_idle(&mut open) {
                drop(open);
                self.refusals.note("connection refused: every connection is busy (503)");
                return None;
            }
            self.refusals.note("idle connection closed to admit a new one (connection cap)");
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        open.insert(id, Connection { in_flight: 0, served: 0, idle_since: Instant::now(), abort: None });
        Some(ConnectionTicket { id, admission: self.clone() })
    }

    /// Record how to close connection `id` (its task).
    pub fn attach(&self, id: u64, abort: AbortHandle) {
        if let Some(c) = self.open().get_mut(&id) {
            c.abort = Some(abort);
        }
    }

    /// Close the longest-idle connection (when descriptors run out).
    pub fn evict_one_idle(&self) -> bool {
        evict_longest_idle(&mut self.open())
    }

    /// A request began on connection `id`; it is busy until the guard is dropped
    /// (which http.rs ties to the end of the response body).
    pub fn begin(self: &Arc<Self>, id: u64) -> RequestGuard {
        if let Some(c) = self.open().get_mut(&id) {
            c.in_flight += 1;
        }
        RequestGuard { id, admission: self.clone() }
    }

    /// A slot for one request in flight, if any is free.
    pub fn request_slot(&self) -> Option<OwnedSemaphorePermit> {
        self.requests.clone().try_acquire_owned().ok()
    }

    /// Close connections idle beyond their timeout; returns how many.
    pub fn reap(&self, now: Instant) -> usize {
        let mut open = self.open();
        let expired: Vec<u64> = open
            .iter()
            .filter(|(_, c)| {
                let allowed = if c.served == 0 { self.limits.header_timeout } else { self.limits.idle_timeout };
                c.in_flight == 0 && c.abort.is_some() && now.duration_since(c.idle_since) > allowed
            })
            .map(|(id, _)| *id)
            .collect();
        for id in &expired {
            if let Some(c) = open.remove(id)
                && let Some(abort) = c.abort
            {
                abort.abort();
            }
        }
        drop(open);
        for _ in &expired {
            self.refusals.note("idle connection closed (header or idle timeout)");
        }
        expired.len()
    }
}

/// Abort the connection idle longest (the oldest `idle_since` with nothing in flight).
fn evict_longest_idle(open: &mut BTreeMap<u64, Connection>) -> bool {
    let victim = open.iter().filter(|(_, c)| c.in_flight == 0 && c.abort.is_some()).min_by_key(|(_, c)| c.idle_since).map(|(id, _)| *id);
    let Some(id) = victim else { return false };
    if let Some(c) = open.remove(&id)
        && let Some(abort) = c.abort
    {
        abort.abort();
    }
    true
}

/// Held by a connection's task; the connection leaves the books when it is dropped.
pub struct ConnectionTicket {
    id: u64,
    admission: Arc<Admission>,
}

impl ConnectionTicket {
    pub fn id(&self) -> u64 {
        self.id
    }
}

impl Drop for ConnectionTicket {
    fn drop(&mut self) {
        self.admission.open().remove(&self.id);
    }
}

/// One request in flight on a connection.
pub struct RequestGuard {
    id: u64,
    admission: Arc<Admission>,
}

impl Drop for RequestGuard {
    fn drop(&mut self) {
        if let Some(c) = self.admission.open().get_mut(&self.id) {
            c.in_flight = c.in_flight.saturating_sub(1);
            c.served += 1;
            c.idle_since = Instant::now();
        }
    }
}

/// Doubling waits after consecutive accept errors: 1 ms up to 1 s, reset by a success.
#[derive(Debug, Default)]
pub struct AcceptBackoff {
    failures: u32,
}

impl AcceptBackoff {
    pub fn succeeded(&mut self) {
        self.failures = 0;
    }

    pub fn failed(&mut self) -> Duration {
        self.failures = self.failures.saturating_add(1);
        Duration::from_millis(1u64 << self.failures.saturating_sub(1).min(10)).min(Duration::from_secs(1))
    }
}

/// Is this accept error the process running out of descriptors (or memory)?
pub fn out_of_descriptors(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM))
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// At most one log line per reason per second, with the count since the last line.
#[derive(Default)]
pub struct RefusalLog {
    reasons: Mutex<BTreeMap<&'static str, (u64, Option<Instant>)>>,
}

const LOG_INTERVAL: Duration = Duration::from_secs(1);

impl RefusalLog {
    /// Count one refusal; log now if this reason has not been logged for a second.
    pub fn note(&self, reason: &'static str) {
        let mut reasons = self.reasons.lock().unwrap_or_else(|p| p.into_inner());
        let (pending, last) = reasons.entry(reason).or_insert((0, None));
        *pending += 1;
        if last.is_none_or(|t| t.elapsed() >= LOG_INTERVAL) {
            tracing::warn!(count = *pending, "serve --http: {reason}");
            *pending = 0;
            *last = Some(Instant::now());
        }
    }

    /// Log the counts held back for more than a second (called by the reaper).
    pub fn flush(&self) {
        let mut reasons = self.reasons.lock().unwrap_or_else(|p| p.into_inner());
        for (reason, (pending, last)) in reasons.iter_mut() {
            if *pending > 0 && last.is_none_or(|t| t.elapsed() >= LOG_INTERVAL) {
                tracing::warn!(count = *pending, "serve --http: {reason} (since the last report)");
                *pending = 0;
                *last = Some(Instant::now());
            }
        }
    }

    /// Refusals held back so far for `reason` (tests).
    pub fn pending(&self, reason: &str) -> u64 {
        self.reasons.lock().unwrap_or_else(|p| p.into_inner()).get(reason).map(|(n, _)| *n).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_connections: usize) -> HttpLimits {
        HttpLimits { max_connections, max_requests: 2, header_timeout: Duration::from_millis(50), idle_timeout: Duration::from_millis(200), body_timeout: Duration::from_secs(1), max_body_bytes: 1024 }
    }

    #[tokio::test]
    async fn at_the_cap_the_longest_idle_connection_makes_room_and_busy_ones_never_do() {
        let admission = Admission::new(limits(2));
        let spawn = |a: &Arc<Admission>| {
            let ticket = a.admit().expect("admitted");
            let id = ticket.id();
            let task = tokio::spawn(async move {
                let _ticket = ticket;
                std::future::pending::<()>().await
            });
            a.attach(id, task.abort_handle());
            (id, task)
        };
        let (first, first_task) = spawn(&admission);
        let (second, _second_task) = spawn(&admission);
        let busy = admission.begin(second);
        // A third: the idle first one is closed to make room, the busy second stays.
        let (_third, _third_task) = spawn(&admission);
        assert!(first_task.await.unwrap_err().is_cancelled());
        assert_eq!(admission.open_connections(), 2);
        assert!(!admission.open().contains_key(&first));
        // Everything busy: the next one is refused.
        let third_busy = admission.begin(_third);
        assert!(admission.admit().is_none());
        drop((busy, third_busy));
        assert!(admission.admit().is_some());
    }

    #[tokio::test]
    async fn idle_connections_expire_and_requests_are_capped() {
        let admission = Admission::new(limits(8));
        let ticket = admission.admit().unwrap();
        let id = ticket.id();
        let task = tokio::spawn(async move {
            let _ticket = ticket;
            std::future::pending::<()>().await
        });
        admission.attach(id, task.abort_handle());
        assert_eq!(admission.reap(Instant::now()), 0);
        assert_eq!(admission.reap(Instant::now() + Duration::from_millis(60)), 1, "no first request within the header timeout");
        assert!(task.await.unwrap_err().is_cancelled());
        let (a, b) = (admission.request_slot(), admission.request_slot());
        assert!(a.is_some() && b.is_some() && admission.request_slot().is_none());
    }

    #[test]
    fn backoff_doubles_to_a_second_and_resets() {
        let mut b = AcceptBackoff::default();
        let waits: Vec<u64> = (0..13).map(|_| b.failed().as_millis() as u64).collect();
        assert_eq!(&waits[..4], &[1, 2, 4, 8]);
        assert_eq!(*waits.last().unwrap(), 1000);
        b.succeeded();
        assert_eq!(b.failed(), Duration::from_millis(1));
    }

    #[test]
    fn refusals_are_counted_between_log_lines() {
        let log = RefusalLog::default();
        for _ in 0..1000 {
            log.note("unauthorized");
        }
        assert_eq!(log.pending("unauthorized"), 999, "the first was logged, the rest held back");
    }
}
