//! The corpus: every hostile snippet is rejected with the rule its first line names
//! (`# expect: rule-id`), every benign script is allowed. Data files live in
//! `tests/corpus/{hostile,benign}/`; the host's CLI tests run the same files through
//! the sandboxed component.

use python_safety::{Policy, Rule, check};
use std::path::{Path, PathBuf};

fn default_policy() -> Policy {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("policy.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let list = |k: &str| v[k].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect::<Vec<_>>();
    Policy::new(list("allowed_modules"), list("denied_names"))
}

fn files(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(kind);
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "py")).collect();
    out.sort();
    out
}

#[test]
fn every_hostile_snippet_is_rejected_with_its_rule() {
    let policy = default_policy();
    let hostile = files("hostile");
    assert!(hostile.len() >= 80, "the hostile corpus has {} files", hostile.len());
    let mut wrong = Vec::new();
    for path in &hostile {
        let source = std::fs::read_to_string(path).unwrap();
        let expected = source.lines().next().and_then(|l| l.strip_prefix("# expect: ")).unwrap_or_else(|| panic!("{} has no `# expect:` line", path.display()));
        let expected: Vec<Rule> = expected.split(',').map(|id| Rule::from_id(id.trim()).unwrap_or_else(|| panic!("{}: unknown rule {id}", path.display()))).collect();
        let verdict = check(&source, &policy);
        let got: Vec<&str> = verdict.findings.iter().map(|f| f.rule.id()).collect();
        if verdict.allowed || !expected.iter().any(|r| got.contains(&r.id())) {
            wrong.push(format!("{}: expected {:?}, got {got:?}", path.file_name().unwrap().to_string_lossy(), expected.iter().map(|r| r.id()).collect::<Vec<_>>()));
        }
        for f in &verdict.findings {
            assert!(f.line >= 1 && f.column >= 1, "{}: {f:?}", path.display());
        }
    }
    assert!(wrong.is_empty(), "{} hostile snippets not rejected as expected:\n{}", wrong.len(), wrong.join("\n"));
}

/// An independent red-team set: each snippet must be rejected (any rule).
#[test]
fn every_red_team_snippet_is_rejected() {
    let policy = default_policy();
    let snippets = files("hostile-redteam");
    assert!(snippets.len() >= 200, "the red-team corpus has {} files", snippets.len());
    let allowed: Vec<String> = snippets
        .iter()
        .filter(|p| check(&std::fs::read_to_string(p).unwrap(), &policy).allowed)
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert!(allowed.is_empty(), "{} red-team snippets allowed:\n{}", allowed.len(), allowed.join("\n"));
}

#[test]
fn every_benign_script_is_allowed() {
    let policy = default_policy();
    let benign = files("benign");
    assert!(benign.len() >= 40, "the benign corpus has {} files", benign.len());
    let mut wrong = Vec::new();
    for path in &benign {
        let verdict = check(&std::fs::read_to_string(path).unwrap(), &policy);
        if !verdict.allowed {
            wrong.push(format!("{}: {:?}", path.file_name().unwrap().to_string_lossy(), verdict.findings));
        }
    }
    assert!(wrong.is_empty(), "{} benign scripts rejected:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn pathological_inputs_end_in_a_rejection() {
    let policy = default_policy();
    let deep_brackets = format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    assert_eq!(check(&deep_brackets, &policy).findings[0].rule, Rule::NestingTooDeep);
    let long_chain = format!("x = {}1\n", "1 + ".repeat(10_000));
    assert_eq!(check(&long_chain, &policy).findings[0].rule, Rule::NestingTooDeep);
    let unary = format!("x = {}1\n", "not ".repeat(10_000));
    assert_eq!(check(&unary, &policy).findings[0].rule, Rule::NestingTooDeep);
    let blocks: String = (0..200).map(|i| format!("{}if x:\n", " ".repeat(i))).collect::<String>() + &" ".repeat(200) + "pass\n";
    assert!(!check(&blocks, &policy).allowed);
    assert_eq!(check("x = 1\0", &policy).findings[0].rule, Rule::ParseError);
    assert_eq!(check("def f(:\n", &policy).findings[0].rule, Rule::ParseError);
}

/// The deepest inputs the nesting pre-scan lets through (`tests/corpus/deep`), one per
/// construct the parser descends for and one of several stacked: each must come back
/// as a verdict, which shows the parser's recursion fits the stack at the limit. Files
/// named `*_invalid.py` are not valid Python, but the parser descends for them all the
/// same; the others must not be parse errors.
#[test]
fn the_deepest_admitted_inputs_end_in_a_verdict() {
    let policy = default_policy();
    let deep = files("deep");
    assert!(deep.len() >= 8);
    for path in deep {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let verdict = check(&std::fs::read_to_string(&path).unwrap(), &policy);
        let valid = !name.ends_with("_invalid.py");
        assert!(!valid || verdict.findings.iter().all(|f| f.rule != Rule::ParseError && f.rule != Rule::NestingTooDeep), "{name}: {:?}", verdict.findings);
    }
}

/// Chains the parser builds without recursion (attributes, calls, subscripts) are
/// still deeper than the walk follows when long: rejected, not a fault, and nothing on
/// the way follows them all the way down. (Natively the tree is freed node by node, so
/// the chains here stay within a test thread's stack; the host's test sends 50,000
/// links through the component, which never frees it.)
#[test]
fn long_postfix_chains_are_rejected_not_followed() {
    let policy = default_policy();
    for chain in [".b".repeat(5_000), "()".repeat(5_000), "[0]".repeat(5_000), ".b()".repeat(2_000)] {
        let verdict = check(&format!("import bpy\ny = bpy{chain}\n"), &policy);
        assert!(verdict.findings.iter().any(|f| f.rule == Rule::NestingTooDeep), "{:?}", verdict.findings);
    }
}
