//! Arguments for a plan step, read from the goal's words against the capability's own
//! input schema (no table per capability: the schema says what can be filled).
//!
//! What is filled, and only when the words say it:
//! - an enum property, from a value whose words all appear (`uv_sphere` from "uv
//!   sphere", `shade_smooth` from "shade ... smooth"), a word that begins with a value of
//!   four or more letters (`ORTHO` from "orthographic"), or a value's last word ("sphere"
//!   gives the first such value, `uv_sphere`);
//! - an object reference (`object`, `target`, `camera`, a `name` not described as a new
//!   name, ...), from the scene's object names the words mention, whole words, any case;
//!   a reference after "to", "on", "at", "into", ... fills the second role (`target`,
//!   `parent`, ...) when the capability has one;
//!   a property that names a kind of object (`camera`, `light`, `armature`, `curve`)
//!   takes a mentioned object of that kind first, and the others leave such objects to it;
//! - a new name (`name` described as new, `new_name`), from "called X" / "named X" (and
//!   "to X" for `new_name`);
//! - a number, into the numeric property a word beside it names ([`super::numbers`]).
//!
//! - "it", "its", "them" fill an object reference with the subject of the plan's step
//!   before (the object it created or acted on), when the words name no object.
//!
//! Everything else stays out of `args`; a required property left unfilled is listed in
//! `missing`, so a client knows what to supply. A filled value is never invented: it is
//! a word of the goal, an object the scene has, or the object an earlier step named.

use serde_json::{Map, Value};

pub use super::needs::{NeededInput, needed, unmet_any_of};
use super::names::{is_new_name, names_what_it_makes, new_name, said};

/// References that fill the second role of a two-object capability.
const SECONDARY: &[&str] = &["target", "parent", "support", "into", "b", "surface", "cutter", "curve", "focus_object", "under_object"];
/// String properties that name an existing object.
pub(super) const REFERENCES: &[&str] = &[
    "object", "target", "camera", "support", "parent", "armature", "mesh", "curve", "into", "cutter", "instance", "surface", "object_name",
    "vehicle_name", "source_vehicle", "focus_object", "under_object", "a", "b",
];
/// Whether a property names an existing object in the first role (`object`, `name`
/// of an object, ...): what a step made just before can fill.
pub fn is_primary_reference(key: &str) -> bool {
    (REFERENCES.contains(&key) || key == "name") && !SECONDARY.contains(&key)
}

/// Array properties that list existing objects.
pub(super) const REFERENCE_LISTS: &[&str] = &["objects", "children", "names", "object_names"];
/// Words after which a mention fills the second role.
const PREPOSITIONS: &[&str] = &["of", "to", "on", "onto", "at", "into", "toward", "towards", "with", "under", "over", "above", "below", "beside", "inside", "in"];
pub(super) const FILLERS: &[&str] = &["the", "a", "an", "default", "my", "this", "that"];

/// Words that stand for the object an earlier step acted on.
const PRONOUNS: &[&str] = &["it", "its", "them", "her", "him", "his"];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filled {
    pub args: Map<String, Value>,
    /// Required properties the words did not give.
    pub missing: Vec<String>,
}

impl Filled {
    /// The object this step creates or acts on (a new name, else the first reference):
    /// what "it" means in the next step.
    pub fn subject(&self) -> Option<String> {
        let text = |k: &str| self.args.get(k).and_then(Value::as_str).map(String::from);
        text("new_name").or_else(|| text("name")).or_else(|| REFERENCES.iter().find_map(|k| text(k))).or_else(|| {
            REFERENCE_LISTS.iter().find_map(|k| self.args.get(*k).and_then(Value::as_array).and_then(|a| a.first()).and_then(Value::as_str).map(String::from))
        })
    }
}

/// An object of the scene: its name and the app's type for it (`MESH`, `CAMERA`, ...;
/// empty when unknown, as for an object an earlier step of the plan will create).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SceneObject {
    pub name: String,
    pub kind: String,
}

impl From<&str> for SceneObject {
    fn from(name: &str) -> SceneObject {
        SceneObject { name: name.into(), kind: String::new() }
    }
}

/// The kind of object a property names by its own name (the app units' words).
pub(super) fn wanted_kind(key: &str) -> Option<&'static str> {
    crate::app_units::all().iter().flat_map(|u| u.kind_words()).find(|(word, _)| *word == key).map(|(_, kind)| *kind)
}

/// One mention of a scene object in the words.
#[derive(Debug, Clone, PartialEq)]
struct Mention {
    name: String,
    kind: String,
    secondary: bool,
}

/// The words of a text: letters, digits and `. - _ ' # %` (file names, hyphenated
/// numbers, hex colours, percentages); a possessive "cube's" is "cube".
pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-' || c == '_' || c == '\'' || c == '#' || c == '%'))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == '\''))
        .map(|w| w.strip_suffix("'s").unwrap_or(w).to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

pub(super) fn lower(words: &[String]) -> Vec<String> {
    words.iter().map(|w| w.to_lowercase()).collect()
}

/// Everyday words for things, and the name the app uses ("a box" is a `cube`, "the
/// monkey" is Suzanne): for choosing an enum value and for finding a scene object.
const COMMON_NAMES: &[(&str, &str)] = &[
    ("box", "cube"),
    ("crate", "cube"),
    ("ball", "uv_sphere"),
    ("globe", "uv_sphere"),
    ("donut", "torus"),
    ("doughnut", "torus"),
    ("ring", "torus"),
    ("tube", "cylinder"),
    ("pipe", "cylinder"),
    ("monkey", "suzanne"),
    ("lamp", "light"),
];

/// The app's word for an everyday one, if it has another.
fn app_word(word: &str) -> Option<&'static str> {
    COMMON_NAMES.iter().find(|(common, _)| *common == word).map(|(_, app)| *app)
}

/// Whether the word at `i` speaks of one not made yet ("a new camera TopCam", "another
/// cube", "a lamp"): then it names no object of the scene, though its word is one's name.
/// "The new cylinder" is one an earlier step made: a reference.
fn new_one(lw: &[String], i: usize) -> bool {
    let before = |n: usize| i.checked_sub(n).map(|at| lw[at].as_str());
    match before(1) {
        Some("new" | "second" | "extra") => !matches!(before(2), Some("the" | "this" | "that" | "my" | "our")),
        Some("another" | "a" | "an") => true,
        _ => false,
    }
}

/// The scene objects the words name, in the order they appear.
fn mentions(original: &[String], scene: &[SceneObject]) -> Vec<Mention> {
    let lw = lower(original);
    let mut found: Vec<(usize, Mention)> = Vec::new();
    let mut covered = vec![false; lw.len()];
    let mention = |at: usize, object: &SceneObject| {
        let mut before = at;
        while before > 0 && FILLERS.contains(&lw[before - 1].as_str()) {
            before -= 1;
        }
        let secondary = before > 0 && PREPOSITIONS.contains(&lw[before - 1].as_str());
        (at, Mention { name: object.name.clone(), kind: object.kind.clone(), secondary })
    };
    for object in scene {
        let parts: Vec<String> = lower(&words(&object.name));
        if parts.is_empty() || parts.len() > lw.len() {
            continue;
        }
        // A one-word name that is also an instruction verb before what it acts on is the
        // verb there ("light the cube with three lights": the cube, not the Light).
        let opens = |i: usize| i == 0 || ["please", "pls", "and", "then", "now", "also", "just", "kindly", "to"].contains(&lw[i - 1].as_str());
        let verb_here = |i: usize| parts.len() == 1 && opens(i) && super::plan::is_verb(&lw[i]) && lw.get(i + 1).is_some_and(|n| ["the", "a", "an", "it", "this", "that", "my", "everything", "all"].contains(&n.as_str()));
        if let Some(at) = (0..=lw.len() - parts.len()).find(|&i| lw[i..i + parts.len()] == parts[..] && !verb_here(i) && !new_one(&lw, i)) {
            covered[at..at + parts.len()].iter_mut().for_each(|c| *c = true);
            found.push(mention(at, object));
        }
    }
    // "the monkey" names Suzanne: a one-word name matches its everyday word, in lower
    // case (a capitalised "Box" is a name of its own), where no name matched already
    // ("the big box" is Big Box, not the Cube a box would be).
    for object in scene {
        let parts: Vec<String> = lower(&words(&object.name));
        if let [name] = parts.as_slice()
            && !found.iter().any(|(_, m)| m.name == object.name)
            && let Some(at) = (0..lw.len()).find(|&i| !covered[i] && original[i] == lw[i] && app_word(&lw[i]).is_some_and(|a| a == name) && !new_one(&lw, i))
        {
            found.push(mention(at, object));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.dedup_by(|a, b| a.1.name == b.1.name);
    found.into_iter().map(|(_, m)| m).collect()
}

/// A property's schema with `$ref` and `anyOf` branches followed (one level of `$defs`).
pub(super) fn branches<'a>(root: &'a Value, prop: &'a Value) -> Vec<&'a Value> {
    let mut out = vec![prop];
    let mut i = 0;
    while i < out.len() && out.len() < 16 {
        let s = out[i];
        if let Some(r) = s.get("$ref").and_then(Value::as_str)
            && let Some(name) = r.strip_prefix("#/$defs/")
            && let Some(def) = root.get("$defs").and_then(|d| d.get(name))
        {
            out.push(def);
        }
        for b in s.get("anyOf").or_else(|| s.get("oneOf")).and_then(Value::as_array).into_iter().flatten() {
            out.push(b);
        }
        i += 1;
    }
    out
}

/// Whether `value` is valid for the property `key` of `root` (its `$defs` in reach).
pub(crate) fn valid_for(root: &Value, prop: &Value, value: &Value) -> bool {
    let mut sub = prop.clone();
    if let (Some(o), Some(defs)) = (sub.as_object_mut(), root.get("$defs")) {
        o.insert("$defs".into(), defs.clone());
    }
    jsonschema::validator_for(&sub).is_ok_and(|v| v.is_valid(value))
}

/// The arguments with `key` set to `value` pass the schema's own rules between
/// arguments (`required` aside: what is still missing is asked for, not refused).
pub(crate) fn rules_allow(root: &Value, args: &serde_json::Map<String, Value>, key: &str, value: &Value) -> bool {
    let mut trial = args.clone();
    trial.insert(key.into(), value.clone());
    jsonschema::validator_for(&without_required(root)).is_ok_and(|v| v.is_valid(&Value::Object(trial)))
}

/// Whether the property (any branch) lists values.
pub(crate) fn has_enum(root: &Value, prop: &Value) -> bool {
    !enum_values(root, prop).is_empty()
}

/// Whether the property's enum (any branch) has this value.
pub(crate) fn enum_accepts(root: &Value, prop: &Value, value: &str) -> bool {
    enum_values(root, prop).iter().any(|v| v == value)
}

pub(super) fn enum_values(root: &Value, prop: &Value) -> Vec<String> {
    let listed = branches(root, prop).into_iter().filter_map(|s| s.get("enum").and_then(Value::as_array)).flatten();
    // `oneOf` of `const` (an enum with a description per value) lists them one by one.
    let constants = branches(root, prop).into_iter().filter_map(|s| s.get("const"));
    listed.chain(constants).filter_map(|v| v.as_str().map(String::from)).collect()
}

pub(crate) fn branches_of<'a>(root: &'a Value, prop: &'a Value) -> Vec<&'a Value> {
    branches(root, prop)
}

pub(crate) fn accepts_type(root: &Value, prop: &Value, kind: &str) -> bool {
    accepts(root, prop, kind)
}

fn accepts(root: &Value, prop: &Value, kind: &str) -> bool {
    branches(root, prop).iter().any(|s| match s.get("type") {
        Some(Value::String(t)) => t == kind,
        Some(Value::Array(ts)) => ts.iter().any(|t| t == kind),
        _ => false,
    })
}

/// Verbs an action enum may be named by: "make a vertex group" is its `create`.
const VERB_SYNONYMS: &[(&str, &[&str])] = &[
    // "a collection called Lighting": something named that is not there yet.
    ("create", &["make", "add", "new", "called", "named"]),
    ("add", &["make", "create", "new"]),
    ("remove", &["delete", "drop"]),
    ("delete", &["remove"]),
    ("list", &["show", "which"]),
];

/// A one-word value made of the beginnings of two words in a row, each at least three
/// letters: `subsurf` from "subdivision surface".
fn abbreviates(value: &str, lw: &[String]) -> bool {
    if value.len() < 6 || !value.chars().all(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    (3..=value.len() - 3).any(|cut| {
        let (a, b) = value.split_at(cut);
        lw.windows(2).any(|w| w[0].len() > a.len() && w[0].starts_with(a) && w[1].len() > b.len() && w[1].starts_with(b))
    })
}

/// The enum value the words choose, if any (see the module doc for the rule).
fn choose_enum(values: &[String], lw: &[String], shared_last_words: &[String]) -> Option<String> {
    // A hyphenated word counts by its parts too: "three-point" chooses `three_point`.
    let has = |w: &str| lw.iter().flat_map(|x| std::iter::once(x.as_str()).chain(x.split('-'))).any(|x| x == w || x.strip_suffix('s') == Some(w));
    // Where a value's first word stands: of two values the words name alike, the one
    // named first is the thing ("a ground plane and rest the cube on it": a plane).
    let at = |parts: &[String]| parts.first().and_then(|p| lw.iter().position(|x| x == p || x.strip_suffix('s') == Some(p.as_str()) || x.split('-').any(|y| y == p))).unwrap_or(usize::MAX);
    let mut best: Option<(usize, usize, &String)> = None;
    for v in values {
        let parts: Vec<String> = v.to_lowercase().split(['_', ' ', '-']).filter(|p| !p.is_empty()).map(String::from).collect();
        let score = if !parts.is_empty() && parts.iter().all(|p| has(p)) {
            10 + parts.len()
        } else if (v.len() >= 4 && lw.iter().any(|w| w.starts_with(&v.to_lowercase()))) || abbreviates(&v.to_lowercase(), lw) {
            5
        } else if lw.iter().any(|w| app_word(w.strip_suffix('s').unwrap_or(w)).is_some_and(|a| a == v.to_lowercase()) || app_word(w).is_some_and(|a| a == v.to_lowercase())) {
            3
        } else if parts.len() == 1 && VERB_SYNONYMS.iter().any(|(v, words)| *v == parts[0] && words.iter().any(|w| has(w))) {
            2
        } else if parts.len() > 1 && parts.last().is_some_and(|p| p.len() >= 4 && has(p) && !shared_last_words.contains(p)) {
            1
        } else {
            0
        };
        let pos = if score >= 10 { at(&parts) } else { usize::MAX };
        if score > 0 && best.is_none_or(|(s, p, _)| score > s || (score == s && pos < p)) {
            best = Some((score, pos, v));
        }
    }
    best.map(|(_, _, v)| v.clone())
}

/// Words that turn a flag the words name off ("without a shadow", "no bevel").
const NEGATIONS: &[&str] = &["no", "not", "without", "don't", "dont", "never", "off", "disable"];

/// A yes/no property the words name by every word of its name ("transparent",
/// "self collision"): true, or false when a negation stands just before it. `auto_render`
/// is the planner's own to set.
fn choose_flag(key: &str, lw: &[String]) -> Option<bool> {
    if key == "auto_render" {
        return None;
    }
    // Visibility is said by the instruction's verb ("hide the light", "show the cube
    // again") or as what to make it ("make the cube invisible"); "so it isn't hidden"
    // says nothing.
    if key == "visible" {
        let head = super::edits::head(lw);
        let makes = matches!(head, Some("make" | "set" | "turn" | "keep"));
        match head {
            Some("hide") => return Some(false),
            Some("unhide" | "reveal") => return Some(true),
            Some("show") if lw.iter().skip_while(|w| w.as_str() != "show").nth(1).is_none_or(|n| n != "me" && n != "us") => return Some(true),
            _ if makes && lw.iter().any(|w| w == "invisible" || w == "hidden") => return Some(false),
            _ if makes && lw.iter().any(|w| w == "visible") => return Some(true),
            _ => {}
        }
    }
    let parts: Vec<&str> = key.split('_').filter(|p| !p.is_empty()).collect();
    let first = parts.iter().map(|p| lw.iter().position(|w| w == p || w.strip_suffix('s') == Some(p))).collect::<Option<Vec<usize>>>()?.into_iter().min()?;
    let negated = lw[first.saturating_sub(3)..first].iter().any(|w| NEGATIONS.contains(&w.as_str()));
    Some(!negated)
}

/// Fill what the words say for a capability with this input schema, in a scene with
/// these object names; `subject` is what "it" refers to (the previous step's object).
/// A word can match an enum of an argument the rest of the call rules out ("add a sphere
/// called Ball": SPHERE is also an empty's display type, which a UV sphere does not
/// take). When the schema's rules between arguments (`allOf`, `dependentSchemas`, ...)
/// refuse the filled arguments, drop the one word-chosen value whose absence satisfies
/// them. Missing required arguments are not this step's concern (they are reported as
/// missing), so the check runs without `required`.
fn drop_what_the_rules_refuse(schema: &Value, args: &mut serde_json::Map<String, Value>, from_words: &[String]) {
    let relaxed = without_required(schema);
    let Ok(validator) = jsonschema::validator_for(&relaxed) else { return };
    if validator.is_valid(&Value::Object(args.clone())) {
        return;
    }
    for key in from_words {
        let Some(value) = args.remove(key) else { continue };
        if validator.is_valid(&Value::Object(args.clone())) {
            return;
        }
        args.insert(key.clone(), value);
    }
}

/// The schema with every `required` dropped, but for those inside an `if` (they decide
/// which rule applies, "when format is given"): what it says about the values given,
/// not about the ones still missing.
pub(crate) fn without_required(schema: &Value) -> Value {
    match schema {
        Value::Object(o) => Value::Object(
            o.iter().filter(|(k, _)| k.as_str() != "required").map(|(k, v)| (k.clone(), if k == "if" { v.clone() } else { without_required(v) })).collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_required).collect()),
        other => other.clone(),
    }
}

/// The arguments a schema's rules require on top of `required` ("a skid mark needs its
/// end"), given the arguments filled so far.
fn required_by_rules(schema: &Value, args: &serde_json::Map<String, Value>) -> Vec<String> {
    let Ok(validator) = jsonschema::validator_for(schema) else { return vec![] };
    let instance = Value::Object(args.clone());
    let mut out = Vec::new();
    for e in validator.iter_errors(&instance) {
        if let jsonschema::error::ValidationErrorKind::Required { property } = e.kind()
            && e.instance_path().as_str().is_empty()
            && let Some(p) = property.as_str()
            && !out.iter().any(|o| o == p)
        {
            out.push(p.to_string());
        }
    }
    out
}

pub fn fill(schema: &Value, text: &str, scene: &[SceneObject], subject: Option<&str>) -> Filled {
    fill_with_files(schema, text, scene, subject, None)
}

/// [`fill`], knowing the file the plan's last writing step wrote (`written`), for a step
/// that reads it back ([`super::files`]).
pub fn fill_with_files(schema: &Value, text: &str, scene: &[SceneObject], subject: Option<&str>, written: Option<&str>) -> Filled {
    // Quoted words are only what a text says or a name: nothing else reads them.
    let original = words(&super::quotes::masked(text));
    let lw = lower(&original);
    // A name after "called" is new: it names no object of the scene ("a cube called Camera").
    let new_name_given = super::names::called(text);
    let mut found: Vec<Mention> = mentions(&original, scene).into_iter().filter(|m| new_name_given.as_deref().is_none_or(|n| !n.eq_ignore_ascii_case(&m.name))).collect();
    // "it" is the step before's object, in the first role, when the words name nothing
    // there themselves ("put it on the table": it, then the table).
    if let Some(subject) = subject
        && found.iter().all(|m| m.secondary && m.name != subject)
        && lw.iter().any(|w| PRONOUNS.contains(&w.as_str()))
    {
        let kind = scene.iter().find(|o| o.name == subject).map(|o| o.kind.clone()).unwrap_or_default();
        found.insert(0, Mention { name: subject.to_string(), kind, secondary: false });
    } else if let Some(subject) = subject
        && !found.iter().any(|m| m.name == subject || m.secondary)
        && lw.iter().enumerate().any(|(i, w)| PRONOUNS.contains(&w.as_str()) && i > 0 && PREPOSITIONS.contains(&lw[i - 1].as_str()))
    {
        // ... and in the second role after a preposition when the first is named ("rest
        // the cube on top of it": the cube, on it).
        let kind = scene.iter().find(|o| o.name == subject).map(|o| o.kind.clone()).unwrap_or_default();
        found.push(Mention { name: subject.to_string(), kind, secondary: true });
    }
    let mut filled = Filled::default();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return filled };
    let has_secondary = props.keys().any(|k| SECONDARY.contains(&k.as_str()));
    let second_role_required = schema.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().filter_map(Value::as_str).any(|k| SECONDARY.contains(&k)));
    // A `name` beside an object property names something else (a modifier, a UV map).
    let names_other_object = props.keys().any(|k| k != "name" && (REFERENCES.contains(&k.as_str()) || REFERENCE_LISTS.contains(&k.as_str())));
    // Kinds some property of this capability names: other properties leave such objects to it.
    let reserved: Vec<&str> = props.keys().filter_map(|k| wanted_kind(k)).collect();
    let mut used: Vec<String> = Vec::new();
    // Optional enum values read off the words: one may break a rule between arguments.
    let mut from_words: Vec<String> = Vec::new();
    let take = |key: &str, used: &mut Vec<String>| -> Option<String> {
        let secondary = SECONDARY.contains(&key);
        let free = |m: &&Mention| !used.contains(&m.name);
        let own = |m: &&Mention| !reserved.contains(&m.kind.as_str()) || wanted_kind(key) == Some(m.kind.as_str());
        // A property named for a kind takes that kind, or an object whose kind is unknown
        // (one an earlier step makes); never an object known to be something else.
        let pick = match wanted_kind(key) {
            Some(kind) => found.iter().filter(free).find(|m| m.kind == kind).or_else(|| found.iter().filter(free).find(|m| m.kind.is_empty())),
            None => found
                .iter()
                .filter(free)
                .filter(own)
                .find(|m| !has_secondary || m.secondary == secondary)
                // A first role takes a mention after "of" / "to" / "on" only when no
                // required second role waits for it ("to the left of the cube": the
                // cube is the target, and what moves is not named).
                .or_else(|| found.iter().filter(free).filter(|m| secondary || !m.secondary || !second_role_required).find(own)),
        }?;
        used.push(pick.name.clone());
        Some(pick.name.clone())
    };
    // A value's last word that ends values of several properties ("product" in the
    // material `white_product` and the lighting `food_product`) chooses none of them on
    // its own ("sphere" still gives the first of `uv_sphere`, `ico_sphere`).
    let mut last_words: Vec<String> = props
        .values()
        .flat_map(|p| {
            let mut own: Vec<String> = enum_values(schema, p)
                .into_iter()
                .filter(|v| v.contains(['_', ' ', '-']))
                .filter_map(|v| v.to_lowercase().rsplit(['_', ' ', '-']).next().map(String::from))
                .collect();
            own.sort();
            own.dedup();
            own
        })
        .collect();
    last_words.sort();
    let shared_last_words: Vec<String> = last_words.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0].clone()).collect();
    // Primary references first, so a second-role property gets what is left.
    let mut keys: Vec<&String> = props.keys().collect();
    keys.sort_by_key(|k| (SECONDARY.contains(&k.as_str()), wanted_kind(k).is_none()));
    for key in keys {
        let prop = &props[key.as_str()];
        let value = if key == "text" && accepts(schema, prop, "string") && enum_values(schema, prop).is_empty() {
            said(text).map(Value::String)
        } else if is_new_name(key, prop) || names_what_it_makes(key, prop, text) {
            new_name(text, &original, key == "new_name").map(Value::String)
        } else if REFERENCE_LISTS.contains(&key.as_str()) && accepts(schema, prop, "array") {
            // A list takes every mention of its role (every mention when there is one role).
            let secondary = SECONDARY.contains(&key.as_str());
            let names: Vec<String> = found
                .iter()
                .filter(|m| !used.contains(&m.name) && !reserved.contains(&m.kind.as_str()) && (!has_secondary || m.secondary == secondary))
                .map(|m| m.name.clone())
                .collect();
            used.extend(names.iter().cloned());
            (!names.is_empty()).then(|| Value::Array(names.into_iter().map(Value::String).collect()))
        } else if (REFERENCES.contains(&key.as_str()) || (key == "name" && !names_other_object)) && accepts(schema, prop, "string") {
            take(key, &mut used).map(Value::String)
        } else if accepts(schema, prop, "boolean") && enum_values(schema, prop).is_empty() {
            choose_flag(key, &lw).map(Value::Bool)
        } else {
            let values = enum_values(schema, prop);
            let chosen = if values.is_empty() { None } else { choose_enum(&values, &lw, &shared_last_words).map(Value::String) };
            if chosen.is_some() {
                from_words.push(key.clone());
            }
            chosen
        };
        if let Some(v) = value {
            filled.args.insert(key.clone(), v);
        }
    }
    drop_what_the_rules_refuse(schema, &mut filled.args, &from_words);
    let numeric: Vec<(&String, Vec<&Value>)> = props.iter().map(|(k, v)| (k, branches(schema, v))).collect();
    super::numbers::fill(&numeric, &lw, &mut filled.args);
    super::colours::fill(schema, props, &lw, &mut filled.args);
    let own_subject = filled.subject();
    let cx = super::files::FileContext { original: &original, lw: &lw, subject: own_subject.as_deref().or(subject), written };
    super::files::fill(schema, props, &cx, &mut filled.args);
    for r in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        if !filled.args.contains_key(r) {
            filled.missing.push(r.to_string());
        }
    }
    for r in required_by_rules(schema, &filled.args) {
        if !filled.missing.contains(&r) {
            filled.missing.push(r);
        }
    }
    filled
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
