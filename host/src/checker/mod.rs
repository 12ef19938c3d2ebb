//! The Python safety checker: the `python-safety` component (world
//! `capstan:checker/code-checker`), embedded in this binary and run in the same
//! sandbox as any pack under `limits::CHECKER_LIMITS`.
//!
//! Security reasoning: the checker is a filter in front of `execute_python`, so every
//! way it can fail is a rejection. A script over `MAX_PYTHON_SOURCE_BYTES` is refused
//! before the guest sees it; a guest that traps, runs out of memory or time, or is
//! missing from this build yields a `checker-fault` finding, never an `allowed`. The
//! guest gets no bridge (`max_bridge_calls: 0`, no gate) and WASI with no authority.

pub mod bindings;
pub mod policy;

pub use policy::CheckerPolicy;

use crate::engine::ComponentCache;
use crate::limits;
use crate::sandbox::{CallSetup, Sandbox};
use bindings::{CodeChecker, CodeCheckerPre};
use serde::Serialize;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/checker.rs"));
}

/// One finding, as `check-python --json` and `CODE_REJECTED` report it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: String,
    pub message: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckVerdict {
    pub allowed: bool,
    pub findings: Vec<Finding>,
}

impl CheckVerdict {
    fn rejected(rule: &str, message: String) -> Self {
        CheckVerdict { allowed: false, findings: vec![Finding { rule: rule.into(), message, line: 1, column: 1 }] }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CheckerError {
    #[error("this capstan was built without the Python checker component")]
    Missing,
    #[error("the Python checker component does not load: {0}")]
    Load(String),
}

/// The checker, compiled and linked once; each check gets a fresh instance.
pub struct PythonChecker {
    pre: CodeCheckerPre<crate::sandbox::CallState>,
    sha256: String,
}

impl PythonChecker {
    pub fn load(sandbox: &Sandbox, cache: &ComponentCache) -> Result<Self, CheckerError> {
        let bytes = embedded::CHECKER_COMPONENT;
        if bytes.is_empty() {
            return Err(CheckerError::Missing);
        }
        let sha256 = crate::fsutil::sha256_hex(bytes);
        let (component, _) = cache.load_or_compile(sandbox.engine().engine(), &sha256, bytes).map_err(|e| CheckerError::Load(format!("{e:#}")))?;
        let pre = sandbox.linker().instantiate_pre(&component).map_err(|e| CheckerError::Load(format!("{e:#}")))?;
        let pre = CodeCheckerPre::new(pre).map_err(|e| CheckerError::Load(format!("{e:#}")))?;
        Ok(PythonChecker { pre, sha256 })
    }

    /// The checker component's sha256 (the add-on is told which checker passed a script).
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    pub fn check(&self, sandbox: &Sandbox, source: &str, policy: &CheckerPolicy) -> CheckVerdict {
        if source.len() > limits::MAX_PYTHON_SOURCE_BYTES {
            let message = format!("the script is {} bytes; the checker reads at most {}", source.len(), limits::MAX_PYTHON_SOURCE_BYTES);
            return CheckVerdict::rejected("source-too-large", message);
        }
        let setup = CallSetup::offline("python-safety", limits::CHECKER_LIMITS);
        let wit_policy = policy.to_wit();
        let (outcome, _report) = sandbox.run_instance(
            setup,
            |store| self.pre.instantiate(store),
            |store, checker: &CodeChecker| checker.capstan_checker_checker().call_check(store, source, &wit_policy),
        );
        match outcome {
            Ok(v) => CheckVerdict {
                allowed: v.allowed && v.findings.is_empty(),
                findings: v.findings.into_iter().map(|f| Finding { rule: f.rule, message: f.message, line: f.line, column: f.column }).collect(),
            },
            Err(fault) => CheckVerdict::rejected("checker-fault", format!("the checker could not finish, so the script is rejected: {fault}")),
        }
    }
}
