use capstan_blender::{ListShapeKeys, ListShapeKeysParams, ShapeKeys, ShapeKeysParams, ShapeKeysParamsAction as BridgeAction, list_shape_keys, shape_keys as bridge_shape_keys};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    List,
    AddBasis,
    Add,
    SetValue,
    Keyframe,
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("add", &["name"]), ("set_value", &["name", "value"]), ("keyframe", &["name", "frame"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct ShapeKeyArgs {
    /// A mesh, curve or lattice object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    pub action: Action,
    /// The key's name (add, set_value, keyframe; add_basis defaults to "Basis").
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// The key's influence, 0..1 (set_value; optional for add and keyframe).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub value: Option<f64>,
    /// keyframe: the frame to key the value at.
    #[schemars(range(min = -100000, max = 1000000))]
    pub frame: Option<i64>,
    /// add: the vertex indices the key moves (default all).
    #[schemars(length(min = 1, max = 65536), inner(range(min = 0)))]
    pub vertices: Option<Vec<i64>>,
    /// add: how far those vertices move in the key, [x, y, z] metres in object space.
    pub offset: Option<[f64; 3]>,
}

/// Shape keys (morph targets): list them, add the basis or a key, set a key's value, or keyframe it.
///
/// add creates the basis first when there is none; with `offset` the new key moves the
/// given vertices (or all) so the key does something. keyframe keys the value at a frame.
#[capability(
    key = "animation.shape_keys",
    family = "animation",
    tags = ["shape key", "shape keys", "morph", "blend shape", "morph target", "deform", "facial"],
    aliases = ["shape_keys", "shape_key", "blend_shapes", "morph_targets"],
    examples = ["add a shape key that raises the top", "set the smile shape key to 0.5", "animate the shape key from 0 to 1"],
    uses = [ListShapeKeys, ShapeKeys],
    cases = cases,
)]
fn shape_keys(args: ShapeKeyArgs) -> PackResult<Value> {
    let action = match args.action {
        Action::List => return Ok(json!(list_shape_keys(&ListShapeKeysParams { object: args.object })?)),
        Action::AddBasis => BridgeAction::AddBasis,
        Action::Add => BridgeAction::Add,
        Action::SetValue => BridgeAction::SetValue,
        Action::Keyframe => BridgeAction::Keyframe,
    };
    if args.action != Action::AddBasis && args.name.is_none() {
        return Err(PackError::invalid("this action needs the key's name"));
    }
    if args.action == Action::SetValue && args.value.is_none() {
        return Err(PackError::invalid("set_value needs a value"));
    }
    if args.action == Action::Keyframe && args.frame.is_none() {
        return Err(PackError::invalid("keyframe needs a frame"));
    }
    if args.action != Action::Add && (args.offset.is_some() || args.vertices.is_some()) {
        return Err(PackError::invalid("offset and vertices are for add"));
    }
    Ok(json!(bridge_shape_keys(&ShapeKeysParams {
        object: args.object,
        action,
        name: args.name,
        value: args.value,
        frame: args.frame,
        vertices: args.vertices,
        offset: args.offset,
    })?))
}

fn cases() -> Vec<Case> {
    let up = json!({ "object": "Cube", "action": "add", "name": "Up", "offset": [0, 0, 1] });
    vec![
        Case::new("a key that lifts the cube, fully on")
            .args(json!({ "object": "Cube", "action": "add", "name": "Up", "offset": [0, 0, 1], "value": 1 }))
            .changed(&["Cube"]).fields("Cube", &["shape_keys"])
            .result(json!({ "key": "Up", "total": 2, "keys": [{ "name": "Basis" }, { "name": "Up", "value": 1.0, "relative_to": "Basis" }] }))
            .reads("spatial.bounds", json!({ "objects": ["Cube"] }), json!({ "min": [-1.0, -1.0, 0.0], "max": [1.0, 1.0, 2.0] })),
        Case::new("half way")
            .setup("animation.shape_keys", up.clone())
            .args(json!({ "object": "Cube", "action": "set_value", "name": "Up", "value": 0.5 }))
            .changed(&["Cube"]).fields("Cube", &["shape_keys"])
            .reads("spatial.bounds", json!({ "objects": ["Cube"] }), json!({ "max": [1.0, 1.0, 1.5] })),
        Case::new("list")
            .setup("animation.shape_keys", up.clone())
            .args(json!({ "object": "Cube", "action": "list" })).changed(&[])
            .result(json!({ "total": 2, "keys": [{ "name": "Basis" }, { "name": "Up" }] })),
        Case::new("keying the value animates it")
            .setup("animation.shape_keys", up)
            .args(json!({ "object": "Cube", "action": "keyframe", "name": "Up", "value": 0.25, "frame": 1 }))
            .changed(&["Cube"]).result(json!({ "keys": [{ "name": "Basis" }, { "name": "Up", "value": 0.25 }] })),
        Case::new("a camera has no shape keys").args(json!({ "object": "Camera", "action": "add_basis" })).error("invalid_target"),
        Case::new("a missing key").args(json!({ "object": "Cube", "action": "set_value", "name": "Ghost", "value": 1 })).error("not_found"),
        Case::new("set_value without a value").args(json!({ "object": "Cube", "action": "set_value", "name": "Up" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
