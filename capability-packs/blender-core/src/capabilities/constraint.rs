use capstan_blender::{
    AddConstraint, AddConstraintParams, AddConstraintParamsType, ListConstraints, ListConstraintsParams, RemoveConstraint,
    RemoveConstraintParams, add_constraint, list_constraints, remove_constraint,
};
use capstan_sdk::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Add,
    Remove,
    List,
}

/// add (also when no action is given) needs the type, remove the name: said in the schema.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("add", &["type"]), ("remove", &["name"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct ConstraintArgs {
    /// add (the default), remove or list.
    #[serde(default = "add")]
    pub action: Action,
    /// The constrained object.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// A pose bone of the armature `object`, to constrain the bone instead.
    #[schemars(length(min = 1, max = 63))]
    pub bone: Option<String>,
    /// add: the constraint type.
    #[serde(rename = "type")]
    pub kind: Option<AddConstraintParamsType>,
    /// add: its name; remove: the name of the one to remove.
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// add: the target object.
    #[schemars(length(min = 1, max = 63))]
    pub target: Option<String>,
    /// add: a bone or vertex group of the target.
    #[schemars(length(min = 1, max = 63))]
    pub subtarget: Option<String>,
    /// add: 0..1 (default 1).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub influence: Option<f64>,
    /// add: the constraint's own settings by Blender identifier, e.g. {"track_axis": "TRACK_NEGATIVE_Z", "up_axis": "UP_Y"}.
    #[serde(default)]
    pub properties: BTreeMap<String, Value>,
}

fn add() -> Action {
    Action::Add
}

/// Add, remove or list constraints on an object or a pose bone (track to, copy location, limits, child of, IK, ...).
///
/// add needs `type`; its target, subtarget, influence and settings are checked against
/// Blender's RNA. remove needs the constraint's `name`. list answers the constraints in
/// evaluation order.
#[capability(
    key = "rig.constraint",
    family = "rigging",
    tags = ["constraint", "track to", "copy location", "copy rotation", "limit", "child of", "ik", "follow"],
    aliases = ["add_constraint", "blender_add_constraint", "constraint"],
    examples = ["make the camera track the cube", "copy the location of the empty", "limit the rotation of the arm"],
    uses = [AddConstraint, RemoveConstraint, ListConstraints],
    cases = cases,
)]
fn constraint(args: ConstraintArgs) -> PackResult<Value> {
    match args.action {
        Action::Add => {
            let kind = args.kind.ok_or_else(|| PackError::invalid("add needs a constraint type"))?;
            let properties = if args.properties.is_empty() {
                None
            } else {
                Some(args.properties.into_iter().map(|(k, v)| Ok((k, serde_json::from_value(v).map_err(|e| PackError::invalid(format!("a property value: {e}")))?))).collect::<PackResult<_>>()?)
            };
            Ok(json!(add_constraint(&AddConstraintParams {
                object: args.object,
                bone: args.bone,
                r#type: kind,
                name: args.name,
                target: args.target,
                subtarget: args.subtarget,
                influence: args.influence,
                properties,
            })?))
        }
        Action::Remove => {
            let name = args.name.ok_or_else(|| PackError::invalid("remove needs the constraint's name"))?;
            Ok(json!(remove_constraint(&RemoveConstraintParams { object: args.object, bone: args.bone, name })?))
        }
        Action::List => Ok(json!(list_constraints(&ListConstraintsParams { object: args.object, bone: args.bone })?)),
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the camera tracks the cube")
            .args(json!({ "object": "Camera", "type": "TRACK_TO", "target": "Cube", "properties": { "track_axis": "TRACK_NEGATIVE_Z", "up_axis": "UP_Y" } }))
            .changed(&["Camera"]).fields("Camera", &["constraints"])
            .result(json!({ "constraint": { "type": "TRACK_TO", "target": "Cube", "enabled": true } }))
            .reads("scene.object_info", json!({ "name": "Camera" }), json!({ "constraints": [{ "type": "TRACK_TO", "target": "Cube" }], "constraints_total": 1 })),
        Case::new("list, then remove")
            .setup("rig.constraint", json!({ "object": "Cube", "type": "LIMIT_LOCATION", "name": "Floor", "properties": { "use_min_z": true } }))
            .args(json!({ "action": "remove", "object": "Cube", "name": "Floor" })).changed(&["Cube"]).fields("Cube", &["constraints"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "constraints": [], "constraints_total": 0 })),
        Case::new("list answers in order")
            .setup("rig.constraint", json!({ "object": "Cube", "type": "COPY_LOCATION", "name": "A" }))
            .setup("rig.constraint", json!({ "object": "Cube", "type": "LIMIT_SCALE", "name": "B" }))
            .args(json!({ "action": "list", "object": "Cube" })).changed(&[])
            .result(json!({ "total": 2, "constraints": [{ "name": "A", "type": "COPY_LOCATION" }, { "name": "B", "type": "LIMIT_SCALE" }] })),
        Case::new("a missing target").args(json!({ "object": "Cube", "type": "COPY_LOCATION", "target": "Ghost" })).error("not_found"),
        Case::new("add without a type").args(json!({ "object": "Cube" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
