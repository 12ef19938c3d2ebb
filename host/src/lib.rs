//! capstan: drive desktop applications from MCP clients through sandboxed WebAssembly capability packs.
//!
//! Where things live (the folder names answer the usual questions):
//! - limits and timeouts: [`limits`] (declared once; enforced by [`sandbox`])
//! - the engine and the compiled-component cache: [`engine`]
//! - one call in a fresh store: [`sandbox`] (memory limiter, deadline, captured stdio)
//! - loading a pack (integrity, ABI, describe): [`plugin`]
//! - the pack manifest grammar: [`manifest`]
//! - bridge commands allowed or refused: [`bridge::gate`]; the command catalog: [`bridge::catalog`]
//! - the one call path (resolve, validate, app gate, sandbox, bridge gate): [`call`]
//! - keys to calls: [`runtime`]; where packs come from: [`packs`]
//! - what the host knows about each application: [`app_unit`], registered in [`app_units`]
//! - the command line: [`cli`]
//! - file access under `CAPSTAN_HOME` (names cannot leave their folder): [`confined`]
//! - the kernel's wall around a launched app (Landlock, seccomp, privileges): [`containment`]

pub mod app_unit;
pub mod app_units;
pub mod apps;
pub mod availability;
pub mod batch;
pub mod bridge;
pub mod bridge_code;
pub mod call;
pub mod checker;
pub mod cli;
pub mod conformance;
pub mod confined;
pub mod containment;
pub mod control_chars;
pub mod delta;
pub mod echo;
pub mod engine;
pub mod eval;
pub mod fsutil;
pub mod home;
pub mod launched;
pub mod limits;
pub mod logging;
pub mod manifest;
pub mod mcp;
pub mod packs;
pub mod planner;
pub mod plugin;
pub mod redact;
pub mod report;
pub mod roles;
pub mod router;
pub mod runtime;
pub mod sandbox;
pub mod scaffold;
pub mod store;
pub mod workflow;
