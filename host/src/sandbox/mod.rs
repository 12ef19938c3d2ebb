//! The sandbox: one fresh `Store` per call, under per-call limits.
//!
//! Security reasoning, in the order a call meets it:
//! - **Fresh store per call.** No guest state survives between calls, and a call that
//!   traps poisons nothing: the next call starts from the pre-instantiated component.
//! - **Memory** is capped by [`limiter::CallLimiter`] (typed error, traps the guest).
//! - **Time** is capped by an epoch deadline on guest time that traps (see `engine`);
//!   waiting for the bridge is bounded by each command's own timeout instead.
//! - **Stack**: deep recursion ends in a stack-overflow trap (engine `max_wasm_stack`).
//! - **I/O**: arguments and results are capped in bytes; guest stdout/stderr are
//!   captured, capped and logged (`stdio`), never written to the process stdout.
//! - **Authority**: WASI grants nothing (`state`); the bridge import is gated.

pub mod fault;
pub mod limiter;
pub mod progress;
pub mod retire;
pub mod state;
pub mod stdio;

pub use fault::PackFault;
pub use progress::{ProgressReport, ProgressSink};
pub use state::{BridgeCallRecord, CallState};
pub use stdio::CapturedText;

use crate::bridge::{BridgeClient, BridgeGate};
use crate::engine::SandboxEngine;
use crate::limits::CallLimits;
use crate::plugin::bindings::{v1, v2};
use crate::plugin::instance::PackPre;
use std::sync::Arc;
use wasmtime::{Store, UpdateDeadline};
use wasmtime::component::{Component, HasSelf, Linker};

/// Everything a call needs besides the component.
pub struct CallSetup {
    pub pack: Arc<str>,
    pub limits: CallLimits,
    /// `None` allows no bridge call at all (used for `describe`).
    pub gate: Option<BridgeGate>,
    pub client: Arc<dyn BridgeClient>,
    /// Who listens to the call's progress reports (`None`: nobody; they are dropped).
    pub progress: Option<ProgressSink>,
}

impl CallSetup {
    /// A call that may make no bridge call and reports to nobody (`describe`, the code
    /// checker): with no gate every bridge call is refused before the client is asked.
    pub fn offline(pack: impl Into<Arc<str>>, limits: CallLimits) -> Self {
        CallSetup { pack: pack.into(), limits, gate: None, client: Arc::new(crate::bridge::Offline), progress: None }
    }
}

/// An error the application answered a bridge call with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppFailureRecord {
    pub code: String,
    pub message: String,
    /// The command declares this code: a condition it checks (a wrong target, a missing
    /// name), as opposed to an exception it did not expect.
    pub declared: bool,
}

/// What a call did besides returning.
#[derive(Debug, Clone)]
pub struct CallReport {
    pub bridge_calls: Vec<BridgeCallRecord>,
    /// The scene delta of the call's bridge calls, merged by the host.
    pub delta: crate::delta::SceneDelta,
    /// A mutating bridge command ran.
    pub mutated: bool,
    /// The last error the application reported.
    pub last_app_error: Option<AppFailureRecord>,
    /// The last bridge failure that means a server is unavailable, as a state.
    pub last_unavailable: Option<crate::availability::Availability>,
    /// The last bridge answer the guest was handed, as text, and the document it was
    /// written from, already checked against the command's result schema. A guest
    /// that passes the answer on unchanged returns this very text; the host then
    /// takes the document instead of parsing the text again (`runtime/call.rs`).
    pub last_answer: Option<(String, serde_json::Value)>,
    pub stdout: CapturedText,
    pub stderr: CapturedText,
}

pub struct Sandbox {
    engine: SandboxEngine,
    linker: Linker<CallState>,
}

impl Sandbox {
    pub fn new(engine: SandboxEngine) -> wasmtime::Result<Self> {
        let mut linker = Linker::new(engine.engine());
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
        // Both contract versions: their interfaces have distinct versioned names.
        v1::CapabilityPack::add_to_linker::<CallState, HasSelf<CallState>>(&mut linker, |s| s)?;
        v2::CapabilityPack::add_to_linker::<CallState, HasSelf<CallState>>(&mut linker, |s| s)?;
        Ok(Sandbox { engine, linker })
    }

    pub fn engine(&self) -> &SandboxEngine {
        &self.engine
    }

    /// Type-check and link a component of contract `version` once; every call
    /// instantiates from the result.
    pub fn prepare(&self, component: &Component, version: crate::plugin::abi::PackVersion) -> wasmtime::Result<PackPre> {
        let pre = self.linker.instantiate_pre(component)?;
        Ok(match version {
            crate::plugin::abi::PackVersion::V1 => PackPre::V1(v1::CapabilityPackPre::new(pre)?),
            crate::plugin::abi::PackVersion::V2 => PackPre::V2(v2::CapabilityPackPre::new(pre)?),
        })
    }

    /// The linker every component is prepared with (WASI with no authority, the gated
    /// bridge import). Worlds that import less, such as the code checker, link too.
    pub fn linker(&self) -> &Linker<CallState> {
        &self.linker
    }

    /// Run `f` against an instance made by `instantiate` in a fresh store under
    /// `setup`'s limits: the same memory, time and I/O rules for any world. The
    /// instance is made before the call begins (no gate yet, as for a spare, [`Ready`]);
    /// its time counts toward the call's.
    pub fn run_instance<I, R>(
        &self,
        setup: CallSetup,
        instantiate: impl FnOnce(&mut Store<CallState>) -> wasmtime::Result<I>,
        f: impl FnOnce(&mut Store<CallState>, &I) -> wasmtime::Result<R>,
    ) -> (Result<R, PackFault>, CallReport) {
        let CallSetup { pack, limits, gate, client, progress } = setup;
        let mut store = self.new_store(pack.clone(), &limits, limits.timeout, client);
        let outcome = match instantiate(&mut store) {
            Ok(instance) => {
                store.data_mut().begin(gate, progress);
                f(&mut store, &instance)
            }
            Err(e) => Err(e),
        };
        finish(store, &pack, &limits, outcome)
    }

    /// Make a fresh instance ahead of its call, in idle time ([`Ready`]); None when
    /// it cannot be made (the call will then make its own and report why).
    pub fn make_ready<I>(
        &self,
        pack: Arc<str>,
        limits: CallLimits,
        client: Arc<dyn BridgeClient>,
        instantiate: impl FnOnce(&mut Store<CallState>) -> wasmtime::Result<I>,
    ) -> Option<Ready<I>> {
        // Made in idle time: held to a tighter bound than a call (the limits' doc).
        let mut store = self.new_store(pack, &limits, limits.timeout.min(crate::limits::SPARE_INSTANTIATION_BUDGET), client);
        match instantiate(&mut store) {
            Ok(instance) => Some(Ready { store, instance, limits }),
            Err(e) => {
                tracing::debug!("no spare instance: {e}");
                retire::retire(store);
                None
            }
        }
    }

    /// Run `f` against an instance made ahead of this call, with `setup`'s gate and
    /// listener, under the limits it was made with (its pack's, as `setup`'s are: the
    /// store enforces the ones it was made under). The call's clocks start now: the
    /// time the instance waited is not the call's.
    pub fn run_ready<I, R>(&self, ready: Ready<I>, setup: CallSetup, f: impl FnOnce(&mut Store<CallState>, &I) -> wasmtime::Result<R>) -> (Result<R, PackFault>, CallReport) {
        let Ready { mut store, instance, limits } = ready;
        let CallSetup { pack, limits: call_limits, gate, client: _, progress } = setup;
        debug_assert_eq!(call_limits, limits, "a spare is made under its pack's limits, as its calls are");
        store.data_mut().restart_clock();
        arm_deadline(&mut store, limits.timeout, limits.deadline);
        store.data_mut().begin(gate, progress);
        let outcome = f(&mut store, &instance);
        finish(store, &pack, &limits, outcome)
    }

    /// A store under `limits` (guest time `timeout` while the instance is made) whose
    /// instance may make no bridge call yet (no gate), its clocks started.
    fn new_store(&self, pack: Arc<str>, limits: &CallLimits, timeout: std::time::Duration, client: Arc<dyn BridgeClient>) -> Store<CallState> {
        let state = CallState::new(pack, limits, None, client, None);
        let mut store = Store::new(self.engine.engine(), state);
        store.limiter(|s| &mut s.limiter);
        arm_deadline(&mut store, timeout, limits.deadline);
        store
    }
}

/// Two clocks, one epoch deadline, from now. Guest time (`timeout`): when it comes
/// due, the callback subtracts time spent waiting for the bridge and extends to the
/// guest's real remaining time. The whole-call `deadline` counts wall time, bridge
/// waits included. The next check is whichever comes first; when either is spent the
/// guest is interrupted (a trap: the call ends, the host serves on). Guest code that
/// runs while an instance is made (start functions) is under the same clocks.
fn arm_deadline(store: &mut Store<CallState>, timeout: std::time::Duration, deadline: std::time::Duration) {
    store.set_epoch_deadline(SandboxEngine::deadline_ticks(timeout.min(deadline)));
    store.epoch_deadline_callback(move |mut ctx| {
        let clock = &mut ctx.data_mut().clock;
        let guest_left = timeout.saturating_sub(clock.guest_time());
        let wall_left = clock.deadline_left();
        if wall_left.is_zero() {
            clock.deadline_hit = true;
        }
        Ok(match guest_left.min(wall_left) {
            left if !left.is_zero() => UpdateDeadline::Continue(SandboxEngine::deadline_ticks(left)),
            _ => UpdateDeadline::Interrupt,
        })
    });
}

/// A fresh instance in its own store, made before its call (a spare: `runtime::spare`).
///
/// Security reasoning: it is made exactly as a call's own instance is (a new store
/// from the pack's `InstancePre`, under the pack's limits), and nothing runs in it
/// before its call but the pack's own instantiation, with no gate: a bridge call
/// from a start function is refused, as it is for every instance (`run_instance`
/// makes its instance the same way). It is used by one call and retired with it, like
/// any store, so no call ever sees another call's state.
pub struct Ready<I> {
    store: Store<CallState>,
    instance: I,
    limits: CallLimits,
}

impl<I> Ready<I> {
    /// The instance taken out of its store, to be put back as its own type ([`Ready::with`]).
    pub(crate) fn split(self) -> (Ready<()>, I) {
        (Ready { store: self.store, instance: (), limits: self.limits }, self.instance)
    }

    /// Leave the instance unused: its store is retired like a call's.
    pub fn discard(self) {
        retire::retire(self.store);
    }
}

impl Ready<()> {
    pub(crate) fn with<J>(self, instance: J) -> Ready<J> {
        Ready { store: self.store, instance, limits: self.limits }
    }
}

/// End a call: move what the report needs out of the store, classify the outcome,
/// retire the store.
fn finish<R>(mut store: Store<CallState>, pack: &str, limits: &CallLimits, outcome: wasmtime::Result<R>) -> (Result<R, PackFault>, CallReport) {
    let timeout_ms = limits.timeout.as_millis() as u64;
    let deadline_ms = limits.deadline.as_millis() as u64;
    // The store ends here: what the report needs is moved out of it, not copied.
    let data = store.data_mut();
    let stderr = data.stderr.take();
    let report = CallReport {
        bridge_calls: std::mem::take(&mut data.calls),
        delta: std::mem::take(&mut data.delta),
        mutated: data.mutated,
        last_app_error: data.last_app_error.take(),
        last_unavailable: data.last_unavailable.take(),
        last_answer: data.last_answer.take(),
        stdout: data.stdout.take(), stderr: stderr.clone() };
    log_captured(pack, "stdout", &report.stdout);
    log_captured(pack, "stderr", &report.stderr);
    // A call that hit its deadline ends in that fault, even if the guest caught the
    // cut bridge wait and answered: its answer was built on a call that did not finish.
    let result = match outcome {
        _ if data.clock.deadline_hit => Err(PackFault::Deadline { limit_ms: deadline_ms }),
        other => other.map_err(|e| PackFault::classify(&e, data.limiter.hit, timeout_ms, &stderr.text)),
    };
    // The progress sink goes now: the answer waits for its forwarder, which ends
    // when the last sink is gone, so it must not wait for the store's drop.
    drop(std::mem::take(&mut store.data_mut().progress));
    retire::retire(store);
    (result, report)
}

fn log_captured(pack: &str, stream: &str, captured: &CapturedText) {
    if captured.total_bytes == 0 {
        return;
    }
    tracing::info!(
        target: "capstan::pack",
        pack,
        stream,
        bytes = captured.total_bytes,
        truncated = captured.truncated(),
        "{}",
        crate::control_chars::escape(captured.text.trim_end())
    );
}
