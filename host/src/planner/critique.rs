//! The critic: typed expectations measured in the real scene.
//!
//! Every check measures something through a read-only capability (`spatial.assert`,
//! `scene.object_info`, `material.list`, `inspect.viewport`) or the step's own delta,
//! and reports what it measured. Nothing passes by default: a check whose measurement
//! is missing (a call failed, a field is absent, a delta was not recorded) fails with
//! the reason, and a critique with no expectations fails.
//!
//! Security reasoning: the critic calls only capabilities the registry marks as not
//! mutating (checked before each call), through the same checked path as any call, so
//! judging cannot change the scene. Pictures are decoded only in [`super::picture`].

use super::{Registry, read_only as read};
use crate::roles::Role;
use super::path::at_path;
pub use super::picture_checks::match_picture;
use super::visual_match::Picture;
use crate::delta::SceneDelta;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Numbers compare within this unless an expectation gives its own tolerance.
pub const DEFAULT_TOLERANCE: f64 = 1e-3;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Expectation {
    /// `spatial.assert` constraints (its own schema), all of which must hold.
    Spatial { constraints: Vec<Value> },
    ObjectExists { name: String },
    ObjectAbsent { name: String },
    /// A value in `scene.object_info`'s answer at a dotted path (`location.2`, `type`,
    /// `material_details.0.name`). Arrays compare element by element; an expected array
    /// shorter than the measured one compares its prefix (a colour without alpha).
    /// `equals`, `at_least` and `at_most` may be combined; at least one is required.
    Property {
        object: String,
        path: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        equals: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_least: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_most: Option<f64>,
        #[serde(default)]
        tolerance: Option<f64>,
    },
    /// A value at a dotted path of what a read-only capability answers with `args`
    /// (`render.audit`'s `settings.film_transparent`, `scene.info`'s
    /// `summary.frame_end`, `spatial.distance`'s `distance`). Any capability the registry
    /// marks as not mutating may measure; a mutating one is refused.
    Read {
        capability: String,
        #[serde(default = "empty_object")]
        args: Value,
        path: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        equals: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_least: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_most: Option<f64>,
        #[serde(default)]
        tolerance: Option<f64>,
    },
    /// A field of a material's row in `material.list` (`base_color`, `metallic`, `roughness`, `preset`).
    Material {
        material: String,
        property: String,
        equals: Value,
        #[serde(default)]
        tolerance: Option<f64>,
    },
    /// The step's delta: how many objects it added or removed, of which type, and which
    /// objects it may change (`only_changed`: any other object in the delta's `changed`
    /// list fails; removals are what `removed` governs, so a removed object is not a
    /// change). Failure messages quote the measured lists.
    Delta {
        #[serde(default)]
        added: Option<usize>,
        #[serde(default)]
        removed: Option<usize>,
        #[serde(default)]
        added_type: Option<String>,
        #[serde(default)]
        only_changed: Option<Vec<String>>,
    },
    /// A small render: not empty, not uniform, and the subject inside the frame.
    Visual {
        #[serde(default)]
        camera: Option<String>,
        #[serde(default)]
        size: Option<u32>,
    },
    /// A small render that looks like the image goal's reference picture (taken with the
    /// same camera and size): SSIM and silhouette IoU at least their thresholds
    /// ([`super::visual_match`]). Only a run that has a reference (an image task's)
    /// can pass it.
    VisualMatch {
        #[serde(default)]
        camera: Option<String>,
        #[serde(default)]
        size: Option<u32>,
    },
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

/// What a measured value must be: equal to a value, and/or within bounds.
#[derive(Debug, Clone, Copy)]
pub struct Comparison<'a> {
    pub equals: Option<&'a Value>,
    pub at_least: Option<f64>,
    pub at_most: Option<f64>,
    pub tolerance: f64,
}

impl Comparison<'_> {
    pub fn is_empty(&self) -> bool {
        self.equals.is_none() && self.at_least.is_none() && self.at_most.is_none()
    }

    /// Why `measured` does not satisfy it (None: it does).
    pub fn violation(&self, measured: &Value) -> Option<String> {
        let mut why = Vec::new();
        if let Some(expected) = self.equals
            && !matches(measured, expected, self.tolerance)
        {
            why.push(if has_number(expected) { format!("expected {expected} (tolerance {})", self.tolerance) } else { format!("expected {expected}") });
        }
        if self.at_least.is_some() || self.at_most.is_some() {
            match measured.as_f64() {
                None => why.push("not a number".to_string()),
                Some(v) => {
                    if let Some(lo) = self.at_least
                        && v < lo - self.tolerance
                    {
                        why.push(format!("below {lo}"));
                    }
                    if let Some(hi) = self.at_most
                        && v > hi + self.tolerance
                    {
                        why.push(format!("above {hi}"));
                    }
                }
            }
        }
        (!why.is_empty()).then(|| format!("measured {measured}: {}", why.join(", ")))
    }
}

impl Expectation {
    /// The comparison of a `property`, `read` or `material` expectation.
    pub fn comparison(&self) -> Option<Comparison<'_>> {
        match self {
            Expectation::Property { equals, at_least, at_most, tolerance, .. } | Expectation::Read { equals, at_least, at_most, tolerance, .. } => Some(Comparison {
                equals: equals.as_ref(),
                at_least: *at_least,
                at_most: *at_most,
                tolerance: tolerance.unwrap_or(DEFAULT_TOLERANCE),
            }),
            Expectation::Material { equals, tolerance, .. } => Some(Comparison { equals: Some(equals), at_least: None, at_most: None, tolerance: tolerance.unwrap_or(DEFAULT_TOLERANCE) }),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    pub expectation: Value,
    /// The expectation with its `$added` placeholders replaced, when it had any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved: Option<Value>,
    pub passed: bool,
    pub measured: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Critique {
    pub passed: bool,
    /// The share of checks that passed (0 with no checks).
    pub score: f64,
    pub checks: Vec<Check>,
}

pub(super) fn pass(e: &Expectation, measured: Value) -> Check {
    Check { expectation: serde_json::to_value(e).unwrap_or(Value::Null), resolved: None, passed: true, measured, reason: None }
}

pub(super) fn fail(e: &Expectation, measured: Value, reason: impl Into<String>) -> Check {
    Check { expectation: serde_json::to_value(e).unwrap_or(Value::Null), resolved: None, passed: false, measured, reason: Some(reason.into()) }
}

/// What some checks compare against besides the scene.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// An image goal's reference picture (`visual_match` compares with it).
    pub reference: Option<&'a Picture>,
}

/// Check `expectations` after a step whose delta was `delta` (None: not recorded).
///
/// `$added` / `$added:TYPE` in an expectation stand for the object the step added
/// ([`super::placeholders`]); the check reports the expectation as written.
pub fn critique(registry: &dyn Registry, expectations: &[Expectation], delta: Option<&SceneDelta>) -> Critique {
    critique_in(registry, expectations, delta, Context::default())
}

/// [`critique`] with what the checks compare against (an image goal's reference).
pub fn critique_in(registry: &dyn Registry, expectations: &[Expectation], delta: Option<&SceneDelta>, cx: Context<'_>) -> Critique {
    let mut added = super::placeholders::Added::new(registry, delta);
    let checks: Vec<Check> = expectations
        .iter()
        .map(|e| {
            let written = serde_json::to_value(e).unwrap_or(Value::Null);
            if !super::placeholders::has_placeholder(&written) {
                return check_one(registry, e, delta, cx);
            }
            let resolved = added.substitute(&written).and_then(|v| serde_json::from_value::<Expectation>(v).map_err(|e| e.to_string()));
            match resolved {
                Ok(concrete) => {
                    let mut check = check_one(registry, &concrete, delta, cx);
                    check.resolved = Some(serde_json::to_value(&concrete).unwrap_or(Value::Null));
                    check.expectation = written;
                    check
                }
                Err(why) => fail(e, Value::Null, why),
            }
        })
        .collect();
    let passed_n = checks.iter().filter(|c| c.passed).count();
    let score = if checks.is_empty() { 0.0 } else { passed_n as f64 / checks.len() as f64 };
    Critique { passed: !checks.is_empty() && passed_n == checks.len(), score, checks }
}

fn check_one(registry: &dyn Registry, e: &Expectation, delta: Option<&SceneDelta>, cx: Context<'_>) -> Check {
    match e {
        Expectation::Spatial { constraints } => {
            if constraints.is_empty() {
                return fail(e, Value::Null, "no constraints to measure");
            }
            match by_role(registry, Role::MeasuresSpatial, json!({ "constraints": constraints })) {
                Ok(r) if r["passed"] == json!(true) && r["results"].as_array().is_some_and(|a| a.len() == constraints.len()) => pass(e, r),
                Ok(r) if r["passed"] == json!(true) => fail(e, r, "the spatial measure answered without one result per constraint"),
                Ok(r) => fail(e, r, "a constraint does not hold"),
                Err(m) => fail(e, Value::Null, m),
            }
        }
        Expectation::ObjectExists { name } => match by_role(registry, Role::ReadsObject, json!({ "name": name })) {
            Ok(r) if r["name"] == json!(name) => pass(e, json!({ "name": name, "type": r["type"] })),
            Ok(r) => fail(e, r, "the answer names another object"),
            Err(m) => fail(e, Value::Null, m),
        },
        Expectation::ObjectAbsent { name } => {
            // Measured from the object list (a failing lookup could fail for other reasons).
            // The filter is a glob: the name's own `*`, `?` and `[` are escaped, so it
            // matches that name only.
            let exact: String = name.chars().map(|c| if matches!(c, '*' | '?' | '[') { format!("[{c}]") } else { c.to_string() }).collect();
            match by_role(registry, Role::ListsObjects, json!({ "name": exact, "limit": 200 })) {
                Ok(r) => match r["objects"].as_array() {
                    Some(objs) if objs.iter().all(|o| o["name"] != json!(name)) => pass(e, json!({ "found": false })),
                    Some(_) => fail(e, json!({ "found": true }), format!("{name} is in the scene")),
                    None => fail(e, r, "cannot measure: the object list has no objects field"),
                },
                Err(m) => fail(e, Value::Null, m),
            }
        }
        Expectation::Property { object, path, .. } => match by_role(registry, Role::ReadsObject, json!({ "name": object })) {
            Ok(r) => measure_at(e, &r, path, &format!("{object} has no {path}")),
            Err(m) => fail(e, Value::Null, m),
        },
        Expectation::Read { capability, args, path, .. } => {
            if !args.is_object() {
                return fail(e, Value::Null, "args must be a JSON object");
            }
            match read(registry, capability, args.clone()) {
                Ok(r) => measure_at(e, &r, path, &format!("{capability} answered no {path}")),
                Err(m) => fail(e, Value::Null, m),
            }
        }
        Expectation::Material { material, property, .. } => match by_role(registry, Role::ReadsMaterials, json!({ "material": material })) {
            Ok(r) => match r["materials"].as_array().and_then(|rows| rows.iter().find(|m| m["name"] == json!(material))) {
                Some(row) => measure_at(e, row, property, &format!("material {material} has no {property}")),
                None => fail(e, Value::Null, format!("no material {material}")),
            },
            Err(m) => fail(e, Value::Null, m),
        },
        Expectation::Delta { added, removed, added_type, only_changed } => check_delta(registry, e, delta, *added, *removed, added_type.as_deref(), only_changed.as_deref()),
        Expectation::Visual { camera, size } => super::picture_checks::visual(registry, e, camera.as_deref(), *size),
        Expectation::VisualMatch { camera, size } => super::picture_checks::visual_match(registry, e, camera.as_deref(), *size, cx.reference),
    }
}

/// Measure through the capability a pack declared for `role` (read-only, checked).
pub(super) fn by_role(registry: &dyn Registry, role: Role, args: Value) -> Result<Value, String> {
    let key = registry.role(role).ok_or_else(|| format!("cannot measure: no loaded pack declares the role {role}"))?;
    read(registry, &key, args)
}

impl Expectation {
    /// The roles this expectation measures with.
    pub fn roles(&self) -> Vec<Role> {
        let placeholders = super::placeholders::has_placeholder(&serde_json::to_value(self).unwrap_or(Value::Null));
        let mut roles = match self {
            Expectation::Spatial { .. } => vec![Role::MeasuresSpatial],
            Expectation::ObjectExists { .. } | Expectation::Property { .. } => vec![Role::ReadsObject],
            Expectation::ObjectAbsent { .. } => vec![Role::ListsObjects],
            Expectation::Read { .. } => vec![],
            Expectation::Material { .. } => vec![Role::ReadsMaterials],
            Expectation::Delta { added_type, .. } => if added_type.is_some() { vec![Role::ReadsObject] } else { vec![] },
            Expectation::Visual { .. } | Expectation::VisualMatch { .. } => vec![Role::PicturesScene, Role::ListsObjects],
        };
        if placeholders && !roles.contains(&Role::ReadsObject) {
            roles.push(Role::ReadsObject);
        }
        roles
    }

    /// The capabilities this expectation measures with (all must exist and not mutate):
    /// its roles' capabilities, and a `read`'s own; Err names a role no pack declares.
    pub fn measured_with(&self, registry: &dyn Registry) -> Result<Vec<String>, String> {
        let mut keys = Vec::new();
        for role in self.roles() {
            keys.push(registry.role(role).ok_or_else(|| format!("no loaded pack declares the role {role}, which this expectation measures with"))?);
        }
        if let Expectation::Read { capability, .. } = self {
            keys.push(capability.clone());
        }
        Ok(keys)
    }

    /// What is wrong with the expectation itself, before anything is measured: a picture
    /// size outside 16-256, a negative tolerance, a malformed `$added` placeholder.
    pub fn problem(&self) -> Option<String> {
        let tolerance = match self {
            Expectation::Property { tolerance, .. } | Expectation::Read { tolerance, .. } | Expectation::Material { tolerance, .. } => *tolerance,
            _ => None,
        };
        if let Some(t) = tolerance
            && !(t.is_finite() && t >= 0.0)
        {
            return Some(format!("tolerance {t}: a finite number, 0 or more"));
        }
        if let Expectation::Visual { size: Some(size), .. } | Expectation::VisualMatch { size: Some(size), .. } = self
            && !(16..=256).contains(size)
        {
            return Some(format!("size {size}: 16 to 256 pixels"));
        }
        super::placeholders::malformed(&serde_json::to_value(self).unwrap_or(Value::Null))
    }
}

fn check_delta(
    registry: &dyn Registry,
    e: &Expectation,
    delta: Option<&SceneDelta>,
    added: Option<usize>,
    removed: Option<usize>,
    added_type: Option<&str>,
    only_changed: Option<&[String]>,
) -> Check {
    let Some(d) = delta else { return fail(e, Value::Null, "cannot measure: the step recorded no delta") };
    if added.is_none() && removed.is_none() && added_type.is_none() && only_changed.is_none() {
        return fail(e, Value::Null, "the delta expectation names nothing to check");
    }
    let mut measured = json!({ "added": d.objects.added, "removed": d.objects.removed, "changed": d.objects.changed });
    let mut why = Vec::new();
    if let Some(n) = added
        && d.objects.added.len() != n
    {
        why.push(format!("added {} objects {:?}, expected {n}", d.objects.added.len(), listed(&d.objects.added)));
    }
    if let Some(n) = removed
        && d.objects.removed.len() != n
    {
        why.push(format!("removed {} objects {:?}, expected {n}", d.objects.removed.len(), listed(&d.objects.removed)));
    }
    if let Some(t) = added_type {
        let mut types = serde_json::Map::new();
        for name in &d.objects.added {
            match by_role(registry, Role::ReadsObject, json!({ "name": name })) {
                Ok(r) => {
                    let ty = r["type"].as_str().unwrap_or("").to_string();
                    if !ty.eq_ignore_ascii_case(t) {
                        why.push(format!("{name} is a {ty}, expected {t}"));
                    }
                    types.insert(name.clone(), json!(ty));
                }
                Err(m) => why.push(format!("cannot measure the type of {name}: {m}")),
            }
        }
        if d.objects.added.is_empty() {
            why.push(format!("no object was added, expected a {t}"));
        }
        measured["added_types"] = Value::Object(types);
    }
    if let Some(allowed) = only_changed {
        // `changed` only: a removed object is counted by `removed`, not here.
        let extra: Vec<&String> = d.objects.changed.iter().filter(|n| !allowed.contains(n)).collect();
        if !extra.is_empty() {
            why.push(format!("changed objects it should not have: {extra:?} (measured changed: {:?}, allowed: {allowed:?})", listed(&d.objects.changed)));
        }
    }
    if why.is_empty() { pass(e, measured) } else { fail(e, measured, why.join("; ")) }
}

/// Names as a list, the way a failure message quotes them.
fn listed<'a>(names: impl IntoIterator<Item = &'a String>) -> Vec<&'a String> {
    names.into_iter().collect()
}

/// The value at `path` of an answer, compared as the expectation says.
fn measure_at(e: &Expectation, answer: &Value, path: &str, absent: &str) -> Check {
    let Some(cmp) = e.comparison() else { return fail(e, Value::Null, "nothing to compare") };
    if cmp.is_empty() {
        return fail(e, Value::Null, "the expectation names nothing to compare (equals, at_least or at_most)");
    }
    match at_path(answer, path) {
        Some(v) => match cmp.violation(&v) {
            None => pass(e, v),
            Some(why) => fail(e, v, format!("{path}: {why}")),
        },
        None => fail(e, Value::Null, format!("cannot measure: {absent}")),
    }
}

fn has_number(v: &Value) -> bool {
    match v {
        Value::Number(_) => true,
        Value::Array(items) => items.iter().any(has_number),
        _ => false,
    }
}

/// Numbers within `tolerance`, arrays element by element (an expected prefix), strings
/// without regard to ASCII case, anything else exactly.
pub fn matches(measured: &Value, expected: &Value, tolerance: f64) -> bool {
    match (measured, expected) {
        (Value::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(a), Some(b)) => (a - b).abs() <= tolerance,
            _ => false,
        },
        (Value::Array(a), Value::Array(b)) => !b.is_empty() && b.len() <= a.len() && a.iter().zip(b).all(|(x, y)| matches(x, y, tolerance)),
        (Value::String(a), Value::String(b)) => a.eq_ignore_ascii_case(b),
        (a, b) => a == b,
    }
}

#[cfg(test)]
#[path = "critique_tests.rs"]
mod tests;
