//! Testing a pack's handlers without Blender: a mock bridge for native unit tests.
//!
//! Outside a host, every bridge call goes to the [`MockBridge`] installed on the
//! current thread. Answers are typed: `on::<CreateObject>(|params| ...)` receives the
//! command's own params type and returns its result type, so a test cannot answer
//! with a shape the real bridge never sends. Calls are recorded (command and params
//! JSON) for assertions. A call with no answer registered fails like a bridge that
//! does not have the command.
//!
//! ```
//! use capstan_sdk::blender::{SetFrameRange, SetFrameRangeParams, set_frame_range};
//! use capstan_sdk::prelude::*;
//! use capstan_sdk::testing::MockBridge;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Args { last: i64 }
//!
//! /// End the scene at a frame.
//! #[capability(key = "demo.end_at", family = "animation", uses = [SetFrameRange])]
//! fn end_at(args: Args) -> PackResult<Value> {
//!     let range = set_frame_range(&SetFrameRangeParams { frame_end: Some(args.last), ..Default::default() })?;
//!     progress::report(1, 1, "range set");
//!     Ok(json!({ "frames": [range.frame_start, range.frame_end] }))
//! }
//!
//! let bridge = MockBridge::install();
//! bridge.on::<SetFrameRange, _>(|p| Ok(serde_json::from_value(json!({
//!     "frame_start": 1, "frame_end": p.frame_end, "fps": 24.0, "frame_current": 1,
//!     "delta": { "added": [], "removed": [], "changed": [], "settings": [] },
//! })).unwrap()));
//! let out = capability().run_json(r#"{"last": 48}"#).unwrap();
//! assert_eq!(out, r#"{"frames":[1,48]}"#);
//! assert_eq!(bridge.commands(), ["set_frame_range"]);
//! assert_eq!(bridge.progress(), [(1, 1, "range set".to_string())]);
//! ```
//!
//! This is for a pack's own unit tests only; capstan's tests that claim a capability
//! works run it against a real Blender.

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
