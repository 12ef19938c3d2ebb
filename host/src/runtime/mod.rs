//! The runtime: loaded packs, the capability index, and the call path.
//!
//! - this file: loading packs and workflows, the index of keys, aliases and roles;
//! - [`call`]: `call`, the one path from a capability key to a sandboxed execution;
//! - [`error`]: what loading and calling fail with;
//! - [`lookup`]: the host-only commands (reset, undo, checkpoint) sent to an app;
//! - [`spare`]: an instance made in idle time for the next call.

use crate::bridge::catalog::Catalogs;
use crate::bridge::gate::CapabilityScope;
use crate::bridge::BridgeClient;
use crate::engine::{AllocationPreference, ComponentCache, SandboxEngine};
use crate::home::CapstanHome;
use crate::delta::SceneDelta;
use crate::plugin::{self, CapabilitySpec, LoadedPack, PackLoadError, PackSource};
use crate::sandbox::{BridgeCallRecord, Sandbox};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

mod call;
mod error;
mod lookup;
mod spare;

pub use error::{AppError, CallError, PackFailure, RefusedPack, RuntimeError};
pub use lookup::HostCommandError;

/// How a key resolves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    Canonical,
    Alias { canonical: String },
    NotFound,
}

/// A successful call.
#[derive(Debug, Clone, Serialize)]
pub struct CallOutput {
    pub key: String,
    pub pack: String,
    pub result: Value,
    pub bridge_calls: Vec<BridgeCallRecord>,
    /// For a mutating capability: the scene delta of its bridge calls, merged by the
    /// host (`None` for a read-only one, whose delta is empty by construction).
    pub delta: Option<SceneDelta>,
}

struct Entry {
    pack: usize,
    capability: usize,
}

pub struct Runtime {
    sandbox: Sandbox,
    cache: ComponentCache,
    catalogs: Arc<Catalogs>,
    client: Arc<dyn BridgeClient>,
    packs: Vec<LoadedPack>,
    scopes: Vec<Vec<Arc<CapabilityScope>>>,
    keys: HashMap<String, Entry>,
    aliases: HashMap<String, String>,
    refused: Vec<RefusedPack>,
    /// Workflows (capabilities chained as data), checked against the loaded packs.
    workflows: Vec<crate::workflow::Workflow>,
    workflow_keys: HashMap<String, usize>,
    /// Role -> the capability that fills it (first declaring pack wins).
    roles: std::collections::BTreeMap<crate::roles::Role, String>,
    /// The Python checker, compiled on first use (most sessions never run Python).
    checker: std::sync::OnceLock<Result<crate::checker::PythonChecker, String>>,
    /// Instances made in idle time for the next call of the packs that last answered
    /// (one per pack, at most `limits::MAX_SPARES`).
    spares: spare::Spares,
}

impl Runtime {
    pub fn new(home: &CapstanHome, allocation: AllocationPreference, client: Arc<dyn BridgeClient>) -> Result<Self, RuntimeError> {
        Self::with_cache_dir(allocation, client, crate::engine::cache_location(home))
    }

    /// As [`Runtime::new`], with compiled components kept in `cache_dir`, whatever
    /// `CAPSTAN_COMPONENT_CACHE` says: for a caller that must know the cache is its own
    /// (one that counts what was compiled, or plants artifacts to see them refused).
    ///
    /// Security reasoning: artifacts in the folder are native code this process runs.
    /// [`crate::engine::cache_location`] vouches for a shared folder's privacy; here the
    /// caller does, so pass a home's own cache (`CapstanHome::cache_dir`, created 0700)
    /// or a folder as private.
    pub fn with_cache_dir(allocation: AllocationPreference, client: Arc<dyn BridgeClient>, cache_dir: std::path::PathBuf) -> Result<Self, RuntimeError> {
        let engine = SandboxEngine::new(allocation).map_err(|e| RuntimeError::Engine(format!("{e:#}")))?;
        let cache = ComponentCache::new(engine.engine(), cache_dir);
        let sandbox = Sandbox::new(engine).map_err(|e| RuntimeError::Engine(format!("{e:#}")))?;
        Ok(Runtime {
            sandbox,
            cache,
            catalogs: Arc::new(Catalogs::builtin()?),
            client,
            packs: Vec::new(),
            scopes: Vec::new(),
            keys: HashMap::new(),
            aliases: HashMap::new(),
            refused: Vec::new(),
            workflows: Vec::new(),
            workflow_keys: HashMap::new(),
            roles: Default::default(),
            checker: std::sync::OnceLock::new(),
            spares: Default::default(),
        })
    }

    /// The sandboxed checker component, loaded on first use. `Err` only when it cannot
    /// be loaded at all; every failure of a check is a rejection.
    pub fn python_checker(&self) -> Result<&crate::checker::PythonChecker, String> {
        let checker = self.checker.get_or_init(|| crate::checker::PythonChecker::load(&self.sandbox, &self.cache).map_err(|e| e.to_string()));
        checker.as_ref().map_err(Clone::clone)
    }

    /// Check a Python script with the sandboxed checker component.
    pub fn check_python(&self, source: &str, policy: &crate::checker::CheckerPolicy) -> Result<crate::checker::CheckVerdict, String> {
        self.python_checker().map(|c| c.check(&self.sandbox, source, policy))
    }

    /// Load the official packs and every pack in the store. Packs that fail to load
    /// are recorded in [`Runtime::refused`] and logged; the others serve.
    pub fn load_all(&mut self, home: &CapstanHome) {
        for official in crate::packs::official() {
            let label = format!("official pack {}", official.name);
            self.add_or_record(label, official.source());
        }
        for found in crate::packs::store_sources(home) {
            match found {
                Ok(source) => {
                    let label = match &source.origin {
                        plugin::PackOrigin::Folder(p) => p.display().to_string(),
                        plugin::PackOrigin::Official => "official".into(),
                    };
                    self.add_or_record(label, source)
                }
                Err((dir, error)) => self.record_refusal(dir.display().to_string(), error),
            }
        }
        self.load_official_workflows();
    }

    /// Offer the official workflows whose capabilities are all loaded; the others are
    /// recorded as refused, with the reasons.
    pub fn load_official_workflows(&mut self) {
        for (name, text) in crate::workflow::OFFICIAL {
            let label = format!("workflow {name}");
            match crate::workflow::parse(name, text) {
                Ok(doc) => {
                    if let Err(problems) = self.add_workflow(doc) {
                        self.record_refusal(label, PackLoadError::Contract(problems));
                    }
                }
                Err(e) => self.record_refusal(label, PackLoadError::Contract(vec![e])),
            }
        }
    }

    /// Check one workflow against the loaded capabilities and offer it.
    pub fn add_workflow(&mut self, doc: crate::workflow::WorkflowDoc) -> Result<(), Vec<String>> {
        let workflow = crate::workflow::definition::check(doc, self)?;
        let spec = &workflow.spec;
        let clashes: Vec<String> = std::iter::once(&spec.key)
            .chain(spec.aliases.iter())
            .filter_map(|name| self.owner_of(name).map(|owner| format!("{name:?} is already claimed by {owner:?}")))
            .collect();
        if !clashes.is_empty() {
            return Err(clashes);
        }
        for alias in &spec.aliases {
            self.aliases.insert(alias.clone(), spec.key.clone());
        }
        self.workflow_keys.insert(spec.key.clone(), self.workflows.len());
        self.workflows.push(workflow);
        Ok(())
    }

    /// The loaded workflows.
    pub fn workflows(&self) -> impl Iterator<Item = &crate::workflow::Workflow> {
        self.workflows.iter()
    }

    /// The capability that fills `role` (the first loaded pack that declares it).
    pub fn role(&self, role: crate::roles::Role) -> Option<&str> {
        self.roles.get(&role).map(String::as_str)
    }

    pub fn workflow(&self, key: &str) -> Option<&crate::workflow::Workflow> {
        self.workflow_keys.get(key).map(|i| &self.workflows[*i])
    }

    fn add_or_record(&mut self, label: String, source: PackSource) {
        if let Err(error) = self.add(source) {
            self.record_refusal(label, error);
        }
    }

    fn record_refusal(&mut self, source: String, error: PackLoadError) {
        tracing::warn!(%source, "pack not loaded: {error}");
        self.refused.push(RefusedPack { source, error });
    }

    /// Load one pack. Its name, keys and aliases must not collide with loaded packs.
    pub fn add(&mut self, source: PackSource) -> Result<&LoadedPack, PackLoadError> {
        let pack = plugin::load(&self.sandbox, &self.cache, &self.catalogs, source)?;
        let mut clashes = Vec::new();
        if let Some(other) = self.packs.iter().find(|p| p.name() == pack.name()) {
            clashes.push(format!("a pack named {:?} is already loaded ({:?})", other.name(), other.origin));
        }
        for cap in &pack.capabilities {
            for name in std::iter::once(&cap.key).chain(cap.aliases.iter()) {
                if let Some(owner) = self.owner_of(name) {
                    clashes.push(format!("{name:?} is already claimed by pack {owner:?}"));
                }
            }
        }
        // The workflow family, its key prefix and the official workflows' names belong to
        // the host: a pack (loaded before the workflows) must not take them over, nor
        // inherit the workflow family's routing cues.
        let reserved = crate::workflow::reserved_names();
        for cap in &pack.capabilities {
            if cap.key.starts_with("workflow.") || cap.family == crate::workflow::FAMILY {
                clashes.push(format!("{:?}: the workflow family and workflow.* keys are reserved for the host's workflows", cap.key));
            }
            for name in cap.aliases.iter().filter(|a| reserved.contains(a.as_str())) {
                clashes.push(format!("{name:?} is reserved for an official workflow"));
            }
        }
        if pack.families.iter().any(|f| f.name == crate::workflow::FAMILY) {
            clashes.push("the routing family \"workflow\" is reserved for the host's workflows".into());
        }
        // A role names a capability of this pack; a measuring role one that only reads.
        for (role, key) in &pack.manifest.roles {
            match pack.capabilities.iter().find(|c| &c.key == key) {
                None => clashes.push(format!("roles.{role} names {key:?}, which is not a capability of this pack")),
                Some(cap) if cap.mutates && !role.may_mutate() => clashes.push(format!("roles.{role} names {key:?}, which mutates; the role only reads")),
                Some(cap) if cap.destructive => clashes.push(format!("roles.{role} names {key:?}, which is destructive; no role may destroy")),
                Some(_) => {}
            }
        }
        if !clashes.is_empty() {
            return Err(PackLoadError::Contract(clashes));
        }
        for (role, key) in &pack.manifest.roles {
            match self.roles.get(role) {
                Some(first) => tracing::warn!(pack = pack.name(), %role, first = first.as_str(), "declares a role another pack already fills; the first pack's is used"),
                None => {
                    self.roles.insert(*role, key.clone());
                }
            }
        }
        let index = self.packs.len();
        let mut scopes = Vec::new();
        for (i, cap) in pack.capabilities.iter().enumerate() {
            self.keys.insert(cap.key.clone(), Entry { pack: index, capability: i });
            for alias in &cap.aliases {
                self.aliases.insert(alias.clone(), cap.key.clone());
            }
            scopes.push(Arc::new(CapabilityScope {
                pack: pack.manifest.name.clone(),
                key: cap.key.clone(),
                mutates: cap.mutates,
                bridge_commands: cap.bridge_commands.clone(),
            }));
        }
        for note in &pack.limits.lowered {
            tracing::warn!(pack = pack.name(), "{note}");
        }
        self.scopes.push(scopes);
        self.packs.push(pack);
        Ok(&self.packs[index])
    }

    /// True when every bridge command `key` may send only reads and is bounded by
    /// the default command timeout (the catalog says so, not the pack): such a call
    /// is short enough to run on the thread that received it.
    pub fn is_quick_read(&self, key: &str) -> bool {
        let Some(entry) = self.keys.get(key) else { return false };
        let pack = &self.packs[entry.pack];
        pack.capabilities[entry.capability].bridge_commands.iter().all(|command| {
            pack.manifest
                .server_of(command)
                .and_then(|server| self.catalogs.for_server(server))
                .and_then(|catalog| catalog.command(command))
                .is_some_and(|spec| !spec.effect.mutates() && spec.timeout <= crate::limits::BRIDGE_DEFAULT_COMMAND_TIMEOUT)
        })
    }

    fn owner_of(&self, name: &str) -> Option<&str> {
        let key = self.aliases.get(name).map(String::as_str).unwrap_or(name);
        if self.workflow_keys.contains_key(key) {
            return Some(crate::workflow::OWNER);
        }
        self.keys.get(key).map(|e| self.packs[e.pack].name())
    }

    pub fn packs(&self) -> &[LoadedPack] {
        &self.packs
    }

    pub fn refused(&self) -> &[RefusedPack] {
        &self.refused
    }

    pub fn cache(&self) -> &ComponentCache {
        &self.cache
    }

    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    pub fn resolve(&self, key: &str) -> Resolution {
        if self.keys.contains_key(key) || self.workflow_keys.contains_key(key) {
            Resolution::Canonical
        } else if let Some(canonical) = self.aliases.get(key) {
            Resolution::Alias { canonical: canonical.clone() }
        } else {
            Resolution::NotFound
        }
    }

    /// The client every bridge call of this runtime goes through.
    pub fn bridge_client(&self) -> &dyn BridgeClient {
        &*self.client
    }

    /// A capability or workflow by canonical key.
    pub fn capability(&self, key: &str) -> Option<&Arc<CapabilitySpec>> {
        match self.keys.get(key) {
            Some(e) => Some(&self.packs[e.pack].capabilities[e.capability]),
            None => self.workflow(key).map(|w| &w.spec),
        }
    }

    pub fn capabilities(&self) -> impl Iterator<Item = (&LoadedPack, &Arc<CapabilitySpec>)> {
        self.packs.iter().flat_map(|p| p.capabilities.iter().map(move |c| (p, c)))
    }
}

impl Runtime {
    /// The families every loaded pack declares, for the router.
    pub fn families(&self) -> crate::router::FamilyTable {
        let mut table = crate::router::FamilyTable::from_packs(&self.packs);
        if !self.workflows.is_empty() {
            let risk = self.workflows.iter().map(|w| if w.spec.destructive { 2 } else { u8::from(w.spec.mutates) }).max().unwrap_or(0);
            table.add(&crate::workflow::family(), risk);
        }
        table
    }

    /// The search index over every loaded capability, ranked with `families`.
    pub fn search_index(&self, families: crate::router::FamilyTable) -> crate::router::SearchIndex {
        crate::router::SearchIndex::build(
            self.capabilities().map(|(_, c)| c).chain(self.workflows.iter().map(|w| &w.spec)).map(|c| crate::router::search::CapabilityText {
                key: &c.key,
                family: &c.family,
                summary: &c.summary,
                mutates: c.mutates,
                destructive: c.destructive,
                writes_files: c.writes_files,
                tags: &c.tags,
                aliases: &c.aliases,
                examples: &c.examples,
            }),
            families,
        )
    }
}

impl crate::workflow::StepLookup for Runtime {
    fn canonical(&self, key: &str) -> Option<&CapabilitySpec> {
        self.capability(key).map(|c| &**c)
    }

    fn server_of(&self, key: &str) -> Option<&str> {
        Runtime::server_of(self, key)
    }
}
