//! The sweeps (issue 27 item 7): every capability called with `{}`, and every capability
//! aimed at the wrong kind of object, must answer as its schema and its declared error
//! codes promise; never an exception from inside Blender.

use super::*;

/// The render preset the sweeps run under, so a render with default arguments stays fast.
pub(crate) const SWEEP_PRESET: &str = r#"{"resolution": [32, 32], "samples": 1}"#;

/// What an MCP client would be told, for the sweeps' messages.
pub(crate) fn told(e: &CallError) -> String {
    report::error_json(e).to_string()
}

/// The `{}` sweep (issue 27 item 7): called with no arguments in the factory scene, a
/// capability either succeeds in Blender or is refused by validation before any bridge
/// call. A call that can only fail inside Blender ("nothing to change", "no object
/// given") must be refused by its schema instead.
pub(crate) fn empty_arguments(key: &str) -> Result<(), Failed> {
    let f = fixture().map_err(Failed::from)?;
    reset(f)?;
    f.runtime.call("scene.render_settings", SWEEP_PRESET).map_err(|e| format!("the sweep's render preset: {e}"))?;
    match f.runtime.call(key, "{}") {
        Ok(_) => Ok(()),
        Err(e) if report::error_code(&e) == report::ErrorCode::InvalidCapabilityArguments => {
            if e.bridge_calls().is_empty() { Ok(()) } else { Err(format!("refused only after {} bridge calls: {}", e.bridge_calls().len(), told(&e)).into()) }
        }
        Err(e) => Err(format!("{{}} is valid by the schema but failed: {}", told(&e)).into()),
    }
}

/// Replace every string equal to `from` in `value` with `to`.
pub(crate) fn retarget(value: &Value, from: &str, to: &str) -> Value {
    match value {
        Value::String(s) if s == from => Value::String(to.into()),
        Value::Array(items) => Value::Array(items.iter().map(|v| retarget(v, from, to)).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), retarget(v, from, to))).collect()),
        other => other.clone(),
    }
}

/// The wrong-target sweep (issue 27 item 7): a capability's first passing case, aimed at
/// the camera and at the light instead of its object, either works or fails with a code
/// the command declares (`invalid_target`, ...). `BRIDGE_ERROR` there means a condition
/// the command should check and does not (baking a light's texture was one).
pub(crate) fn wrong_targets(key: &str, aim: &str, case: &Case) -> Result<(), Failed> {
    let f = fixture().map_err(Failed::from)?;
    let mut problems = Vec::new();
    for target in ["Camera", "Light"] {
        reset(f)?;
        f.runtime.call("scene.render_settings", SWEEP_PRESET).map_err(|e| format!("the sweep's render preset: {e}"))?;
        for step in &case.setup {
            // A setup step that fails on the other target leaves the scene as it is.
            let _ = f.runtime.call(&step.key, &retarget(&step.arguments, "Cube", target).to_string());
        }
        let arguments = retarget(&case.arguments, aim, target);
        if let Err(e) = f.runtime.call(key, &arguments.to_string()) {
            let code = report::error_code(&e);
            if !matches!(code, report::ErrorCode::AppRefused | report::ErrorCode::InvalidCapabilityArguments) {
                problems.push(format!("aimed at {target} ({arguments}): {}", told(&e)));
            }
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n").into()) }
}

/// Every capability and workflow, for the `{}` sweep.
pub(crate) fn sweep_keys() -> Vec<String> {
    let rt = offline_runtime();
    rt.capabilities()
        .filter(|(p, _)| crate::in_this_suite(p))
        .map(|(_, c)| c.key.clone())
        .chain(rt.workflows().filter(|w| crate::workflow_in_this_suite(rt, w)).map(|w| w.spec.key.clone()))
        .collect()
}

/// The object a case aims at: the factory cube, or an object its setup made by name.
pub(crate) fn aimed_at(case: &Case) -> Option<String> {
    let made = case.setup.iter().filter_map(|s| s.arguments.get("name").and_then(Value::as_str));
    let text = case.arguments.to_string();
    std::iter::once("Cube").chain(made).find(|name| text.contains(&Value::from(*name).to_string())).map(String::from)
}

/// Each capability's first case that expects success and aims at an object, for the
/// wrong-target sweep.
pub(crate) fn wrong_target_cases() -> Vec<(String, String, Case)> {
    let rt = offline_runtime();
    rt.capabilities()
        .filter(|(p, _)| crate::in_this_suite(p))
        .map(|(_, c)| c)
        .chain(rt.workflows().map(|w| &w.spec))
        .filter_map(|c| {
            let case = c.conformance.iter().find(|case| case.expect.error.is_none() && aimed_at(case).is_some())?;
            Some((c.key.clone(), aimed_at(case)?, case.clone()))
        })
        .collect()
}
