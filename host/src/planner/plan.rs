//! A goal to a deterministic plan.
//!
//! A goal of several instructions ("add a cube called Box and make it shiny, then frame
//! it") is cut into clauses ([`clauses`]), each routed to its own step; "it" in a later
//! clause is the object of the step before ([`super::args`]). The same goal, profile,
//! custom steps, scene names and registry always give the same plan. Every
//! `tool_hint` is a canonical key the registry has when the plan is made (an alias the
//! router produced is mapped to its key; a key that does not exist makes planning fail,
//! it is never passed on as free text). Inspection (the `lists-objects` role) comes
//! first unless the profile is `power-user`. A goal that asks for a picture ends with
//! the `audits-render` then the `renders-picture` capability, each at most once, and
//! `max_steps` is a hard cap: the middle is cut first, then (below two slots) the audit.
//! The keys of those steps are the ones the packs declared for the roles
//! ([`crate::roles`]); the planner names no capability itself.

pub use super::asks_picture::wants_render;
use super::Registry;
use crate::roles::Role;
use crate::runtime::Resolution;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const MAX_STEPS: usize = 16;
pub const DEFAULT_MAX_STEPS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    #[default]
    Default,
    LlmGuided,
    PowerUser,
    Forensic,
}

impl std::str::FromStr for Profile {
    type Err = PlanError;
    fn from_str(s: &str) -> Result<Self, PlanError> {
        serde_json::from_value(Value::String(s.into())).map_err(|_| PlanError::Profile(s.into()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Pending,
    /// A required argument is missing: the step waits for the client's answer.
    NeedsInput,
    InProgress,
    Done,
    Failed,
}

/// One step of a plan. Its `missing` arguments are not a list of their own: they are
/// the arguments its `needs_input` asks for, listed for clients under `missing` too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "WireStep", from = "WireStep")]
pub struct PlanStep {
    pub step_id: String,
    pub description: String,
    /// Always a canonical key that existed when the step was made.
    pub tool_hint: String,
    pub family: String,
    /// What the goal's words say for the capability's arguments ([`super::args`]).
    pub args: Value,
    /// Each argument the words and the scene did not give (the client supplies them in
    /// `tool_args`): its schema and the values that would fit. A step with any is
    /// `needs_input` and is never sent as it is: the client answers first.
    pub needs_input: Vec<super::args::NeededInput>,
    pub status: StepStatus,
    pub result: Option<Value>,
}

impl PlanStep {
    /// The arguments this step waits for (none: it can be sent as it is).
    pub fn missing(&self) -> impl Iterator<Item = &str> {
        self.needs_input.iter().map(|n| n.argument.as_str())
    }

    /// It waits for input.
    pub fn held(&self) -> bool {
        !self.needs_input.is_empty()
    }
}

/// A step as clients read it: `missing` listed beside `needs_input`.
#[derive(Serialize, Deserialize)]
struct WireStep {
    step_id: String,
    description: String,
    tool_hint: String,
    family: String,
    args: Value,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    missing: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    needs_input: Vec<super::args::NeededInput>,
    status: StepStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
}

impl From<PlanStep> for WireStep {
    fn from(s: PlanStep) -> Self {
        let missing = s.missing().map(String::from).collect();
        WireStep { step_id: s.step_id, description: s.description, tool_hint: s.tool_hint, family: s.family, args: s.args, missing, needs_input: s.needs_input, status: s.status, result: s.result }
    }
}

/// `missing` is read from `needs_input`; a `missing` of its own is not kept.
impl From<WireStep> for PlanStep {
    fn from(w: WireStep) -> Self {
        PlanStep { step_id: w.step_id, description: w.description, tool_hint: w.tool_hint, family: w.family, args: w.args, needs_input: w.needs_input, status: w.status, result: w.result }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum PlanError {
    #[error("the goal is empty")]
    EmptyGoal,
    #[error("max_steps must be 1 to {MAX_STEPS}, not {0}")]
    MaxSteps(usize),
    #[error("unknown profile {0:?}; one of default, llm-guided, power-user, forensic")]
    Profile(String),
    #[error("the plan would name {0:?}, which the registry does not have")]
    UnknownKey(String),
    #[error("no loaded pack declares the role {0} (pack.json `roles`), which the plan needs")]
    NoRole(Role),
}

/// The capability a pack declared for `role`.
pub fn role_key(registry: &dyn Registry, role: Role) -> Result<String, PlanError> {
    registry.role(role).ok_or(PlanError::NoRole(role))
}

#[derive(Debug, Clone, Default)]
pub struct PlanRequest<'a> {
    pub goal: &'a str,
    pub profile: Profile,
    pub max_steps: Option<usize>,
    /// Extra steps as text, each routed like the goal.
    pub custom_steps: &'a [String],
    /// The scene's objects (references in the words are filled from them).
    pub scene: &'a [super::args::SceneObject],
}

/// Words that begin an instruction: a clause boundary is only drawn before one of them,
/// so "join the cube and a sphere" stays one clause and "add a cube and light it" is two.
const VERBS: &[&str] = &[
    "add", "aim", "animate", "apply", "assign", "attach", "bake", "bevel", "build", "change", "colour", "color", "create", "delete", "duplicate",
    "enlarge", "export", "extrude", "frame", "generate", "give", "hide", "import", "join", "key", "keyframe", "label", "lift", "light", "make",
    "mark", "move", "paint", "parent", "place", "point", "put", "raise", "remove", "rename", "render", "rest", "resize", "rotate", "save", "scale",
    "scatter", "select", "set", "shade", "shrink", "smooth", "spin", "subdivide", "switch", "tag", "tilt", "triangulate", "turn", "unhide",
    "unwrap", "use",
];

/// Whether a lower-case word is one of the instruction verbs clauses begin with.
pub(super) fn is_verb(word: &str) -> bool {
    VERBS.contains(&word)
}

/// The instructions in a goal, in order: split at `;`, at "then" (after a comma or
/// "and", or alone), and at "and" or a comma followed by an instruction verb that has
/// words after it. A goal with one instruction is one clause, the goal itself.
pub fn clauses(goal: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in goal.split(';') {
        let words: Vec<&str> = part.split_whitespace().collect();
        let mut current: Vec<&str> = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let bare = w.trim_end_matches(',').to_lowercase();
            let comma = w.ends_with(',');
            let next = words.get(i + 1).map(|n| n.trim_end_matches(',').to_lowercase());
            let verb_follows = |at: usize| words.get(at).is_some_and(|v| VERBS.contains(&v.trim_end_matches(',').to_lowercase().as_str())) && at + 1 < words.len();
            if bare == "then" || (bare == "and" && next.as_deref() == Some("then")) {
                // "then", "and then": a boundary; the connective itself is dropped.
                flush(&mut current, &mut out);
                i += if bare == "and" { 2 } else { 1 };
                continue;
            }
            if bare == "and" && verb_follows(i + 1) {
                flush(&mut current, &mut out);
                i += 1;
                continue;
            }
            if comma && (verb_follows(i + 1) || next.as_deref() == Some("then")) {
                current.push(w.trim_end_matches(','));
                flush(&mut current, &mut out);
            } else {
                current.push(w);
            }
            i += 1;
        }
        flush(&mut current, &mut out);
    }
    if out.is_empty() {
        out.push(goal.trim().to_string());
    }
    out
}

fn flush(current: &mut Vec<&str>, out: &mut Vec<String>) {
    let text = current.join(" ");
    let text = text.trim().trim_end_matches(',').trim();
    if !text.is_empty() {
        out.push(text.to_string());
    }
    current.clear();
}

/// A hint made canonical (an alias mapped), or the error naming it.
pub fn canonical(registry: &dyn Registry, key: &str) -> Result<String, PlanError> {
    match registry.resolve(key) {
        Resolution::Canonical => Ok(key.to_string()),
        Resolution::Alias { canonical } => Ok(canonical),
        Resolution::NotFound => Err(PlanError::UnknownKey(key.to_string())),
    }
}

/// A step with a validated hint (status pending, id given later).
pub fn step(registry: &dyn Registry, description: &str, hint: &str, args: Value) -> Result<PlanStep, PlanError> {
    let key = canonical(registry, hint)?;
    let (family, _) = registry.describe(&key).ok_or_else(|| PlanError::UnknownKey(key.clone()))?;
    Ok(PlanStep { step_id: String::new(), description: description.into(), tool_hint: key, family, args, needs_input: vec![], status: StepStatus::Pending, result: None })
}

/// What later steps can refer to: the scene's names plus the objects earlier steps
/// named, and the object of the last step ("it").
#[derive(Default)]
pub(super) struct Context {
    pub(super) names: Vec<super::args::SceneObject>,
    pub(super) subject: Option<String>,
    /// The file the last step that named one wrote or read ("import it back").
    pub(super) written: Option<String>,
}

/// A step for a piece of the goal, its arguments filled from the words.
pub(super) fn routed(registry: &dyn Registry, text: &str, hint: &str, context: &mut Context) -> Result<PlanStep, PlanError> {
    let mut s = step(registry, text, hint, Value::Object(Default::default()))?;
    if let Some(schema) = registry.input_schema(&s.tool_hint) {
        let mut filled = super::args::fill_with_files(&schema, text, &context.names, context.subject.as_deref(), context.written.as_deref());
        let lw = super::text::clause_words(text);
        if registry.describe(&s.tool_hint).is_some_and(|(family, _)| family != "create") {
            super::relative::fill(registry, &schema, &lw, filled.subject().as_deref(), &mut filled.args);
            filled.missing.retain(|k| !filled.args.contains_key(k));
        }
        super::leftovers::fill(&schema, text, &lw, &context.names, &mut filled.args, &mut filled.missing);
        if let Some(file) = super::files::FILE_KEYS.iter().find_map(|k| filled.args.get(*k).and_then(Value::as_str)) {
            context.written = Some(file.to_string());
        }
        // A renamed object is known by its new name from here on ("rename the light to
        // Key, then move it up": Key moves).
        let renamed = filled.args.get("new_name").and_then(Value::as_str).map(String::from);
        if let Some(subject) = renamed.or_else(|| filled.subject()) {
            if !context.names.iter().any(|o| o.name == subject) {
                context.names.push(subject.as_str().into());
            }
            context.subject = Some(subject);
        }
        s.needs_input = filled.missing.iter().map(|k| super::args::needed(&schema, k, &context.names)).collect();
        // "Change the cube" names no change: a rule wants one of several arguments.
        for names in super::args::unmet_any_of(&schema, &filled.args) {
            let joined = names.join(" | ");
            s.needs_input.push(super::args::NeededInput {
                argument: joined.clone(),
                schema: serde_json::json!({ "anyOf": names.iter().map(|n| serde_json::json!({ "required": [n] })).collect::<Vec<_>>() }),
                candidates: names.iter().cloned().map(Value::String).collect(),
                reason: Some(format!("at least one of {}", names.join(", "))),
            });
        }
        s.args = Value::Object(filled.args);
        // Complete as far as the words go, yet refused by the schema: held all the same
        // (never sent to be refused), with the schema's reason.
        if !s.held()
            && let Err(e) = registry.check(&s.tool_hint, &s.args.to_string())
        {
            s.needs_input.push(super::args::NeededInput { argument: "arguments".into(), schema: schema.clone(), candidates: vec![], reason: Some(e.to_string()) });
        }
        if s.held() {
            s.status = StepStatus::NeedsInput;
        }
    }
    Ok(s)
}

/// What the goal says about its picture, for the render step: a file name and format
/// ("as bottle.png"), a size ("1920x1080", "1080p"), a transparent background, an
/// engine, samples. Only these: the rest of the goal's words went to the steps before.
/// Without a size in the words the picture is a preview (small, few samples, the
/// scene's settings left as they were), so an unsized picture never costs a full render.
const PICTURE_ARGS: &[&str] = &["filename", "file_format", "resolution", "transparent", "engine", "samples", "preview"];

fn picture_args(registry: &dyn Registry, render: &str, goal: &str, context: &Context) -> Value {
    let Some(schema) = registry.input_schema(render) else { return serde_json::json!({}) };
    let filled = super::args::fill_with_files(&schema, goal, &context.names, None, None);
    let mut args: serde_json::Map<String, Value> = filled.args.into_iter().filter(|(k, _)| PICTURE_ARGS.contains(&k.as_str())).collect();
    let has = |k: &str| schema["properties"].get(k).is_some();
    if has("preview") && !args.contains_key("resolution") && !args.contains_key("preview") {
        args.insert("preview".into(), Value::Bool(true));
    }
    Value::Object(args)
}

/// Build the plan. `pick` maps text to a capability key (the router); `None` means
/// nothing matched, and the step becomes an inspection.
pub fn build(registry: &dyn Registry, pick: &dyn Fn(&str) -> Option<String>, request: &PlanRequest<'_>) -> Result<Vec<PlanStep>, PlanError> {
    let goal = request.goal.trim();
    if goal.is_empty() {
        return Err(PlanError::EmptyGoal);
    }
    let max_steps = request.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    if !(1..=MAX_STEPS).contains(&max_steps) {
        return Err(PlanError::MaxSteps(max_steps));
    }
    // The inspection role is looked up only when a step needs it.
    let inspect = registry.role(Role::ListsObjects);
    let need_inspect = || inspect.clone().ok_or(PlanError::NoRole(Role::ListsObjects));
    let mut steps = Vec::new();
    if request.profile != Profile::PowerUser {
        steps.push(step(registry, "Inspect the current scene", &need_inspect()?, serde_json::json!({}))?);
    }
    let mut context = Context { names: request.scene.to_vec(), ..Context::default() };
    let wonders = super::edits::wonders(goal);
    let transforms = registry.role(Role::TransformsObject);
    // Quoted words are written, never followed: the goal is cut with its quotes shielded,
    // and a clause is routed without them ([`super::quotes`]).
    let (shielded, quoted) = super::quotes::shield(goal);
    let cut: Vec<String> = clauses(&shielded).iter().map(|c| super::quotes::restore(c, &quoted)).collect();
    for text in cut.iter().chain(request.custom_steps) {
        // A plain edit of an object the scene has goes where the packs declared such edits
        // (never in a goal that is a question: "what happens if I hide the light?").
        // The router sees one clause at a time, which may have lost the question mark
        // that made the goal a question: a plain edit it suggests there is dropped too.
        let edit = if wonders { None } else { super::edits::transform_key(registry, text, &context) };
        let picked = edit.or_else(|| pick(&super::routing_text(text, &context.names)).filter(|k| !(wonders && Some(k) == transforms.as_ref())));
        // A clause the router cannot place at all that says more about the held step
        // before it ("the lamp is too dim, make it 2000 watts") completes that step; a
        // question never does, and a failed try leaves the plan's context as it was.
        if picked.as_ref().is_none_or(|k| Some(k) == inspect.as_ref())
            && !wonders
            && crate::router::intent::of(text) != crate::router::Intent::Read
            && let Some(last) = steps.last_mut().filter(|s: &&mut PlanStep| Some(&s.tool_hint) != inspect.as_ref() && s.held())
        {
            let mut trial = Context { names: context.names.clone(), subject: context.subject.clone(), written: context.written.clone() };
            if let Ok(more) = routed(registry, &format!("{} {}", last.description, text), &last.tool_hint.clone(), &mut trial)
                && more.needs_input.len() < last.needs_input.len()
            {
                *last = more;
                context = trial;
                continue;
            }
        }
        let key = match picked {
            Some(key) => key,
            None => need_inspect()?,
        };
        let s = routed(registry, text, &key, &mut context)?;
        // An instruction that routes nowhere adds no second inspection.
        if Some(&s.tool_hint) != inspect.as_ref() || !steps.iter().any(|p| Some(&p.tool_hint) == inspect.as_ref()) {
            steps.extend(super::companions::with_companions(registry, pick, text, s, &mut context)?);
        }
    }

    // The tail is reserved like the render finish: max_steps cuts the middle first.
    let mut tail = Vec::new();
    if request.profile == Profile::Forensic {
        tail.push(step(registry, "Inspect the scene after the forensic changes", &need_inspect()?, serde_json::json!({}))?);
    }
    let (audit, render) = (registry.role(Role::AuditsRender), registry.role(Role::RendersPicture));
    let is_finish = |key: &str| Some(key) == render.as_deref() || Some(key) == audit.as_deref();
    // A picture is made only when asked for: an audit of the settings alone is not asking.
    let renders = wants_render(goal) || steps.iter().any(|s| Some(&s.tool_hint) == render.as_ref());
    if renders {
        let (audit, render) = (audit.clone().ok_or(PlanError::NoRole(Role::AuditsRender))?, render.clone().ok_or(PlanError::NoRole(Role::RendersPicture))?);
        // No render or audit step in the middle (no duplicates), and a chain that would
        // render on its own (a workflow's `auto_render`) leaves the picture to the
        // finish, so the plan renders once, after the audit.
        steps.retain(|s| !is_finish(&s.tool_hint));
        // A guess of the router at the picture words ("render a small preview" read as an
        // animation render) that the words could not complete goes: the finish makes the
        // picture.
        let render_family = registry.describe(&render).map(|(f, _)| f);
        steps.retain(|s| !s.held() || Some(&s.family) != render_family.as_ref());
        tail.push(step(registry, "Audit the render settings before the final output", &audit, serde_json::json!({}))?);
        let args = picture_args(registry, &render, goal, &context);
        tail.push(step(registry, "Render the final output", &render, args)?);
    }
    // A chain that would render on its own (a workflow's `auto_render`) never does: with
    // a picture asked for, the finish renders it once, after the audit; without, an
    // unasked render would cost minutes on two cores.
    for s in &mut steps {
        let renders_itself = registry.input_schema(&s.tool_hint).is_some_and(|schema| schema["properties"]["auto_render"]["type"] == "boolean");
        if renders_itself && let Some(args) = s.args.as_object_mut() {
            args.insert("auto_render".into(), Value::Bool(false));
        }
    }
    // Below the tail's length, its last steps stay (the render before the audit before
    // the forensic inspection).
    if max_steps < tail.len() {
        tail.drain(..tail.len() - max_steps);
    }
    steps.truncate(max_steps - tail.len());
    steps.extend(tail);
    for (i, s) in steps.iter_mut().enumerate() {
        s.step_id = format!("step_{}", i + 1);
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::fake::FakeRegistry;

    fn pick(text: &str) -> Option<String> {
        let t = text.to_lowercase();
        if t.contains("hero") {
            Some("workflow.product_hero".into())
        } else if t.contains("render") {
            Some("scene.render".into())
        } else if t.contains("cube") || t.contains("add") {
            Some("add_object".into()) // an alias: the plan must hold the canonical key
        } else if t.contains("bogus") {
            Some("no.such".into())
        } else if t.contains("material") {
            Some("scene.set_material".into())
        } else if t.contains("inspect") {
            Some("scene.object_info".into())
        } else {
            None
        }
    }

    #[test]
    fn goals_are_cut_into_instructions() {
        let c = |g: &str| clauses(g);
        assert_eq!(c("add a red cube"), ["add a red cube"]);
        assert_eq!(c("join the cube and a sphere"), ["join the cube and a sphere"]);
        assert_eq!(c("add a cube called Box and make it shiny, then frame it"), ["add a cube called Box", "make it shiny", "frame it"]);
        assert_eq!(c("add a cube; delete the light"), ["add a cube", "delete the light"]);
        assert_eq!(c("add a sphere, move it up and then render"), ["add a sphere", "move it up", "render"]);
        assert_eq!(c("point the camera at the cube from the front right, above"), ["point the camera at the cube from the front right, above"]);
        assert_eq!(c("add a cube and light"), ["add a cube and light"], "a verb with nothing after it is a noun");
        assert_eq!(c("  "), [""]);
    }

    #[test]
    fn each_instruction_is_a_step_and_it_is_the_object_before() {
        let reg = FakeRegistry::default();
        let scene = ["Cube".into()];
        let steps = build(&reg, &pick, &PlanRequest { goal: "add a cube called Box, then inspect it", scene: &scene, ..Default::default() }).unwrap();
        assert_eq!(hints(&steps), ["scene.info", "scene.create_object", "scene.object_info"], "{steps:#?}");
        assert_eq!(steps[2].args, serde_json::json!({ "name": "Box" }), "it = the Box the step before made");
        assert!(!steps[2].held());
    }

    #[test]
    fn a_clause_the_router_cannot_place_completes_the_held_step_before() {
        let reg = FakeRegistry::default();
        let steps = build(&reg, &pick, &PlanRequest { goal: "add something nice, then make it a uv sphere", ..Default::default() }).unwrap();
        assert_eq!(hints(&steps), ["scene.info", "scene.create_object"], "{steps:#?}");
        assert_eq!(steps[1].args["type"], "uv_sphere");
        assert!(!steps[1].held());
        // A step that needs nothing more is not changed by a clause that routes nowhere.
        let steps = build(&reg, &pick, &PlanRequest { goal: "add a uv sphere, then something else", ..Default::default() }).unwrap();
        assert_eq!(steps.len(), 2, "{steps:#?}");
        assert_eq!(steps[1].description, "add a uv sphere");
    }

    fn plan(goal: &str, profile: Profile, max: Option<usize>, custom: &[String]) -> Result<Vec<PlanStep>, PlanError> {
        build(&FakeRegistry::default(), &pick, &PlanRequest { goal, profile, max_steps: max, custom_steps: custom, scene: &[] })
    }

    fn hints(steps: &[PlanStep]) -> Vec<&str> {
        steps.iter().map(|s| s.tool_hint.as_str()).collect()
    }

    #[test]
    fn inspection_first_and_aliases_become_canonical() {
        let steps = plan("add a red cube", Profile::Default, None, &[]).unwrap();
        assert_eq!(hints(&steps), ["scene.info", "scene.create_object"]);
        assert_eq!(steps[0].step_id, "step_1");
        assert_eq!(steps[1].family, "create");
        assert!(steps.iter().all(|s| s.status == StepStatus::Pending));
        let power = plan("add a red cube", Profile::PowerUser, None, &[]).unwrap();
        assert_eq!(hints(&power), ["scene.create_object"]);
        // Deterministic.
        assert_eq!(steps, plan("add a red cube", Profile::Default, None, &[]).unwrap());
    }

    #[test]
    fn steps_carry_the_arguments_the_words_give_and_name_what_is_missing() {
        let reg = FakeRegistry::default();
        let scene = ["Cube".into()];
        let steps = build(&reg, &pick, &PlanRequest { goal: "add a cube called Box", scene: &scene, ..Default::default() }).unwrap();
        assert_eq!(steps[1].args, serde_json::json!({ "type": "cube", "name": "Box" }));
        assert!(!steps[1].held());
        let steps = build(&reg, &pick, &PlanRequest { goal: "add something", scene: &scene, ..Default::default() }).unwrap();
        assert_eq!(steps[1].args, serde_json::json!({}));
        assert_eq!(steps[1].missing().collect::<Vec<_>>(), ["type"]);
        let json = serde_json::to_value(&steps[0]).unwrap();
        assert!(json.get("missing").is_none(), "an inspection misses nothing: {json}");
    }

    #[test]
    fn an_unknown_key_fails_planning() {
        assert_eq!(plan("do the bogus thing", Profile::Default, None, &[]), Err(PlanError::UnknownKey("no.such".into())));
        assert_eq!(plan("  ", Profile::Default, None, &[]), Err(PlanError::EmptyGoal));
        assert_eq!(plan("x", Profile::Default, Some(0), &[]), Err(PlanError::MaxSteps(0)));
        assert_eq!(plan("x", Profile::Default, Some(17), &[]), Err(PlanError::MaxSteps(17)));
        assert!("nonsense".parse::<Profile>().is_err());
        assert_eq!("power-user".parse::<Profile>().unwrap(), Profile::PowerUser);
    }

    #[test]
    fn a_picture_only_when_asked() {
        // No picture asked: the workflow that would render on its own does not.
        let custom: Vec<String> = vec!["run the product hero workflow".into()];
        let steps = build(&FakeRegistry::default(), &|_: &str| Some("workflow.product_hero".to_string()), &PlanRequest { goal: "set up the product hero", custom_steps: &custom, ..Default::default() }).unwrap();
        assert!(steps.iter().all(|s| s.tool_hint != "scene.render"), "{steps:#?}");
        assert!(steps.iter().filter(|s| s.tool_hint == "workflow.product_hero").all(|s| s.args["auto_render"] == false), "{steps:#?}");
        // Asked for: the render finishes the plan; checking the render settings is not asking.
        let steps = plan("add a cube and save a picture as cube.png", Profile::Default, None, &[]).unwrap();
        assert_eq!(steps.last().unwrap().tool_hint, "scene.render");
    }

    #[test]
    fn render_plans_end_with_one_audit_and_one_render_within_the_cap() {
        let custom: Vec<String> = ["add a cube", "set a material", "render it again", "add another cube"].iter().map(|s| s.to_string()).collect();
        let steps = plan("render a cube", Profile::Default, None, &custom).unwrap();
        assert_eq!(hints(&steps), ["scene.info", "scene.create_object", "scene.set_material", "scene.create_object", "render.audit", "scene.render"]);
        for max in 1..=6 {
            let steps = plan("render a cube", Profile::Default, Some(max), &custom).unwrap();
            assert_eq!(steps.len(), max.min(6), "max {max}");
            assert_eq!(steps.last().unwrap().tool_hint, "scene.render");
            assert_eq!(steps.iter().filter(|s| s.tool_hint == "scene.render").count(), 1);
            if max >= 2 {
                assert_eq!(steps[steps.len() - 2].tool_hint, "render.audit");
            }
            if max >= 3 {
                assert_eq!(steps[0].tool_hint, "scene.info", "the middle is cut, not the start");
            }
        }
        let ids: Vec<_> = plan("render a cube", Profile::Default, Some(4), &custom).unwrap().into_iter().map(|s| s.step_id).collect();
        assert_eq!(ids, ["step_1", "step_2", "step_3", "step_4"]);
    }

    #[test]
    fn a_render_routed_from_any_instruction_is_the_finish_and_words_count_whole() {
        let custom: Vec<String> = vec!["render it".into(), "render it again".into()];
        let steps = plan("add a cube", Profile::Default, None, &custom).unwrap();
        assert_eq!(hints(&steps), ["scene.info", "scene.create_object", "render.audit", "scene.render"]);
    }

    #[test]
    fn a_chain_that_renders_itself_leaves_the_picture_to_the_finish() {
        let steps = plan("a product hero shot", Profile::Default, None, &[]).unwrap();
        assert_eq!(hints(&steps), ["scene.info", "workflow.product_hero", "render.audit", "scene.render"]);
        assert_eq!(steps[1].args["auto_render"], false, "one render, after the audit");
    }

    #[test]
    fn non_render_plans_are_capped_and_forensic_inspects_after() {
        let custom: Vec<String> = vec!["set a material".into(); 20];
        assert_eq!(plan("add a cube", Profile::Default, Some(3), &custom).unwrap().len(), 3);
        let steps = plan("add a cube", Profile::Forensic, None, &[]).unwrap();
        assert_eq!(hints(&steps), ["scene.info", "scene.create_object", "scene.info"]);
        // The inspection after is reserved: the cap cuts the middle.
        let steps = plan("add a cube", Profile::Forensic, Some(2), &[]).unwrap();
        assert_eq!(steps.iter().map(|s| s.description.as_str()).collect::<Vec<_>>(), ["Inspect the current scene", "Inspect the scene after the forensic changes"]);
        // An unclear goal is one inspection, not two.
        assert_eq!(hints(&plan("hmm", Profile::Default, None, &[]).unwrap()), ["scene.info"]);
    }
}
