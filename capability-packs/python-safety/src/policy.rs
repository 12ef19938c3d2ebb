//! The policy is data the host passes with every check: the top-level modules a
//! script may import and extra names to reject wherever they appear. The host's
//! default is `policy.json` beside this crate.

use crate::names::nfkc;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    allowed_modules: Vec<String>,
    denied_names: Vec<String>,
}

impl Policy {
    pub fn new(allowed_modules: impl IntoIterator<Item = String>, denied_names: impl IntoIterator<Item = String>) -> Self {
        Policy { allowed_modules: allowed_modules.into_iter().map(|m| nfkc(m.trim()).into()).collect(), denied_names: denied_names.into_iter().map(|n| nfkc(n.trim()).into()).collect() }
    }

    pub fn allows_module(&self, top: &str) -> bool {
        self.allowed_modules.iter().any(|m| m == top)
    }

    pub fn denies(&self, name: &str) -> bool {
        self.denied_names.iter().any(|d| d == name)
    }

    pub fn allowed_list(&self) -> String {
        self.allowed_modules.join(", ")
    }
}
