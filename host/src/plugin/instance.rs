//! A linked pack of either contract version, and the two calls the host makes on it.
//! Everything above this module sees 0.2.0's shapes; a 0.1.0 pack's answers are
//! converted here (its capabilities are not destructive unless a command says so, have
//! no conformance cases, and its families are implied by its capabilities).

use super::bindings::{self, PackDescription, PackError, v1, v2};
use crate::sandbox::{CallReport, CallSetup, CallState, PackFault, Sandbox};

pub enum PackPre {
    V1(v1::CapabilityPackPre<CallState>),
    V2(v2::CapabilityPackPre<CallState>),
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

    pub fn execute(&self, sandbox: &Sandbox, setup: CallSetup, key: &str, arguments: &str) -> (Result<Result<String, PackError>, PackFault>, CallReport) {
        match self {
            PackPre::V1(pre) => {
                let (out, report) =
                    sandbox.run_instance(setup, |s| pre.instantiate(s), |s, p| p.capstan_pack_pack().call_execute(s, key, arguments));
                (out.map(|r| r.map_err(bindings::error_from_v1)), report)
            }
            PackPre::V2(pre) => {
                sandbox.run_instance(setup, |s| pre.instantiate(s), |s, p| p.capstan_pack_pack().call_execute(s, key, arguments))
            }
        }
    }

    pub fn version(&self) -> &'static str {
        match self {
            PackPre::V1(_) => "0.1.0",
            PackPre::V2(_) => "0.2.0",
        }
    }
}
