//! Per-session router state: the goal, its family, the last search, the executions.

use serde::Serialize;
use serde_json::Value;
use std::collections::VecDeque;

/// Executions kept per session, oldest dropped first; `router_get_status` lists them and
/// counts all (`execution_count`). An agent reads the status into its context, so the
/// list is the recent past, not the whole session: at 200 entries with their deltas it
/// was tens of kilobytes, and its cost grew with the session (0.09 ms early, 0.3 ms
/// after 200 calls; `host/BENCHMARKS.md`, issue 30).
pub const MAX_EXECUTIONS: usize = 20;

#[derive(Debug, Clone, Serialize)]
pub struct Execution {
    pub key: String,
    /// `ok` or the error code.
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta: Option<Value>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LastSearch {
    pub query: String,
    pub family: Option<String>,
    pub results: usize,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct SessionState {
    pub goal: Option<String>,
    pub family: Option<String>,
    pub last_search: Option<LastSearch>,
    /// The last [`MAX_EXECUTIONS`], oldest first (a ring: dropping the oldest moves nothing).
    pub executions: VecDeque<Execution>,
    pub execution_count: u64,
}

impl SessionState {
    pub fn record(&mut self, execution: Execution) {
        self.execution_count += 1;
        if self.executions.len() == MAX_EXECUTIONS {
            self.executions.pop_front();
        }
        self.executions.push_back(execution);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_executions_are_kept_oldest_first_and_all_are_counted() {
        let mut state = SessionState::default();
        for i in 0..MAX_EXECUTIONS + 5 {
            state.record(Execution { key: format!("k.{i}"), status: "ok".into(), delta: None });
        }
        assert_eq!(state.execution_count, (MAX_EXECUTIONS + 5) as u64);
        assert_eq!(state.executions.len(), MAX_EXECUTIONS);
        assert_eq!(state.executions.front().map(|e| e.key.as_str()), Some("k.5"));
        assert_eq!(state.executions.back().map(|e| e.key.clone()), Some(format!("k.{}", MAX_EXECUTIONS + 4)));
        // Serialised as a list, oldest first, as it was when it was a Vec.
        let listed = serde_json::to_value(&state).unwrap();
        assert_eq!(listed["executions"][0]["key"], "k.5");
        assert_eq!(listed["executions"].as_array().map(Vec::len), Some(MAX_EXECUTIONS));
    }
}
