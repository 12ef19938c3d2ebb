//! Testing a pack's handlers without the application: a mock bridge for native unit
//! tests, and checks every pack's own tests make (the manifest's command list is the
//! one the capabilities declare; families and conformance cases are declared).
//!
//! Outside a host, every bridge call goes to the [`MockBridge`] installed on the
//! current thread. Answers are typed: `on::<CreateObject>(|params| ...)` receives the
//! command's own params type and returns its result type, so a test cannot answer
//! with a shape the real bridge never sends. Calls are recorded (command and params
//! JSON) for assertions. A call with no answer registered fails like a bridge that
//! does not have the command.
//!
//! ```
//! use capstan_sdk::bridge::send;
//! use capstan_sdk::prelude::*;
//! use capstan_sdk::testing::MockBridge;
//!
//! // A command as an application's client crate declares it (capstan-blender's are
//! // generated from the add-on's declarations).
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! enum Code { NotFound, Unknown }
//! impl AppCode for Code {
//!     fn as_str(&self) -> &str { if *self == Code::NotFound { "not_found" } else { "unknown" } }
//!     fn parse(code: &str) -> Self { if code == "not_found" { Code::NotFound } else { Code::Unknown } }
//! }
//! #[derive(Serialize, Deserialize)]
//! struct RangeParams { last: i64 }
//! #[derive(Serialize, Deserialize)]
//! struct Range { first: i64, last: i64 }
//! struct SetRange;
//! impl Command for SetRange {
//!     const SERVER: &'static str = "player";
//!     const NAME: &'static str = "set_range";
//!     const EFFECT: Effect = Effect::Mutate;
//!     type AppCode = Code;
//!     const ERRORS: &'static [Code] = &[Code::NotFound];
//!     type Params = RangeParams;
//!     type Result = Range;
//! }
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Args { last: i64 }
//!
//! /// End the scene at a frame.
//! #[capability(key = "demo.end_at", family = "animation", uses = [SetRange])]
//! fn end_at(args: Args) -> PackResult<Value> {
//!     let range = send::<SetRange>(&RangeParams { last: args.last })?;
//!     progress::report(1, 1, "range set");
//!     Ok(json!({ "frames": [range.first, range.last] }))
//! }
//!
//! let bridge = MockBridge::install();
//! bridge.on::<SetRange, _>(|p| Ok(Range { first: 1, last: p.last }));
//! let out = capability().run_json(r#"{"last": 48}"#).unwrap();
//! assert_eq!(out, r#"{"frames":[1,48]}"#);
//! assert_eq!(bridge.commands(), ["set_range"]);
//! assert_eq!(bridge.progress(), [(1, 1, "range set".to_string())]);
//! assert!(capability().mutates_state(), "the command's effect makes the capability mutating");
//!
//! bridge.on::<SetRange, _>(|_| Err(BridgeError::app(Code::NotFound, "no scene")));
//! match capability().run_json(r#"{"last": 2}"#) {
//!     Err(PackError::Bridge(e)) => assert_eq!(e.app_error(), Some(Code::NotFound)),
//!     other => panic!("{other:?}"),
//! }
//! ```
//!
//! This is for a pack's own unit tests only; capstan's tests that claim a capability
//! works run it against the real application.

use crate::bridge::Command;
use crate::error::{BridgeError, BridgeErrorCode};
use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type Answer = Box<dyn Fn(&str) -> Result<String, BridgeError>>;

#[derive(Default)]
struct State {
    /// Keyed by (server, command).
    answers: HashMap<(&'static str, &'static str), Answer>,
    calls: Vec<(String, serde_json::Value)>,
    progress: Vec<(u64, u64, String)>,
}

/// The thread's mock bridge; dropping the handle uninstalls it.
pub struct MockBridge {
    state: Rc<RefCell<State>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<RefCell<State>>>> = const { RefCell::new(None) };
}

impl MockBridge {
    /// Install a fresh mock on this thread (replacing any other).
    pub fn install() -> Self {
        let state = Rc::new(RefCell::new(State::default()));
        CURRENT.with(|c| *c.borrow_mut() = Some(state.clone()));
        MockBridge { state }
    }

    /// Answer command `C` with `answer`.
    pub fn on<C, F>(&self, answer: F) -> &Self
    where
        C: Command + 'static,
        C::Params: DeserializeOwned,
        C::Result: serde::Serialize,
        F: Fn(C::Params) -> Result<C::Result, BridgeError> + 'static,
    {
        let wrapped: Answer = Box::new(move |json: &str| {
            let params: C::Params = serde_json::from_str(json).map_err(|e| {
                BridgeError::new(BridgeErrorCode::InvalidBridgeParams, format!("params for {} do not parse: {e}", C::NAME))
            })?;
            let result = answer(params)?;
            Ok(serde_json::to_string(&result).expect("a result type serialises"))
        });
        self.state.borrow_mut().answers.insert((C::SERVER, C::NAME), wrapped);
        self
    }

    /// Every call so far: (command, params).
    pub fn calls(&self) -> Vec<(String, serde_json::Value)> {
        self.state.borrow().calls.clone()
    }

    /// Every progress report so far: (done, total, message), as
    /// [`crate::progress::report`] was called.
    pub fn progress(&self) -> Vec<(u64, u64, String)> {
        self.state.borrow().progress.clone()
    }

    /// The commands called so far, in order.
    pub fn commands(&self) -> Vec<String> {
        self.state.borrow().calls.iter().map(|(c, _)| c.clone()).collect()
    }
}

impl Drop for MockBridge {
    fn drop(&mut self) {
        CURRENT.with(|c| {
            let mut current = c.borrow_mut();
            if current.as_ref().is_some_and(|s| Rc::ptr_eq(s, &self.state)) {
                *current = None;
            }
        });
    }
}

pub(crate) fn dispatch(server: &str, command: &str, params_json: &str) -> Result<String, BridgeError> {
    let state = CURRENT.with(|c| c.borrow().clone()).ok_or_else(|| {
        BridgeError::new(BridgeErrorCode::Transport, "no bridge outside a capstan host; install a capstan_sdk::testing::MockBridge in the test")
    })?;
    let params = serde_json::from_str(params_json).unwrap_or(serde_json::Value::Null);
    state.borrow_mut().calls.push((command.to_string(), params));
    let state = state.borrow();
    match state.answers.iter().find(|((s, c), _)| *s == server && *c == command) {
        Some((_, answer)) => answer(params_json),
        None => Err(BridgeError::new(BridgeErrorCode::PermissionDenied, format!("the mock bridge has no answer for {server} command {command}"))),
    }
}

/// A progress report outside a host: kept by the thread's mock, if one is installed.
pub(crate) fn record_progress(done: u64, total: u64, message: &str) {
    if let Some(state) = CURRENT.with(|c| c.borrow().clone()) {
        state.borrow_mut().progress.push((done, total, message.to_string()));
    }
}

/// A pack's `pack.json` lists, under `servers.<server>.commands`, exactly the commands
/// its capabilities declare (`uses = [...]`): the list is derived, not kept by hand.
/// Panics naming the commands missing and extra. With `CAPSTAN_BLESS=1` it rewrites
/// the file instead (`CAPSTAN_BLESS=1 cargo test -p <pack>`), the rest of the manifest
/// unchanged.
///
/// `manifest_dir` is the pack's folder (`env!("CARGO_MANIFEST_DIR")`).
pub fn assert_manifest_commands(manifest_dir: &str, server: &str, capabilities: &[crate::Capability]) {
    use std::collections::BTreeSet;
    let path = std::path::Path::new(manifest_dir).join("pack.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let committed: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let used: BTreeSet<&str> = capabilities.iter().flat_map(|c| c.bridge_commands().iter().copied()).collect();
    let mut generated = committed.clone();
    let servers = generated.get_mut("servers").and_then(serde_json::Value::as_object_mut);
    let server_doc = servers.and_then(|s| s.get_mut(server)).and_then(serde_json::Value::as_object_mut);
    let server_doc = server_doc.unwrap_or_else(|| panic!("{} declares no server {server:?}", path.display()));
    server_doc.insert("commands".into(), serde_json::json!(used));
    if generated == committed {
        return;
    }
    if std::env::var("CAPSTAN_BLESS").as_deref() == Ok("1") {
        let pretty = serde_json::to_string_pretty(&generated).expect("a manifest serialises");
        std::fs::write(&path, pretty + "\n").unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let listed: BTreeSet<&str> =
        committed["servers"][server]["commands"].as_array().into_iter().flatten().filter_map(serde_json::Value::as_str).collect();
    let name = committed["name"].as_str().unwrap_or("<pack>");
    panic!(
        "{}'s servers.{server}.commands is stale: used but not listed {:?}, listed but not used {:?}; run CAPSTAN_BLESS=1 cargo test -p {name}",
        path.display(),
        used.difference(&listed).collect::<Vec<_>>(),
        listed.difference(&used).collect::<Vec<_>>(),
    );
}

/// Every capability has a unique key, a summary, a family the pack declares, and at
/// least `min_cases` conformance cases. Panics naming the first one that does not.
pub fn assert_declared(families: &[crate::Family], capabilities: &[crate::Capability], min_cases: usize) {
    let declared: Vec<&str> = families.iter().map(|f| f.name()).collect();
    let mut keys = std::collections::BTreeSet::new();
    assert!(!capabilities.is_empty(), "the pack declares no capability");
    for c in capabilities {
        assert!(keys.insert(c.key()), "{} is declared twice", c.key());
        assert!(declared.contains(&c.family()), "{} is in undeclared family {} (declared: {declared:?})", c.key(), c.family());
        assert!(c.conformance_cases().len() >= min_cases, "{} has {} conformance cases, fewer than {min_cases}", c.key(), c.conformance_cases().len());
        assert!(!c.summary_text().is_empty(), "{} has no summary (its doc comment's first paragraph)", c.key());
    }
}

/// Every key's namespace (before the dot) is its family, as the catalog's newer keys
/// have it (`material.list` in family `material`).
pub fn assert_keys_in_family_namespace(capabilities: &[crate::Capability]) {
    for c in capabilities {
        assert_eq!(c.key().split('.').next(), Some(c.family()), "{}: a key's namespace is its family", c.key());
    }
}
