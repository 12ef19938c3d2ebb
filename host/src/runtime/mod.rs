//! The runtime: loaded packs, the capability index, and the call path.
//!
//! `call` is the one path from a capability key to a sandboxed execution. Its order is
//! deliberate: resolve the key (canonical only), check size, parse and validate the
//! arguments against the capability's schema, and only then create a sandbox. Bad
//! input never costs an instantiation and never reaches a bridge.

use crate::bridge::catalog::{CatalogError, Catalogs};
use crate::bridge::gate::CapabilityScope;
use crate::availability::Availability;
use crate::bridge::{BridgeClient, BridgeGate};
use crate::engine::{AllocationPreference, ComponentCache, SandboxEngine};
use crate::home::CapstanHome;
use crate::delta::SceneDelta;
use crate::plugin::bindings::PackError;
use crate::plugin::{self, CapabilitySpec, LoadedPack, PackLoadError, PackSource};
use crate::sandbox::{BridgeCallRecord, CallSetup, PackFault, ProgressSink, Sandbox};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

mod lookup;

pub use lookup::HostCommandError;

/// Pack error messages are cut to this length before they reach a user.
const MAX_PACK_MESSAGE: usize = 4096;

#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error("cannot start the WebAssembly engine: {0}")]
    Engine(String),
    #[error(transparent)]
    Catalog(#[from] CatalogError),
}

/// A pack that was found but not loaded, and why.
#[derive(Debug, Clone, Serialize)]
pub struct RefusedPack {
    pub source: String,
    pub error: PackLoadError,
}

/// How a key resolves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    Canonical,
    Alias { canonical: String },
    NotFound,
}

/// A capability's own failure, as the pack reported it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackFailure {
    /// `invalid_arguments`, `unknown_capability`, `bridge` or `failed`.
    pub kind: String,
    pub message: String,
    /// For `bridge`: the bridge error code (`permission_denied`, `app_unavailable`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bridge_code: Option<String>,
    /// For an error the application reported: its own code and message, as the host
    /// received them (not as the pack retold them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_error: Option<AppError>,
}

/// An error the application reported, with what its code means (from the catalog).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppError {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
    /// The command declares the code: the application checked a condition and refused
    /// (`APP_REFUSED`), rather than failing in a way nobody foresaw (`BRIDGE_ERROR`).
    pub declared: bool,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum CallError {
    #[error("no capability {key:?}; search again for the canonical key")]
    NotFound { key: String },
    #[error("{key:?} is an alias; execute the canonical key {canonical:?}")]
    NonCanonical { key: String, canonical: String },
    #[error("invalid arguments for {key}: {}", errors.join("; "))]
    InvalidArguments { key: String, errors: Vec<String> },
    #[error("pack fault in {key}: {fault}")]
    Fault {
        key: String,
        fault: PackFault,
        bridge_calls: Vec<BridgeCallRecord>,
        /// What the bridge calls made before the fault changed.
        delta: Option<Box<SceneDelta>>,
    },
    /// A workflow step failed; the workflow stopped there (`report` lists every step).
    #[error("{key} stopped at step {step:?}: {cause}")]
    Workflow {
        key: String,
        step: String,
        cause: Box<CallError>,
        /// The workflow's answer so far: `{workflow, status: "failed", steps, skipped}`.
        report: Box<Value>,
        bridge_calls: Vec<BridgeCallRecord>,
        /// What the steps before the failure (and the failed step) changed.
        delta: Option<Box<SceneDelta>>,
    },
    /// The app gate refused the call (its app is unavailable or its bridge lacks the
    /// commands); nothing ran. `body` is what every surface answers.
    #[error("{}", body["message"].as_str().unwrap_or("the app is unavailable"))]
    NotAdmitted { key: String, body: Box<Value> },
    #[error("{key} failed ({}): {}", failure.kind, failure.message)]
    Pack {
        key: String,
        failure: Box<PackFailure>,
        bridge_calls: Vec<BridgeCallRecord>,
        /// When the pack failed because a server is unavailable: its structured state.
        availability: Option<Box<Availability>>,
        /// What the bridge calls made before the failure changed (kept, not dropped).
        delta: Option<Box<SceneDelta>>,
    },
}

impl CallError {
    /// The application's own error code behind the failure, if the application reported
    /// one (for a workflow: the code of the step that failed).
    pub fn app_code(&self) -> Option<&str> {
        match self {
            CallError::Pack { failure, .. } => failure.app_error.as_ref().map(|a| a.code.as_str()),
            CallError::Workflow { cause, .. } => cause.app_code(),
            _ => None,
        }
    }

    /// Whether the failure means the app is not there (refused by the app gate, or a
    /// bridge call found it gone), not that the call went wrong.
    pub fn app_went_away(&self) -> bool {
        match self {
            // An outdated add-on is there; it lacks commands.
            CallError::NotAdmitted { body, .. } => body["availability"]["state"] != "addon_outdated",
            CallError::Pack { failure, .. } => matches!(failure.bridge_code.as_deref(), Some("transport") | Some("app_unavailable")),
            CallError::Workflow { cause, .. } => cause.app_went_away(),
            _ => false,
        }
    }

    /// The bridge calls the call made before it failed (none when it was refused before
    /// any bridge work).
    pub fn bridge_calls(&self) -> &[BridgeCallRecord] {
        match self {
            CallError::Fault { bridge_calls, .. } | CallError::Pack { bridge_calls, .. } | CallError::Workflow { bridge_calls, .. } => bridge_calls,
            _ => &[],
        }
    }

    /// What the call changed before it failed (kept, not dropped), when it got that far.
    pub fn delta(&self) -> Option<&SceneDelta> {
        match self {
            CallError::Fault { delta, .. } | CallError::Pack { delta, .. } | CallError::Workflow { delta, .. } => delta.as_deref(),
            _ => None,
        }
    }
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
}

impl Runtime {
    pub fn new(home: &CapstanHome, allocation: AllocationPreference, client: Arc<dyn BridgeClient>) -> Result<Self, RuntimeError> {
        let engine = SandboxEngine::new(allocation).map_err(|e| RuntimeError::Engine(format!("{e:#}")))?;
        let cache = ComponentCache::new(engine.engine(), crate::engine::cache_location(home));
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

    /// Resolve `key` and validate the arguments against its schema, without running
    /// anything: the checks `call` makes before any sandbox or bridge work.
    pub fn check(&self, key: &str, arguments_json: &str) -> Result<(), CallError> {
        if let Some(workflow) = self.workflow(key) {
            return validate_arguments(key, &workflow.spec, crate::limits::DEFAULT_LIMITS.max_io_bytes, arguments_json);
        }
        let entry = self.entry(key)?;
        let pack = &self.packs[entry.pack];
        self.validate(key, pack, &pack.capabilities[entry.capability], arguments_json)
    }

    fn entry(&self, key: &str) -> Result<&Entry, CallError> {
        self.keys.get(key).ok_or_else(|| match self.aliases.get(key) {
            Some(canonical) => CallError::NonCanonical { key: key.into(), canonical: canonical.clone() },
            None => CallError::NotFound { key: key.into() },
        })
    }

    fn validate(&self, key: &str, pack: &LoadedPack, spec: &CapabilitySpec, arguments_json: &str) -> Result<(), CallError> {
        validate_arguments(key, spec, pack.limits.limits.max_io_bytes, arguments_json)
    }

    /// Execute one capability by canonical key with JSON arguments, on the call path
    /// with no app gate ([`crate::call::CallPath::ungated`]): for tests with a
    /// fault-injecting bridge and tools without apps. Every product surface (MCP, eval,
    /// `capstan call`, the planner) runs calls on a [`crate::call::CallPath`] with the
    /// app gate instead.
    pub fn call(&self, key: &str, arguments_json: &str) -> Result<CallOutput, CallError> {
        crate::call::CallPath::ungated(self).execute(key, arguments_json, None)
    }

    /// [`Runtime::call`] with a listener for the call's progress reports.
    pub fn call_reporting(&self, key: &str, arguments_json: &str, progress: ProgressSink) -> Result<CallOutput, CallError> {
        crate::call::CallPath::ungated(self).execute(key, arguments_json, Some(progress))
    }

    /// Step 4 of the call path for a pack capability: a fresh sandbox, the bridge gate,
    /// the bridge. Only [`crate::call::CallPath`] calls it, after resolve, validate and
    /// admit; `progress` hears the pack's reports (`capstan:pack/progress`).
    pub(crate) fn run_pack_call(&self, key: &str, arguments_json: &str, progress: Option<ProgressSink>) -> Result<CallOutput, CallError> {
        let entry = self.entry(key)?;
        let pack = &self.packs[entry.pack];
        let limits = pack.limits.limits;
        let spec = &pack.capabilities[entry.capability];

        let scope = self.scopes[entry.pack][entry.capability].clone();
        let gate = BridgeGate::new(scope, pack.commands.clone(), self.catalogs.clone(), limits.max_bridge_calls);
        let setup = CallSetup { pack: pack.name.clone(), limits, gate: Some(gate), client: self.client.clone(), progress };
        let (outcome, report) = pack.pre.execute(&self.sandbox, setup, key, arguments_json);
        if report.mutated {
            self.close_undo_step(pack, key);
        }
        let bridge_calls = report.bridge_calls;
        let delta = spec.mutates.then(|| report.delta.clone());
        let kept = || delta.clone().filter(|d| !d.is_empty()).map(Box::new);
        let fault = |fault| CallError::Fault { key: key.into(), fault, bridge_calls: bridge_calls.clone(), delta: kept() };
        match outcome {
            Err(f) => Err(fault(f)),
            Ok(Err(e)) => {
                let mut failure = pack_failure(e);
                if let Some(app) = report.last_app_error
                    && failure.bridge_code.as_deref() == Some("app_error")
                {
                    let meaning = self.error_meaning(pack, &app.code);
                    failure.app_error = Some(AppError { code: app.code, message: cut(app.message), meaning, declared: app.declared });
                }
                let failure = Box::new(failure);
                let availability = match failure.bridge_code.as_deref() {
                    Some("app_unavailable") | Some("transport") => report.last_unavailable.map(Box::new),
                    _ => None,
                };
                Err(CallError::Pack { key: key.into(), failure, bridge_calls, availability, delta: kept() })
            }
            Ok(Ok(text)) => {
                if text.len() as u64 > limits.max_io_bytes {
                    return Err(fault(PackFault::OutputTooLarge {
                        limit_bytes: limits.max_io_bytes,
                        size_bytes: text.len() as u64,
                    }));
                }
                let result: Value = serde_json::from_str(&text).map_err(|e| fault(PackFault::Contract { detail: format!("the result is not JSON: {e}") }))?;
                // A declared output schema is a promise to the client (MCP `outputSchema`):
                // a result outside it is the pack's fault, never passed on.
                let errors = spec.result_errors(&result);
                if !errors.is_empty() {
                    return Err(fault(PackFault::Contract { detail: format!("the result is outside the declared output schema: {}", errors.join("; ")) }));
                }
                Ok(CallOutput { key: key.into(), pack: pack.name().into(), result, bridge_calls, delta })
            }
        }
    }
}

impl Runtime {
    /// What an application error code means, from the pack's server's catalog.
    fn error_meaning(&self, pack: &LoadedPack, code: &str) -> Option<String> {
        pack.manifest.servers.keys().find_map(|server| self.catalogs.for_server(server)?.error_codes.get(code).cloned())
    }

    /// One capability call is one undo step: after a call whose bridge commands changed
    /// the scene, the host asks the bridge to close the step, named after the
    /// capability (the unit's host-only undo command; a GUI app pushes it, a headless
    /// one only when told to). A failure here never fails the call: the change has happened.
    fn close_undo_step(&self, pack: &LoadedPack, key: &str) {
        for server in pack.manifest.servers.keys() {
            let Some(command) = crate::app_units::by_server(server).and_then(|u| u.host_commands().undo_step) else { continue };
            if !self.client.keeps_undo_steps(server) {
                continue;
            }
            let params = serde_json::json!({ "label": format!("capstan: {key}") });
            if let Err(e) = self.send_host_command(server, command, &params) {
                tracing::debug!(server, key, "could not close the undo step: {e}");
            }
        }
    }

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

/// Size, JSON, schema: the checks every call's arguments pass before anything runs.
fn validate_arguments(key: &str, spec: &CapabilitySpec, max_io_bytes: u64, arguments_json: &str) -> Result<(), CallError> {
    if arguments_json.len() as u64 > max_io_bytes {
        let fault = PackFault::InputTooLarge { limit_bytes: max_io_bytes, size_bytes: arguments_json.len() as u64 };
        return Err(CallError::Fault { key: key.into(), fault, bridge_calls: vec![], delta: None });
    }
    let arguments: Value = serde_json::from_str(arguments_json)
        .map_err(|e| CallError::InvalidArguments { key: key.into(), errors: vec![format!("the arguments are not JSON: {e}")] })?;
    let errors = spec.argument_errors(&arguments);
    if errors.is_empty() { Ok(()) } else { Err(CallError::InvalidArguments { key: key.into(), errors }) }
}

fn cut(message: String) -> String {
    if message.len() <= MAX_PACK_MESSAGE {
        return message;
    }
    let mut end = MAX_PACK_MESSAGE;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes cut)", &message[..end], message.len() - end)
}

fn pack_failure(e: PackError) -> PackFailure {
    let (kind, message, bridge_code) = match e {
        PackError::InvalidArguments(m) => ("invalid_arguments", m, None),
        PackError::UnknownCapability(k) => ("unknown_capability", format!("the pack has no capability {k}"), None),
        PackError::Bridge(b) => ("bridge", b.message, Some(b.code.name())),
        PackError::Failed(m) => ("failed", m, None),
    };
    PackFailure { kind: kind.into(), message: cut(message), bridge_code: bridge_code.map(String::from), app_error: None }
}
