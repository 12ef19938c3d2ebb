//! The data of one call's `Store`: what the guest can reach, and nothing else.
//!
//! Security reasoning: the WASI context grants no authority. No preopened
//! directories (so no files), no environment variables, no arguments, no sockets or
//! name lookups, stdin empty, stdout/stderr captured. Rust's std imports WASI
//! interfaces even when a pack does no I/O (panic printing, allocation), so WASI is
//! linked, but every capability that matters answers "nothing here". The only door
//! to an application is the `bridge` import, which goes through the gate.

use super::limiter::CallLimiter;
use super::stdio::CapturedOutput;
use crate::bridge::{BridgeClient, BridgeFailure, BridgeGate, BridgeRequest};
use crate::limits;
use crate::plugin::bindings::capstan::pack::{bridge, log, types};
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
}

/// Guest time: wall time since the call started, minus time spent waiting for the
/// bridge (which has its own per-command timeouts).
#[derive(Debug, Clone, Copy)]
pub struct GuestClock {
    started: Instant,
    in_bridge: Duration,
}

impl GuestClock {
    fn new() -> Self {
        GuestClock { started: Instant::now(), in_bridge: Duration::ZERO }
    }
    pub fn guest_time(&self) -> Duration {
        self.started.elapsed().saturating_sub(self.in_bridge)
    }
}

impl CallState {
    pub fn new(pack: Arc<str>, memory_bytes: u64, gate: Option<BridgeGate>, client: Arc<dyn BridgeClient>) -> Self {
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
            limiter: CallLimiter::new(memory_bytes),
            gate,
            client,
            stdout,
            stderr,
            pack,
            log_lines: 0,
            calls: Vec::new(),
            clock: GuestClock::new(),
            last_unavailable: None,
        }
    }

    fn record(&mut self, command: &str, outcome: &str) {
        if self.calls.len() < limits::CEILING_LIMITS.max_bridge_calls as usize {
            self.calls.push(BridgeCallRecord { command: command.chars().take(80).collect(), outcome: outcome.into() });
        }
    }
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl types::Host for CallState {}

fn wit_error(code: types::BridgeErrorCode, message: String) -> types::BridgeError {
    types::BridgeError { code, message }
}

impl bridge::Host for CallState {
    fn call(&mut self, command: String, params_json: String) -> Result<String, types::BridgeError> {
        use types::BridgeErrorCode as Code;
        let Some(gate) = self.gate.as_mut() else {
            self.record(&command, "PERMISSION_DENIED");
            return Err(wit_error(Code::PermissionDenied, "no bridge calls while a pack describes itself".into()));
        };
        let checked = match gate.check(&command, &params_json) {
            Ok(c) => c,
            Err(refusal) => {
                let code = match refusal {
                    crate::bridge::GateRefusal::PermissionDenied(_) => Code::PermissionDenied,
                    crate::bridge::GateRefusal::InvalidParams { .. } => Code::InvalidBridgeParams,
                    crate::bridge::GateRefusal::BudgetExceeded(_) => Code::BudgetExceeded,
                };
                self.record(&command, refusal.code());
                return Err(wit_error(code, refusal.to_string()));
            }
        };
        let request = BridgeRequest {
            server: &checked.server,
            command: &checked.command,
            params: &checked.params,
            timeout: checked.timeout,
        };
        let waiting = Instant::now();
        let answer = self.client.call(request);
        self.clock.in_bridge += waiting.elapsed();
        match answer {
            Ok(value) => {
                self.record(&command, "ok");
                Ok(value.to_string())
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
                self.record(&command, code.name());
                tracing::info!(pack = %self.pack, %command, "bridge call failed: {failure}");
                Err(wit_error(code, failure.to_string()))
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
