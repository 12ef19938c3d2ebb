use capstan_blender::{
    ListVertexGroups, ListVertexGroupsParams, VertexGroup, VertexGroupParams, VertexGroupParamsAction as BridgeAction,
    VertexGroupParamsMode as Mode, list_vertex_groups, vertex_group as bridge_vertex_group,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A new group (optionally with vertices and a weight).
    Create,
    /// Set weights of vertices in the group (REPLACE, ADD or SUBTRACT).
    Assign,
    /// Take vertices out of the group (all when none are given); the group stays.
    Remove,
    List,
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("create", &["group"]), ("assign", &["group", "vertices"]), ("remove", &["group"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct VertexGroupArgs {
    /// A mesh object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    pub action: Action,
    /// The group (all but list).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub group: Option<String>,
    /// Vertex indices.
    #[schemars(length(min = 1, max = 1000000), inner(range(min = 0)))]
    pub vertices: Option<Vec<i64>>,
    /// Weight 0..1 (default 1).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub weight: Option<f64>,
    /// How assign combines with existing weights (default REPLACE).
    pub mode: Option<Mode>,
}

/// Vertex groups and weights by vertex index: create, assign, remove vertices, list.
///
/// On a mesh object: `create` a group (optionally with `vertices` and a `weight`),
/// `assign` weights to vertex indices (REPLACE, ADD or SUBTRACT), `remove` vertices from a
/// group, or `list` the groups. Groups drive modifiers, particles and
/// armature deformation.
#[capability(
    key = "rig.vertex_group",
    family = "rigging",
    tags = ["vertex group", "weights", "weight paint", "assign vertices", "deform group", "pin group"],
    aliases = ["vertex_group", "vertex_groups", "assign_weights", "weight_paint"],
    examples = ["create a vertex group for the top vertices", "assign vertices 0 to 3 to the pin group with weight 1", "list the vertex groups of the mesh"],
    uses = [ListVertexGroups, VertexGroup],
    cases = cases,
)]
fn vertex_group(args: VertexGroupArgs) -> PackResult<Value> {
    let action = match args.action {
        Action::List => return Ok(json!(list_vertex_groups(&ListVertexGroupsParams { object: args.object })?)),
        Action::Create => BridgeAction::Create,
        Action::Assign => BridgeAction::Assign,
        Action::Remove => BridgeAction::Remove,
    };
    let group = args.group.ok_or_else(|| PackError::invalid("this action needs the group's name"))?;
    if args.action == Action::Assign && args.vertices.is_none() {
        return Err(PackError::invalid("assign needs vertices"));
    }
    Ok(json!(bridge_vertex_group(&VertexGroupParams { object: args.object, action, group, vertices: args.vertices, weight: args.weight, mode: args.mode })?))
}

fn cases() -> Vec<Case> {
    let top = json!({ "object": "Cube", "action": "create", "group": "Half", "vertices": [0, 1, 2, 3], "weight": 0.5 });
    vec![
        Case::new("a group of four vertices")
            .args(top.clone())
            .changed(&["Cube"]).fields("Cube", &["vertex_groups"])
            .result(json!({ "group": "Half", "groups": [{ "name": "Half", "index": 0, "vertices": 4 }] })),
        Case::new("assigning weights changes the group")
            .setup("rig.vertex_group", top.clone())
            .args(json!({ "object": "Cube", "action": "assign", "group": "Half", "vertices": [4], "weight": 1.0, "mode": "ADD" }))
            .changed(&["Cube"]).fields("Cube", &["vertex_groups"])
            .result(json!({ "groups": [{ "name": "Half", "vertices": 5 }] })),
        Case::new("remove vertices, then list")
            .setup("rig.vertex_group", top.clone())
            .setup("rig.vertex_group", json!({ "object": "Cube", "action": "remove", "group": "Half", "vertices": [0, 1] }))
            .args(json!({ "object": "Cube", "action": "list" })).changed(&[])
            .result(json!({ "groups": [{ "name": "Half", "vertices": 2 }] })),
        Case::new("a missing group").args(json!({ "object": "Cube", "action": "assign", "group": "Ghost", "vertices": [0] })).error("not_found"),
        Case::new("a vertex out of range").setup("rig.vertex_group", top)
            .args(json!({ "object": "Cube", "action": "assign", "group": "Half", "vertices": [8] })).error("invalid_params"),
        Case::new("lights have no vertex groups").args(json!({ "object": "Light", "action": "list" })).error("invalid_target"),
    ]
}
