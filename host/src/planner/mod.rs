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
pub mod asks_picture;
pub mod colours;
pub mod companions;
pub mod critique;
pub mod edits;
mod pick;
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
pub use pick::pick;
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
