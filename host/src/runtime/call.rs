//! The call path: from a capability key and its arguments to a sandboxed execution.
//!
//! Its order is deliberate: resolve the key (canonical only), check size, parse and
//! validate the arguments against the capability's schema, and only then create a
//! sandbox. Bad input never costs an instantiation and never reaches a bridge.

use super::error::{cut, pack_failure};
use super::{AppError, CallError, CallOutput, Entry, Runtime};
use crate::bridge::BridgeGate;
use crate::plugin::{CapabilitySpec, LoadedPack};
use crate::sandbox::{CallSetup, PackFault, ProgressSink};
use serde_json::Value;

impl Runtime {
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
        let ready = self.spares.take(entry.pack);
        let (outcome, report) = pack.pre.execute(&self.sandbox, setup, key, arguments_json, ready);
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
                let result = result_document(&text, report.last_answer).map_err(|e| fault(PackFault::Contract { detail: format!("the result is not JSON: {e}") }))?;
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

    /// Make a spare instance for the pack of capability `key` ([`super::spare`]), unless
    /// one is waiting. For idle time only: the stdio session calls it after an answer
    /// has been written.
    pub fn refill_spare(&self, key: &str) {
        let Ok(entry) = self.entry(key) else { return };
        let pack = &self.packs[entry.pack];
        self.spares.refill(entry.pack, || pack.pre.make_ready(&self.sandbox, pack.name.clone(), pack.limits.limits, self.client.clone()));
    }

    /// Whether a spare instance waits for `key`'s pack (for tests and benches).
    pub fn has_spare_for(&self, key: &str) -> bool {
        self.entry(key).is_ok_and(|entry| self.spares.has(entry.pack))
    }

    /// How many calls ran in a spare instance (for tests and benches).
    pub fn spares_taken(&self) -> u64 {
        self.spares.taken()
    }

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
}

/// The guest's result text as a document. A result that is, byte for byte, the last
/// answer the guest was handed (a pass-through capability) is that answer's document,
/// the value the text was written from: it is taken instead of parsing the text again.
/// Either way the caller checks it against the output schema.
fn result_document(text: &str, last_answer: Option<(String, Value)>) -> Result<Value, serde_json::Error> {
    match last_answer {
        Some((answer_text, answer)) if answer_text == text => Ok(answer),
        _ => serde_json::from_str(text),
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

#[cfg(test)]
mod tests {
    use super::result_document;
    use serde_json::json;

    /// The kept document stands in for the text only when the bytes are the same: a
    /// result of the same length, or one that differs in a byte, is parsed as written.
    #[test]
    fn a_result_is_the_kept_answer_only_when_it_is_the_same_text() {
        // A kept document unlike its text shows which one was taken.
        let kept = || Some((r#"{"a":1}"#.to_string(), json!({ "kept": true })));
        assert_eq!(result_document(r#"{"a":1}"#, kept()).unwrap(), json!({ "kept": true }));
        assert_eq!(result_document(r#"{"a":2}"#, kept()).unwrap(), json!({ "a": 2 }), "same length, other bytes");
        assert_eq!(result_document(r#"{"a":1} "#, kept()).unwrap(), json!({ "a": 1 }), "a byte more");
        assert_eq!(result_document(r#"{"b":1}"#, None).unwrap(), json!({ "b": 1 }));
        assert!(result_document("{not json", kept()).is_err());
    }
}
