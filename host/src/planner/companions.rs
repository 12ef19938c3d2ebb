//! Clauses that take more than one step: "a gold sphere" (the sphere must exist before
//! it can be gold), "add a red cube" (the cube, then the red). Each extra step is routed
//! and filled like any other, and an object made for a later step gets a name the plan
//! can refer to.

use super::Registry;
use super::plan::{Context, PlanError, PlanStep, StepStatus, routed};
use serde_json::Value;

/// Words after which a clause says where a thing goes, not what it is.
const WHERE: &[&str] = &["to", "on", "onto", "in", "into", "at", "beside", "under", "above", "below", "near", "behind", "between"];

/// A clause that takes two steps ("a gold sphere", "add a red cube"): the steps before
/// and after its own, routed and filled like it.
/// - Its step lacks the object it acts on and the clause, read as "add ...", makes one
///   (a `create` step with nothing missing): that step comes first and its object fills
///   the reference ("a gold sphere": make the sphere, then the gold).
/// - It makes an object and the clause names colours its own step has no room for: a
///   step that colours "it" follows ("add a red cube": the cube, then the red).
pub(super) fn with_companions(registry: &dyn Registry, pick: &dyn Fn(&str) -> Option<String>, text: &str, mut own: PlanStep, context: &mut Context) -> Result<Vec<PlanStep>, PlanError> {
    let family = |k: &str| registry.describe(k).map(|(f, _)| f).unwrap_or_default();
    let mut out = Vec::new();
    let lacks_object = own.missing().any(super::args::is_primary_reference);
    // The thing to make, without the words about how it looks ("a gold sphere": a sphere).
    let filled_words: Vec<String> = own.args.as_object().into_iter().flatten().filter_map(|(_, v)| v.as_str().map(str::to_lowercase)).collect();
    // ... and without where it goes ("a small box to the left of the cube": a small box).
    let what = text.split_whitespace().take_while(|w| !WHERE.contains(&w.to_lowercase().as_str()));
    let bare: String = what.filter(|w| !filled_words.contains(&w.to_lowercase())).collect::<Vec<_>>().join(" ");
    // Only a thing the words introduce ("a gold sphere", "a small box"): "the monkey"
    // is one the scene should have, and is not made when it has none.
    let introduced = bare.split_whitespace().any(|w| ["a", "an", "some", "another"].contains(&w.to_lowercase().as_str()));
    if lacks_object && introduced && family(&own.tool_hint) != "create"
        && let Some(create) = pick(&super::routing_text(&format!("add {bare}"), &context.names)).filter(|k| family(k) == "create")
    {
        let mut trial = Context { names: context.names.clone(), subject: None, written: context.written.clone() };
        let mut made = routed(registry, &bare, &create, &mut trial)?;
        name_what_it_makes(registry, &mut made, &mut trial);
        if !made.held() && let Some(subject) = trial.subject.clone() {
            *context = trial;
            let references: Vec<String> = own.missing().filter(|k| super::args::is_primary_reference(k)).map(String::from).collect();
            if let Some(args) = own.args.as_object_mut() {
                for key in references {
                    args.insert(key, Value::String(subject.clone()));
                }
            }
            own.needs_input.retain(|n| !super::args::is_primary_reference(&n.argument));
            if !own.held() {
                own.status = StepStatus::Pending;
            }
            out.push(made);
        }
    }
    let colours = super::colours::colours(&super::text::plain_words(text, &['#']));
    let coloured = own.args.as_object().is_some_and(|a| a.values().any(|v| v.as_str().is_some_and(|s| colours.iter().any(|c| c == s))));
    let passive = passive_partner(registry, text, &own, context);
    let own_is_create = family(&own.tool_hint) == "create";
    // What a step makes is named, so a later step can say which ("it", "the new
    // cylinder"): when it is to be painted, or when the scene's names are known in full
    // (read, and under the read's cap of 200), so the name cannot be one the scene has.
    let names_known = !context.names.is_empty() && context.names.len() < super::SCENE_READ_LIMIT;
    if own_is_create && ((!colours.is_empty() && !coloured) || names_known) {
        name_what_it_makes(registry, &mut own, context);
    }
    out.push(own);
    if own_is_create && !colours.is_empty() && !coloured
        && let Some(paint) = pick(&format!("paint it {}", colours.join(" and "))).filter(|k| family(k) == "material")
    {
        out.push(routed(registry, &format!("paint it {}", colours.join(" and ")), &paint, context)?);
    }
    out.extend(passive);
    Ok(out)
}

/// "let the cube fall onto the floor as a rigid body": a body that falls onto another
/// needs that other to take part, unmoved. When the step's capability has a `PASSIVE`
/// type and the clause names a second object after "onto" / "on" / "into", that object
/// gets the same capability, passive.
fn passive_partner(registry: &dyn Registry, text: &str, own: &PlanStep, context: &Context) -> Option<PlanStep> {
    let schema = registry.input_schema(&own.tool_hint)?;
    if !super::args::enum_accepts(&schema, &schema["properties"]["type"], "PASSIVE") || own.args.get("type").is_some_and(|t| t == "PASSIVE") {
        return None;
    }
    let roles = serde_json::json!({ "properties": { "object": { "type": "string" }, "target": { "type": "string" } }, "required": ["object", "target"] });
    let found = super::args::fill(&roles, text, &context.names, None);
    let other = found.args.get("target").and_then(Value::as_str).filter(|t| own.args.get("object").and_then(Value::as_str) != Some(*t))?;
    let lw = text.to_lowercase();
    if !["onto", " on ", "into"].iter().any(|p| lw.contains(p)) {
        return None;
    }
    let step = super::plan::step(registry, &format!("{other} takes part, unmoved"), &own.tool_hint, serde_json::json!({ "object": other, "type": "PASSIVE" })).ok()?;
    // Only a step the schema takes as it is (never one sent to be refused).
    registry.check(&step.tool_hint, &step.args.to_string()).is_ok().then_some(step)
}

/// A step that makes an object without a name in the words gets one, so a later step
/// can name it ("add a red cube": the red goes on "Cube 2", not on whatever the app
/// would have called it; "then make the new cylinder twice as big"): the chosen type's name, numbered past the names the scene
/// and the plan already have. It becomes the step's subject ("it").
fn name_what_it_makes(registry: &dyn Registry, made: &mut PlanStep, context: &mut Context) {
    let takes_name = registry.input_schema(&made.tool_hint).is_some_and(|s| s["properties"].get("name").is_some());
    let Some(args) = made.args.as_object_mut() else { return };
    if !takes_name || args.contains_key("name") {
        return;
    }
    let Some(kind) = args.get("type").and_then(Value::as_str) else { return };
    let title = |w: &str| w.chars().next().map(|c| c.to_uppercase().collect::<String>() + &w[c.len_utf8()..]).unwrap_or_default();
    let base: String = kind.split('_').filter(|w| !w.is_empty()).map(title).collect::<Vec<_>>().join(" ");
    let taken = |n: &str| context.names.iter().any(|o| o.name.eq_ignore_ascii_case(n));
    let name = if taken(&base) { (2..).map(|i| format!("{base} {i}")).find(|n| !taken(n)).unwrap_or(base) } else { base };
    args.insert("name".into(), Value::String(name.clone()));
    context.names.push(name.as_str().into());
    context.subject = Some(name);
}

#[cfg(test)]
mod tests {
    use crate::planner::fake::FakeRegistry;
    use crate::planner::plan::{PlanRequest, build};

    fn pick(text: &str) -> Option<String> {
        let t = text.to_lowercase();
        if t.starts_with("paint") || t.contains("gold") {
            Some("scene.set_material".into())
        } else if t.contains("cube") || t.contains("add") {
            Some("scene.create_object".into())
        } else {
            None
        }
    }

    #[test]
    fn a_coloured_new_object_is_made_named_then_painted() {
        let reg = FakeRegistry::default();
        let steps = build(&reg, &pick, &PlanRequest { goal: "add a red cube", ..Default::default() }).unwrap();
        let hints: Vec<&str> = steps.iter().map(|s| s.tool_hint.as_str()).collect();
        assert_eq!(hints, ["scene.info", "scene.create_object", "scene.set_material"]);
        assert_eq!(steps[1].args["name"], "Cube", "named, so the paint step can say which");
        let scene = [crate::planner::args::SceneObject { name: "Cube".into(), kind: "MESH".into() }];
        let steps = build(&reg, &pick, &PlanRequest { goal: "add a blue cube", scene: &scene, ..Default::default() }).unwrap();
        assert_eq!(steps[1].args["name"], "Cube 2", "numbered past the scene's names");
        let steps = build(&reg, &pick, &PlanRequest { goal: "add a cube", scene: &scene, ..Default::default() }).unwrap();
        assert_eq!(steps.len(), 2, "no colour, no second step");
        assert_eq!(steps[1].args["name"], "Cube 2", "named all the same when the scene's names are known, so a later step can say which");
        let steps = build(&reg, &pick, &PlanRequest { goal: "add a cube", ..Default::default() }).unwrap();
        assert!(steps[1].args.get("name").is_none(), "no scene read: no name that might be taken");
    }
}
