//! A linked pack of either contract version, and the two calls the host makes on it.
//! Everything above this module sees 0.2.0's shapes; a 0.1.0 pack's answers are
//! converted here (its capabilities are not destructive unless a command says so, have
//! no conformance cases, and its families are implied by its capabilities).

use super::bindings::{self, PackDescription, PackError, v1, v2};
use crate::bridge::BridgeClient;
use crate::limits::CallLimits;
use crate::sandbox::{CallReport, CallSetup, CallState, PackFault, Ready, Sandbox};
use wasmtime::Store;

pub enum PackPre {
    V1(v1::CapabilityPackPre<CallState>),
    V2(v2::CapabilityPackPre<CallState>),
}

/// An instance of a pack, of either contract version.
pub enum PackInstance {
    V1(v1::CapabilityPack),
    V2(v2::CapabilityPack),
}

impl PackPre {
    pub fn describe(&self, sandbox: &Sandbox, setup: CallSetup) -> (Result<PackDescription, PackFault>, CallReport) {
        match self {
            PackPre::V1(pre) => {
                let (out, report) = sandbox.run_instance(setup, |s| pre.instantiate(s), |s, p| p.capstan_pack_pack().call_describe(s));
                let out = out.map(|caps| PackDescription {
                    families: Vec::new(),
                    capabilities: caps.into_iter().map(bindings::capability_from_v1).collect(),
                });
                (out, report)
            }
            PackPre::V2(pre) => sandbox.run_instance(setup, |s| pre.instantiate(s), |s, p| p.capstan_pack_pack().call_describe(s)),
        }
    }

    /// Run capability `key`, in `ready` (an instance of this pack made ahead of the
    /// call) when given, else in an instance made now.
    pub fn execute(&self, sandbox: &Sandbox, setup: CallSetup, key: &str, arguments: &str, ready: Option<Ready<PackInstance>>) -> (Result<Result<String, PackError>, PackFault>, CallReport) {
        let run_v1 = |s: &mut Store<CallState>, p: &v1::CapabilityPack| p.capstan_pack_pack().call_execute(s, key, arguments);
        let run_v2 = |s: &mut Store<CallState>, p: &v2::CapabilityPack| p.capstan_pack_pack().call_execute(s, key, arguments);
        let v1_answer = |(out, report): (Result<Result<String, v1::capstan::pack::types::PackError>, PackFault>, CallReport)| (out.map(|r| r.map_err(bindings::error_from_v1)), report);
        match (self, ready.map(Ready::split)) {
            (PackPre::V1(_), Some((ready, PackInstance::V1(instance)))) => v1_answer(sandbox.run_ready(ready.with(instance), setup, run_v1)),
            (PackPre::V2(_), Some((ready, PackInstance::V2(instance)))) => sandbox.run_ready(ready.with(instance), setup, run_v2),
            (pre, other) => {
                // Made from another pack's contract: it cannot be (a spare is this
                // pack's); a test build says so, a release one makes its own.
                if let Some((ready, _)) = other {
                    debug_assert!(false, "a spare of another contract version");
                    ready.discard();
                }
                match pre {
                    PackPre::V1(pre) => v1_answer(sandbox.run_instance(setup, |s| pre.instantiate(s), run_v1)),
                    PackPre::V2(pre) => sandbox.run_instance(setup, |s| pre.instantiate(s), run_v2),
                }
            }
        }
    }

    /// A fresh instance of this pack made ahead of its call ([`Ready`]).
    pub fn make_ready(&self, sandbox: &Sandbox, pack: std::sync::Arc<str>, limits: CallLimits, client: std::sync::Arc<dyn BridgeClient>) -> Option<Ready<PackInstance>> {
        match self {
            PackPre::V1(pre) => sandbox.make_ready(pack, limits, client, |s| pre.instantiate(s).map(PackInstance::V1)),
            PackPre::V2(pre) => sandbox.make_ready(pack, limits, client, |s| pre.instantiate(s).map(PackInstance::V2)),
        }
    }

    pub fn version(&self) -> &'static str {
        match self {
            PackPre::V1(_) => "0.1.0",
            PackPre::V2(_) => "0.2.0",
        }
    }
}
