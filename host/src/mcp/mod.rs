//! The MCP surfaces: guided (five tools, `guided`), expert (one tool per capability,
//! `expert`) and planner (five planner tools, `planner_tools`), over stdio or HTTP.
//! Every surface runs capabilities on the one call path ([`crate::call::CallPath`]):
//! resolve, validate, the app gate, a fresh sandbox per call, the bridge gate.
//!
//! stdout carries only MCP frames; everything else (logs, the app's output) goes to
//! stderr or a log file.

pub mod core;
pub mod execute;
pub mod expert;
pub mod guided;
pub mod python_exec;
pub mod results;
pub mod server;
pub mod http;
pub mod http_admission;
pub mod http_origin;
pub mod http_sessions;
pub mod images;
pub mod planner_input;
pub mod planner_tools;
pub mod progress;
pub mod record;
pub mod session;
pub mod shared;
pub mod tasks;
pub mod tools;

pub use core::Core;
pub use server::{CapstanServer, Surface};

use crate::bridge::HttpBridgeClient;
use crate::engine::AllocationPreference;
use crate::home::CapstanHome;
use crate::runtime::{Runtime, RuntimeError};
use rmcp::ServiceExt;
use std::path::PathBuf;
use std::sync::Arc;

/// What a served session talks to and records, besides its surface.
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    /// `--record FILE`: what crosses the boundary ([`record`]).
    pub record: Option<PathBuf>,
    /// `--instance FILE`: this server's app is the launched instance whose runtime
    /// record is FILE (its server name first), not the app's session.
    pub instance: Option<(String, PathBuf)>,
}

impl ServeOptions {
    fn recorder(&self) -> Result<Option<Arc<record::Recorder>>, String> {
        self.record.as_deref().map(|p| record::Recorder::open(p).map(Arc::new).map_err(|e| e.to_string())).transpose()
    }
}

/// Load every pack and build the shared core.
pub fn core(home: &CapstanHome) -> Result<Core, RuntimeError> {
    core_for(home, None)
}

/// [`core`], its app the launched instance `instance` names when given.
pub fn core_for(home: &CapstanHome, instance: Option<&(String, PathBuf)>) -> Result<Core, RuntimeError> {
    let client = Arc::new(match instance {
        Some((server, file)) => HttpBridgeClient::for_runtime_file(home, server, file.clone()),
        None => HttpBridgeClient::for_home(home),
    });
    let mut runtime = Runtime::new(home, AllocationPreference::PoolingIfAvailable, client.clone())?;
    runtime.load_all(home);
    client.adopt_declared(runtime.packs(), home);
    Ok(Core::new(runtime, client, home))
}

/// Serve one MCP session on stdin/stdout until the client disconnects.
pub fn serve_stdio(home: &CapstanHome, surface: Surface, options: ServeOptions) -> Result<(), String> {
    let recorder = options.recorder()?;
    let shared = shared::SharedCore::new(core_for(home, options.instance.as_ref()).map_err(|e| e.to_string())?);
    // One thread: a stdio session is one client. A quick read is run on it inline, so
    // it is read, run and answered without a cross-thread wake-up; anything longer
    // goes to the blocking pool (`mcp/execute.rs`), so progress, cancellation and
    // pings keep flowing while it runs.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async move {
        tokio::spawn(shared::watch_store(shared.clone(), home.clone(), options.instance.clone()));
        let server = CapstanServer::new(shared, surface).recording(recorder);
        let service = server.serve(rmcp::transport::stdio_pipes()).await.map_err(|e| e.to_string())?;
        service.waiting().await.map_err(|e| e.to_string())?;
        Ok(())
    })
}
