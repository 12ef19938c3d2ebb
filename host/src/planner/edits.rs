//! Plain edits of an object the scene already has: move it, turn it, size it, hide or
//! show it, rename it. Users say these in everyday words ("lift the cube 3 metres",
//! "make the box twice as tall", "hide the light", "spin it 45 degrees around the
//! vertical axis"), and the words of the object often belong to another family ("the
//! light", "the camera"), which sent such clauses to a capability that adds a light or
//! sets a lens. A clause that is such an edit goes to the capability a pack declared for
//! the `transforms-object` role ([`crate::roles`]); the planner names no capability.
//!
//! A clause is such an edit when all of these hold:
//! - it asks for a change (not a question: [`crate::router::intent`]), in a goal that is
//!   not a question from its first word ([`wonders`]: "what happens if I hide the light?");
//! - it is an instruction: its first word after a polite lead-in is an edit verb or
//!   "make", "set", "spin", "turn", "show" ("the cube is twice as tall as it should be"
//!   is a statement);
//! - it introduces nothing ("add", "create", "another", "duplicate", "a box", "a lamp";
//!   "a bit" and "a quarter turn" are amounts): a new thing is made by its own family;
//! - it names the edit: an edit verb ("move", "lift", "rotate", "hide", "rename", ...),
//!   or a turn, a size factor or a size with its unit the words give ([`super::relative`]);
//! - it says nothing that belongs to another kind of change or to a property: time (an
//!   animation), materials, modifiers, mesh parts, UVs, aiming, a light's power, a
//!   bevel's width, the field of view, a turntable, or a place beside another object
//!   ("on top of", "next to", "to the left of": the spatial family places by relation);
//! - it names an object of the scene, or "it" with an object before it.
//!
//! Security reasoning: this only chooses which capability a step hints; the step then
//! goes through the same checks as any other (its schema, the app gate, the sandbox).

use super::Registry;
use crate::roles::Role;

/// Verbs that name a transform, visibility or name change on their own.
const EDIT_VERBS: &[&str] = &[
    "move", "lift", "raise", "lower", "shift", "nudge", "push", "translate", "reposition", "relocate", "rotate", "tilt", "scale",
    "rescale", "resize", "shrink", "enlarge", "grow", "stretch", "squash", "hide", "unhide", "rename", "double", "halve",
];

/// Words that say a new thing is made.
const INTRODUCING: &[&str] = &["add", "create", "insert", "spawn", "new", "another", "duplicate", "copy", "copies", "clone", "build", "generate"];

/// Words of other kinds of change, or of a property rather than the object itself
/// ("the light's power", "the bevel's width", "the field of view"): these clauses keep
/// the router's choice.
const OTHER_CHANGES: &[&str] = &[
    "animate", "animation", "animated", "keyframe", "keyframes", "key", "seconds", "second", "frames", "frame", "loop", "looping", "over", "material",
    "materials", "colour", "color", "texture", "modifier", "modifiers", "uv", "uvs", "vertex", "vertices", "edge", "edges", "face", "faces",
    "bone", "bones", "look", "looks", "aim", "facing", "towards", "toward", "track", "follow", "lens", "focal", "origin", "pivot",
    "power", "energy", "strength", "watt", "watts", "brightness", "radius", "bevel", "subdivision", "level", "levels", "samples", "fov",
    "field", "shadow", "shadows", "roughness", "turntable", "orbit", "slowly", "gradually", "continuously",
    // Not one object of the scene: the world, a collection, everything but one, the
    // picture's settings ("raise the exposure", "halve the render resolution", "rotate
    // the HDRI", "hide the overlays").
    "world", "collection", "collections", "everything", "except", "every", "all", "others", "exposure", "resolution", "hdri",
    "hdr", "overlay", "overlays", "viewport", "layer", "gamma", "contrast", "timeline", "playback", "fps", "sky", "environment",
];

/// Polite and filler words before a clause's verb ("could you please hide ...").
const LEAD_INS: &[&str] = &["please", "pls", "kindly", "could", "can", "would", "will", "you", "now", "then", "also", "and", "just", "lets", "let", "us", "i", "want", "need", "to", "id", "like", "ok", "okay", "so"];

/// Verbs that may open a plain edit besides [`EDIT_VERBS`].
const OTHER_OPENERS: &[&str] = &["make", "set", "spin", "turn", "show", "get"];

/// Words that open a question about what would happen: such a sentence edits nothing.
const WONDERING: &[&str] = &["what", "why", "how", "which", "where", "who", "whose", "whether", "would", "does", "do", "is", "are", "will", "should"];

/// The clause's first word after its lead-in: the verb of an instruction.
pub(super) fn head(plain: &[String]) -> Option<&str> {
    plain.iter().map(String::as_str).find(|w| !LEAD_INS.contains(w))
}

/// Whether a goal is a question from its first word ("what happens if I hide the
/// light?"): its clauses make no plain edit even where one reads like an instruction.
pub(super) fn wonders(goal: &str) -> bool {
    let plain = super::text::plain_words(goal, &[]);
    goal.trim_end().ends_with('?') && plain.first().is_some_and(|w| WONDERING.contains(&w.as_str()))
}

/// Relations to another object: "on top of", "next to", "beside", "above the cube".
const RELATIONS: &[&str] = &["beside", "next", "onto", "between", "above", "below", "under", "underneath", "behind", "atop"];

/// Whether a clause reads as a plain edit by its words alone (every rule of the module
/// doc but the last: which object it names is the scene's to say).
pub fn plain_edit(text: &str) -> bool {
    if crate::router::intent::of(text) == crate::router::Intent::Read {
        return false;
    }
    let lw = super::text::clause_words(text);
    let plain = super::text::plain_words(text, &[]);
    let has = |list: &[&str]| plain.iter().any(|w| list.contains(&w.as_str()));
    if introduces(&plain) || has(OTHER_CHANGES) || has(RELATIONS) || related(&plain) {
        return false;
    }
    // An instruction: a statement ("the cube is twice as tall as it should be") is no edit.
    if !head(&plain).is_some_and(|h| EDIT_VERBS.contains(&h) || OTHER_OPENERS.contains(&h)) {
        return false;
    }
    // "lower-poly versions" opens with no verb, and "hide_render" is a property's name.
    let tokens: Vec<String> = text.split_whitespace().map(|t| t.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-').to_lowercase()).collect();
    if tokens.iter().find(|t| !LEAD_INS.contains(&t.as_str())).is_some_and(|t| t.contains('-')) || tokens.iter().any(|t| t.contains('_')) {
        return false;
    }
    has(EDIT_VERBS)
        || plain.iter().any(|w| w == "show") && !plain.windows(2).any(|p| p[0] == "show" && p[1] == "me")
        || super::relative::turn(&lw).is_some()
        || super::relative::factor(&lw).is_some()
        || super::relative::size_to(&lw).is_some()
}

/// The `transforms-object` capability, when the clause is a plain edit of an object the
/// scene (or an earlier step) has.
pub(super) fn transform_key(registry: &dyn Registry, text: &str, context: &super::plan::Context) -> Option<String> {
    if !plain_edit(text) {
        return None;
    }
    let key = registry.role(Role::TransformsObject)?;
    let schema = registry.input_schema(&key)?;
    let filled = super::args::fill(&schema, text, &context.names, context.subject.as_deref());
    filled.subject().map(|_| key)
}

/// Whether plain words introduce a new thing: a making verb ("add", "another", "make a
/// ..."); "the new cylinder" is one made before, a reference.
pub(super) fn introduces(plain: &[String]) -> bool {
    // "a" / "an" before a thing ("give me a 3 m tall box", "put a lamp above the cube"),
    // not before an amount ("a bit", "a quarter turn", "a metre").
    let amount = ["bit", "little", "quarter", "half", "lot", "few", "tad", "touch", "metre", "meter", "centimetre", "centimeter", "degree", "notch", "step", "third"];
    let article = plain.windows(2).any(|p| ["a", "an"].contains(&p[0].as_str()) && !amount.contains(&p[1].as_str()));
    article || plain.iter().enumerate().any(|(i, w)| INTRODUCING.contains(&w.as_str()) && !(w == "new" && i > 0 && plain[i - 1] == "the"))
}

/// "to the left of", "in front of", "on top of", "on the cube": a place given by another object.
fn related(plain: &[String]) -> bool {
    plain.windows(3).any(|w| ["left", "right", "front", "top", "side"].contains(&w[1].as_str()) && w[2] == "of")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::args::SceneObject;
    use crate::planner::plan::Context;
    use serde_json::json;

    /// A registry whose `transforms-object` capability takes an object's `name`.
    struct Edits;

    impl Registry for Edits {
        fn resolve(&self, _key: &str) -> crate::runtime::Resolution {
            crate::runtime::Resolution::Canonical
        }
        fn describe(&self, _key: &str) -> Option<(String, bool)> {
            Some(("mutate".into(), true))
        }
        fn input_schema(&self, _key: &str) -> Option<serde_json::Value> {
            Some(json!({ "properties": { "name": { "type": "string" }, "location": { "type": ["array", "null"], "maxItems": 3 }, "visible": { "type": ["boolean", "null"] } }, "required": ["name"] }))
        }
        fn check(&self, _key: &str, _arguments_json: &str) -> Result<(), crate::runtime::CallError> {
            Ok(())
        }
        fn admit(&self, _key: &str) -> Result<(), crate::runtime::CallError> {
            Ok(())
        }
        fn run_checked(&self, key: &str, _arguments_json: &str) -> Result<crate::runtime::CallOutput, crate::runtime::CallError> {
            Err(crate::runtime::CallError::NotFound { key: key.into() })
        }
        fn role(&self, role: Role) -> Option<String> {
            (role == Role::TransformsObject).then(|| "edit.object".into())
        }
    }

    fn context() -> Context {
        let names = [("Cube", "MESH"), ("Light", "LIGHT"), ("Camera", "CAMERA")].iter().map(|(n, k)| SceneObject { name: n.to_string(), kind: k.to_string() }).collect();
        Context { names, ..Context::default() }
    }

    fn edit(text: &str) -> Option<String> {
        transform_key(&Edits, text, &context())
    }

    #[test]
    fn everyday_edits_of_an_object_the_scene_has_are_transforms() {
        for text in [
            "make the cube twice as tall",
            "Make the cube half as big.",
            "hide the light, I don't want it in the render",
            "Hide the camera, I don't want to see it.",
            "lift the cube 3 metres up off the ground",
            "spin the box 45 degrees around the vertical axis",
            "Rotate the cube 45 degrees around Z.",
            "Could you make the cube 50cm tall? Keep its width and depth as they are, thanks!",
            "Rename the Light to KeyLight",
            "move the lamp to 4, -4, 6",
            "rotate the cube a quarter turn around z",
            "could you please lift the cube a bit",
            "Stretch the cube 1.5x along X only, keep Y and Z as they are.",
        ] {
            assert_eq!(edit(text).as_deref(), Some("edit.object"), "{text}");
        }
    }

    #[test]
    fn new_things_other_changes_questions_and_relations_keep_the_router() {
        for text in [
            "add a cube and move it up",
            "make a sphere twice as big as the cube",
            "duplicate the cube",
            "make the monkey spin once around over five seconds",
            "animate the cube moving up",
            "turn the cube into gold",
            "make the cube red",
            "put the cube to the left of the light",
            "move the cube on top of the light",
            "how big is the cube?",
            "is the light hidden?",
            "rotate the camera to look at the cube",
            "make it bigger",
            "move the wardrobe up 2 m",
            "Give me a 3 m tall box",
            "I need a box 50 cm tall",
            "put a lamp above the cube",
            "The cube is twice as tall as it should be",
            "make the camera's field of view twice as wide",
            "make the bevel on the cube twice as wide",
            "lower the light's power to 500 W",
            "Spin the cube 360 degrees around Z for a turntable",
            "I need lower-poly versions of the car, say 50% and 25%",
            "hide everything except the headphones from the render",
            "rename the world to Studio World",
            "set hide_render on the helper empty",
            "raise the exposure by one stop",
            "Halve the render resolution",
            "Rotate the HDRI 90 degrees around Z",
            "Hide the overlays",
        ] {
            assert_eq!(edit(text), None, "{text}");
        }
    }

    #[test]
    fn a_question_from_its_first_word_wonders() {
        assert!(wonders("What happens to the shadows if I move the cube and hide the light?"));
        assert!(!wonders("Could you hide the light?"), "a polite request");
        assert!(!wonders("what a mess, hide the light"), "no question mark");
    }

    #[test]
    fn it_is_the_object_of_the_step_before() {
        let mut c = context();
        assert_eq!(transform_key(&Edits, "move it 2 m up", &c), None, "no object before it");
        c.subject = Some("Cube".into());
        assert_eq!(transform_key(&Edits, "move it 2 m up", &c).as_deref(), Some("edit.object"));
        // "the new cylinder": one an earlier step made and named.
        c.names.push(SceneObject { name: "Cylinder".into(), kind: String::new() });
        assert_eq!(transform_key(&Edits, "then make the new cylinder twice as big", &c).as_deref(), Some("edit.object"));
    }
}
