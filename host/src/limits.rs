//! Every limit and timeout of the host, declared in one place.
//!
//! A pack's manifest may ask for its own per-call limits; the host clamps each one to
//! the ceiling below. The ceilings are what an operator trusts capstan to hold for any
//! pack, however it was written: a pack cannot talk its way past them.

use std::time::Duration;

/// How long a server's availability (runtime file + ping) is reused before it is
/// checked again: a burst of searches pings once, a Blender that just came up is seen
/// within this.
pub const AVAILABILITY_TTL: Duration = Duration::from_secs(1);

/// How often an expert-surface session re-checks availability to tell its client
/// `notifications/tools/list_changed` when tools appear or disappear.
pub const TOOL_LIST_WATCH_INTERVAL: Duration = Duration::from_secs(1);
/// How long `planner_act` waits for the user's answer to an `elicitation/create`
/// (2025-11-25 clients) before answering with the structured `needs_input`.
pub const ELICITATION_TIMEOUT: Duration = Duration::from_secs(600);
/// How long `capstan eval --agent` lets the agent work on one task (`--agent-timeout`
/// overrides) before its process group is killed and the task fails.
pub const AGENT_TASK_TIMEOUT: Duration = Duration::from_secs(300);
/// The end of an agent's stdout and stderr kept in the report.
pub const AGENT_OUTPUT_TAIL_BYTES: usize = 4096;

/// How long `<app> --version` (a manifest's `command` version source) may run
/// before it is killed and the version counts as unreadable.
pub const APP_VERSION_COMMAND_TIMEOUT: Duration = Duration::from_secs(20);
/// Output of that command kept for version matching.
pub const APP_VERSION_OUTPUT_BYTES: usize = 64 * 1024;

/// How long an install check (presence, and possibly `<app> --version`) is reused
/// while a server is unreachable.
pub const APP_INSTALL_CHECK_TTL: Duration = Duration::from_secs(30);

/// How often a running `serve` checks the pack store for installs and removals.
pub const STORE_WATCH_INTERVAL: Duration = Duration::from_secs(1);

/// How long the bridge client polls for the first byte of an answer before it
/// blocks: a read-only command on a local bridge answers within this, and polling
/// saves a sleep and wake-up per call. Longer answers cost at most this much CPU.
pub const BRIDGE_ANSWER_SPIN: Duration = Duration::from_micros(100);

/// The longest bridge answer the sandbox keeps, beside the text it hands the guest, so
/// that a guest passing the answer on unchanged is not parsed again (`sandbox/state.rs`).
/// Longer answers are parsed again if passed on; the cap bounds the host memory a call
/// holds outside the guest's own memory limit.
pub const KEPT_ANSWER_BYTES: u64 = 1024 * 1024;

/// Bridge client: connecting to a loopback port that answers takes microseconds; a
/// slow connect means something is wrong.
pub const BRIDGE_CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// A bridge command's answer, unless the catalog gives the command its own (`timeout_s`).
pub const BRIDGE_DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
/// A capability is a long call, which a client that declared the MCP tasks extension
/// gets as a task (`mcp/tasks.rs`), when one of its bridge commands may take at least
/// this long (renders, bakes and simulations declare 600 s or more).
pub const TASK_LONG_CALL_TIMEOUT: Duration = Duration::from_secs(300);
/// How long a task is kept: past this from its start, an unfinished task is reported
/// failed, and a finished one is forgotten this long after it finished. Longer than
/// the longest bridge command timeout (an animation render's 3600 s).
pub const TASK_TTL: Duration = Duration::from_secs(2 * 3600);
/// How long a call waits for an instance whose restart was asked for (a cancelled long
/// call, `containment/restart.rs`) to answer again before it counts as not running.
pub const APP_RESTART_WAIT: Duration = Duration::from_secs(60);
/// How often a running task asks its app for the long call's progress.
pub const TASK_PROGRESS_POLL: Duration = Duration::from_millis(500);
/// The polling interval a task suggests to its client.
pub const TASK_POLL_INTERVAL: Duration = Duration::from_millis(500);
/// `/ping` is answered on the bridge's server thread, never behind a render.
pub const BRIDGE_PING_TIMEOUT: Duration = Duration::from_secs(3);
/// Probing a port that did not answer like a capstan bridge.
pub const BRIDGE_PROBE_TIMEOUT: Duration = Duration::from_millis(750);
/// The largest bridge answer the client reads.
pub const BRIDGE_MAX_RESPONSE_BYTES: u64 = 16 * 1024 * 1024;

/// `capstan serve --http` (mcp/http_admission.rs): connections open at once (beyond
/// it the longest-idle one is closed, or 503 when all are busy), requests in flight,
/// how long a connection may take to send its first request head, stay idle between
/// requests, and send a request body, and the largest body.
pub const HTTP_MAX_CONNECTIONS: usize = 256;
pub const HTTP_MAX_REQUESTS_IN_FLIGHT: usize = 64;
pub const HTTP_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
pub const HTTP_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
pub const HTTP_BODY_TIMEOUT: Duration = Duration::from_secs(30);
pub const HTTP_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// `capstan serve --http`: MCP sessions open at once (a new one beyond it is refused
/// with 503 naming the bound; `--max-sessions`), and how long a session may sit with
/// nothing in flight before it is closed (`--session-idle-timeout`). A session costs a
/// server instance and its tasks even with no connection open, so neither the
/// connection cap nor the idle connection timeout bounds them.
pub const HTTP_MAX_SESSIONS: usize = 256;
pub const HTTP_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// What the MCP tools accept from a client, and how much of it an error quotes back
/// (mcp/guided.rs, mcp/results.rs, mcp/planner_tools.rs, crate::echo). Each bound is declared in the
/// tool's input schema too (`maxLength`), and a value over it is refused with an error
/// that names the bound.
pub mod tool_inputs {
    /// A goal (`router_set_goal`, `planner_set_goal`), in characters.
    pub const MAX_GOAL_CHARS: usize = 2000;
    /// A search query (`search_capabilities`), in characters.
    pub const MAX_QUERY_CHARS: usize = 500;
    /// A family name (`search_capabilities`), in characters.
    pub const MAX_FAMILY_CHARS: usize = 32;
    /// A capability key (`get_capability_schema`, `execute_capability`), in characters.
    pub const MAX_KEY_CHARS: usize = 64;
    /// How much of a caller's value an error quotes (the rest is counted, not shown).
    pub const MAX_ECHOED_CHARS: usize = 200;
    /// Any one string of an error body, whatever produced it (the last layer).
    pub const MAX_ERROR_TEXT_CHARS: usize = 4096;
    /// Schema errors listed for one call's arguments (the rest are counted).
    pub const MAX_SCHEMA_ERRORS: usize = 16;
}

/// `capstan eval --report DIR`: the contact sheet Blender made in its private temporary
/// folder, and the index of its cells, are read back at most this large before they
/// are written into DIR.
pub const EVAL_CONTACT_SHEET_MAX_BYTES: u64 = 256 * 1024 * 1024;
pub const EVAL_CONTACT_SHEET_INDEX_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// Per-call limits of one capability execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CallLimits {
    /// Linear memory the guest may grow to, in bytes.
    pub memory_bytes: u64,
    /// Time the guest may run, enforced by epoch interruption (a trap). Time spent
    /// waiting for the bridge does not count here (each bridge command has its own
    /// timeout in the catalog); `deadline` bounds the whole call.
    pub timeout: Duration,
    /// Wall time of the whole call, bridge waits included: without it a pack could wait
    /// `max_bridge_calls` times a command's timeout (64 x 30 s). Each bridge wait is cut
    /// to the time left, a bridge call after it is refused, and the guest is interrupted
    /// when it comes due (`PackFault::Deadline`, limit `deadline_ms`).
    pub deadline: Duration,
    /// Bridge calls (attempts, refused ones included) in one execution.
    pub max_bridge_calls: u32,
    /// Bytes of arguments in and of result out.
    pub max_io_bytes: u64,
}

const MIB: u64 = 1024 * 1024;

/// What a pack gets when its manifest says nothing.
pub const DEFAULT_LIMITS: CallLimits = CallLimits {
    memory_bytes: 64 * MIB,
    timeout: Duration::from_secs(10),
    // As long as the longest single command of the official catalog (`render_image`).
    deadline: Duration::from_secs(600),
    max_bridge_calls: 64,
    max_io_bytes: 8 * MIB,
};

/// The most any manifest can ask for.
pub const CEILING_LIMITS: CallLimits = CallLimits {
    memory_bytes: 512 * MIB,
    timeout: Duration::from_secs(120),
    deadline: Duration::from_secs(1800),
    max_bridge_calls: 1024,
    max_io_bytes: 64 * MIB,
};

/// Limits for `describe()` at load time: generous enough for a large catalog, small
/// enough that a hostile pack cannot stall start-up.
pub const DESCRIBE_LIMITS: CallLimits = CallLimits {
    memory_bytes: 64 * MIB,
    timeout: Duration::from_secs(5),
    deadline: Duration::from_secs(5),
    max_bridge_calls: 0,
    max_io_bytes: 8 * MIB,
};

/// The Python safety checker's calls: parsing a large script needs more memory than a
/// pack call, and no bridge at all. A script larger than `MAX_PYTHON_SOURCE_BYTES` is
/// rejected before the checker runs (`source-too-large`).
pub const CHECKER_LIMITS: CallLimits = CallLimits {
    memory_bytes: 256 * MIB,
    timeout: Duration::from_secs(5),
    deadline: Duration::from_secs(5),
    max_bridge_calls: 0,
    max_io_bytes: 2 * MIB,
};
pub const MAX_PYTHON_SOURCE_BYTES: usize = MIB as usize;

/// How often the epoch ticker advances the engine's epoch. A deadline is rounded up
/// to whole ticks, so a call may overrun its timeout by at most one tick.
pub const EPOCH_TICK: Duration = Duration::from_millis(5);

/// The guest time a spare instance may take to be made in idle time
/// (`runtime::spare`): instantiation runs only the pack's start functions, a few
/// microseconds for every pack capstan ships. One that takes longer fails; after
/// [`SPARE_FAILURES_BEFORE_GIVING_UP`] failures in a row none is made ahead for the
/// pack, and its calls make their own instance, under the call's limits, as before.
/// The bound keeps a hostile start function from holding the stdio session between calls.
pub const SPARE_INSTANTIATION_BUDGET: Duration = Duration::from_millis(100);

/// Spare instances kept at once per runtime, one per pack at most (`runtime::spare`):
/// an agent that alternates between a few packs finds each one's made.
pub const MAX_SPARES: usize = 4;

/// Failures in a row after which no more spares are made for a pack (a passing
/// failure, such as a full pool, does not end them at once).
pub const SPARE_FAILURES_BEFORE_GIVING_UP: u32 = 3;

/// Guest stdout/stderr kept per call for the log; the rest is counted and dropped.
pub const CAPTURED_STDIO_BYTES: usize = 64 * 1024;

/// Guest `log` lines forwarded per call, and the length each is cut to.
pub const MAX_LOG_LINES_PER_CALL: u32 = 256;
pub const MAX_LOG_LINE_BYTES: usize = 4096;

/// Progress reports forwarded per call (a render of many frames reports once a frame;
/// as many as the largest bridge-call budget, so one report per call always fits), and
/// the length each message is cut to.
pub const MAX_PROGRESS_REPORTS_PER_CALL: u32 = 1024;
pub const MAX_PROGRESS_MESSAGE_CHARS: usize = 200;

/// Core instances one call's store may create. A Rust pack is a handful (the guest and
/// its shims); a componentize-py (CPython) pack instantiates about 38 core modules
/// (libc, libpython, the stubbed WASI adapters), so 16 refused it at `describe`.
pub const MAX_CORE_INSTANCES_PER_CALL: usize = 64;

/// Linear memories and tables one component instance may create.
pub const MAX_MEMORIES_PER_CALL: usize = 4;
pub const MAX_TABLES_PER_CALL: usize = 64;
pub const MAX_TABLE_ELEMENTS: usize = 1_000_000;

/// Concurrent component instances the pooling allocator reserves slots for.
pub const POOLED_INSTANCES: u32 = 64;

/// Bytes of each pooled linear memory kept resident (zeroed, not decommitted) between calls.
pub const POOL_KEEP_RESIDENT_BYTES: usize = 2 * 1024 * 1024;

/// The largest component file the host will read.
pub const MAX_COMPONENT_BYTES: u64 = 64 * MIB;
/// The largest file a workflow hands from one app's output folder to another's (a
/// tessellated CAD part is tens of MiB at most; a file past this is refused, not cut).
pub const HANDOVER_MAX_BYTES: u64 = 1024 * MIB;
/// The largest pack manifest the host will read.
pub const MAX_MANIFEST_BYTES: u64 = 256 * 1024;
/// A packed pack archive: the most bytes it may unpack to, and the most entries it
/// may hold (a pack is a manifest and one component, plus a few docs).
pub const MAX_ARCHIVE_UNPACKED_BYTES: u64 = MAX_COMPONENT_BYTES + 8 * MIB;
pub const MAX_ARCHIVE_ENTRIES: usize = 256;
/// A catalog fetch (the clone and its checkout, on disk): git is stopped past either.
pub const MAX_CATALOG_FETCH_BYTES: u64 = 256 * MIB;
pub const CATALOG_FETCH_TIMEOUT: Duration = Duration::from_secs(300);

/// What a pack may declare about itself in `describe()` (plugin/declared.rs,
/// plugin/describe.rs). Generous for a real catalog (the official packs declare at
/// most a few dozen capabilities of a few KB each), small enough that a hostile pack
/// cannot slow start-up, hold memory or flood search with its description.
pub mod declared {
    /// All strings of a description together.
    pub const MAX_DESCRIPTION_BYTES: usize = 4 * 1024 * 1024;
    pub const MAX_CAPABILITIES: usize = 512;
    /// One capability's JSON Schema text.
    pub const MAX_SCHEMA_BYTES: usize = 64 * 1024;
    /// One line each: a capability's or a family's summary.
    pub const MAX_SUMMARY_BYTES: usize = 200;
    pub const MAX_CAPABILITY_DESCRIPTION_BYTES: usize = 8 * 1024;
    pub const MAX_TAGS: usize = 32;
    pub const MAX_TAG_BYTES: usize = 48;
    pub const MAX_EXAMPLES: usize = 16;
    pub const MAX_EXAMPLE_BYTES: usize = 200;
    pub const MAX_ALIASES: usize = 16;
    pub const MAX_BRIDGE_COMMANDS: usize = 64;
    pub const MAX_FAMILIES: usize = 64;
    pub const MAX_CUES_PER_FAMILY: usize = 256;
    pub const MAX_CUE_BYTES: usize = 64;
    pub const MAX_CASES_PER_CAPABILITY: usize = 32;
    pub const MAX_CASE_BYTES: usize = 64 * 1024;
}

/// Limits a manifest asked for, clamped to the ceilings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clamped {
    pub limits: CallLimits,
    /// Human-readable notes for every value that was lowered.
    pub lowered: Vec<String>,
}

/// What a manifest asks for (each optional), in manifest units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Requested {
    pub memory_mib: Option<u64>,
    pub timeout_ms: Option<u64>,
    pub deadline_ms: Option<u64>,
    pub max_bridge_calls: Option<u32>,
    pub max_io_bytes: Option<u64>,
}

/// Apply manifest requests over the defaults, under the ceilings. A deadline shorter
/// than the guest timeout is kept: it is the tighter bound, and says so.
pub fn clamp(asked: Requested) -> Clamped {
    let Requested { memory_mib, timeout_ms, deadline_ms, max_bridge_calls, max_io_bytes } = asked;
    let mut lowered = Vec::new();
    let mut pick = |name: &str, asked: Option<u64>, default: u64, ceiling: u64| match asked {
        Some(v) if v > ceiling => {
            lowered.push(format!("{name} {v} lowered to the host ceiling {ceiling}"));
            ceiling
        }
        Some(v) => v,
        None => default,
    };
    let memory_mib = pick(
        "memory_mib",
        memory_mib,
        DEFAULT_LIMITS.memory_bytes / MIB,
        CEILING_LIMITS.memory_bytes / MIB,
    );
    let timeout_ms = pick(
        "timeout_ms",
        timeout_ms,
        DEFAULT_LIMITS.timeout.as_millis() as u64,
        CEILING_LIMITS.timeout.as_millis() as u64,
    );
    let deadline_ms = pick(
        "deadline_ms",
        deadline_ms,
        DEFAULT_LIMITS.deadline.as_millis() as u64,
        CEILING_LIMITS.deadline.as_millis() as u64,
    );
    let calls = pick(
        "max_bridge_calls",
        max_bridge_calls.map(u64::from),
        u64::from(DEFAULT_LIMITS.max_bridge_calls),
        u64::from(CEILING_LIMITS.max_bridge_calls),
    );
    let io = pick(
        "max_io_bytes",
        max_io_bytes,
        DEFAULT_LIMITS.max_io_bytes,
        CEILING_LIMITS.max_io_bytes,
    );
    Clamped {
        limits: CallLimits {
            memory_bytes: memory_mib * MIB,
            timeout: Duration::from_millis(timeout_ms),
            deadline: Duration::from_millis(deadline_ms),
            max_bridge_calls: calls as u32,
            max_io_bytes: io,
        },
        lowered,
    }
}

/// A batch worker's app found stopped (SIGSTOP, a debugger) this long during an item
/// is ended, so the item is retried instead of waiting out the call's own timeout
/// (`batch/watchdog.rs`).
pub const BATCH_APP_STOPPED_LIMIT: Duration = Duration::from_secs(15);
/// A batch worker's app that used no CPU at all for this long during an item (a
/// deadlock) is ended the same way. Long enough for any wait on a slow disk.
pub const BATCH_APP_IDLE_LIMIT: Duration = Duration::from_secs(300);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_values_take_the_defaults() {
        let c = clamp(Requested::default());
        assert_eq!(c.limits, DEFAULT_LIMITS);
        assert!(c.lowered.is_empty());
    }

    #[test]
    fn requests_above_the_ceiling_are_lowered_and_said() {
        let c = clamp(Requested {
            memory_mib: Some(100_000),
            timeout_ms: Some(10 * 60 * 1000),
            deadline_ms: Some(24 * 3600 * 1000),
            max_bridge_calls: Some(1_000_000),
            max_io_bytes: Some(u64::MAX),
        });
        assert_eq!(c.limits, CEILING_LIMITS);
        assert_eq!(c.lowered.len(), 5);
        assert!(c.lowered[0].contains("memory_mib 100000"));
    }

    #[test]
    fn requests_below_the_ceiling_are_kept() {
        let c = clamp(Requested {
            memory_mib: Some(16),
            timeout_ms: Some(250),
            deadline_ms: Some(400),
            max_bridge_calls: Some(3),
            max_io_bytes: Some(1024),
        });
        assert_eq!(c.limits.deadline, Duration::from_millis(400));
        assert_eq!(c.limits.memory_bytes, 16 * MIB);
        assert_eq!(c.limits.timeout, Duration::from_millis(250));
        assert_eq!(c.limits.max_bridge_calls, 3);
        assert_eq!(c.limits.max_io_bytes, 1024);
    }
}
