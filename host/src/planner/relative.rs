//! Changes the words give relative to what the scene holds: "move the cube up by two
//! metres", "make it twice as big", "half the size". The capabilities take absolute
//! values (`location`, `scale`), so the planner reads the object first (the
//! `reads-object` role, through the checked read-only path) and adds or multiplies.
//!
//! Directions are Blender's axes as its front view shows them: up +Z, down -Z, right +X,
//! left -X, back +Y, forward -Y. A distance is the number next to the direction or after
//! "by", in metres unless it says cm or mm; with no number there is no move (nothing is
//! guessed). Factors: "twice" / "double" 2, "three times" 3, "half" 0.5, "N times".

use super::Registry;
use serde_json::{Map, Value, json};

const DIRECTIONS: &[(&str, [f64; 3])] = &[
    ("up", [0.0, 0.0, 1.0]),
    ("upward", [0.0, 0.0, 1.0]),
    ("upwards", [0.0, 0.0, 1.0]),
    ("down", [0.0, 0.0, -1.0]),
    ("downward", [0.0, 0.0, -1.0]),
    ("downwards", [0.0, 0.0, -1.0]),
    ("right", [1.0, 0.0, 0.0]),
    ("left", [-1.0, 0.0, 0.0]),
    ("back", [0.0, 1.0, 0.0]),
    ("backward", [0.0, 1.0, 0.0]),
    ("backwards", [0.0, 1.0, 0.0]),
    ("forward", [0.0, -1.0, 0.0]),
    ("forwards", [0.0, -1.0, 0.0]),
];

/// A move the words give: direction times distance.
pub fn offset(lw: &[String]) -> Option<[f64; 3]> {
    let at = lw.iter().position(|w| DIRECTIONS.iter().any(|(d, _)| d == w))?;
    let dir = DIRECTIONS.iter().find(|(d, _)| *d == lw[at]).map(|(_, v)| *v)?;
    let numbers = super::numbers::numbers(lw);
    let by = lw.iter().position(|w| w == "by");
    let number = numbers
        .iter()
        .filter(|n| n.at.abs_diff(at) <= 4 || by.is_some_and(|b| n.at == b + 1))
        .min_by_key(|n| if by.is_some_and(|b| n.at == b + 1) { 0 } else { n.at.abs_diff(at) })?;
    let unit_word = number.unit.clone().or_else(|| lw.get(number.at + 1).cloned()).unwrap_or_default();
    let metres = match unit_word.as_str() {
        "cm" | "centimetre" | "centimetres" | "centimeter" | "centimeters" => number.value / 100.0,
        "mm" | "millimetre" | "millimetres" | "millimeter" | "millimeters" => number.value / 1000.0,
        _ => number.value,
    };
    (metres.is_finite() && metres.abs() <= 1e6).then(|| dir.map(|c| c * metres))
}

/// The factors the planner reads off words: a size changed a thousandfold either way is
/// not a size anyone meant ("scale it 1e308 times").
const FACTORS: std::ops::RangeInclusive<f64> = 0.001..=1000.0;

/// A size factor the words give ("twice as big", "half the size", "3 times larger").
pub fn factor(lw: &[String]) -> Option<f64> {
    size_factor(lw).filter(|f| FACTORS.contains(f))
}

fn size_factor(lw: &[String]) -> Option<f64> {
    let sized = lw.iter().any(|w| ["big", "bigger", "large", "larger", "size", "small", "smaller", "tall", "taller", "scale", "scaled", "wide"].contains(&w.as_str()));
    if !sized {
        return None;
    }
    if lw.iter().any(|w| w == "twice" || w == "double") {
        return Some(2.0);
    }
    if lw.iter().any(|w| w == "half") {
        return Some(0.5);
    }
    if let Some(t) = lw.iter().position(|w| w == "times") {
        return super::numbers::numbers(lw).iter().find(|n| n.at + 1 == t).map(|n| n.value).filter(|v| *v > 0.0);
    }
    None
}

fn vec3(v: &Value) -> Option<[f64; 3]> {
    let a = v.as_array()?;
    Some([a.first()?.as_f64()?, a.get(1)?.as_f64()?, a.get(2)?.as_f64()?])
}

fn takes_vec3(schema: &Value, key: &str) -> bool {
    let prop = &schema["properties"][key];
    super::args::branches_of(schema, prop).iter().any(|b| b.get("maxItems").and_then(Value::as_u64) == Some(3))
}

/// Fill `location` or `scale` from a relative change, reading the object's transform.
/// `object` is the object the step acts on.
pub fn fill(registry: &dyn Registry, schema: &Value, lw: &[String], object: Option<&str>, args: &mut Map<String, Value>) {
    // A uniform scale given as one number ("import it at twice the size"): the factor.
    let scale = &schema["properties"]["scale"];
    if !args.contains_key("scale")
        && super::args::branches_of(schema, scale).iter().any(|b| b.get("type").is_some_and(|t| t == "number" || t.as_array().is_some_and(|a| a.iter().any(|x| x == "number"))))
        && let Some(f) = factor(lw)
    {
        args.insert("scale".into(), json!(f));
        return;
    }
    let Some(object) = object else { return };
    let wants_move = !args.contains_key("location") && takes_vec3(schema, "location") && offset(lw).is_some();
    let wants_scale = !args.contains_key("scale") && takes_vec3(schema, "scale") && factor(lw).is_some();
    if !wants_move && !wants_scale {
        return;
    }
    let Some(reader) = registry.role(crate::roles::Role::ReadsObject) else { return };
    let Ok(info) = super::read_only(registry, &reader, json!({ "name": object })) else { return };
    if wants_move
        && let (Some(d), Some(at)) = (offset(lw), vec3(&info["location"]))
    {
        args.insert("location".into(), json!([at[0] + d[0], at[1] + d[1], at[2] + d[2]].map(|c| (c * 1e6).round() / 1e6)));
    }
    if wants_scale
        && let (Some(f), Some(s)) = (factor(lw), vec3(&info["scale"]))
    {
        args.insert("scale".into(), json!(s.map(|c| c * f)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lw(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_lowercase).collect()
    }

    #[test]
    fn moves_by_a_distance_in_a_direction() {
        assert_eq!(offset(&lw("move the cube up by two metres")), Some([0.0, 0.0, 2.0]));
        assert_eq!(offset(&lw("move it 50 cm to the left")), Some([-0.5, 0.0, 0.0]));
        assert_eq!(offset(&lw("shift it back 3m")), Some([0.0, 3.0, 0.0]));
        assert_eq!(offset(&lw("move the cube up")), None, "no distance, no move");
    }

    #[test]
    fn factors_of_size() {
        assert_eq!(factor(&lw("make the cube twice as big")), Some(2.0));
        assert_eq!(factor(&lw("half the size")), Some(0.5));
        assert_eq!(factor(&lw("make it 3 times larger")), Some(3.0));
        assert_eq!(factor(&lw("duplicate it three times")), None, "times without a size is a count");
        assert_eq!(factor(&lw("scale it up 1e308 times its size")), None, "no such size");
    }
}
