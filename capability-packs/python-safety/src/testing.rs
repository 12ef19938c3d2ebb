//! Helpers for the unit tests beside each rule: check a snippet under the shipped
//! default policy (`policy.json`).

use crate::{Finding, Policy, Rule, check};

pub fn default_policy() -> Policy {
    let v: serde_json::Value = serde_json::from_str(include_str!("../policy.json")).expect("policy.json parses");
    let list = |k: &str| v[k].as_array().expect("a list").iter().map(|s| s.as_str().expect("a string").to_string()).collect::<Vec<_>>();
    Policy::new(list("allowed_modules"), list("denied_names"))
}

pub fn findings(source: &str) -> Vec<Finding> {
    check(source, &default_policy()).findings
}

/// Each finding as (rule, line, column).
pub fn rules(source: &str) -> Vec<(Rule, u32, u32)> {
    findings(source).into_iter().map(|f| (f.rule, f.line, f.column)).collect()
}

pub fn allowed(source: &str) -> bool {
    let verdict = check(source, &default_policy());
    assert_eq!(verdict.allowed, verdict.findings.is_empty());
    if !verdict.allowed {
        eprintln!("rejected: {:?}", verdict.findings);
    }
    verdict.allowed
}
