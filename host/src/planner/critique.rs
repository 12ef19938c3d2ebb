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
//! judging cannot change the scene. The picture it decodes comes from a pack: it is
//! size-capped, decoded with the `png` crate's limits, and only pixel statistics leave
//! this module.

use super::Registry;
use crate::delta::SceneDelta;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Numbers compare within this unless an expectation gives its own tolerance.
pub const DEFAULT_TOLERANCE: f64 = 1e-3;
/// The largest decoded picture the visual check accepts.
const MAX_PNG_BYTES: usize = 4 * 1024 * 1024;

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
    /// objects it may change (`only_changed`: any other changed or removed one fails).
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
            why.push(format!("expected {expected} (tolerance {})", self.tolerance));
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
    /// The comparison of a `property` or `read` expectation.
    pub fn comparison(&self) -> Option<Comparison<'_>> {
        match self {
            Expectation::Property { equals, at_least, at_most, tolerance, .. } | Expectation::Read { equals, at_least, at_most, tolerance, .. } => Some(Comparison {
                equals: equals.as_ref(),
                at_least: *at_least,
                at_most: *at_most,
                tolerance: tolerance.unwrap_or(DEFAULT_TOLERANCE),
            }),
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

fn pass(e: &Expectation, measured: Value) -> Check {
    Check { expectation: serde_json::to_value(e).unwrap_or(Value::Null), resolved: None, passed: true, measured, reason: None }
}

fn fail(e: &Expectation, measured: Value, reason: impl Into<String>) -> Check {
    Check { expectation: serde_json::to_value(e).unwrap_or(Value::Null), resolved: None, passed: false, measured, reason: Some(reason.into()) }
}

/// A read-only call (refused if the key mutates or is missing).
fn read(registry: &dyn Registry, key: &str, args: Value) -> Result<Value, String> {
    match registry.describe(key) {
        Some((_, false)) => {}
        Some((_, true)) => return Err(format!("{key} mutates; the critic only reads")),
        None => return Err(format!("cannot measure: the registry has no {key}")),
    }
    let text = args.to_string();
    registry.check(key, &text).map_err(|e| e.to_string())?;
    registry.admit(key).map_err(|body| format!("cannot measure: {}", body["message"].as_str().unwrap_or("the app is unavailable")))?;
    registry.call_checked(key, &text).map(|o| o.result).map_err(|e| e.to_string())
}

/// Check `expectations` after a step whose delta was `delta` (None: not recorded).
///
/// `$added` / `$added:TYPE` in an expectation stand for the object the step added
/// ([`super::placeholders`]); the check reports the expectation as written.
pub fn critique(registry: &dyn Registry, expectations: &[Expectation], delta: Option<&SceneDelta>) -> Critique {
    let mut added = super::placeholders::Added::new(registry, delta);
    let checks: Vec<Check> = expectations
        .iter()
        .map(|e| {
            let written = serde_json::to_value(e).unwrap_or(Value::Null);
            if !super::placeholders::has_placeholder(&written) {
                return check_one(registry, e, delta);
            }
            let resolved = added.substitute(&written).and_then(|v| serde_json::from_value::<Expectation>(v).map_err(|e| e.to_string()));
            match resolved {
                Ok(concrete) => {
                    let mut check = check_one(registry, &concrete, delta);
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

fn check_one(registry: &dyn Registry, e: &Expectation, delta: Option<&SceneDelta>) -> Check {
    match e {
        Expectation::Spatial { constraints } => {
            if constraints.is_empty() {
                return fail(e, Value::Null, "no constraints to measure");
            }
            match read(registry, "spatial.assert", json!({ "constraints": constraints })) {
                Ok(r) if r["passed"] == json!(true) && r["results"].as_array().is_some_and(|a| a.len() == constraints.len()) => pass(e, r),
                Ok(r) if r["passed"] == json!(true) => fail(e, r, "spatial.assert answered without one result per constraint"),
                Ok(r) => fail(e, r, "a constraint does not hold"),
                Err(m) => fail(e, Value::Null, m),
            }
        }
        Expectation::ObjectExists { name } => match read(registry, "scene.object_info", json!({ "name": name })) {
            Ok(r) if r["name"] == json!(name) => pass(e, json!({ "name": name, "type": r["type"] })),
            Ok(r) => fail(e, r, "the answer names another object"),
            Err(m) => fail(e, Value::Null, m),
        },
        Expectation::ObjectAbsent { name } => {
            // Measured from the object list (a failing lookup could fail for other reasons).
            match read(registry, "scene.info", json!({ "name": name, "limit": 1 })) {
                Ok(r) => match r["objects"].as_array() {
                    Some(objs) if objs.iter().all(|o| o["name"] != json!(name)) => pass(e, json!({ "found": false })),
                    Some(_) => fail(e, json!({ "found": true }), format!("{name} is in the scene")),
                    None => fail(e, r, "cannot measure: scene.info listed no objects field"),
                },
                Err(m) => fail(e, Value::Null, m),
            }
        }
        Expectation::Property { object, path, .. } => match read(registry, "scene.object_info", json!({ "name": object })) {
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
        Expectation::Material { material, property, equals, tolerance } => match read(registry, "material.list", json!({ "material": material })) {
            Ok(r) => {
                let row = r["materials"].as_array().and_then(|rows| rows.iter().find(|m| m["name"] == json!(material)));
                match row.and_then(|m| at_path(m, property)) {
                    Some(v) => compare(e, &v, equals, tolerance.unwrap_or(DEFAULT_TOLERANCE)),
                    None if row.is_none() => fail(e, Value::Null, format!("no material {material}")),
                    None => fail(e, Value::Null, format!("cannot measure: material {material} has no {property}")),
                }
            }
            Err(m) => fail(e, Value::Null, m),
        },
        Expectation::Delta { added, removed, added_type, only_changed } => check_delta(registry, e, delta, *added, *removed, added_type.as_deref(), only_changed.as_deref()),
        Expectation::Visual { camera, size } => {
            let size = size.unwrap_or(64).clamp(16, 256);
            let mut args = json!({ "width": size, "height": size, "samples": 2 });
            if let Some(c) = camera {
                args["camera"] = json!(c);
            }
            match read(registry, "inspect.viewport", args).and_then(|r| picture(&r)) {
                Ok(stats) => {
                    let measured = serde_json::to_value(&stats).unwrap_or(Value::Null);
                    let mut why = Vec::new();
                    if !stats.not_empty() {
                        why.push("the frame is empty (nothing differs from the background)");
                    }
                    if !stats.not_uniform() {
                        why.push("the frame is uniform");
                    }
                    if !stats.subject_inside() {
                        why.push("the subject touches or leaves the frame edge");
                    }
                    if why.is_empty() { pass(e, measured) } else { fail(e, measured, why.join("; ")) }
                }
                Err(m) => fail(e, Value::Null, m),
            }
        }
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
        why.push(format!("added {} objects, expected {n}", d.objects.added.len()));
    }
    if let Some(n) = removed
        && d.objects.removed.len() != n
    {
        why.push(format!("removed {} objects, expected {n}", d.objects.removed.len()));
    }
    if let Some(t) = added_type {
        let mut types = serde_json::Map::new();
        for name in &d.objects.added {
            match read(registry, "scene.object_info", json!({ "name": name })) {
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
        let extra: Vec<&String> = d.objects.changed.iter().chain(&d.objects.removed).filter(|n| !allowed.contains(n)).collect();
        if !extra.is_empty() {
            why.push(format!("changed objects it should not have: {extra:?}"));
        }
    }
    if why.is_empty() { pass(e, measured) } else { fail(e, measured, why.join("; ")) }
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
            Some(why) => fail(e, v, why),
        },
        None => fail(e, Value::Null, format!("cannot measure: {absent}")),
    }
}

/// A value in a JSON answer by a dotted path: `location.2`, `light.energy`,
/// `objects[name=Cube].location.0` (the first element of an array whose field equals
/// the text), `keyframes.#` (the length of an array or object).
pub fn at_path(value: &Value, path: &str) -> Option<Value> {
    let parts = segments(path);
    let mut current = value;
    for (i, segment) in parts.iter().enumerate() {
        current = match segment {
            // A length is a number: nothing can follow it.
            Segment::Length if i + 1 == parts.len() => {
                return match current {
                    Value::Array(items) => Some(Value::from(items.len())),
                    Value::Object(map) => Some(Value::from(map.len())),
                    _ => None,
                };
            }
            Segment::Length => return None,
            Segment::Select { field, equals } => current.as_array()?.iter().find(|item| item.get(field).is_some_and(|v| text_equals(v, equals)))?,
            Segment::Key(key) => match current {
                Value::Array(items) => items.get(key.parse::<usize>().ok()?)?,
                Value::Object(map) => map.get(*key)?,
                _ => return None,
            },
        };
    }
    Some(current.clone())
}

fn text_equals(v: &Value, text: &str) -> bool {
    match v {
        Value::String(s) => s == text,
        // A number or boolean written as text: `[n=7]`, `[enabled=true]`.
        other => serde_json::from_str::<Value>(text).is_ok_and(|v| v == *other),
    }
}

enum Segment<'a> {
    Key(&'a str),
    Select { field: &'a str, equals: &'a str },
    Length,
}

/// The path's parts: dots separate them except inside `[...]` (a selected name may
/// hold dots: `objects[name=Cube.001]`).
fn segments(path: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('[') {
            let Some(end) = inner.find(']') else {
                out.push(Segment::Key(rest));
                break;
            };
            let body = &inner[..end];
            match body.split_once('=') {
                Some((field, equals)) => out.push(Segment::Select { field, equals }),
                None => out.push(Segment::Key(body)),
            }
            rest = inner[end + 1..].trim_start_matches('.');
            continue;
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let part = &rest[..end];
        if part == "#" {
            out.push(Segment::Length);
        } else if !part.is_empty() {
            out.push(Segment::Key(part));
        }
        rest = rest[end..].strip_prefix('.').unwrap_or(&rest[end..]);
    }
    out
}

fn compare(e: &Expectation, measured: &Value, expected: &Value, tolerance: f64) -> Check {
    if matches(measured, expected, tolerance) {
        pass(e, measured.clone())
    } else {
        fail(e, measured.clone(), format!("measured {measured}, expected {expected} (tolerance {tolerance})"))
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

/// Pixel statistics of a small render.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PictureStats {
    pub width: u32,
    pub height: u32,
    /// The share of pixels that differ from the background (the border's commonest colour).
    pub foreground: f64,
    /// Standard deviation of luminance, 0..255.
    pub luminance_std: f64,
    /// The foreground's bounding box `[x0, y0, x1, y1]` (inclusive), if any.
    pub bbox: Option<[u32; 4]>,
}

/// At least this share of pixels must be foreground for "not empty".
pub const MIN_FOREGROUND: f64 = 0.005;
/// A pixel is foreground when a channel differs from the background by more than this
/// (out of 255): above a small render's noise, below grey-on-grey contrast.
pub const FOREGROUND_DIFFERENCE: f64 = 10.0;
/// Luminance spread below this is "uniform".
pub const MIN_LUMINANCE_STD: f64 = 2.0;

impl PictureStats {
    pub fn not_empty(&self) -> bool {
        self.foreground >= MIN_FOREGROUND
    }
    pub fn not_uniform(&self) -> bool {
        self.luminance_std >= MIN_LUMINANCE_STD
    }
    pub fn subject_inside(&self) -> bool {
        self.bbox.is_some_and(|[x0, y0, x1, y1]| x0 > 0 && y0 > 0 && x1 + 1 < self.width && y1 + 1 < self.height)
    }
}

fn picture(result: &Value) -> Result<PictureStats, String> {
    let image = &result["image"];
    let data = image["data"].as_str().or_else(|| result["image_base64"].as_str()).ok_or("cannot measure: the preview has no image data")?;
    if data.len() > MAX_PNG_BYTES / 3 * 4 + 4 {
        return Err("cannot measure: the preview is too large".into());
    }
    let bytes = base64::engine::general_purpose::STANDARD.decode(data).map_err(|e| format!("cannot measure: the preview is not base64: {e}"))?;
    let (w, h, rgba) = decode_png(&bytes)?;
    Ok(analyse(w, h, &rgba))
}

/// RGBA8 pixels of a PNG.
pub fn decode_png(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16 | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().map_err(|e| format!("cannot measure: not a PNG: {e}"))?;
    let size = reader.output_buffer_size().ok_or("cannot measure: the PNG is too large")?;
    if size > 64 * 1024 * 1024 {
        return Err("cannot measure: the PNG is too large".into());
    }
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| format!("cannot measure: PNG decoding failed: {e}"))?;
    buf.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    let rgba: Vec<u8> = match channels {
        4 => buf,
        2 => buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        3 => buf.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        1 => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        n => return Err(format!("cannot measure: {n} channels")),
    };
    Ok((info.width, info.height, rgba))
}

/// Statistics of RGBA8 pixels (`w * h * 4` bytes).
pub fn analyse(w: u32, h: u32, rgba: &[u8]) -> PictureStats {
    let px = |x: u32, y: u32| -> [u8; 4] {
        let i = ((y * w + x) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]]
    };
    // The background: the commonest (quantised) border colour.
    let mut counts: std::collections::HashMap<[u8; 4], usize> = std::collections::HashMap::new();
    let mut border = Vec::new();
    for x in 0..w {
        border.push(px(x, 0));
        border.push(px(x, h - 1));
    }
    for y in 0..h {
        border.push(px(0, y));
        border.push(px(w - 1, y));
    }
    for p in &border {
        *counts.entry(p.map(|c| c / 16)).or_default() += 1;
    }
    let mode = counts.into_iter().max_by_key(|(k, n)| (*n, *k)).map(|(k, _)| k).unwrap_or([0; 4]);
    let members: Vec<&[u8; 4]> = border.iter().filter(|p| p.map(|c| c / 16) == mode).collect();
    let mut bg = [0f64; 4];
    for p in &members {
        for c in 0..4 {
            bg[c] += f64::from(p[c]) / members.len() as f64;
        }
    }
    let (mut fg, mut sum, mut sum2) = (0usize, 0f64, 0f64);
    let mut bbox: Option<[u32; 4]> = None;
    for y in 0..h {
        for x in 0..w {
            let p = px(x, y);
            let lum = 0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]);
            sum += lum;
            sum2 += lum * lum;
            let differs = (0..4).any(|c| (f64::from(p[c]) - bg[c]).abs() > FOREGROUND_DIFFERENCE);
            if differs {
                fg += 1;
                bbox = Some(match bbox {
                    None => [x, y, x, y],
                    Some([x0, y0, x1, y1]) => [x0.min(x), y0.min(y), x1.max(x), y1.max(y)],
                });
            }
        }
    }
    let n = f64::from(w) * f64::from(h);
    let mean = sum / n;
    PictureStats { width: w, height: h, foreground: fg as f64 / n, luminance_std: (sum2 / n - mean * mean).max(0.0).sqrt(), bbox }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::fake::FakeRegistry;

    fn image(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).flat_map(|(x, y)| f(x, y)).collect()
    }

    #[test]
    fn pictures_empty_uniform_centred_and_cut() {
        let grey = image(32, 32, |_, _| [80, 80, 80, 255]);
        let s = analyse(32, 32, &grey);
        assert!(!s.not_empty() && !s.not_uniform() && !s.subject_inside());
        let centred = image(32, 32, |x, y| if (10..20).contains(&x) && (8..24).contains(&y) { [220, 30, 30, 255] } else { [80, 80, 80, 255] });
        let s = analyse(32, 32, &centred);
        assert!(s.not_empty() && s.not_uniform() && s.subject_inside(), "{s:?}");
        assert_eq!(s.bbox, Some([10, 8, 19, 23]));
        let cut = image(32, 32, |x, _| if x < 12 { [220, 30, 30, 255] } else { [80, 80, 80, 255] });
        let s = analyse(32, 32, &cut);
        assert!(s.not_empty() && !s.subject_inside(), "{s:?}");
    }

    #[test]
    fn png_round_trip() {
        let mut bytes = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut bytes, 4, 2);
            enc.set_color(png::ColorType::Rgb);
            let mut w = enc.write_header().unwrap();
            w.write_image_data(&[1u8; 24]).unwrap();
        }
        let (w, h, rgba) = decode_png(&bytes).unwrap();
        assert_eq!((w, h, rgba.len()), (4, 2, 32));
        assert_eq!(&rgba[..4], &[1, 1, 1, 255]);
        assert!(decode_png(b"not a png").is_err());
    }

    #[test]
    fn values_compare_with_tolerance_and_prefixes() {
        assert!(matches(&json!([1.0, 0.0005, 0.0, 1.0]), &json!([1, 0, 0]), 1e-3));
        assert!(!matches(&json!([1.0, 0.1, 0.0]), &json!([1, 0, 0]), 1e-3));
        assert!(!matches(&json!([1.0]), &json!([]), 1e-3));
        assert!(matches(&json!("MESH"), &json!("mesh"), 0.0));
        assert!(!matches(&json!(null), &json!(0), 1.0));
        assert_eq!(at_path(&json!({"location": [0, 1, 2]}), "location.2"), Some(json!(2)));
        assert_eq!(at_path(&json!({"location": [0, 1, 2]}), "location.9"), None);
        let scene = json!({ "objects": [{ "name": "Cube", "location": [1, 2, 3] }, { "name": "Cube.001", "location": [4, 5, 6], "n": 7 }] });
        assert_eq!(at_path(&scene, "objects[name=Cube.001].location.1"), Some(json!(5)));
        assert_eq!(at_path(&scene, "objects[name=Cube].location"), Some(json!([1, 2, 3])));
        assert_eq!(at_path(&scene, "objects[n=7].name"), Some(json!("Cube.001")));
        assert_eq!(at_path(&scene, "objects[name=Lamp]"), None);
        assert_eq!(at_path(&scene, "objects.#"), Some(json!(2)));
        assert_eq!(at_path(&scene, "objects.0.#"), Some(json!(2)));
        assert_eq!(at_path(&scene, "objects.0.name.#"), None);
    }

    #[test]
    fn nothing_passes_by_default() {
        let reg = FakeRegistry::default();
        // No expectations: fails.
        assert!(!critique(&reg, &[], None).passed);
        // An answer without the measured field, a missing delta, an empty constraint list.
        let exps = [
            Expectation::Property { object: "Cube".into(), path: "location.2".into(), equals: Some(json!(0)), at_least: None, at_most: None, tolerance: None },
            Expectation::Delta { added: Some(1), removed: None, added_type: None, only_changed: None },
            Expectation::Spatial { constraints: vec![] },
            Expectation::Visual { camera: None, size: None },
            Expectation::ObjectAbsent { name: "Cube".into() },
        ];
        let c = critique(&reg, &exps, None);
        assert!(!c.passed);
        assert_eq!(c.score, 0.0);
        assert!(c.checks.iter().all(|k| !k.passed && k.reason.is_some()), "{c:?}");
        // spatial.assert saying passed without results fails too.
        reg.answer("spatial.assert", json!({ "passed": true }));
        let c = critique(&reg, &[Expectation::Spatial { constraints: vec![json!({"type": "triangulated", "object": "Cube"})] }], None);
        assert!(!c.passed);
    }

    #[test]
    fn measured_values_decide() {
        let reg = FakeRegistry::default();
        reg.answer("scene.object_info", json!({ "name": "Cube", "type": "MESH", "location": [0.0, 0.0, 1.0] }));
        reg.answer("material.list", json!({ "materials": [{ "name": "Red", "base_color": [0.8, 0.0, 0.0, 1.0], "metallic": 0.0 }] }));
        let ok = [
            Expectation::ObjectExists { name: "Cube".into() },
            Expectation::Property { object: "Cube".into(), path: "location.2".into(), equals: Some(json!(1.0)), at_least: None, at_most: None, tolerance: None },
            Expectation::Material { material: "Red".into(), property: "base_color".into(), equals: json!([0.8, 0, 0]), tolerance: Some(0.01) },
        ];
        let c = critique(&reg, &ok, None);
        assert!(c.passed, "{c:?}");
        assert_eq!(c.score, 1.0);
        let wrong = Expectation::Property { object: "Cube".into(), path: "location.2".into(), equals: Some(json!(0.0)), at_least: None, at_most: None, tolerance: None };
        let c = critique(&reg, &[ok[0].clone(), wrong], None);
        assert!(!c.passed);
        assert_eq!(c.score, 0.5);
        assert_eq!(c.checks[1].measured, json!(1.0));
        // Any read-only capability measures, with bounds; a mutating one never does.
        reg.answer("render.audit", json!({ "config": { "film_transparent": true, "samples": 64 } }));
        let read = |path: &str, equals: Option<Value>, at_least: Option<f64>, at_most: Option<f64>| Expectation::Read {
            capability: "render.audit".into(),
            args: json!({}),
            path: path.into(),
            equals,
            at_least,
            at_most,
            tolerance: None,
        };
        assert!(critique(&reg, &[read("config.film_transparent", Some(json!(true)), None, None), read("config.samples", None, Some(32.0), Some(64.0))], None).passed);
        let c = critique(&reg, &[read("config.samples", None, Some(128.0), None), read("config.film_transparent", None, Some(1.0), None), read("config.nope", Some(json!(1)), None, None)], None);
        assert_eq!(c.checks.iter().map(|k| k.reason.clone().unwrap_or_default()).collect::<Vec<_>>(), [
            "measured 64: below 128".to_string(),
            "measured true: not a number".to_string(),
            "cannot measure: render.audit answered no config.nope".to_string(),
        ]);
        let calls = reg.count();
        let mutating = Expectation::Read { capability: "scene.render".into(), args: json!({}), path: "x".into(), equals: Some(json!(1)), at_least: None, at_most: None, tolerance: None };
        let c = critique(&reg, &[mutating], None);
        assert!(!c.passed && c.checks[0].reason.as_deref().unwrap().contains("mutates"), "{c:?}");
        assert_eq!(reg.count(), calls, "the mutating capability was not called");
        let nothing = Expectation::Property { object: "Cube".into(), path: "location.2".into(), equals: None, at_least: None, at_most: None, tolerance: None };
        assert!(!critique(&reg, &[nothing], None).passed, "nothing to compare is not a pass");

        // Delta: one mesh added, nothing else touched.
        let mut d = SceneDelta::default();
        d.objects.added.insert("Cube".into());
        let exp = Expectation::Delta { added: Some(1), removed: Some(0), added_type: Some("MESH".into()), only_changed: Some(vec![]) };
        assert!(critique(&reg, std::slice::from_ref(&exp), Some(&d)).passed);
        d.objects.changed.insert("Camera".into());
        let c = critique(&reg, &[exp], Some(&d));
        assert!(!c.passed);
        assert!(c.checks[0].reason.as_ref().unwrap().contains("Camera"));
    }
}
