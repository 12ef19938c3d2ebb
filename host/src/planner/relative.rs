//! Changes the words give relative to what the scene holds: "move the cube up by two
//! metres", "make it twice as big", "half the size". The capabilities take absolute
//! values (`location`, `scale`), so the planner reads the object first (the
//! `reads-object` role, through the checked read-only path) and adds or multiplies.
//!
//! Directions are Blender's axes as its front view shows them: up +Z, down -Z, right +X,
//! left -X, back +Y, forward -Y. A distance is the number next to the direction or after
//! "by", in metres unless it says cm or mm; with no number there is no move (nothing is
//! guessed). Factors: "twice" / "double" 2, "three times" 3, "half" 0.5, "N times".
//!
//! Turns: "rotate it 45 degrees on the X axis", "turn the cube 1.57 radians around z",
//! "a quarter turn about y". The angle is degrees unless it says radians; the axis must
//! be named (no axis, no turn: the step asks). "to 90 degrees" sets that axis's angle;
//! otherwise the angle is added to the object's own, read first (in radians, as
//! Blender stores it), and the other axes keep theirs.

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
    let (at, dir) = direction(lw)?;
    let numbers = super::numbers::numbers(lw);
    let by = lw.iter().position(|w| w == "by");
    let number = numbers
        .iter()
        .filter(|n| n.at.abs_diff(at) <= 4 || by.is_some_and(|b| n.at == b + 1))
        .min_by_key(|n| if by.is_some_and(|b| n.at == b + 1) { 0 } else { n.at.abs_diff(at) })?;
    let unit_word = number.unit.clone().or_else(|| lw.get(number.at + 1).cloned()).unwrap_or_default();
    let metres = match unit_word.as_str() {
        // An angle is a turn, never a distance ("tilt the camera down 15 degrees").
        "deg" | "°" | "degree" | "degrees" | "rad" | "radian" | "radians" => return None,
        "cm" | "centimetre" | "centimetres" | "centimeter" | "centimeters" => number.value / 100.0,
        "mm" | "millimetre" | "millimetres" | "millimeter" | "millimeters" => number.value / 1000.0,
        _ => number.value,
    };
    (metres.is_finite() && metres.abs() <= 1e6).then(|| dir.map(|c| c * metres))
}

/// A turn the words give: the axis (0 X, 1 Y, 2 Z), the angle in degrees, and whether
/// it is the angle to set ("to 90 degrees") rather than one to add.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Turn {
    pub axis: usize,
    pub degrees: f64,
    pub absolute: bool,
}

const TURN_VERBS: &[&str] = &["rotate", "rotated", "rotation", "turn", "turned", "spin", "tilt", "tilted", "angle"];

pub fn turn(lw: &[String]) -> Option<Turn> {
    if !lw.iter().any(|w| TURN_VERBS.contains(&w.as_str())) {
        return None;
    }
    let axis_of = |w: &str| match w.trim_end_matches("-axis") {
        "x" => Some(0),
        "y" => Some(1),
        // "the vertical axis" is Z: up in the front view.
        "z" | "vertical" => Some(2),
        _ => None,
    };
    // "the x axis", "x-axis", "around z", "about the y".
    let axis = lw.iter().enumerate().find_map(|(i, w)| {
        let named = w.ends_with("-axis") || lw.get(i + 1).is_some_and(|n| n == "axis") || (i > 0 && ["around", "about", "on", "along"].contains(&lw[i - 1].as_str())) || (i > 1 && lw[i - 1] == "the" && ["around", "about", "on", "along"].contains(&lw[i - 2].as_str()));
        named.then(|| axis_of(w)).flatten()
    })?;
    let quarter = lw.windows(2).any(|p| p[0] == "quarter" && p[1] == "turn");
    let half = lw.windows(2).any(|p| p[0] == "half" && p[1] == "turn");
    let angle = super::numbers::numbers(lw).into_iter().find_map(|n| {
        let unit = n.unit.clone().or_else(|| lw.get(n.at + 1).cloned()).unwrap_or_default();
        let degrees = match unit.as_str() {
            "deg" | "°" | "degree" | "degrees" => n.value,
            "rad" | "radian" | "radians" => n.value.to_degrees(),
            _ => return None,
        };
        Some((degrees, n.at > 0 && lw[n.at - 1] == "to"))
    });
    let (degrees, absolute) = match angle {
        Some(a) => a,
        None if quarter => (90.0, false),
        None if half => (180.0, false),
        None => return None,
    };
    (degrees.is_finite() && degrees.abs() <= 36_000.0).then_some(Turn { axis, degrees, absolute })
}

/// Where the direction word stands and its unit vector: a direction by name ("up"), or
/// an axis ("along x", "along the -y axis", "in x").
fn direction(lw: &[String]) -> Option<(usize, [f64; 3])> {
    if let Some(at) = lw.iter().position(|w| DIRECTIONS.iter().any(|(d, _)| d == w)) {
        return DIRECTIONS.iter().find(|(d, _)| *d == lw[at]).map(|(_, v)| (at, *v));
    }
    lw.iter().enumerate().find_map(|(i, w)| {
        let after = |k: usize| i >= k && ["along", "in"].contains(&lw[i - k].as_str()) && (k == 1 || lw[i - 1] == "the");
        if !(after(1) || after(2)) {
            return None;
        }
        let (sign, axis) = match w.trim_end_matches("-axis").strip_prefix('-') {
            Some(a) => (-1.0, a),
            None => (1.0, w.trim_end_matches("-axis").trim_start_matches('+')),
        };
        let index = ["x", "y", "z"].iter().position(|a| *a == axis)?;
        let mut v = [0.0; 3];
        v[index] = sign;
        Some((i, v))
    })
}

/// The factors the planner reads off words: a size changed a thousandfold either way is
/// not a size anyone meant ("scale it 1e308 times").
const FACTORS: std::ops::RangeInclusive<f64> = 0.001..=1000.0;

/// A size factor the words give ("twice as big", "half the size", "3 times larger").
pub fn factor(lw: &[String]) -> Option<f64> {
    size_factor(lw).filter(|f| FACTORS.contains(f))
}

/// The axes a size word is about: "tall" and "high" Z, "wide" X, "long" and "deep" Y;
/// "big", "size" and the rest every axis.
fn size_axes(lw: &[String]) -> [bool; 3] {
    let has = |list: &[&str]| lw.iter().any(|w| list.contains(&w.as_str()));
    match () {
        _ if has(&["big", "bigger", "large", "larger", "size", "small", "smaller", "scale", "scaled"]) => [true; 3],
        _ if has(&["tall", "taller", "high", "higher", "height"]) => [false, false, true],
        _ if has(&["wide", "wider", "width"]) => [true, false, false],
        _ if has(&["long", "longer", "deep", "deeper", "depth", "length"]) => [false, true, false],
        _ => [true; 3],
    }
}

/// A size to reach on one axis, in metres: "50cm tall", "make it 3 m wide".
pub fn size_to(lw: &[String]) -> Option<(usize, f64)> {
    let axis_words: &[(&str, usize)] = &[("tall", 2), ("high", 2), ("wide", 0), ("long", 1), ("deep", 1)];
    super::numbers::numbers(lw).into_iter().find_map(|n| {
        let unit = n.unit.clone().or_else(|| lw.get(n.at + 1).cloned())?;
        let metres = match unit.as_str() {
            "m" | "metre" | "metres" | "meter" | "meters" => n.value,
            "cm" | "centimetre" | "centimetres" | "centimeter" | "centimeters" => n.value / 100.0,
            "mm" | "millimetre" | "millimetres" | "millimeter" | "millimeters" => n.value / 1000.0,
            _ => return None,
        };
        let next = if n.unit.is_some() { n.at + 1 } else { n.at + 2 };
        let axis = axis_words.iter().find(|(w, _)| lw.get(next).is_some_and(|x| x == w))?.1;
        (metres > 0.0 && metres <= 1e6).then_some((axis, metres))
    })
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
    // "in a row along x, 2 metres apart": a step between copies is the move itself.
    if !args.contains_key("offset")
        && takes_vec3(schema, "offset")
        && let Some(step) = offset(lw)
    {
        args.insert("offset".into(), json!(step));
    }
    let Some(object) = object else { return };
    // What the words ask, each read once: the amounts a reading of the object completes.
    let step = offset(lw).filter(|_| !args.contains_key("location") && takes_vec3(schema, "location"));
    let by = factor(lw).filter(|_| !args.contains_key("scale") && takes_vec3(schema, "scale"));
    // "lift the cube 4 m high" is a place, not a size: a size to reach only without a move verb.
    let moves = lw.iter().any(|w| ["move", "lift", "raise", "lower", "push", "shift", "put", "place", "nudge", "slide"].contains(&w.as_str()));
    let reach = size_to(lw).filter(|_| !moves && by.is_none() && !args.contains_key("scale") && takes_vec3(schema, "scale"));
    // Rotation in the capability's default unit (degrees) only: a step that chose radians
    // would read these numbers wrong.
    let in_degrees = args.get("rotation_unit").is_none_or(|u| u == "degrees");
    let spin = turn(lw).filter(|_| !args.contains_key("rotation") && in_degrees && takes_vec3(schema, "rotation"));
    if step.is_none() && by.is_none() && reach.is_none() && spin.is_none() {
        return;
    }
    let Some(reader) = registry.role(crate::roles::Role::ReadsObject) else { return };
    let Ok(info) = super::read_only(registry, &reader, json!({ "name": object })) else { return };
    if let (Some(d), Some(at)) = (step, vec3(&info["location"])) {
        args.insert("location".into(), json!([at[0] + d[0], at[1] + d[1], at[2] + d[2]].map(|c| (c * 1e6).round() / 1e6)));
    }
    if let (Some(f), Some(s)) = (by, vec3(&info["scale"])) {
        let axes = size_axes(lw);
        args.insert("scale".into(), json!([0, 1, 2].map(|i| if axes[i] { s[i] * f } else { s[i] })));
    }
    // A size to reach: that axis's scale times the size wanted over the size it has.
    if let (Some((axis, metres)), Some(s), Some(d)) = (reach, vec3(&info["scale"]), vec3(&info["dimensions"]))
        && d[axis] > 0.0
    {
        let mut scale = s;
        scale[axis] = s[axis] * metres / d[axis];
        if scale.iter().all(|c| c.is_finite() && *c > 0.0) {
            args.insert("scale".into(), json!(scale.map(|c| (c * 1e9).round() / 1e9)));
        }
    }
    if let (Some(t), Some(radians)) = (spin, vec3(&info["rotation"])) {
        let mut degrees = radians.map(f64::to_degrees);
        degrees[t.axis] = if t.absolute { t.degrees } else { degrees[t.axis] + t.degrees };
        args.insert("rotation".into(), json!(degrees.map(|c| (c * 1e6).round() / 1e6)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lw(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_lowercase).collect()
    }

    #[test]
    fn an_angle_is_no_distance() {
        let w = |text: &str| crate::planner::text::clause_words(text);
        assert_eq!(offset(&w("tilt the camera down 15 degrees")), None);
        assert_eq!(offset(&w("rotate the light 30 degrees to the left")), None);
        assert_eq!(offset(&w("move the light 30 cm to the left")), Some([-0.3, 0.0, 0.0]));
    }

    #[test]
    fn sizes_to_reach_and_the_axes_a_size_word_names() {
        let w = |text: &str| crate::planner::text::clause_words(text);
        assert_eq!(size_to(&w("Could you make the cube 50cm tall?")), Some((2, 0.5)));
        assert_eq!(size_to(&w("make it 3 m wide")), Some((0, 3.0)));
        assert_eq!(size_to(&w("make it 3 m")), None, "no axis named");
        assert_eq!(size_axes(&w("make the cube twice as tall")), [false, false, true]);
        assert_eq!(size_axes(&w("make the cube twice as big")), [true; 3]);
        assert_eq!(turn(&w("spin the box 45 degrees around the vertical axis")).map(|t| t.axis), Some(2));
    }

    #[test]
    fn turns_name_their_axis_and_angle() {
        let t = |text: &str| turn(&crate::planner::text::clause_words(text));
        assert_eq!(t("rotate the cube by 45 degrees on the X axis"), Some(Turn { axis: 0, degrees: 45.0, absolute: false }));
        assert_eq!(t("turn it 90deg around z"), Some(Turn { axis: 2, degrees: 90.0, absolute: false }));
        let r = t("rotate the monkey 1.5707963 radians about the y-axis").unwrap();
        assert!((r.degrees - 90.0).abs() < 1e-4 && r.axis == 1);
        assert_eq!(t("give it a quarter turn about x"), Some(Turn { axis: 0, degrees: 90.0, absolute: false }));
        assert_eq!(t("set its rotation to 30 degrees on z"), Some(Turn { axis: 2, degrees: 30.0, absolute: true }));
        assert_eq!(t("rotate the cube 45 degrees"), None, "no axis, no turn");
        assert_eq!(t("move the cube along x by 2"), None, "no turn word");
        assert_eq!(t("rotate it 1e300 degrees on x"), None);
    }

    #[test]
    fn moves_by_a_distance_in_a_direction() {
        assert_eq!(offset(&lw("move the cube up by two metres")), Some([0.0, 0.0, 2.0]));
        assert_eq!(offset(&lw("move it 50 cm to the left")), Some([-0.5, 0.0, 0.0]));
        assert_eq!(offset(&lw("shift it back 3m")), Some([0.0, 3.0, 0.0]));
        assert_eq!(offset(&lw("move the cube up")), None, "no distance, no move");
        assert_eq!(offset(&lw("move it 2 metres along x")), Some([2.0, 0.0, 0.0]));
        assert_eq!(offset(&lw("shift it along the -y axis by 0.5")), Some([0.0, -0.5, 0.0]));
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
