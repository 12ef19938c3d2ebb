//! The one call path. Every caller that runs a capability (the MCP surfaces, the
//! planner's actor and critic, `capstan eval`, a workflow's steps, `capstan call`) runs
//! it through [`CallPath`], in this order:
//!
//! 1. resolve the key (canonical only; an alias is refused naming its canonical key);
//! 2. validate the arguments (size, JSON, the capability's schema);
//! 3. admit: the app gate ([`app_gate`]), so a call whose app is absent, too old or
//!    lacking commands is refused with its structured state and nothing runs;
//! 4. run: a fresh sandbox for the pack, every bridge command through the bridge gate
//!    (declared, effect within the capability's, params valid, budget), the bridge.
//!
//! Security reasoning: steps 1-3 cost no sandbox and no bridge call, so bad input never
//! waits on an app and never reaches one; and because there is one path, no surface can
//! reach what another refuses (before this module, eval skipped the app gate). A
//! workflow is admitted as its steps are, before its first step runs, and each step
//! again when it runs (an app can go away mid-workflow; the availability answer is
//! cached for a second, so the second asking costs nothing).

pub mod app_gate;
pub mod availability;

use crate::runtime::{CallError, CallOutput, Runtime};
use crate::sandbox::ProgressSink;
use serde_json::Value;

/// Step 3 of the path: whether the capability's app can take the call now.
pub trait Admission: Sync {
    /// The refusal is the body surfaces answer (`APP_UNAVAILABLE` with the state object).
    fn admit(&self, key: &str) -> Result<(), Value>;
    /// A call failed because its app went away: forget what was believed about it.
    fn forget_availability(&self) {}
    /// Whether `server`'s app is there now, asked afresh (None: this admission has no
    /// view of the apps).
    fn server_available(&self, _server: &str) -> Option<bool> {
        None
    }
}

/// No app gate: for runtimes without a view of the apps (offline checks, tests with a
/// fault-injecting bridge). Calls still fail at the bridge when the app is absent.
pub struct Ungated;

impl Admission for Ungated {
    fn admit(&self, _key: &str) -> Result<(), Value> {
        Ok(())
    }
}

/// The runtime and the app gate its calls pass.
#[derive(Clone, Copy)]
pub struct CallPath<'a> {
    pub runtime: &'a Runtime,
    pub admission: &'a dyn Admission,
}

impl<'a> CallPath<'a> {
    pub fn new(runtime: &'a Runtime, admission: &'a dyn Admission) -> Self {
        CallPath { runtime, admission }
    }

    /// A path with no app gate (see [`Ungated`]).
    pub fn ungated(runtime: &'a Runtime) -> Self {
        CallPath { runtime, admission: &Ungated }
    }

    /// Steps 1-2: resolve and validate, nothing run.
    pub fn check(&self, key: &str, arguments_json: &str) -> Result<(), CallError> {
        self.runtime.check(key, arguments_json)
    }

    /// Step 3 alone (a dry run reports what a real run would refuse).
    pub fn admit(&self, key: &str) -> Result<(), CallError> {
        self.admission.admit(key).map_err(|body| CallError::NotAdmitted { key: key.into(), body: Box::new(body) })
    }

    /// The whole path.
    pub fn execute(&self, key: &str, arguments_json: &str, progress: Option<ProgressSink>) -> Result<CallOutput, CallError> {
        self.check(key, arguments_json)?;
        self.run_checked(key, arguments_json, progress)
    }

    /// Steps 3-4, for a caller that has just passed the same key and arguments through
    /// [`CallPath::check`] (a surface that answers bad input before handing the call to
    /// another thread; a workflow that checks every step before the first runs).
    pub fn run_checked(&self, key: &str, arguments_json: &str, progress: Option<ProgressSink>) -> Result<CallOutput, CallError> {
        self.admit(key)?;
        let outcome = match self.runtime.workflow(key) {
            Some(workflow) => crate::workflow::run::execute(self, workflow, arguments_json, progress),
            None => self.runtime.run_pack_call(key, arguments_json, progress),
        };
        // A pack may catch an `unknown_command` and still succeed: the bridge lacked a
        // command all the same, so the cached probe is forgotten either way.
        let stale = match &outcome {
            Ok(out) => crate::sandbox::state::lacked_a_command(&out.bridge_calls),
            Err(e) => e.app_went_away() || e.bridge_lacked_a_command(),
        };
        if stale {
            self.admission.forget_availability();
        }
        outcome
    }
}
