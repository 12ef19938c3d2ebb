//! File names and formats in a goal's words ("as scene.glb", "small.png", "save the
//! scene as a blend file"), and the file an earlier step of the plan wrote ("import it
//! back").
//!
//! A file property (`filename`, `path`, ...) is filled, in this order, with:
//! - a file name the words give (a word with an extension, "bottle.png"), when the
//!   property's schema accepts it;
//! - for a step that reads a file ("import it back"), the file an earlier step wrote;
//! - a name made of the step's subject (the object it acts on, or "scene" when the words
//!   say scene) and an extension the words give ("a glb file", "to OBJ", or the format
//!   the step's own `format` argument took), when the schema accepts it.
//!
//! Otherwise the property stays unfilled and is reported missing: the planner never
//! picks a format the words do not name. A format property left empty takes the format
//! of the file name chosen ("shot.jpg": `JPEG`), when the schema offers one.

use serde_json::{Map, Value};

/// Properties that hold a file name or path.
pub const FILE_KEYS: &[&str] = &["filename", "path", "file", "filepath", "output"];
/// Properties that hold a file's format.
const FORMAT_KEYS: &[&str] = &["format", "file_format"];
/// Extensions whose format has another name in the schemas' enums.
const FORMAT_NAMES: &[(&str, &[&str])] = &[
    ("jpg", &["JPEG"]),
    ("jpeg", &["JPEG"]),
    ("exr", &["OPEN_EXR"]),
    ("tif", &["TIFF"]),
    ("tiff", &["TIFF"]),
    ("tga", &["TARGA"]),
    ("jp2", &["JPEG2000"]),
];

/// A word of the goal that names a file: a stem and an extension of letters and digits.
pub fn file_names(original: &[String]) -> Vec<String> {
    original
        .iter()
        .filter(|w| {
            w.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty() && (2..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric()) && ext.chars().any(|c| c.is_ascii_alphabetic())
            })
        })
        .cloned()
        .collect()
}

/// File formats a word may name: "a glb file", "to OBJ", "as blend". Only these: "the"
/// or "of" is no extension, whatever a free file-name pattern would take.
const FORMATS: &[&str] = &[
    "png", "jpg", "jpeg", "exr", "tif", "tiff", "webp", "bmp", "tga", "hdr", "jp2", "avif", "glb", "gltf", "fbx", "obj", "stl", "ply", "abc", "usd", "usda", "usdc", "usdz", "svg",
    "blend", "mp4", "mkv", "webm", "avi", "mov", "json", "csv", "txt",
];

/// Words that name a file format.
fn extension_words(lw: &[String]) -> Vec<String> {
    lw.iter().filter(|w| FORMATS.contains(&w.as_str())).cloned().collect()
}

/// A file stem from an object's name: lower case, anything but letters, digits, `_`
/// and `-` made `_`.
fn stem_of(name: &str) -> String {
    name.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

fn rules_allow(root: &Value, args: &Map<String, Value>, key: &str, value: &str) -> bool {
    super::args::rules_allow(root, args, key, &Value::String(value.into()))
}

/// What the words and the plan give for a step's file properties (see the module doc).
pub struct FileContext<'a> {
    pub original: &'a [String],
    pub lw: &'a [String],
    /// The object the step acts on, if the words or an earlier step name one.
    pub subject: Option<&'a str>,
    /// The file the last step that wrote one wrote (its name in the output folder).
    pub written: Option<&'a str>,
}

/// Fill the file properties, then a format from the file's extension.
pub fn fill(root: &Value, props: &Map<String, Value>, cx: &FileContext<'_>, args: &mut Map<String, Value>) {
    let empty = |args: &Map<String, Value>, keys: &[&str]| -> Vec<String> { props.keys().filter(|k| keys.contains(&k.as_str()) && !args.contains_key(k.as_str())).cloned().collect() };
    for key in empty(args, FILE_KEYS) {
        let prop = &props[key.as_str()];
        let fits = |name: &str, args: &Map<String, Value>| super::args::valid_for(root, prop, &Value::String(name.into())) && rules_allow(root, args, &key, name);
        let named = file_names(cx.original).into_iter().find(|n| fits(n, args));
        let reads_back = cx.written.filter(|w| fits(w, args) && cx.lw.iter().any(|w| w == "back" || w == "it" || w == "that" || w == "again"));
        let made = || {
            let stem = if cx.lw.iter().any(|w| w == "scene") { "scene".to_string() } else { stem_of(cx.subject?) };
            let format = FORMAT_KEYS.iter().find_map(|k| args.get(*k).and_then(Value::as_str)).map(str::to_lowercase);
            format.into_iter().chain(extension_words(cx.lw)).map(|ext| format!("{stem}.{ext}")).find(|n| fits(n, args))
        };
        if let Some(name) = named.or_else(|| reads_back.map(String::from)).or_else(made) {
            args.insert(key, Value::String(name));
        }
    }
    let Some(ext) = FILE_KEYS.iter().find_map(|k| args.get(*k).and_then(Value::as_str)).and_then(|n| n.rsplit_once('.')).map(|(_, e)| e.to_lowercase()) else { return };
    for key in empty(args, FORMAT_KEYS) {
        let names: Vec<String> = FORMAT_NAMES.iter().filter(|(e, _)| *e == ext).flat_map(|(_, n)| n.iter().map(|s| s.to_string())).chain([ext.clone(), ext.to_uppercase()]).collect();
        if let Some(name) = names.into_iter().find(|n| rules_allow(root, args, &key, n) && super::args::enum_accepts(root, &props[key.as_str()], n)) {
            args.insert(key, Value::String(name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn words(text: &str) -> (Vec<String>, Vec<String>) {
        let o: Vec<String> = text.split_whitespace().map(|w| w.trim_matches(',').to_string()).collect();
        let l = o.iter().map(|w| w.to_lowercase()).collect();
        (o, l)
    }

    fn run(schema: Value, text: &str, subject: Option<&str>, written: Option<&str>, mut args: Map<String, Value>) -> Map<String, Value> {
        let (o, l) = words(text);
        let props = schema["properties"].as_object().unwrap().clone();
        fill(&schema, &props, &FileContext { original: &o, lw: &l, subject, written }, &mut args);
        args
    }

    fn export() -> Value {
        json!({
            "properties": {
                "filename": { "type": "string", "pattern": "^[A-Za-z0-9_.-]+$" },
                "format": { "enum": ["glb", "obj", "fbx"], "type": "string" }
            },
            "allOf": [
                { "if": { "properties": { "format": { "const": "glb" } }, "required": ["format"] }, "then": { "properties": { "filename": { "pattern": "\\.glb$" } } } },
                { "if": { "properties": { "format": { "const": "obj" } }, "required": ["format"] }, "then": { "properties": { "filename": { "pattern": "\\.obj$" } } } }
            ]
        })
    }

    #[test]
    fn a_named_file_is_taken_and_gives_the_format() {
        let got = run(export(), "export it as crate.obj", Some("Cube"), None, Map::new());
        assert_eq!(Value::Object(got), json!({ "filename": "crate.obj", "format": "obj" }));
        let render = json!({ "properties": { "filename": { "type": "string" }, "file_format": { "enum": ["PNG", "JPEG"] } } });
        assert_eq!(Value::Object(run(render, "render a shot as shot.jpg", None, None, Map::new())), json!({ "filename": "shot.jpg", "file_format": "JPEG" }));
    }

    #[test]
    fn a_format_the_words_give_makes_a_name_from_the_subject() {
        let mut args = Map::new();
        args.insert("format".into(), json!("glb"));
        assert_eq!(run(export(), "export the cube as a glb file", Some("Cube"), None, args)["filename"], "cube.glb");
        let save = json!({ "properties": { "filename": { "type": "string", "pattern": "^[A-Za-z0-9_. -]{1,122}\\.blend$" } } });
        assert_eq!(run(save.clone(), "save the scene as a blend file", None, None, Map::new())["filename"], "scene.blend");
        assert!(run(save, "save my work", Some("Cube"), None, Map::new()).is_empty(), "no format named: nothing chosen");
        let free = json!({ "properties": { "filename": { "type": "string", "pattern": "^[A-Za-z0-9_.-]+$" } } });
        assert!(run(free, "render the scene as the front of the cube", None, None, Map::new()).is_empty(), "'the' and 'of' are no formats");
        // A named file the rules refuse with the format is not taken.
        let mut args = Map::new();
        args.insert("format".into(), json!("glb"));
        assert_eq!(run(export(), "export it as crate.obj", Some("Cube"), None, args)["filename"], "cube.glb");
    }

    #[test]
    fn reading_back_takes_the_file_an_earlier_step_wrote() {
        let import = json!({ "properties": { "path": { "type": "string" } } });
        assert_eq!(run(import.clone(), "import it back at twice the size", None, Some("cube.obj"), Map::new())["path"], "cube.obj");
        assert!(run(import, "import a file", None, None, Map::new()).is_empty());
    }
}
