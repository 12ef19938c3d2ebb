//! MCP sessions of `capstan serve --http`: how many may be open, and when an idle one
//! is closed.
//!
//! Security reasoning: a session costs a server instance, its planner and router state
//! and rmcp's worker task whether or not any connection is open, so the connection cap
//! (`http_admission`) does not bound them: a client with the token could open thousands
//! one connection at a time (3,000 took 150 MB). Two rules, each on its own:
//!
//! - **Sessions are capped** (`max_sessions`, `--max-sessions`). A request that would
//!   open one (a POST without `Mcp-Session-Id` that may be `initialize`; a 2026-07-28
//!   request is served without a session and opens none) while the cap is reached is answered
//!   503 `TOO_MANY_SESSIONS` before rmcp sees it, with a body that names the bound and
//!   both ways out (close one with `DELETE /mcp`, or wait for an idle one to expire).
//!   Sessions being opened count while they open, so concurrent openings cannot
//!   overshoot the cap.
//! - **Idle sessions expire** (`idle_timeout`, `--session-idle-timeout`). A session is
//!   idle when none of its requests is in flight (an answer still streaming counts as in
//!   flight, a render too, however long); once idle for the timeout it is closed through
//!   rmcp's session manager. A request that names it afterwards gets 404
//!   `SESSION_EXPIRED` with the timeout, so a client knows to start a new session.
//!   rmcp's own keep-alive is switched off: it counts only the session's messages, so it
//!   would end a session in the middle of a long call that reports no progress.
//!
//! The books only ever hold sessions that exist: a request naming an unknown id is left
//! to rmcp (404) and adds nothing.

use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The numbers the session rules work with (limits.rs has the defaults).
#[derive(Debug, Clone, Copy)]
pub struct SessionLimits {
    pub max_sessions: usize,
    pub idle_timeout: Duration,
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits { max_sessions: crate::limits::HTTP_MAX_SESSIONS, idle_timeout: crate::limits::HTTP_SESSION_IDLE_TIMEOUT }
    }
}

struct Activity {
    in_flight: u32,
    idle_since: Instant,
}

#[derive(Default)]
struct Books {
    known: HashMap<Arc<str>, Activity>,
    /// Requests that may open a session, admitted and not yet answered.
    opening: usize,
    /// Ids closed for idleness, newest last (bounded), to answer `SESSION_EXPIRED`.
    expired: VecDeque<Arc<str>>,
    expired_set: HashSet<Arc<str>>,
}

pub struct Sessions {
    limits: SessionLimits,
    manager: Arc<LocalSessionManager>,
    books: Mutex<Books>,
}

/// Why a request that would open a session was refused: the bound, for the body.
#[derive(Debug, Clone, Copy)]
pub struct TooManySessions {
    pub max_sessions: usize,
    pub idle_timeout: Duration,
}

impl TooManySessions {
    pub fn body(&self) -> Value {
        json!({ "error": {
            "code": "TOO_MANY_SESSIONS",
            "message": format!(
                "at most {} MCP sessions may be open at once (--max-sessions); close one (DELETE /mcp with its Mcp-Session-Id) or wait: a session idle for {} s is closed (--session-idle-timeout)",
                self.max_sessions, self.idle_timeout.as_secs()
            ),
            "limit": { "max_sessions": self.max_sessions, "session_idle_timeout_s": self.idle_timeout.as_secs() },
        }})
    }
}

/// The body of a request naming a session closed for idleness.
pub fn expired_body(idle_timeout: Duration) -> Value {
    json!({ "error": {
        "code": "SESSION_EXPIRED",
        "message": format!("this session was closed after {} s with nothing in flight (--session-idle-timeout); start a new one (initialize)", idle_timeout.as_secs()),
        "limit": { "session_idle_timeout_s": idle_timeout.as_secs() },
    }})
}

impl Sessions {
    /// The session manager to hand to rmcp (its keep-alive off: see the module doc), and
    /// the books over it.
    pub fn new(limits: SessionLimits) -> Arc<Sessions> {
        let mut manager = LocalSessionManager::default();
        manager.session_config.keep_alive = None;
        Arc::new(Sessions { limits, manager: Arc::new(manager), books: Mutex::new(Books::default()) })
    }

    pub fn manager(&self) -> Arc<LocalSessionManager> {
        self.manager.clone()
    }

    pub fn limits(&self) -> SessionLimits {
        self.limits
    }

    fn books(&self) -> std::sync::MutexGuard<'_, Books> {
        self.books.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sessions open now (in rmcp's manager).
    pub async fn open_sessions(&self) -> usize {
        self.manager.sessions.read().await.len()
    }

    /// Admit a request that may open a session, or refuse it at the cap.
    pub async fn admit_opening(self: &Arc<Self>) -> Result<Opening, TooManySessions> {
        let open = self.open_sessions().await;
        let mut books = self.books();
        // The books count a session from the moment its opening ends, under the same
        // lock as the openings in progress, so no opening is missed between the two;
        // rmcp's own count covers a session the books have not seen yet.
        if open.max(books.known.len()) + books.opening >= self.limits.max_sessions {
            return Err(TooManySessions { max_sessions: self.limits.max_sessions, idle_timeout: self.limits.idle_timeout });
        }
        books.opening += 1;
        Ok(Opening { sessions: self.clone(), done: false })
    }

    /// A request on session `id` began (None when capstan does not know the id: rmcp
    /// answers it).
    pub fn begin(self: &Arc<Self>, id: &str) -> Option<SessionGuard> {
        let mut books = self.books();
        let activity = books.known.get_mut(id)?;
        activity.in_flight += 1;
        Some(SessionGuard { id: Arc::from(id), sessions: self.clone() })
    }

    /// Was `id` closed for idleness (recently)?
    pub fn expired(&self, id: &str) -> bool {
        self.books().expired_set.contains(id)
    }

    /// Close sessions idle beyond the timeout; forget those rmcp has closed (a DELETE,
    /// a transport that ended); returns how many were closed for idleness.
    pub async fn reap(&self, now: Instant) -> usize {
        let live: Vec<Arc<str>> = self.manager.sessions.read().await.keys().cloned().collect();
        let idle: Vec<Arc<str>> = {
            let mut books = self.books();
            let live_set: HashSet<&Arc<str>> = live.iter().collect();
            books.known.retain(|id, _| live_set.contains(id));
            // A session the books missed (opened between two looks) starts its idle clock now.
            for id in &live {
                books.known.entry(id.clone()).or_insert(Activity { in_flight: 0, idle_since: now });
            }
            let idle: Vec<Arc<str>> = books
                .known
                .iter()
                .filter(|(_, a)| a.in_flight == 0 && now.saturating_duration_since(a.idle_since) > self.limits.idle_timeout)
                .map(|(id, _)| id.clone())
                .collect();
            for id in &idle {
                books.known.remove(id);
                remember_expired(&mut books, id.clone(), self.limits.max_sessions);
            }
            idle
        };
        for id in &idle {
            if let Err(e) = self.manager.close_session(id).await {
                tracing::debug!("closing an idle session: {e}");
            }
        }
        if !idle.is_empty() {
            tracing::info!(count = idle.len(), "serve --http: closed idle sessions (session idle timeout)");
        }
        idle.len()
    }
}

/// Keep the ids of the last few expired sessions (4 per session slot) to tell a client why.
fn remember_expired(books: &mut Books, id: Arc<str>, max_sessions: usize) {
    if books.expired_set.insert(id.clone()) {
        books.expired.push_back(id);
    }
    while books.expired.len() > max_sessions.saturating_mul(4).max(16) {
        if let Some(old) = books.expired.pop_front() {
            books.expired_set.remove(&old);
        }
    }
}

/// A request that may open a session, counted against the cap until it is answered.
pub struct Opening {
    sessions: Arc<Sessions>,
    done: bool,
}

impl Opening {
    /// The answer named session `id` (rmcp opened it): it is in the books from now, in
    /// flight until the guard is dropped (the end of the answer).
    pub fn opened(mut self, id: &str) -> SessionGuard {
        let id: Arc<str> = Arc::from(id);
        let mut books = self.sessions.books();
        books.opening = books.opening.saturating_sub(1);
        self.done = true;
        books.known.insert(id.clone(), Activity { in_flight: 1, idle_since: Instant::now() });
        drop(books);
        SessionGuard { id, sessions: self.sessions.clone() }
    }
}

impl Drop for Opening {
    fn drop(&mut self) {
        if !self.done {
            let mut books = self.sessions.books();
            books.opening = books.opening.saturating_sub(1);
        }
    }
}

/// One request in flight on a session; the session is idle from when the last one is dropped.
pub struct SessionGuard {
    id: Arc<str>,
    sessions: Arc<Sessions>,
}

impl Drop for SessionGuard {
    fn drop(&mut self) {
        if let Some(a) = self.sessions.books().known.get_mut(&self.id) {
            a.in_flight = a.in_flight.saturating_sub(1);
            a.idle_since = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_sessions: usize) -> SessionLimits {
        SessionLimits { max_sessions, idle_timeout: Duration::from_millis(100) }
    }

    /// A session rmcp would have opened (in the manager), and its opening request answered.
    async fn open(sessions: &Arc<Sessions>) -> (Arc<str>, SessionGuard) {
        let opening = sessions.admit_opening().await.expect("under the cap");
        let (id, _transport) = sessions.manager.create_session().await.unwrap();
        let guard = opening.opened(&id);
        (id, guard)
    }

    #[tokio::test]
    async fn openings_beyond_the_cap_are_refused_naming_it_and_pending_ones_count() {
        let sessions = Sessions::new(limits(2));
        let (_a, _ga) = open(&sessions).await;
        let pending = sessions.admit_opening().await.expect("one slot left");
        let refused = sessions.admit_opening().await.err().expect("the pending opening holds the last slot");
        let body = refused.body();
        assert_eq!(body["error"]["code"], "TOO_MANY_SESSIONS");
        assert_eq!(body["error"]["limit"]["max_sessions"], 2);
        assert!(body["error"]["message"].as_str().unwrap().contains("at most 2 MCP sessions"), "{body}");
        drop(pending);
        assert!(sessions.admit_opening().await.is_ok(), "an opening that opened nothing frees its slot");
    }

    #[tokio::test]
    async fn a_session_expires_only_when_idle_past_the_timeout() {
        let sessions = Sessions::new(limits(4));
        let (id, opening_guard) = open(&sessions).await;
        let later = Instant::now() + Duration::from_secs(60);
        assert_eq!(sessions.reap(later).await, 0, "the answer that opened it is still in flight");
        drop(opening_guard);
        let busy = sessions.begin(&id).expect("a known session");
        assert_eq!(sessions.reap(Instant::now() + Duration::from_secs(60)).await, 0, "a request in flight keeps it");
        drop(busy);
        assert_eq!(sessions.reap(Instant::now()).await, 0, "not idle long enough yet");
        assert_eq!(sessions.reap(Instant::now() + Duration::from_millis(500)).await, 1);
        assert_eq!(sessions.open_sessions().await, 0, "closed in rmcp's manager too");
        assert!(sessions.expired(&id));
        assert!(sessions.begin(&id).is_none());
        assert!(sessions.begin("never-was").is_none(), "unknown ids add nothing");
        assert!(sessions.books().known.is_empty());
    }

    #[tokio::test]
    async fn the_expired_list_is_bounded() {
        let sessions = Sessions::new(limits(1));
        for i in 0..100 {
            remember_expired(&mut sessions.books(), Arc::from(format!("s{i}").as_str()), 1);
        }
        let books = sessions.books();
        assert_eq!((books.expired.len(), books.expired_set.len()), (16, 16));
        assert!(books.expired_set.contains("s99") && !books.expired_set.contains("s0"));
    }
}
