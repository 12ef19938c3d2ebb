//! Colours in a goal's words ("paint the cube matte blue", "a gradient from white to
//! grey", "#ff8800"), into the colour properties of a capability's schema.
//!
//! A colour property is one whose schema describes a colour and takes a string (the
//! packs parse names and hex themselves; the names here are the sRGB names the Blender
//! SDK's colour parser knows, so a filled name is one the pack accepts). Colours go to
//! colour properties in the order both appear: the object's own colour (`color`) first,
//! then `top` before `bottom` ("from white to grey" is white above, grey below). An
//! emission colour is filled only when the words ask for light (glow, emit, emission).

use serde_json::{Map, Value};

/// The colour names the SDK's parser accepts (sdk/blender/src/color.rs).
const NAMES: &[&str] = &[
    "black", "white", "red", "green", "lime", "blue", "yellow", "cyan", "magenta", "orange", "purple", "pink", "brown", "gray", "grey", "silver", "gold", "navy", "teal", "olive",
    "maroon", "beige", "ivory", "coral", "salmon", "turquoise", "violet", "indigo", "crimson", "charcoal",
];
/// Which colour property comes first.
const ORDER: &[&str] = &["color", "base_color", "colour", "top", "bottom"];
const LIGHT_WORDS: &[&str] = &["glow", "glows", "glowing", "emit", "emits", "emission", "emissive", "luminous"];

/// Shades said with "dark" or "light" before a name, as a colour the parser knows.
const SHADES: &[(&str, &str, &str)] = &[
    ("dark", "grey", "#262626"),
    ("dark", "gray", "#262626"),
    ("light", "grey", "#bfbfbf"),
    ("light", "gray", "#bfbfbf"),
    ("dark", "blue", "navy"),
    ("dark", "red", "maroon"),
    ("dark", "green", "#0b3d0b"),
    ("light", "blue", "#9ecbff"),
];

/// A colour word as written, its hedge taken off: "orange-ish", "(reddish)", "bluish".
fn bare(word: &str) -> String {
    let w = word.trim_matches(|c: char| "()[]\"'".contains(c));
    w.strip_suffix("-ish").or_else(|| w.strip_suffix("ish")).map_or(w.to_string(), |stem| match stem {
        "redd" => "red".into(),
        "blu" | "blue" => "blue".into(),
        "purpl" => "purple".into(),
        other => other.to_string(),
    })
}

/// The colours the words name, in order: names (a shade "dark grey", a hedge
/// "orange-ish") and `#rgb` / `#rrggbb` hex.
pub fn colours(lw: &[String]) -> Vec<String> {
    let words: Vec<String> = lw.iter().map(|w| bare(w)).collect();
    let found: Vec<(usize, String)> = words
        .iter()
        .enumerate()
        .filter_map(|(i, w)| {
            // "make the light blue": the Light, blue; a shade only where "light" is no thing named.
            let names_thing = |p: usize| p > 0 && ["the", "this", "that", "my", "its", "your"].contains(&words[p - 1].as_str());
            let shade = i.checked_sub(1).filter(|p| !names_thing(*p)).and_then(|p| SHADES.iter().find(|(m, n, _)| *m == words[p] && n == w));
            match shade {
                Some((_, _, hex)) => Some(hex.to_string()),
                None if NAMES.contains(&w.as_str()) || is_hex(w) => Some(w.clone()),
                None => None,
            }
            .map(|c| (i, c))
        })
        .collect();
    // "a warm orange tint, #ffaa55", "cyan (#00ffff)": the code says precisely which
    // orange. A name is that code when only words for a colour's kind stand between
    // them ("red with a #ffffff emission" and "red, the sphere #00ff00" are two colours).
    // A shade ("dark grey") is a name too, though it stands for a code.
    let glosses = |from: usize, to: usize| words[from + 1..to].iter().all(|w| GLOSS.contains(&w.as_str()));
    let written_code = |i: usize| is_hex(&words[i]);
    found
        .iter()
        .enumerate()
        .filter(|(n, (i, _))| written_code(*i) || !found.get(n + 1).is_some_and(|(j, _)| written_code(*j) && glosses(*i, *j)))
        .map(|(_, (_, c))| c.clone())
        .collect()
}

/// Words between a colour's name and its code that say what kind of colour it is.
/// and hedges ("a dark grey, something like #202020", "blue, roughly #3366ff").
const GLOSS: &[&str] = &[
    "tint", "tone", "shade", "hue", "colour", "color", "i", "e", "g", "ie", "eg", "or", "so", "like", "say", "something", "roughly", "about", "around",
    "approximately", "approx", "exactly", "precisely",
];

fn is_hex(w: &str) -> bool {
    w.starts_with('#') && [4, 7, 9].contains(&w.len()) && w[1..].chars().all(|c| c.is_ascii_hexdigit())
}

fn describes_colour(root: &Value, prop: &Value) -> bool {
    super::args::branches_of(root, prop).iter().any(|b| {
        let d = b.get("description").and_then(Value::as_str).unwrap_or_default().to_lowercase();
        d.contains("colour") || d.contains("color")
    }) && super::args::accepts_type(root, prop, "string")
}

/// Fill empty colour properties from the colours of the words.
pub fn fill(root: &Value, props: &Map<String, Value>, lw: &[String], args: &mut Map<String, Value>) {
    let named = colours(lw);
    let asks_light = lw.iter().any(|w| LIGHT_WORDS.contains(&w.as_str()));
    // "make the cube glow cyan": one colour for what glows is its colour and its glow's,
    // unless the words name the glow's colour alone ("set the emission colour to blue").
    let glow_alone = lw.windows(2).any(|p| ["emission", "emissive", "glow"].contains(&p[0].as_str()) && ["colour", "color"].contains(&p[1].as_str()));
    let named = match named.as_slice() {
        [one] if asks_light && !glow_alone => vec![one.clone(), one.clone()],
        _ => named,
    };
    let mut found = named.into_iter();
    let mut keys: Vec<&String> = props.keys().filter(|k| !args.contains_key(k.as_str()) && describes_colour(root, &props[k.as_str()])).collect();
    keys.retain(|k| asks_light || !k.contains("emission"));
    keys.sort_by_key(|k| (!(glow_alone && k.contains("emission")), ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len())));
    for key in keys {
        let Some(colour) = found.next() else { break };
        args.insert(key.clone(), Value::String(colour));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hedged_and_shaded_colours_are_colours() {
        let c = |text: &str| colours(&crate::planner::text::clause_words(text));
        assert_eq!(c("make the light warmer (orange-ish) and brighter"), ["orange"]);
        assert_eq!(c("a reddish glow, bluish shadows"), ["red", "blue"]);
        assert_eq!(c("make the background a dark grey"), ["#262626"]);
        assert_eq!(c("a dark blue sky and a light grey floor"), ["navy", "#bfbfbf"]);
        assert_eq!(c("colour it #3366ff"), ["#3366ff"]);
        assert_eq!(c("give it a warm orange tint, #ffaa55"), ["#ffaa55"], "the code says which orange");
        assert_eq!(c("make the background a dark grey, something like #202020"), ["#202020"], "a hedge between them");
        assert_eq!(c("blue, roughly #3366ff"), ["#3366ff"]);
        assert_eq!(c("red walls and maybe a #ffffff ceiling"), ["red", "#ffffff"], "two colours, not a gloss");
        // "maybe" / "perhaps" start another thought: two colours.
        assert_eq!(c("Make the background black, maybe #ffffff text on it"), ["black", "#ffffff"]);
        assert_eq!(c("Paint the cube red. Perhaps #00ff00 emission too"), ["red", "#00ff00"]);
        assert_eq!(c("a red cube and a blue sphere, #0000ff"), ["red", "blue", "#0000ff"], "a thing between: no gloss");
        assert_eq!(c("Make the cube red with a #ffffff emission"), ["red", "#ffffff"]);
        assert_eq!(c("Paint the cube red, the sphere #00ff00"), ["red", "#00ff00"]);
        assert!(c("a lightweight finish").is_empty());
        assert_eq!(c("make the light blue"), ["blue"], "the Light, blue");
    }

    fn run(schema: Value, text: &str) -> Value {
        let lw = crate::planner::text::clause_words(text);
        let mut args = Map::new();
        fill(&schema, schema["properties"].as_object().unwrap(), &lw, &mut args);
        Value::Object(args)
    }

    #[test]
    fn colours_fill_colour_properties_in_order() {
        let material = json!({ "properties": {
            "color": { "type": "string", "description": "Base colour: hex or name" },
            "emission": { "type": "string", "description": "Emission colour" },
            "material": { "type": "string", "description": "Material name" } } });
        assert_eq!(run(material.clone(), "paint the cube matte blue"), json!({ "color": "blue" }));
        assert_eq!(run(material.clone(), "make it #ff8800"), json!({ "color": "#ff8800" }));
        assert_eq!(run(material.clone(), "make it glow orange"), json!({ "color": "orange", "emission": "orange" }), "one colour: the object's and its glow's");
        assert_eq!(run(material.clone(), "make the cube glow cyan (#00ffff), emission strength 5"), json!({ "color": "#00ffff", "emission": "#00ffff" }));
        assert_eq!(run(material.clone(), "set the emission colour of the screen to blue"), json!({ "emission": "blue" }), "the glow's colour alone");
        assert_eq!(run(material.clone(), "a red cube that glows white"), json!({ "color": "red", "emission": "white" }));
        assert_eq!(run(material, "make the cube shiny"), json!({}));
        let gradient = json!({ "properties": {
            "bottom": { "anyOf": [{ "type": "string" }, { "type": "array" }], "description": "Colour straight down." },
            "top": { "anyOf": [{ "type": "string" }, { "type": "array" }], "description": "Colour straight up" } } });
        assert_eq!(run(gradient, "a gradient background from white to grey"), json!({ "top": "white", "bottom": "grey" }));
    }
}
