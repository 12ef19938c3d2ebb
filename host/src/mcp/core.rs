//! What every session of every surface shares: the runtime, the search index, the app
//! gate (with the bridge client), and the tool lists built once at start-up. Replaced
//! whole when the pack store changes (`shared.rs`).

use super::tools;
use crate::bridge::HttpBridgeClient;
use crate::call::CallPath;
use crate::call::app_gate::AppGate;
use crate::router::{FamilyTable, SearchIndex};
use crate::runtime::Runtime;
use rmcp::model::Tool;
use std::collections::HashMap;
use std::sync::Arc;

pub struct Core {
    pub runtime: Runtime,
    pub index: SearchIndex,
    /// The routing families every loaded pack declares.
    pub families: FamilyTable,
    /// Availability and version skew of the apps; every call passes it.
    pub gate: AppGate,
    pub(super) guided_tools: Vec<Tool>,
    /// Each capability's expert tool, with the servers it talks to.
    pub(super) expert_tools: Vec<(Vec<String>, Tool)>,
    /// Expert tool name -> canonical key.
    pub(super) expert_keys: HashMap<String, String>,
}

impl Core {
    pub fn new(runtime: Runtime, client: Arc<HttpBridgeClient>, home: &crate::home::CapstanHome) -> Self {
        let families = runtime.families();
        let index = runtime.search_index(families.clone());
        let gate = AppGate::new(&runtime, client, home);
        let mut expert_tools = Vec::new();
        let mut expert_keys = HashMap::new();
        let specs = runtime.capabilities().map(|(_, cap)| &**cap).chain(runtime.workflows().map(|w| &*w.spec));
        for cap in specs {
            let tool = tools::expert(cap);
            expert_keys.insert(tool.name.to_string(), cap.key.clone());
            expert_tools.push((gate.servers_of(&cap.key).into_iter().map(String::from).collect(), tool));
        }
        Core { runtime, index, families, gate, guided_tools: tools::guided(), expert_tools, expert_keys }
    }

    /// The one capability the router picks for `text`, with the plain-edit capability
    /// the packs declared ([`crate::planner::pick`]).
    pub fn pick(&self, text: &str) -> (String, Option<String>) {
        crate::planner::pick(&self.families, &self.index, self.runtime.role(crate::roles::Role::TransformsObject), text)
    }

    /// The one call path, through this core's app gate.
    pub fn path(&self) -> CallPath<'_> {
        CallPath::new(&self.runtime, &self.gate)
    }

    pub fn client(&self) -> &Arc<HttpBridgeClient> {
        &self.gate.client
    }
}
