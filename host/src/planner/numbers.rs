//! Numbers in a goal's words, and which numeric argument each one gives.
//!
//! A number fills a numeric property only when a word naming that property stands
//! next to it (at most two words away): "an 85mm lens" gives `lens: 85`, "1.8 m tall"
//! gives `height: 1.8`, "a two-lane road" gives `lanes: 2`, "three times" gives
//! `count: 3`. The property is named by its own name (plural or not), its last word
//! (`spin_frames` by "frames"), or a few fixed synonyms ([`SYNONYMS`]). A number two
//! properties could take goes to neither, a value outside the property's declared range
//! is not filled, and an integer property takes only a whole number: a filled number is
//! always one the words say, for a property they name.

use serde_json::{Map, Value};

/// Words that name a property other than by its own name.
const SYNONYMS: &[(&str, &[&str])] = &[
    ("count", &["times", "copies", "copy", "instances"]),
    ("height", &["tall", "high"]),
    ("length", &["long"]),
    ("frame_end", &["long"]),
    ("width", &["wide"]),
    ("spacing", &["apart"]),
    // Not "power": "power to 2 kW" is a unit this does not read (asked, not 2 W).
    ("energy", &["watts", "watt", "w", "strength", "brightness"]),
    ("lens", &["mm", "millimetre", "millimetres", "millimeter", "millimeters"]),
    ("samples", &["samples", "spp"]),
    ("degrees", &["degrees", "deg"]),
    ("segments", &["segments", "sides"]),
    ("percentage", &["%", "percent"]),
];

const NUMBER_WORDS: &[(&str, f64)] = &[
    ("zero", 0.0),
    ("one", 1.0),
    ("two", 2.0),
    ("three", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("seven", 7.0),
    ("eight", 8.0),
    ("nine", 9.0),
    ("ten", 10.0),
    ("eleven", 11.0),
    ("twelve", 12.0),
    ("twenty", 20.0),
    ("hundred", 100.0),
];

/// Unit suffixes a number may carry in one token ("85mm", "2m", "90deg", "24fps"); a
/// longer suffix comes before a shorter one it ends with ("fps" before "s").
const UNITS: &[&str] = &["mm", "cm", "km", "m", "deg", "°", "rad", "px", "w", "fps", "s", "%"];

/// One number of the words: where it stands and the unit word it carried, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    pub at: usize,
    pub value: f64,
    pub unit: Option<String>,
}

fn parse(token: &str) -> Option<(f64, Option<String>)> {
    if let Some((_, v)) = NUMBER_WORDS.iter().find(|(w, _)| *w == token) {
        return Some((*v, None));
    }
    if let Ok(v) = token.parse::<f64>() {
        return v.is_finite().then_some((v, None));
    }
    let unit = UNITS.iter().find(|u| token.ends_with(**u))?;
    let v = token[..token.len() - unit.len()].parse::<f64>().ok().filter(|v| v.is_finite())?;
    Some((v, Some(unit.to_string())))
}

/// The numbers in lower-case words; "two-lane" is the number two with the word "lane".
pub fn numbers(lw: &[String]) -> Vec<Number> {
    let mut out = Vec::new();
    for (at, w) in lw.iter().enumerate() {
        if let Some((value, unit)) = parse(w) {
            out.push(Number { at, value, unit });
        } else if let Some((head, tail)) = w.split_once('-')
            && let Some((value, None)) = parse(head)
        {
            out.push(Number { at, value, unit: Some(tail.to_string()) });
        }
    }
    out
}

fn singular(w: &str) -> &str {
    w.strip_suffix('s').filter(|s| !s.is_empty()).unwrap_or(w)
}

/// How strongly a word names a property: 2 its whole name, 1 its last word or a synonym.
fn names(key: &str, word: &str) -> u8 {
    let word = singular(word);
    if singular(key) == word {
        return 2;
    }
    let last = key.rsplit('_').next().unwrap_or(key);
    // A synonym of the property's name; "%" also names a property ending in `percentage`.
    let synonym = SYNONYMS.iter().any(|(k, ws)| (*k == key || (*k == "percentage" && last == "percentage")) && ws.iter().any(|s| singular(s) == word));
    u8::from(key.contains('_') && singular(last) == word || synonym)
}

/// Picture sizes by name.
const NAMED_SIZES: &[(&str, [u64; 2])] = &[("720p", [1280, 720]), ("1080p", [1920, 1080]), ("1440p", [2560, 1440]), ("4k", [3840, 2160]), ("2160p", [3840, 2160])];

/// A picture size the words give: "1920x1080", "128 x 96", "1080p", "4k".
pub fn picture_size(lw: &[String]) -> Option<[u64; 2]> {
    let whole = |t: &str| t.parse::<u64>().ok().filter(|&n| (1..=65536).contains(&n));
    for (i, w) in lw.iter().enumerate() {
        if let Some((a, b)) = w.split_once(['x', '×']).and_then(|(a, b)| Some((whole(a)?, whole(b.trim_end_matches("px"))?))) {
            return Some([a, b]);
        }
        if (w == "x" || w == "×" || w == "by") && i > 0 && let (Some(a), Some(b)) = (whole(&lw[i - 1]), lw.get(i + 1).and_then(|n| whole(n.trim_end_matches("px")))) {
            return Some([a, b]);
        }
        if let Some((_, size)) = NAMED_SIZES.iter().find(|(n, _)| n == w) {
            return Some(*size);
        }
    }
    None
}

/// The largest coordinate the planner reads off words, in metres.
const MAX_COORDINATE: f64 = 1e6;

/// A point the words give by axis: "x 2 y -1" (axes not named are 0), or three numbers
/// after "at" or "to": "(1, 2, 0)", "[1, 2, 0]", "0,0,3".
pub fn point(lw: &[String]) -> Option<[f64; 3]> {
    // Three plain numbers after "at" / "to" ("move it to (4, -4, 6)", "at 0,0,3": the
    // words lose their commas and brackets).
    let plain = |w: &String| w.parse::<f64>().ok().filter(|v| v.is_finite() && v.abs() <= MAX_COORDINATE);
    // "rotate the cube to 0, 0, 90", "scale it to 2, 2, 1": angles and factors, not a place.
    let other = ["rotate", "rotation", "rotated", "turn", "spin", "tilt", "scale", "scaled", "size", "resize", "dimensions", "degrees", "radians"];
    if !lw.iter().any(|w| other.contains(&w.as_str()))
        && let Some(p) = lw.windows(4).find_map(|w| {
        (["at", "to", "location", "position"].contains(&w[0].as_str())).then(|| Some([plain(&w[1])?, plain(&w[2])?, plain(&w[3])?])).flatten()
    }) {
        return Some(p);
    }
    let mut p = [0.0; 3];
    let mut any = false;
    for (i, w) in lw.iter().enumerate() {
        let axis = match w.as_str() {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => continue,
        };
        if let Some(next) = lw.get(i + 1)
            && let Ok(v) = next.trim_end_matches('m').parse::<f64>()
        {
            // A coordinate no scene has ("1e400", "1e308") makes no point at all, rather
            // than an axis quietly left at 0.
            if !v.is_finite() || v.abs() > MAX_COORDINATE {
                return None;
            }
            p[axis] = v;
            any = true;
        }
    }
    any.then_some(p)
}

/// A size property: an array of two whole numbers named for a resolution or size.
fn size_property(key: &str, branches: &[&Value]) -> bool {
    (key.contains("resolution") || key == "size") && branches.iter().any(|b| {
            let array = match b.get("type") {
                Some(Value::String(t)) => t == "array",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "array"),
                _ => false,
            };
            array && b.get("maxItems").and_then(Value::as_u64) == Some(2)
        })
}

/// A length of time the words give, with the frame rate when they give one: "10 seconds
/// at 24 fps", "a 5s animation at 30 frames per second".
#[derive(Debug, Clone, PartialEq)]
pub struct TimeSpan {
    pub seconds: f64,
    /// Where the number of seconds stands.
    pub at: usize,
    /// The frame rate and where it stands.
    pub fps: Option<(f64, usize)>,
}

/// The words after a number that make it seconds, and frames per second.
const SECONDS: &[&str] = &["second", "seconds", "sec", "secs"];

pub fn time_span(lw: &[String]) -> Option<TimeSpan> {
    let found = numbers(lw);
    let next = |n: &Number, k: usize| lw.get(n.at + k).map(String::as_str);
    let seconds = found.iter().find(|n| n.unit.as_deref() == Some("s") || next(n, 1).is_some_and(|w| SECONDS.contains(&w)))?;
    let fps = found.iter().find(|n| {
        n.unit.as_deref() == Some("fps") || next(n, 1) == Some("fps") || (next(n, 1).is_some_and(|w| w == "frames" || w == "frame") && matches!(next(n, 2), Some("per" | "a")) && next(n, 3).is_some_and(|w| SECONDS.contains(&w)))
    });
    let span = TimeSpan { seconds: seconds.value, at: seconds.at, fps: fps.map(|f| (f.value, f.at)) };
    (span.seconds > 0.0 && span.fps.is_none_or(|(f, _)| f > 0.0)).then_some(span)
}

/// A time span with its frame rate as frames: `frames` (a count), `frame_end` (from
/// `frame_start`, or frame 1), `fps`. Without a frame rate the seconds are no frame
/// count, and no frame property takes them. Returns the positions of the numbers used.
fn fill_time(props: &[(&String, Vec<&Value>)], lw: &[String], args: &mut Map<String, Value>) -> Vec<usize> {
    let Some(span) = time_span(lw) else { return Vec::new() };
    let Some((fps, fps_at)) = span.fps else { return vec![span.at] };
    let frames = (span.seconds * fps).round();
    let set = |key: &str, value: f64, args: &mut Map<String, Value>| {
        if let Some((k, branches)) = props.iter().find(|(k, _)| k.as_str() == key && !args.contains_key(key))
            && let Some(v) = fits(branches, value)
        {
            args.insert(k.to_string(), v);
        }
    };
    set("fps", fps, args);
    set("frames", frames, args);
    let start = args.get("frame_start").and_then(Value::as_f64).unwrap_or(1.0);
    set("frame_end", start + frames - 1.0, args);
    vec![span.at, fps_at]
}

/// Fill numeric properties of `props` (by name: its schema branches) from the words.
pub fn fill(props: &[(&String, Vec<&Value>)], lw: &[String], args: &mut Map<String, Value>) {
    let used = fill_time(props, lw, args);
    if let Some(size) = picture_size(lw)
        && let Some((key, _)) = props.iter().find(|(k, b)| !args.contains_key(k.as_str()) && size_property(k, b))
    {
        args.insert(key.to_string(), serde_json::json!(size));
    }
    if let Some(p) = point(lw)
        && let Some((key, _)) = props.iter().find(|(k, b)| !args.contains_key(k.as_str()) && k.as_str() == "location" && b.iter().any(|b| b.get("maxItems").and_then(Value::as_u64) == Some(3)))
    {
        args.insert(key.to_string(), serde_json::json!(p));
    }
    let found: Vec<Number> = numbers(lw).into_iter().filter(|n| !used.contains(&n.at)).collect();
    // (number index, property, strength, distance) for every naming word near a number.
    let mut claims: Vec<(usize, &String, u8, usize)> = Vec::new();
    for (n, number) in found.iter().enumerate() {
        let mut near: Vec<(usize, &str)> = (number.at.saturating_sub(2)..=(number.at + 2).min(lw.len().saturating_sub(1)))
            .filter(|&i| i != number.at)
            .map(|i| (i.abs_diff(number.at), lw[i].as_str()))
            .collect();
        if let Some(unit) = &number.unit {
            near.push((0, unit.as_str()));
        }
        for (key, branches) in props {
            if args.contains_key(key.as_str()) || !branches.iter().any(|b| numeric(b)) {
                continue;
            }
            let best = near.iter().map(|(d, w)| (names(key, w), *d)).filter(|(s, _)| *s > 0).max_by_key(|(s, d)| (*s, std::cmp::Reverse(*d)));
            if let Some((strength, distance)) = best {
                claims.push((n, key, strength, distance));
            }
        }
    }
    for (n, number) in found.iter().enumerate() {
        let mine: Vec<_> = claims.iter().filter(|c| c.0 == n).collect();
        let Some(top) = mine.iter().map(|c| (c.2, std::cmp::Reverse(c.3))).max() else { continue };
        let winners: Vec<_> = mine.iter().filter(|c| (c.2, std::cmp::Reverse(c.3)) == top).collect();
        let [winner] = winners.as_slice() else { continue };
        let key = winner.1;
        if args.contains_key(key.as_str()) {
            continue;
        }
        let branches = &props.iter().find(|(k, _)| *k == key).expect("claimed from props").1;
        if let Some(value) = fits(branches, number.value) {
            args.insert(key.clone(), value);
        }
    }
}

fn numeric(schema: &Value) -> bool {
    let is = |t: &str| t == "number" || t == "integer";
    match schema.get("type") {
        Some(Value::String(t)) => is(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(is),
        _ => false,
    }
}

/// The number as the property takes it, or None when its type or range refuses it.
fn fits(branches: &[&Value], value: f64) -> Option<Value> {
    let schema = branches.iter().find(|b| numeric(b))?;
    let integer = match schema.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer") && !ts.iter().any(|t| t == "number"),
        _ => false,
    };
    let below = |k: &str| schema.get(k).and_then(Value::as_f64).is_some_and(|m| value < m);
    let above = |k: &str| schema.get(k).and_then(Value::as_f64).is_some_and(|m| value > m);
    let at_or_below = |k: &str| schema.get(k).and_then(Value::as_f64).is_some_and(|m| value <= m);
    let at_or_above = |k: &str| schema.get(k).and_then(Value::as_f64).is_some_and(|m| value >= m);
    if below("minimum") || above("maximum") || at_or_below("exclusiveMinimum") || at_or_above("exclusiveMaximum") {
        return None;
    }
    if integer {
        // Only whole numbers an i64 holds exactly (no saturation to a value never said).
        return (value.fract() == 0.0 && value.abs() <= 9_007_199_254_740_992.0).then(|| Value::from(value as i64));
    }
    serde_json::Number::from_f64(value).map(Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(schema: Value, text: &str) -> Map<String, Value> {
        let lw = crate::planner::text::clause_words(text);
        let props: Vec<(&String, Vec<&Value>)> = schema["properties"].as_object().unwrap().iter().map(|(k, v)| (k, vec![v])).collect();
        let mut args = Map::new();
        fill(&props, &lw, &mut args);
        args
    }

    #[test]
    fn a_number_fills_the_property_a_word_beside_it_names() {
        let camera = json!({ "properties": { "lens": { "type": ["number", "null"], "minimum": 1, "maximum": 5000 }, "location": { "type": "array" } } });
        assert_eq!(Value::Object(run(camera.clone(), "use an 85mm lens")), json!({ "lens": 85.0 }));
        assert_eq!(Value::Object(run(camera, "use a lens of 9000")), json!({}), "out of range");
        let figure = json!({ "properties": { "height": { "type": "number" }, "name": { "type": "string" } } });
        assert_eq!(run(figure, "a pedestrian 1.8 m tall")["height"], json!(1.8));
        let road = json!({ "properties": { "lanes": { "type": "integer" }, "length": { "type": "number" } } });
        assert_eq!(Value::Object(run(road, "a two-lane road, 40 metres long")), json!({ "lanes": 2, "length": 40.0 }));
        let dup = json!({ "properties": { "count": { "type": "integer", "minimum": 1 } } });
        assert_eq!(run(dup.clone(), "duplicate the cube three times")["count"], json!(3));
        assert_eq!(Value::Object(run(dup, "duplicate it 2.5 times")), json!({}), "an integer takes whole numbers");
        let out = json!({ "properties": { "percentage": { "type": ["integer", "null"], "minimum": 1, "maximum": 1000 }, "samples": { "type": ["integer", "null"] } } });
        assert_eq!(Value::Object(run(out, "Switch to Cycles with 128 samples, 1920x1080 but at 50% for now.")), json!({ "percentage": 50, "samples": 128 }));
    }

    #[test]
    fn three_numbers_after_at_or_to_are_a_point() {
        let w = |t: &str| crate::planner::text::clause_words(t);
        assert_eq!(point(&w("move it to (4, -4, 6).")), Some([4.0, -4.0, 6.0]));
        assert_eq!(point(&w("pls add a sphre at 0,0,3")), Some([0.0, 0.0, 3.0]));
        assert_eq!(point(&w("make 3 copies 2 m apart")), None);
        assert_eq!(point(&w("rotate the cube to 0, 0, 90")), None, "angles");
        assert_eq!(point(&w("scale the cube to 2, 2, 1")), None, "factors");
    }

    #[test]
    fn seconds_at_a_frame_rate_are_frames() {
        let range = json!({ "properties": { "frame_start": { "type": "integer", "minimum": 0 }, "frame_end": { "type": "integer", "minimum": 0 }, "fps": { "type": "integer", "minimum": 1 } } });
        assert_eq!(Value::Object(run(range.clone(), "make the animation 10 seconds at 24 fps")), json!({ "frame_end": 240, "fps": 24 }));
        assert_eq!(Value::Object(run(range.clone(), "a 5s clip at 30 frames per second")), json!({ "frame_end": 150, "fps": 30 }));
        assert_eq!(Value::Object(run(range.clone(), "2.5 seconds long at 24fps")), json!({ "frame_end": 60, "fps": 24 }));
        // Without a frame rate the seconds are no frame count: nothing is guessed.
        assert_eq!(Value::Object(run(range, "make it 10 seconds long")), json!({}));
        let spin = json!({ "properties": { "frames": { "type": "integer", "minimum": 2 } } });
        assert_eq!(Value::Object(run(spin, "a 4 second turn at 25 fps")), json!({ "frames": 100 }));
    }

    #[test]
    fn a_point_by_axes_fills_a_location() {
        let create = json!({ "properties": { "location": { "type": ["array", "null"], "maxItems": 3 }, "size": { "type": "number" } } });
        assert_eq!(Value::Object(run(create.clone(), "add a cylinder at x 2")), json!({ "location": [2.0, 0.0, 0.0] }));
        assert_eq!(Value::Object(run(create.clone(), "put it at x 1 y -2.5 z 3")), json!({ "location": [1.0, -2.5, 3.0] }));
        assert_eq!(Value::Object(run(create.clone(), "add a cube")), json!({}));
        assert_eq!(Value::Object(run(create, "add a sphere at x 2 y 1e400 z 3")), json!({}), "no point rather than a wrong one");
    }

    #[test]
    fn picture_sizes_fill_a_resolution() {
        let render = json!({ "properties": { "resolution": { "type": ["array", "null"], "maxItems": 2, "minItems": 2 }, "samples": { "type": "integer" } } });
        assert_eq!(Value::Object(run(render.clone(), "render it at 1920x1080")), json!({ "resolution": [1920, 1080] }));
        assert_eq!(Value::Object(run(render.clone(), "a 128 x 96 thumbnail")), json!({ "resolution": [128, 96] }));
        assert_eq!(Value::Object(run(render.clone(), "1080p with a transparent background")), json!({ "resolution": [1920, 1080] }));
        assert_eq!(Value::Object(run(render, "render a picture")), json!({}));
    }

    #[test]
    fn a_number_two_properties_could_take_goes_to_neither() {
        let spin = json!({ "properties": { "frames": { "type": "integer" }, "start_frame": { "type": "integer" } } });
        assert_eq!(Value::Object(run(spin, "spin it once every 96 frames")), json!({ "frames": 96 }), "the whole name wins");
        let ends = json!({ "properties": { "start_frame": { "type": "integer" }, "end_frame": { "type": "integer" } } });
        assert_eq!(Value::Object(run(ends, "at frame 120")), json!({}), "both name it as strongly");
        let plain = json!({ "properties": { "size": { "type": "number" } } });
        assert_eq!(Value::Object(run(plain, "add a cube at x 2")), json!({}), "nothing names size");
    }
}
