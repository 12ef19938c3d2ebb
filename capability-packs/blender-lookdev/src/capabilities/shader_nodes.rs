use capstan_blender::{
    ShaderGraphEdit, ShaderGraphEditParams, ShaderGraphEditParamsNodeType as NodeType, ShaderGraphEditParamsOp as Op,
    ShaderGraphInfo, ShaderGraphInfoParams, shader_graph_edit, shader_graph_info,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Info,
    AddNode,
    RemoveNode,
    Connect,
    Disconnect,
    SetInput,
    SetProperty,
}

/// A socket by name (or identifier) or by index.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SocketRef {
    Index(#[schemars(range(min = 0, max = 64))] u8),
    Name(#[schemars(length(min = 1, max = 64))] String),
}

/// An input value (number, boolean, 2-4 numbers) or an enum identifier (set_property).
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum NodeValue {
    Flag(bool),
    Number(f64),
    Vector(#[schemars(length(min = 2, max = 4))] Vec<f64>),
    Word(#[schemars(length(min = 1, max = 64))] String),
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("add_node", &["node_type"]), ("remove_node", &["node"]), ("connect", &["from_node", "from_socket", "to_node", "to_socket"]), ("disconnect", &["to_node", "to_socket"]), ("set_input", &["node", "input", "value"]), ("set_property", &["node", "property", "value"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct ShaderNodesArgs {
    /// The material whose graph to read or edit.
    #[schemars(length(min = 1, max = 63))]
    pub material: String,
    pub action: Action,
    /// add_node: a shader node type from the allowlist (no Script/OSL, no file-reading nodes).
    pub node_type: Option<NodeType>,
    /// The node to remove, set, or (set_input / set_property) change.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub node: Option<String>,
    /// add_node: the new node's name.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// add_node: position in the editor.
    pub location: Option<[f64; 2]>,
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub from_node: Option<String>,
    pub from_socket: Option<SocketRef>,
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub to_node: Option<String>,
    pub to_socket: Option<SocketRef>,
    /// set_input: the input socket.
    pub input: Option<SocketRef>,
    /// set_property: a node setting such as `operation`, `blend_type`, `wave_type`.
    #[schemars(length(min = 1, max = 64), regex(pattern = r"^[a-z][a-z0-9_]*$"))]
    pub property: Option<String>,
    /// set_input: a number, boolean or 2-4 numbers (colours are linear); set_property: an enum identifier, boolean or number.
    pub value: Option<NodeValue>,
}

fn op(a: Action) -> Option<Op> {
    Some(match a {
        Action::Info => return None,
        Action::AddNode => Op::AddNode,
        Action::RemoveNode => Op::RemoveNode,
        Action::Connect => Op::Connect,
        Action::Disconnect => Op::Disconnect,
        Action::SetInput => Op::SetInput,
        Action::SetProperty => Op::SetProperty,
    })
}

fn to_json<T: Serialize>(v: &Option<T>) -> PackResult<Option<Value>> {
    v.as_ref().map(|x| serde_json::to_value(x).map_err(|e| PackError::failed(e.to_string()))).transpose()
}

fn socket(v: &Option<SocketRef>) -> Option<Value> {
    v.as_ref().map(|s| match s {
        SocketRef::Index(i) => json!(i),
        SocketRef::Name(n) => json!(n),
    })
}

fn value(v: &Option<NodeValue>) -> Option<Value> {
    v.as_ref().map(|s| match s {
        NodeValue::Flag(b) => json!(b),
        NodeValue::Number(n) => json!(n),
        NodeValue::Vector(xs) => json!(xs),
        NodeValue::Word(w) => json!(w),
    })
}

/// The edit as the bridge takes it (sockets and values as their JSON forms).
pub fn edit_params(a: &ShaderNodesArgs, op: Op) -> PackResult<ShaderGraphEditParams> {
    let doc = json!({
        "material": a.material, "op": op, "node_type": to_json(&a.node_type)?, "node": a.node, "name": a.name,
        "location": a.location, "from_node": a.from_node, "from_socket": socket(&a.from_socket), "to_node": a.to_node,
        "to_socket": socket(&a.to_socket), "input": socket(&a.input), "property": a.property, "value": value(&a.value),
    });
    let stripped: serde_json::Map<String, Value> = doc.as_object().into_iter().flatten().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), v.clone())).collect();
    serde_json::from_value(Value::Object(stripped)).map_err(|e| PackError::invalid(e.to_string()))
}

/// Read or edit a material's shader node graph, with an allowlisted set of node types.
///
/// `info` lists nodes (type, inputs with values, outputs) and links, and changes nothing.
/// The edits add an allowlisted node, remove a node, connect or disconnect sockets, set an
/// input's value, or set a node's enum/number setting (such as a Math node's operation).
#[capability(
    key = "material.shader_nodes",
    family = "material",
    tags = ["material", "shader", "nodes", "node tree", "graph", "connect", "link", "socket"],
    aliases = ["shader_graph_edit", "edit_shader_nodes", "material_nodes", "material_inspect_nodes"],
    examples = ["show the shader nodes of the material", "add a noise texture node", "connect the noise to the roughness", "set the mix factor to 0.3"],
    uses = [ShaderGraphInfo, ShaderGraphEdit],
    cases = cases,
)]
fn shader_nodes(args: ShaderNodesArgs) -> PackResult<Value> {
    match op(args.action) {
        None => Ok(json!(shader_graph_info(&ShaderGraphInfoParams { material: args.material.clone() })?)),
        Some(op) => Ok(json!(shader_graph_edit(&edit_params(&args, op)?)?)),
    }
}

fn glass() -> Value {
    json!({ "preset": "glass", "name": "G" })
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("info reads the graph and changes nothing")
            .setup("material.procedural", glass())
            .args(json!({ "material": "G", "action": "info" }))
            .added(&[]).changed(&[]).settings(&[])
            .result(json!({ "material": "G", "links": [{ "from_node": "Principled BSDF", "to_node": "Material Output", "to_socket": "Surface" }] })),
        Case::new("a noise texture drives the roughness")
            .setup("material.procedural", glass())
            .setup("material.shader_nodes", json!({ "material": "G", "action": "add_node", "node_type": "ShaderNodeTexNoise", "name": "Grain" }))
            .args(json!({ "material": "G", "action": "connect", "from_node": "Grain", "from_socket": "Fac", "to_node": "Principled BSDF", "to_socket": "Roughness" }))
            .added(&[]).changed(&[])
            .reads("material.list", json!({ "material": "G", "include_graph": true }), json!({ "materials": [{ "graph": { "links": [
                { "from_node": "Principled BSDF", "to_node": "Material Output", "to_socket": "Surface" },
                // The output is named "Factor" from Blender 5.0, "Fac" in 4.5 LTS.
                { "from_node": "Grain", "to_node": "Principled BSDF", "to_socket": "Roughness" },
            ] } }] })),
        Case::new("an input value is set")
            .setup("material.procedural", glass())
            .args(json!({ "material": "G", "action": "set_input", "node": "Principled BSDF", "input": "Roughness", "value": 0.4 }))
            .result(json!({ "op": "set_input", "node": "Principled BSDF" }))
            .reads("material.list", json!({ "material": "G" }), json!({ "materials": [{ "name": "G", "roughness": 0.4 }] })),
        Case::new("a math node's operation is a setting")
            .setup("material.procedural", glass())
            .setup("material.shader_nodes", json!({ "material": "G", "action": "add_node", "node_type": "ShaderNodeMath", "name": "M" }))
            .args(json!({ "material": "G", "action": "set_property", "node": "M", "property": "operation", "value": "MULTIPLY" }))
            .result(json!({ "node": "M" })),
        Case::new("Script nodes are not allowed")
            .setup("material.procedural", glass())
            .args(json!({ "material": "G", "action": "add_node", "node_type": "ShaderNodeScript" }))
            .error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an out-of-range value is refused")
            .setup("material.procedural", glass())
            .args(json!({ "material": "G", "action": "set_input", "node": "Principled BSDF", "input": "Roughness", "value": 3 }))
            .error("invalid_params"),
        Case::new("an unknown socket is not found")
            .setup("material.procedural", glass())
            .args(json!({ "material": "G", "action": "connect", "from_node": "Principled BSDF", "from_socket": "Nope", "to_node": "Material Output", "to_socket": "Surface" }))
            .error("not_found"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_and_values_keep_their_json_forms() {
        let a: ShaderNodesArgs = serde_json::from_value(json!({ "material": "M", "action": "connect", "from_node": "A", "from_socket": 0, "to_node": "B", "to_socket": "Base Color" })).unwrap();
        let p = serde_json::to_value(edit_params(&a, Op::Connect).unwrap()).unwrap();
        assert_eq!(p["from_socket"], json!(0));
        assert_eq!(p["to_socket"], json!("Base Color"));
        let a: ShaderNodesArgs = serde_json::from_value(json!({ "material": "M", "action": "set_input", "node": "A", "input": "Color", "value": [1, 0, 0] })).unwrap();
        assert_eq!(serde_json::to_value(edit_params(&a, Op::SetInput).unwrap()).unwrap()["value"], json!([1.0, 0.0, 0.0]));
    }
}
