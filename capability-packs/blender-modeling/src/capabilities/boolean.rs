use capstan_blender::{
    AddModifier, AddModifierParams, AddModifierParamsPropertiesValue as V, AddModifierParamsType, ApplyModifier, ApplyModifierParams,
    DeleteObject, DeleteObjectParams, RemoveModifier, RemoveModifierParams, add_modifier, apply_modifier, delete_object, remove_modifier,
};
use capstan_sdk::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Operation {
    /// Cut the cutter out of the object.
    #[default]
    Difference,
    /// Merge the two.
    Union,
    /// Keep only what both share.
    Intersect,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Solver {
    /// Exact (slower, robust).
    #[default]
    Exact,
    /// Fast (Blender's float solver; fine for simple, clean cases).
    Fast,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BooleanArgs {
    /// The mesh that is cut, merged or intersected.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// The mesh it is combined with.
    #[schemars(length(min = 1, max = 63))]
    pub cutter: String,
    /// DIFFERENCE (default), UNION or INTERSECT.
    #[serde(default)]
    pub operation: Operation,
    /// EXACT (default) or FAST.
    #[serde(default)]
    pub solver: Solver,
    /// Bake the result into the mesh (default true); false leaves a live Boolean modifier.
    #[serde(default = "yes")]
    pub apply: bool,
    /// Delete the cutter afterwards (default false; needs apply).
    #[serde(default)]
    pub delete_cutter: bool,
}

/// Cut, merge or intersect a mesh with another (a boolean), applied by default.
///
/// Adds a Boolean modifier with the cutter, applies it (unless apply is false) and deletes
/// the cutter if asked. If applying fails, the modifier is removed again, so the object is
/// as it was.
#[capability(
    key = "mutate.boolean",
    family = "mutate",
    tags = ["boolean", "difference", "subtract", "cut", "hole", "union", "merge", "intersect", "csg", "carve"],
    aliases = ["boolean", "mesh_boolean", "model.boolean", "boolean_operation"],
    examples = ["cut a hole in the cube with the cylinder", "subtract the sphere from the box", "union the two meshes", "intersect the cube and the sphere"],
    uses = [AddModifier, ApplyModifier, RemoveModifier, DeleteObject],
    cases = cases,
)]
fn boolean(args: BooleanArgs) -> PackResult<Value> {
    if args.cutter == args.object {
        return Err(PackError::invalid("an object cannot be its own cutter"));
    }
    if args.delete_cutter && !args.apply {
        return Err(PackError::invalid("delete_cutter needs apply: a live Boolean modifier needs its cutter"));
    }
    let operation = match args.operation {
        Operation::Difference => "DIFFERENCE",
        Operation::Union => "UNION",
        Operation::Intersect => "INTERSECT",
    };
    let solver = match args.solver {
        Solver::Exact => "EXACT",
        Solver::Fast => "FLOAT",
    };
    let properties: BTreeMap<String, V> = [
        ("object".to_string(), V::String(args.cutter.clone())),
        ("operation".to_string(), V::String(operation.into())),
        ("solver".to_string(), V::String(solver.into())),
    ]
    .into();
    let added = add_modifier(&AddModifierParams {
        object: args.object.clone(),
        r#type: AddModifierParamsType::Boolean,
        name: Some(format!("Boolean {}", args.cutter).chars().take(63).collect()),
        properties: Some(properties),
    })?;
    let mut out = json!({ "object": args.object, "cutter": args.cutter, "operation": operation, "modifier": added.modifier, "applied": false, "cutter_deleted": false });
    if !args.apply {
        return Ok(out);
    }
    match apply_modifier(&ApplyModifierParams { object: args.object.clone(), modifier: added.modifier.clone() }) {
        Ok(applied) => {
            out["applied"] = json!(true);
            out["before"] = json!(applied.before);
            out["after"] = json!(applied.after);
        }
        Err(e) => {
            // Compensate: the object goes back to how it was before this call.
            let _ = remove_modifier(&RemoveModifierParams { object: args.object, modifier: added.modifier });
            return Err(e.into());
        }
    }
    if args.delete_cutter {
        delete_object(&DeleteObjectParams { name: Some(args.cutter), names: None })?;
        out["cutter_deleted"] = json!(true);
    }
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a difference cuts the cube's corner and removes the cutter")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Cutter", "location": [1, 1, 1] }))
            .args(json!({ "object": "Cube", "cutter": "Cutter", "delete_cutter": true }))
            .changed(&["Cube"]).removed(&["Cutter"]).added(&[]).fields("Cube", &["data"])
            .result(json!({ "applied": true, "cutter_deleted": true, "operation": "DIFFERENCE", "before": { "faces": 6 } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "modifiers_total": 0, "dimensions": [2.0, 2.0, 2.0] })),
        Case::new("a union grows the bounding box")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Other", "location": [1.5, 0.5, 0.25] }))
            .args(json!({ "object": "Cube", "cutter": "Other", "operation": "UNION", "solver": "FAST" }))
            .changed(&["Cube"]).removed(&[])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "dimensions": [3.5, 2.5, 2.25], "modifiers_total": 0 })),
        Case::new("a live modifier when apply is false")
            .setup("scene.create_object", json!({ "type": "uv_sphere", "name": "Ball" }))
            .args(json!({ "object": "Cube", "cutter": "Ball", "operation": "INTERSECT", "apply": false }))
            .changed(&["Cube"]).fields("Cube", &["modifiers"]).result(json!({ "applied": false, "modifier": "Boolean Ball" }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "modifiers": [{ "name": "Boolean Ball", "type": "BOOLEAN" }], "mesh": { "vertices": 8 } })),
        Case::new("deleting the cutter of a live modifier is refused")
            .args(json!({ "object": "Cube", "cutter": "Light", "apply": false, "delete_cutter": true })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing cutter").args(json!({ "object": "Cube", "cutter": "Ghost" })).error("not_found"),
    ]
}
