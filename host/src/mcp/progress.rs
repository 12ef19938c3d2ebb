//! MCP progress notifications for one `tools/call`: when the client sent a
//! `progressToken`, the call's progress reports (a pack's, a workflow's steps) become
//! `notifications/progress` on this session, in order, all sent before the answer.
//!
//! The sink runs on the call's thread (often a blocking one) and must not block it: it
//! puts the report on an unbounded channel that a task of this session drains. The
//! sandbox bounds how many reports one call makes (`limits::MAX_PROGRESS_REPORTS_PER_CALL`),
//! so the channel stays small.

use crate::sandbox::{ProgressReport, ProgressSink};
use rmcp::RoleServer;
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// The forwarding of one call's reports.
pub struct Forwarder {
    sink: Option<ProgressSink>,
    task: Option<JoinHandle<()>>,
}

impl Forwarder {
    /// Nobody listens: reports are dropped in the sandbox.
    pub fn none() -> Self {
        Forwarder { sink: None, task: None }
    }

    /// Forward to the client of `context` if it asked for progress.
    /// A request the client cancels (`notifications/cancelled`) gets no more reports.
    pub fn for_request(context: &RequestContext<RoleServer>) -> Self {
        let Some(token) = context.meta.get_progress_token() else { return Self::none() };
        let (peer, cancelled) = (context.peer.clone(), context.ct.clone());
        let (tx, mut rx) = mpsc::unbounded_channel::<ProgressReport>();
        let task = tokio::spawn(async move {
            loop {
                let report = tokio::select! {
                    _ = cancelled.cancelled() => break,
                    report = rx.recv() => match report {
                        Some(report) => report,
                        None => break,
                    },
                };
                let mut note = ProgressNotificationParam::new(token.clone(), report.done as f64);
                if let Some(total) = report.total {
                    note = note.with_total(total as f64);
                }
                if !report.message.is_empty() {
                    note = note.with_message(report.message);
                }
                if let Err(e) = peer.notify_progress(note).await {
                    tracing::debug!("a progress notification was not sent: {e}");
                    break;
                }
            }
        });
        let sink: ProgressSink = Arc::new(move |report| {
            let _ = tx.send(report);
        });
        Forwarder { sink: Some(sink), task: Some(task) }
    }

    /// The sink to hand to the runtime for this call.
    pub fn sink(&self) -> Option<ProgressSink> {
        self.sink.clone()
    }

    /// After the call: send what is queued, so every notification precedes the answer.
    pub async fn finish(mut self) {
        self.sink = None;
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}
