//! The component export: the frozen `capstan:checker@0.1.0` world, generated from the WIT.

wit_bindgen::generate!({
    path: "../../wit/checker@0.1.0",
    world: "code-checker",
});

use capstan::checker::types;

struct Checker;

impl exports::capstan::checker::checker::Guest for Checker {
    fn check(source: String, policy: types::Policy) -> types::Verdict {
        let policy = crate::Policy::new(policy.allowed_modules, policy.denied_names);
        let verdict = crate::check(&source, &policy);
        types::Verdict {
            allowed: verdict.allowed,
            findings: verdict
                .findings
                .into_iter()
                .map(|f| types::Finding { rule: f.rule.id().to_string(), message: f.message, line: f.line, column: f.column })
                .collect(),
        }
    }
}

export!(Checker);
