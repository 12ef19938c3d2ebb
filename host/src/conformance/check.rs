//! Checking one case's outcome: value containment with a numeric tolerance, and the
//! delta expectations. Each failure is a line naming what was expected and found.

use super::ExpectDelta;
use crate::delta::SceneDelta;
use serde_json::Value;

pub const TOLERANCE: f64 = 1e-4;

/// Where `actual` fails to contain `expected`: objects key by key (extra keys are
/// fine), arrays element by element with the same length, numbers within TOLERANCE,
/// everything else equal.
pub fn contains(actual: &Value, expected: &Value, path: &str, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                match a.get(k) {
                    Some(av) => contains(av, ev, &format!("{path}/{k}"), out),
                    None => out.push(format!("{path}/{k}: missing (expected {ev})")),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                out.push(format!("{path}: {} items, expected {}: {actual}", a.len(), e.len()));
                return;
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                contains(av, ev, &format!("{path}/{i}"), out);
            }
        }
        (Value::Number(e), Value::Number(a)) => {
            let (e, a) = (e.as_f64().unwrap_or(f64::NAN), a.as_f64().unwrap_or(f64::NAN));
            if (e - a).abs() > TOLERANCE {
                out.push(format!("{path}: {a}, expected {e}"));
            }
        }
        (e, a) if e == a => {}
        (e, a) => out.push(format!("{path}: {a}, expected {e}")),
    }
}

fn sorted(v: &[String]) -> Vec<String> {
    let mut v = v.to_vec();
    v.sort();
    v
}

/// Where `actual` departs from `expected`.
pub fn delta(actual: &SceneDelta, expected: &ExpectDelta, out: &mut Vec<String>) {
    let exact = |what: &str, got: Vec<String>, want: &Option<Vec<String>>, out: &mut Vec<String>| {
        if let Some(want) = want
            && sorted(want) != got
        {
            out.push(format!("delta {what}: {got:?}, expected {:?}", sorted(want)));
        }
    };
    exact("added", actual.objects.added.iter().cloned().collect(), &expected.added, out);
    exact("removed", actual.objects.removed.iter().cloned().collect(), &expected.removed, out);
    exact("changed", actual.objects.changed.iter().cloned().collect(), &expected.changed, out);
    exact("settings", actual.settings.iter().cloned().collect(), &expected.settings, out);
    for (object, aspects) in &expected.fields {
        let got = actual.fields.get(object);
        for aspect in aspects {
            if !got.is_some_and(|g| g.contains(aspect)) {
                out.push(format!("delta fields of {object}: {got:?}, expected {aspect:?} among them"));
            }
        }
    }
    for (kind, want) in &expected.datablocks {
        let got = actual.datablocks.get(kind).cloned().unwrap_or_default();
        exact(&format!("datablocks.{kind}.added"), got.added.into_iter().collect(), &want.added, out);
        exact(&format!("datablocks.{kind}.removed"), got.removed.into_iter().collect(), &want.removed, out);
        exact(&format!("datablocks.{kind}.changed"), got.changed.into_iter().collect(), &want.changed, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn containment_tolerates_extra_keys_and_rounding_but_not_missing_values() {
        let mut out = Vec::new();
        contains(&json!({ "a": [1.00001, 2], "b": "x", "extra": 1 }), &json!({ "a": [1, 2], "b": "x" }), "", &mut out);
        assert!(out.is_empty(), "{out:?}");
        contains(&json!({ "a": [1, 2, 3] }), &json!({ "a": [1, 2], "c": null }), "", &mut out);
        assert_eq!(out.len(), 2, "{out:?}");
    }

    #[test]
    fn delta_lists_are_exact_and_fields_are_a_floor() {
        let actual: SceneDelta = serde_json::from_value(json!({
            "added": [], "removed": [], "changed": ["Cube"], "fields": { "Cube": ["modifiers", "data"] }, "settings": [],
        })).unwrap();
        let mut out = Vec::new();
        let ok: ExpectDelta = serde_json::from_value(json!({ "changed": ["Cube"], "fields": { "Cube": ["modifiers"] } })).unwrap();
        delta(&actual, &ok, &mut out);
        assert!(out.is_empty(), "{out:?}");
        let bad: ExpectDelta = serde_json::from_value(json!({ "changed": [], "added": ["X"], "fields": { "Cube": ["transform"] } })).unwrap();
        delta(&actual, &bad, &mut out);
        assert_eq!(out.len(), 3, "{out:?}");
    }

    #[test]
    fn malformed_cases_are_refused_at_parse() {
        assert!(super::super::Case::parse(r#"{"name": "x", "expect": {"delta": {"add": ["A"]}}}"#).is_err());
        assert!(super::super::Case::parse(r#"{"name": "x", "expect": {"error": "not_found", "result": {}}}"#).is_err());
        assert!(super::super::Case::parse(r#"{"name": "x", "arguments": {}, "expect": {"result": {"a": 1}}}"#).is_ok());
    }
}
