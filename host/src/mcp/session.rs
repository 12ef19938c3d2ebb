//! Per-session router state: the goal, its family, the last search, the executions.

use serde::Serialize;
use serde_json::Value;

/// Executions kept per session (oldest dropped first).
const MAX_EXECUTIONS: usize = 200;

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
    pub executions: Vec<Execution>,
    pub execution_count: u64,
}

impl SessionState {
    pub fn record(&mut self, execution: Execution) {
        self.execution_count += 1;
        if self.executions.len() == MAX_EXECUTIONS {
            self.executions.remove(0);
        }
        self.executions.push(execution);
    }
}
