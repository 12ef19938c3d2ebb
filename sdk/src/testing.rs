//! Testing a pack's handlers without Blender: a mock bridge for native unit tests.
//!
//! Outside a host, every bridge call goes to the [`MockBridge`] installed on the
//! current thread. Answers are typed: `on::<CreateObject>(|params| ...)` receives the
//! command's own params type and returns its result type, so a test cannot answer
//! with a shape the real bridge never sends. Calls are recorded (command and params
//! JSON) for assertions. A call with no answer registered fails like a bridge that
//! does not have the command.
//!
//! ```ignore
//! let bridge = MockBridge::install();
//! bridge.on::<GetObjectInfo>(|p| Ok(info_of(&p.name)));
//! let out = capability().run_json(r#"{"target": "Cube"}"#)?;
//! assert_eq!(bridge.commands(), ["get_object_info", "create_light"]);
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
    answers: HashMap<&'static str, Answer>,
    calls: Vec<(String, serde_json::Value)>,
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
        self.state.borrow_mut().answers.insert(C::NAME, wrapped);
        self
    }

    /// Every call so far: (command, params).
    pub fn calls(&self) -> Vec<(String, serde_json::Value)> {
        self.state.borrow().calls.clone()
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

pub(crate) fn dispatch(command: &str, params_json: &str) -> Result<String, BridgeError> {
    let state = CURRENT.with(|c| c.borrow().clone()).ok_or_else(|| {
        BridgeError::new(BridgeErrorCode::Transport, "no bridge outside a capstan host; install a capstan_sdk::testing::MockBridge in the test")
    })?;
    let params = serde_json::from_str(params_json).unwrap_or(serde_json::Value::Null);
    state.borrow_mut().calls.push((command.to_string(), params));
    let state = state.borrow();
    match state.answers.get(command) {
        Some(answer) => answer(params_json),
        None => Err(BridgeError::new(BridgeErrorCode::PermissionDenied, format!("the mock bridge has no answer for {command}"))),
    }
}
