//! Planner / Actor / Critic on capstan's own registry (no MCP in here: the MCP surface
//! and `capstan eval` sit on top of it).
//!
//! - [`plan`]: a goal to a deterministic list of steps whose hints are canonical keys
//!   that exist when the plan is made;
//! - [`act`]: one step through the same path as `execute_capability`
//!   ([`CallPath`]: resolve and validate before any sandbox or bridge work, the app
//!   gate, then the sandbox, the bridge gate and the host-merged delta);
//! - [`critique`]: typed expectations measured in the real scene through read-only
//!   capabilities the packs declare for measuring roles ([`crate::roles`]);
//! - [`session`]: the state of one client (one per MCP connection, never global).
//!
//! Security reasoning: the planner adds no way to reach an app. Every call it makes is
//! an ordinary capability call through [`Registry`], which for the real host is the
//! [`CallPath`]: the app gate, the pack's sandbox, its declared bridge commands and the
//! bridge gate apply unchanged. A name from a client (a step's hint or an
//! override) is resolved against the registry before anything runs; an alias is mapped
//! to its canonical key and reported, an unknown name is refused with no bridge call.
//! The critic only calls capabilities that do not mutate (checked before each call), so
//! a critique cannot change the scene it judges.

pub mod act;
pub mod args;
pub mod colours;
pub mod companions;
pub mod critique;
pub mod edits;
pub mod files;
pub mod leftovers;
pub mod names;
pub mod needs;
pub mod numbers;
pub mod path;
pub mod picture;
pub mod picture_checks;
pub mod placeholders;
pub mod plan;
pub mod quotes;
pub mod relative;
pub mod session;
pub mod text;
pub mod visual_match;

use crate::call::CallPath;
use crate::runtime::{CallError, CallOutput, Resolution, Runtime};

/// What the planner needs from the host: name resolution and the call path.
pub trait Registry {
    fn resolve(&self, key: &str) -> Resolution;
    /// The family and whether it mutates, for a canonical key.
    fn describe(&self, key: &str) -> Option<(String, bool)>;
    /// The capability's input schema, for a canonical key.
    fn input_schema(&self, key: &str) -> Option<serde_json::Value>;
    /// Resolve and validate only (no sandbox, no bridge).
    fn check(&self, key: &str, arguments_json: &str) -> Result<(), CallError>;
    /// The app gate alone: whether the capability's app can be reached now (a dry run
    /// reports what a real run would refuse).
    fn admit(&self, key: &str) -> Result<(), CallError>;
    /// After a successful [`Registry::check`]: admit, then run.
    fn run_checked(&self, key: &str, arguments_json: &str) -> Result<CallOutput, CallError>;
    /// The capability a loaded pack declared for `role` ([`crate::roles`]).
    fn role(&self, role: crate::roles::Role) -> Option<String>;
}

/// The real host's registry is the call path: the planner, the critic and `capstan
/// eval` run every call through it, the app gate included.
impl Registry for CallPath<'_> {
    fn resolve(&self, key: &str) -> Resolution {
        self.runtime.resolve(key)
    }
    fn describe(&self, key: &str) -> Option<(String, bool)> {
        self.runtime.capability(key).map(|c| (c.family.clone(), c.mutates))
    }
    fn input_schema(&self, key: &str) -> Option<serde_json::Value> {
        self.runtime.capability(key).map(|c| c.input_schema.clone())
    }
    fn check(&self, key: &str, arguments_json: &str) -> Result<(), CallError> {
        CallPath::check(self, key, arguments_json)
    }
    fn admit(&self, key: &str) -> Result<(), CallError> {
        CallPath::admit(self, key)
    }
    fn run_checked(&self, key: &str, arguments_json: &str) -> Result<CallOutput, CallError> {
        CallPath::run_checked(self, key, arguments_json, None)
    }
    fn role(&self, role: crate::roles::Role) -> Option<String> {
        self.runtime.role(role).map(String::from)
    }
}

/// A call that only reads, through the checked path: refused if the key mutates or is
/// missing, then validated, admitted by the app gate and run. The critic measures with
/// it, and the planner reads the scene with it, so neither can change what it looks at.
pub fn read_only(registry: &dyn Registry, key: &str, args: serde_json::Value) -> Result<serde_json::Value, String> {
    match registry.describe(key) {
        Some((_, false)) => {}
        Some((_, true)) => return Err(format!("{key} mutates; the critic only reads")),
        None => return Err(format!("cannot measure: the registry has no {key}")),
    }
    let text = args.to_string();
    registry.check(key, &text).map_err(|e| e.to_string())?;
    registry.run_checked(key, &text).map(|o| o.result).map_err(|e| match e {
        CallError::NotAdmitted { .. } => format!("cannot measure: {e}"),
        other => other.to_string(),
    })
}

/// How many of the scene's objects the planner reads.
pub(crate) const SCENE_READ_LIMIT: usize = 200;

/// The scene's objects (up to [`SCENE_READ_LIMIT`]: names and types) for filling references, read with
/// the read-only `lists-objects` capability. A scene that cannot be read gives none: the plan then
/// fills no references and lists them as missing, it does not guess.
pub fn scene_objects(registry: &dyn Registry) -> Vec<args::SceneObject> {
    let Some(inspect) = registry.role(crate::roles::Role::ListsObjects) else { return vec![] };
    let Ok(answer) = read_only(registry, &inspect, serde_json::json!({ "limit": SCENE_READ_LIMIT })) else { return vec![] };
    let objects = answer.get("objects").and_then(serde_json::Value::as_array).into_iter().flatten();
    objects
        .filter_map(|o| {
            let name = o.get("name")?.as_str()?.to_string();
            let kind = o.get("type").and_then(serde_json::Value::as_str).unwrap_or_default().to_string();
            Some(args::SceneObject { name, kind })
        })
        .collect()
}

/// What routing reads of a clause: no quoted words (they are to be written), and no
/// name after "called" that an object of the scene already has (a new name: "add a
/// cube called Camera" is about a cube, not the camera).
pub fn routing_text(text: &str, scene: &[args::SceneObject]) -> String {
    let masked = quotes::masked(text);
    match names::called(&masked) {
        Some(name) if scene.iter().any(|o| o.name.eq_ignore_ascii_case(&name)) => masked.replacen(&format!(" {name}"), "", 1),
        _ => masked,
    }
}

/// Picks the capability for a piece of goal text: the router's family, then the best
/// search hit inside it (the same index the guided surface searches).
pub struct Router {
    families: crate::router::FamilyTable,
    index: crate::router::SearchIndex,
    /// The capability a pack declared for plain edits (`transforms-object`), if any.
    edit: Option<String>,
}

impl Router {
    pub fn for_runtime(runtime: &Runtime) -> Router {
        let edit = runtime.role(crate::roles::Role::TransformsObject).map(str::to_string);
        Router { families: runtime.families(), index: runtime.search_index(runtime.families()), edit }
    }

    pub fn new(families: crate::router::FamilyTable, index: crate::router::SearchIndex, edit: Option<String>) -> Router {
        Router { families, index, edit }
    }

    /// The routing families every loaded pack declares.
    pub fn families(&self) -> &crate::router::FamilyTable {
        &self.families
    }

    /// The family the goal routes to and the top capability in it (None: nothing matched).
    pub fn pick(&self, text: &str) -> (String, Option<String>) {
        pick(&self.families, &self.index, self.edit.as_deref(), text)
    }
}

/// [`Router::pick`] over a table and an index someone else owns (the MCP core's).
/// `edit` is the capability a pack declared for plain edits ([`edits`]): "hide the
/// camera", "shift the chair left by 2 metres" go to it, whatever family the object's
/// own words point to.
pub fn pick(families: &crate::router::FamilyTable, index: &crate::router::SearchIndex, edit: Option<&str>, text: &str) -> (String, Option<String>) {
    let spelled = index.spelled(text);
    let edit_of = |clause: &str| {
        edit.filter(|_| !edits::wonders(&spelled) && edits::plain_edit(clause)).and_then(|key| Some((index.family_of(key)?.to_string(), Some(key.to_string()))))
    };
    if let Some(picked) = edit_of(&spelled) {
        return picked;
    }
    // Several instructions: the first one decides whether this is a plain edit, after
    // any question or statement before it ("The cube is half under the ground. Raise
    // it so its bottom sits at z = 0."). Routing the first instruction alone otherwise
    // was measured and picked worse (`routing_goals.tsv`: 79.6% against 81.1%).
    let parts: Vec<String> = sentences(&spelled).iter().flat_map(|s| plan::clauses(s)).collect();
    if parts.len() > 1
        && let Some(first) = parts.iter().find(|c| crate::router::intent::of(c) == crate::router::Intent::Change && !states(c))
        && let Some(picked) = edit_of(first)
    {
        return picked;
    }
    pick_among(families, index, text)
}

/// The sentences of a goal: cut after a full stop, a question or an exclamation mark
/// followed by a space ("2.5" and "out.png" stay whole).
fn sentences(goal: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = goal.chars().peekable();
    while let Some(c) = chars.next() {
        current.push(c);
        if matches!(c, '.' | '?' | '!') && chars.peek().is_none_or(|n| n.is_whitespace()) {
            out.push(std::mem::take(&mut current).trim().to_string());
        }
    }
    out.push(current.trim().to_string());
    out.retain(|s| !s.is_empty());
    out
}

/// Whether a clause states rather than instructs: it opens (after polite words) on
/// what it is about ("the cube is half under the ground", "it's too dark").
fn states(clause: &str) -> bool {
    let plain = text::plain_words(clause, &[]);
    edits::head(&plain).is_some_and(|h| h == "there" || WHAT_IS_THERE.contains(&h))
}

/// Words that speak of something already there: "the cube", "it", "my lamp".
const WHAT_IS_THERE: &[&str] = &["the", "it", "its", "this", "that", "them", "these", "those", "my", "our"];

/// [`pick`] by the router's family and the catalog, for text that is no plain edit.
fn pick_among(families: &crate::router::FamilyTable, index: &crate::router::SearchIndex, text: &str) -> (String, Option<String>) {
    let route = crate::router::route(text, families, Some(index));
    // A step that only asks is served by a capability that changes nothing.
    let reads_only = route.intent == crate::router::Intent::Read;
    let hits = index.search_as(text, Some(&route.family), Some(&route.family), PICK_AMONG, reads_only);
    // An instruction is served by a capability that does it: a read-only hit on top
    // ("put the mug on the table" finding the check `spatial.assert`) gives way to the
    // best capability that changes the scene, when that one scores at least half as high.
    // A top hit whose own verb the words say ("export the cube": `io.export`) stays.
    let top = hits.first().map(|h| h.score).unwrap_or_default();
    let words = text::plain_words(text, &[]);
    let named = hits.first().is_some_and(|h| h.key.rsplit('.').next().unwrap_or_default().split('_').any(|v| words.iter().any(|w| w == v)));
    // An instruction that introduces nothing ("the lamp is too dim, make it 2000 watts")
    // changes what is there: a capability that adds one gives way to one that changes,
    // when that one scores at least half as high.
    // It adds an object when its name is a making verb, alone or with "object"
    // (`lighting.add`, `scene.create_object`); adding a modifier changes what is there.
    let adds = |h: &&crate::router::SearchHit| {
        let name: Vec<&str> = h.key.rsplit('.').next().unwrap_or_default().split('_').collect();
        name.iter().any(|v| ["add", "create", "new"].contains(v)) && name.iter().all(|v| ["add", "create", "new", "object"].contains(v))
    };
    let changes_what_is_there = |h: &&crate::router::SearchHit| h.mutates && !adds(h) && h.score * 2.0 >= top;
    let doing = hits
        .iter()
        .find(|h| h.mutates && h.score * 2.0 >= top)
        .map(|h| if adds(&h) && !edits::introduces(&words) { hits.iter().find(changes_what_is_there).unwrap_or(h) } else { h })
        .filter(|_| route.intent == crate::router::Intent::Change && !named);
    let hit = doing.or(hits.first());
    // A clause that speaks of what is there ("aim it at the cube", "the cube should be
    // 50 cm wide") and introduces nothing never adds one: no capability is better than
    // a new object nobody asked for.
    let refers = words.iter().any(|w| WHAT_IS_THERE.contains(&w.as_str()));
    if hit.is_some_and(|h| adds(&h) && refers && !edits::introduces(&words)) {
        return (route.family, None);
    }
    (route.family, hit.map(|h| h.key.clone()))
}

/// How many of a family's best hits an instruction looks through for one that acts.
const PICK_AMONG: usize = 5;

#[cfg(test)]
pub(crate) mod fake {
    //! A registry of a few keys, counting the calls that would reach a bridge.
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct FakeRegistry {
        pub calls: Mutex<Vec<(String, String)>>,
        /// Answers by key (default: `{}`); a key listed in `fail` answers an error.
        pub answers: Mutex<std::collections::HashMap<String, serde_json::Value>>,
    }

    pub const KEYS: &[(&str, &str, bool)] = &[
        ("scene.info", "inspect", false),
        ("scene.object_info", "inspect", false),
        ("scene.create_object", "create", true),
        ("scene.set_material", "material", true),
        ("scene.render", "render", true),
        ("render.audit", "render", false),
        ("spatial.assert", "spatial", false),
        ("material.list", "material", false),
        ("inspect.viewport", "inspect", false),
        ("workflow.product_hero", "workflow", true),
    ];

    /// The roles the fake's packs declare.
    pub const ROLES: &[(crate::roles::Role, &str)] = &[
        (crate::roles::Role::ListsObjects, "scene.info"),
        (crate::roles::Role::ReadsObject, "scene.object_info"),
        (crate::roles::Role::ReadsMaterials, "material.list"),
        (crate::roles::Role::MeasuresSpatial, "spatial.assert"),
        (crate::roles::Role::PicturesScene, "inspect.viewport"),
        (crate::roles::Role::AuditsRender, "render.audit"),
        (crate::roles::Role::RendersPicture, "scene.render"),
    ];

    impl FakeRegistry {
        pub fn answer(&self, key: &str, value: serde_json::Value) {
            self.answers.lock().unwrap().insert(key.into(), value);
        }
        pub fn count(&self) -> usize {
            self.calls.lock().unwrap().len()
        }
    }

    impl Registry for FakeRegistry {
        fn resolve(&self, key: &str) -> Resolution {
            if KEYS.iter().any(|(k, _, _)| *k == key) {
                Resolution::Canonical
            } else if key == "add_object" {
                Resolution::Alias { canonical: "scene.create_object".into() }
            } else {
                Resolution::NotFound
            }
        }
        fn describe(&self, key: &str) -> Option<(String, bool)> {
            KEYS.iter().find(|(k, _, _)| *k == key).map(|(_, f, m)| (f.to_string(), *m))
        }
        fn input_schema(&self, key: &str) -> Option<serde_json::Value> {
            match key {
                "scene.create_object" => Some(serde_json::json!({
                    "properties": { "type": { "enum": ["cube", "uv_sphere"] }, "name": { "description": "Name for the new object", "type": "string" } },
                    "required": ["type"]
                })),
                "scene.object_info" => Some(serde_json::json!({ "properties": { "name": { "type": "string" } }, "required": ["name"] })),
                "workflow.product_hero" => Some(serde_json::json!({ "properties": { "auto_render": { "type": "boolean" }, "object_name": { "type": "string" } } })),
                _ => None,
            }
        }
        fn check(&self, key: &str, arguments_json: &str) -> Result<(), CallError> {
            match self.resolve(key) {
                Resolution::Canonical => {}
                Resolution::Alias { canonical } => return Err(CallError::NonCanonical { key: key.into(), canonical }),
                Resolution::NotFound => return Err(CallError::NotFound { key: key.into() }),
            }
            match serde_json::from_str::<serde_json::Value>(arguments_json) {
                Ok(v) if v.is_object() && v.get("bad").is_none() => Ok(()),
                _ => Err(CallError::InvalidArguments { key: key.into(), errors: vec!["bad arguments".into()] }),
            }
        }
        fn admit(&self, _key: &str) -> Result<(), CallError> {
            Ok(())
        }
        fn role(&self, role: crate::roles::Role) -> Option<String> {
            ROLES.iter().find(|(r, _)| *r == role).map(|(_, k)| k.to_string())
        }
        fn run_checked(&self, key: &str, arguments_json: &str) -> Result<CallOutput, CallError> {
            self.calls.lock().unwrap().push((key.into(), arguments_json.into()));
            let answer = self.answers.lock().unwrap().get(key).cloned().unwrap_or(serde_json::json!({}));
            if answer.get("__error").is_some() {
                return Err(CallError::NotFound { key: answer["__error"].as_str().unwrap_or("x").into() });
            }
            Ok(CallOutput { key: key.into(), pack: "fake".into(), result: answer, bridge_calls: vec![], delta: None })
        }
    }
}
