//! `capstan eval`: goal-conditioned tasks run against a real, confined instance of the
//! app (its unit starts it), each in a fresh factory state, with every number measured in that scene (the format is documented
//! in `host/eval/README.md`).
//!
//! - [`suite`]: the file format; a task that is not valid stays in the suite as one
//!   that cannot run;
//! - [`run`]: each task's calls through the call path, its assertions measured by
//!   the critic, its side effects read from the merged delta;
//! - [`image`]: image goals (a `reference` trajectory rendered as the goal picture,
//!   a `near_miss` that must fail `visual_match`);
//! - [`metrics`]: what is measured per task and in total;
//! - [`report`]: the JSON, Markdown and contact sheet a person reads.
//!
//! Security reasoning: a suite is data. Its tool calls go through the same checked
//! path as any client's ([`CallPath`](crate::call::CallPath): validation, the app gate,
//! sandbox, bridge gate), by canonical key or alias resolved by the registry; its assertions are the
//! critic's expectations, measured only with capabilities that do not change the scene
//! (a mutating one is refused before the task runs). Like any client's calls, a
//! trajectory's (and a measurement's: `io.export`, `io.save` do not change the scene)
//! may write files into the app instance's output folder, nowhere else. A suite cannot
//! name a bridge command or run Python outside the capabilities; the report is written
//! only into the folder given, under names made from task ids restricted to
//! `[A-Za-z0-9._-]`; an image task's reference picture is written by capstan into a
//! private temporary folder that lives while the task runs ([`image`]). A suite file is bounded ([`suite::MAX_SUITE_BYTES`],
//! [`suite::MAX_TASKS`], [`suite::MAX_CALLS`]).

pub mod agent;
pub mod image;
pub mod metrics;
pub mod report;
pub mod run;
pub mod suite;

pub use suite::{Call, Suite, SuiteError, Task, TaskEntry};
