//! Progress reports of a running call (`capstan:pack/progress@0.2.0`, and the host's
//! own reports of a workflow's steps), on their way to whoever listens.
//!
//! Security reasoning: a report is pack text that reaches an MCP client, so its control
//! characters are escaped, secrets redacted (as in every MCP answer), the result cut
//! (`limits::MAX_PROGRESS_MESSAGE_CHARS`, after escaping, so the bound holds), and the
//! number of reports per call bounded (`limits::MAX_PROGRESS_REPORTS_PER_CALL`), so a pack
//! cannot flood the client's connection. A report never blocks the guest and never
//! fails: the sink is a non-blocking send; with nobody listening the report is dropped.
//! Reports must advance (`done` strictly increasing), as MCP requires of progress
//! notifications; one that does not is dropped.

use crate::limits;
use std::sync::Arc;

/// One progress report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressReport {
    pub done: u64,
    /// `None`: the total is not known.
    pub total: Option<u64>,
    pub message: String,
}

/// Where one call's reports go (the MCP session forwards them as notifications). It
/// must not block: it runs on the guest's thread, inside the call's deadline.
pub type ProgressSink = Arc<dyn Fn(ProgressReport) + Send + Sync>;

/// One call's progress: the listener, if any, and what was forwarded so far.
#[derive(Default)]
pub struct CallProgress {
    sink: Option<ProgressSink>,
    forwarded: u32,
    last_done: Option<u64>,
}

impl CallProgress {
    pub fn new(sink: Option<ProgressSink>) -> Self {
        CallProgress { sink, forwarded: 0, last_done: None }
    }

    /// Reports forwarded so far.
    pub fn forwarded(&self) -> u32 {
        self.forwarded
    }

    /// Forward one report if someone listens, it advances, and the ceiling allows.
    pub fn report(&mut self, done: u64, total: u64, message: &str) {
        let Some(sink) = &self.sink else { return };
        if self.last_done.is_some_and(|last| done <= last) || self.forwarded >= limits::MAX_PROGRESS_REPORTS_PER_CALL {
            return;
        }
        // Only the start can be shown: escaping a character makes it at most 10, so the
        // first 10x the bound are enough to fill it.
        let head: String = message.chars().take(limits::MAX_PROGRESS_MESSAGE_CHARS * 10).collect();
        let escaped = crate::control_chars::escape(&head);
        let message: String = crate::redact::redact(&escaped).chars().take(limits::MAX_PROGRESS_MESSAGE_CHARS).collect();
        self.last_done = Some(done);
        self.forwarded += 1;
        sink(ProgressReport { done, total: (total > 0).then_some(total), message });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn listening() -> (CallProgress, Arc<Mutex<Vec<ProgressReport>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink_seen = seen.clone();
        let sink: ProgressSink = Arc::new(move |r| sink_seen.lock().unwrap().push(r));
        (CallProgress::new(Some(sink)), seen)
    }

    #[test]
    fn reports_reach_the_listener_cut_and_escaped() {
        let (mut p, seen) = listening();
        p.report(1, 4, "frame 1\u{1b}[2J");
        p.report(2, 0, &"x".repeat(1000));
        p.report(3, 0, &"\u{7}".repeat(1000));
        let seen = seen.lock().unwrap();
        assert_eq!(seen[0], ProgressReport { done: 1, total: Some(4), message: "frame 1\\u{1b}[2J".into() });
        assert_eq!((seen[1].total, seen[1].message.chars().count()), (None, limits::MAX_PROGRESS_MESSAGE_CHARS));
        assert_eq!(seen[2].message.chars().count(), limits::MAX_PROGRESS_MESSAGE_CHARS, "the bound holds after escaping");
        assert!(seen[2].message.starts_with("\\u{7}"));
    }

    #[test]
    fn reports_that_do_not_advance_or_pass_the_ceiling_are_dropped() {
        let (mut p, seen) = listening();
        p.report(5, 10, "a");
        p.report(5, 10, "same");
        p.report(3, 10, "back");
        assert_eq!(seen.lock().unwrap().len(), 1);
        for done in 6..10_000 {
            p.report(done, 0, "flood");
        }
        assert_eq!(p.forwarded(), limits::MAX_PROGRESS_REPORTS_PER_CALL);
        assert_eq!(seen.lock().unwrap().len() as u32, limits::MAX_PROGRESS_REPORTS_PER_CALL);
    }

    #[test]
    fn with_nobody_listening_reports_are_dropped() {
        let mut p = CallProgress::new(None);
        p.report(1, 1, "nobody");
        assert_eq!(p.forwarded(), 0);
    }
}
