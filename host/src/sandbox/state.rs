//! The data of one call's `Store`: what the guest can reach, and nothing else.
//!
//! Security reasoning: the WASI context grants no authority. No preopened
//! directories (so no files), no environment variables, no arguments, no sockets or
//! name lookups, stdin empty, stdout/stderr captured. Rust's std imports WASI
//! interfaces even when a pack does no I/O (panic printing, allocation), so WASI is
//! linked, but every capability that matters answers "nothing here". The only door
//! to an application is the `bridge` import, which goes through the gate.

use super::limiter::CallLimiter;
use super::progress::{CallProgress, ProgressSink};
use super::stdio::CapturedOutput;
use crate::bridge::{BridgeClient, BridgeFailure, BridgeGate, BridgeRequest};
use crate::limits;
use crate::delta::SceneDelta;
use crate::plugin::bindings::{v1, v2};
use v2::capstan::pack::{log, progress, types};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// One bridge call as it happened (for status reports and tests).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BridgeCallRecord {
    pub command: String,
    /// `ok` or the error code.
    pub outcome: String,
    /// When the application reported the error: its own code (`not_found`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_code: Option<String>,
}

/// A bridge answered one of `calls` `unknown_command`: it lacks a command its last ping
/// listed (an older add-on took its place), so what was worked out from that ping is
/// stale (`call::CallPath::run_checked` forgets it).
pub fn lacked_a_command(calls: &[BridgeCallRecord]) -> bool {
    calls.iter().any(|c| c.app_code.as_deref() == Some("unknown_command"))
}

pub struct CallState {
    wasi: WasiCtx,
    table: ResourceTable,
    pub(super) limiter: CallLimiter,
    /// `None` while describing: no capability is running, so no call is allowed.
    gate: Option<BridgeGate>,
    client: Arc<dyn BridgeClient>,
    pub(super) stdout: CapturedOutput,
    pub(super) stderr: CapturedOutput,
    pack: Arc<str>,
    log_lines: u32,
    pub(super) calls: Vec<BridgeCallRecord>,
    pub(super) clock: GuestClock,
    pub(super) last_unavailable: Option<crate::availability::Availability>,
    /// The scene delta of every bridge call so far, merged (failed calls included).
    pub(super) delta: SceneDelta,
    /// A mutating command ran (so the call is one undo step).
    pub(super) mutated: bool,
    /// The last application error, for the report.
    pub(super) last_app_error: Option<super::AppFailureRecord>,
    /// The last answer handed to the guest: its text and the checked document it was
    /// written from (`CallReport::last_answer`).
    pub(super) last_answer: Option<(String, serde_json::Value)>,
    /// The longest answer kept as `last_answer` (`limits::KEPT_ANSWER_BYTES`, and never
    /// more than a result may be): a longer one could not be passed on, and keeping it
    /// would hold host memory the guest's limit does not count.
    keep_answer_up_to: usize,
    /// Progress reports on their way to the listener, if any.
    pub(super) progress: CallProgress,
}

/// The call's two clocks. Guest time is wall time since the call started minus time
/// spent waiting for the bridge (bounded by `timeout`); the deadline bounds the whole
/// call, bridge waits included (`deadline`).
#[derive(Debug, Clone, Copy)]
pub struct GuestClock {
    started: Instant,
    in_bridge: Duration,
    deadline: Duration,
    /// The deadline came due: a bridge wait was cut or refused by it, or the guest was
    /// interrupted at it. The call then ends in `PackFault::Deadline`, whatever the guest
    /// returns (it may have caught the bridge error).
    pub(super) deadline_hit: bool,
}

impl GuestClock {
    fn new(deadline: Duration) -> Self {
        GuestClock { started: Instant::now(), in_bridge: Duration::ZERO, deadline, deadline_hit: false }
    }
    pub fn guest_time(&self) -> Duration {
        self.started.elapsed().saturating_sub(self.in_bridge)
    }
    /// Wall time left before the whole-call deadline.
    pub fn deadline_left(&self) -> Duration {
        self.deadline.saturating_sub(self.started.elapsed())
    }
    pub fn deadline(&self) -> Duration {
        self.deadline
    }
}

impl CallState {
    pub fn new(
        pack: Arc<str>,
        limits: &limits::CallLimits,
        gate: Option<BridgeGate>,
        client: Arc<dyn BridgeClient>,
        progress: Option<ProgressSink>,
    ) -> Self {
        let stdout = CapturedOutput::new(limits::CAPTURED_STDIO_BYTES);
        let stderr = CapturedOutput::new(limits::CAPTURED_STDIO_BYTES);
        let wasi = WasiCtx::builder()
            .stdout(stdout.clone())
            .stderr(stderr.clone())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .socket_addr_check(|_, _| Box::pin(async { false }))
            .build();
        CallState {
            wasi,
            table: ResourceTable::new(),
            limiter: CallLimiter::new(limits.memory_bytes),
            gate,
            client,
            stdout,
            stderr,
            pack,
            log_lines: 0,
            calls: Vec::new(),
            clock: GuestClock::new(limits.deadline),
            last_unavailable: None,
            delta: SceneDelta::default(),
            mutated: false,
            last_app_error: None,
            last_answer: None,
            keep_answer_up_to: usize::try_from(limits.max_io_bytes.min(limits::KEPT_ANSWER_BYTES)).unwrap_or(0),
            progress: CallProgress::new(progress),
        }
    }

    /// Begin the call this state's instance was made for: its gate (until now none,
    /// so nothing the instance ran while being made could reach a bridge) and who
    /// listens to its progress.
    pub(super) fn begin(&mut self, gate: Option<BridgeGate>, progress: Option<ProgressSink>) {
        self.gate = gate;
        self.progress = CallProgress::new(progress);
    }

    /// Start the call's clocks again (an instance made ahead of its call: the time it
    /// waited is not the call's).
    pub(super) fn restart_clock(&mut self) {
        self.clock = GuestClock::new(self.clock.deadline);
    }

    fn record(&mut self, command: &str, outcome: &str, app_code: Option<&str>) {
        if self.calls.len() < limits::CEILING_LIMITS.max_bridge_calls as usize {
            let app_code = app_code.map(|c| c.chars().take(64).collect());
            self.calls.push(BridgeCallRecord { command: command.chars().take(80).collect(), outcome: outcome.into(), app_code });
        }
    }
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl types::Host for CallState {}
impl v1::capstan::pack::types::Host for CallState {}

fn wit_error(code: types::BridgeErrorCode, message: String) -> types::BridgeError {
    types::BridgeError { code, message, app_code: None }
}

impl v2::capstan::pack::bridge::Host for CallState {
    fn call(&mut self, server: String, command: String, params_json: String) -> Result<String, types::BridgeError> {
        self.bridge_call(Some(server), command, params_json)
    }
}

impl progress::Host for CallState {
    fn report(&mut self, done: u64, total: u64, message: String) {
        self.progress.report(done, total, &message);
    }
}

impl v1::capstan::pack::bridge::Host for CallState {
    /// 0.1.0 names no server: the manifest's one server with this command is meant.
    fn call(&mut self, command: String, params_json: String) -> Result<String, v1::capstan::pack::types::BridgeError> {
        self.bridge_call(None, command, params_json).map_err(|e| {
            // 0.1.0 has no field for the application's code: it goes into the message.
            let message = match e.app_code {
                Some(code) if !e.message.starts_with(&code) => format!("{code}: {}", e.message),
                _ => e.message,
            };
            v1::capstan::pack::types::BridgeError { code: crate::plugin::bindings::to_old_code(e.code), message }
        })
    }
}

impl v1::capstan::pack::log::Host for CallState {
    fn log(&mut self, level: v1::capstan::pack::log::Level, message: String) {
        use v1::capstan::pack::log::Level as Old;
        let level = match level {
            Old::Trace => log::Level::Trace,
            Old::Debug => log::Level::Debug,
            Old::Info => log::Level::Info,
            Old::Warn => log::Level::Warn,
            Old::Error => log::Level::Error,
        };
        log::Host::log(self, level, message)
    }
}

impl CallState {
    /// One bridge call from the guest: gate, client, and the record of what happened
    /// (outcome, application code, delta). `server` is `None` for a 0.1.0 pack.
    fn bridge_call(&mut self, server: Option<String>, command: String, params_json: String) -> Result<String, types::BridgeError> {
        use types::BridgeErrorCode as Code;
        let Some(gate) = self.gate.as_mut() else {
            self.record(&command, "PERMISSION_DENIED", None);
            return Err(wit_error(Code::PermissionDenied, "no bridge calls outside a capability's call (while a pack is being made or describes itself)".into()));
        };
        let checked = match gate.check(server.as_deref(), &command, &params_json) {
            Ok(c) => c,
            Err(refusal) => {
                let code = match refusal {
                    crate::bridge::GateRefusal::PermissionDenied(_) => Code::PermissionDenied,
                    crate::bridge::GateRefusal::InvalidParams { .. } => Code::InvalidBridgeParams,
                    crate::bridge::GateRefusal::BudgetExceeded(_) => Code::BudgetExceeded,
                };
                self.record(&command, refusal.code(), None);
                return Err(wit_error(code, refusal.to_string()));
            }
        };
        // The whole call has a deadline: no wait may outlast it. A call whose deadline has
        // passed is refused before it reaches the bridge; a wait is cut to the time left.
        let left = self.clock.deadline_left();
        if left.is_zero() {
            self.clock.deadline_hit = true;
            self.record(&command, "BUDGET_EXCEEDED", None);
            let ms = self.clock.deadline().as_millis();
            return Err(wit_error(Code::BudgetExceeded, format!("the call's deadline of {ms} ms (deadline_ms, bridge waits included) has passed")));
        }
        let cut_by_deadline = left < checked.timeout;
        let request = BridgeRequest {
            server: &checked.server,
            command: &checked.command,
            params: &checked.params,
            timeout: checked.timeout.min(left),
        };
        let waiting = Instant::now();
        let answer = self.client.call(request);
        self.clock.in_bridge += waiting.elapsed();
        if cut_by_deadline && self.clock.deadline_left().is_zero() {
            self.clock.deadline_hit = true;
        }
        let spec = gate.command_spec(&checked.server, &checked.command);
        let spec_limit = spec.map(|s| s.max_result_bytes);
        let answer = match (answer, spec) {
            // An answer outside the command's declared result schema is not one the
            // pack may act on (a wrong or skewed peer): a transport error.
            (Ok(value), Some(spec)) => match spec.result_errors(&value) {
                errors if errors.is_empty() => Ok(value),
                errors => Err(BridgeFailure::Transport {
                    reason: "invalid_result".into(),
                    detail: format!("{command} answered outside its declared result: {}", errors.join("; ")),
                }),
            },
            (other, _) => other,
        };
        // Whether an application error is one the command declares, worked out while
        // the command's spec is at hand (only a failure needs it).
        let declared_error = match (&answer, spec) {
            (Err(BridgeFailure::App { code, .. }), Some(spec)) => spec.errors.contains(code),
            _ => false,
        };
        if checked.effect.mutates() {
            match &answer {
                Ok(value) => {
                    self.mutated = true;
                    if let Some(delta) = SceneDelta::from_answer(value) {
                        self.delta.then(&delta);
                    }
                }
                Err(BridgeFailure::App { delta: Some(delta), .. }) => {
                    self.mutated = true;
                    self.delta.then(delta);
                }
                Err(_) => {}
            }
        }
        match answer {
            Ok(value) => {
                // Straight into a byte buffer (`Value`'s `Display` goes through a
                // formatter per piece); a `Value` always serialises.
                let text = serde_json::to_string(&value).expect("a JSON document serialises");
                if let Some(limit) = spec_limit.filter(|l| text.len() as u64 > *l) {
                    self.record(&command, "transport", None);
                    return Err(wit_error(Code::Transport, format!("{command} answered {} bytes, more than its ceiling of {limit}", text.len())));
                }
                self.record(&command, "ok", None);
                self.last_answer = (text.len() <= self.keep_answer_up_to).then(|| (text.clone(), value));
                Ok(text)
            }
            Err(failure) => {
                use crate::availability::{Availability, State};
                let code = match &failure {
                    BridgeFailure::Unavailable { server, state, detail, .. } => {
                        let state = State::parse(state).unwrap_or(State::EndpointUnavailable);
                        self.last_unavailable = Some(Availability::new(server, state, detail.clone()));
                        Code::AppUnavailable
                    }
                    BridgeFailure::Transport { reason, detail } if reason == "wrong_peer" => {
                        let state = State::PortTakenByOtherAddon;
                        self.last_unavailable = Some(Availability::new(&checked.server, state, detail.clone()));
                        Code::AppUnavailable
                    }
                    BridgeFailure::Transport { .. } => Code::Transport,
                    BridgeFailure::App { .. } => Code::AppError,
                };
                let app_code = match &failure {
                    BridgeFailure::App { code, message, .. } => {
                        self.last_app_error = Some(super::AppFailureRecord {
                            code: code.clone(),
                            message: message.clone(),
                            declared: declared_error,
                        });
                        Some(code.clone())
                    }
                    _ => None,
                };
                self.record(&command, code.name(), app_code.as_deref());
                tracing::info!(pack = %self.pack, %command, "bridge call failed: {failure}");
                Err(types::BridgeError { code, message: failure.to_string(), app_code })
            }
        }
    }
}

impl log::Host for CallState {
    fn log(&mut self, level: log::Level, message: String) {
        self.log_lines += 1;
        if self.log_lines > limits::MAX_LOG_LINES_PER_CALL {
            if self.log_lines == limits::MAX_LOG_LINES_PER_CALL + 1 {
                tracing::warn!(pack = %self.pack, "pack log lines beyond {} this call are dropped", limits::MAX_LOG_LINES_PER_CALL);
            }
            return;
        }
        // A pack's text: control characters escaped, so it cannot forge log lines.
        let message: String = message.chars().take(limits::MAX_LOG_LINE_BYTES).collect();
        let message = crate::control_chars::escape(&message);
        let pack = &*self.pack;
        match level {
            log::Level::Trace => tracing::trace!(target: "capstan::pack", pack, "{message}"),
            log::Level::Debug => tracing::debug!(target: "capstan::pack", pack, "{message}"),
            log::Level::Info => tracing::info!(target: "capstan::pack", pack, "{message}"),
            log::Level::Warn => tracing::warn!(target: "capstan::pack", pack, "{message}"),
            log::Level::Error => tracing::error!(target: "capstan::pack", pack, "{message}"),
        }
    }
}
