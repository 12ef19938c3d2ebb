use capstan_blender::{
    GeometryGraphEdit, GeometryGraphEditParams, GeometryGraphEditParamsAction as A, GeometryGraphEditParamsPropertiesValue,
    GeometryGraphEditParamsValue, GeometryGraphInfo, GeometryGraphInfoParams, geometry_graph_edit, geometry_graph_info,
};
use capstan_sdk::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Add a Geometry Nodes modifier with its own graph (input passed to output).
    AddModifier,
    /// Read the graph: nodes, sockets, values, links.
    Info,
    /// Add a node of `node_type`, optionally `name`d and with `properties`.
    AddNode,
    /// Link `from_node`.`from_socket` to `to_node`.`to_socket`.
    Connect,
    /// Set `node`'s input `socket` to `value`, and/or its `properties`.
    SetInput,
    /// Remove `node`.
    RemoveNode,
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("add_node", &["node_type"]), ("connect", &["from_node", "from_socket", "to_node", "to_socket"]), ("set_input", &["node"]), ("remove_node", &["node"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct GraphArgs {
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    pub action: Action,
    /// The nodes modifier (default: the object's first).
    #[schemars(length(min = 1, max = 63))]
    pub modifier: Option<String>,
    /// add_node: the node's type, e.g. GeometryNodeSetPosition, ShaderNodeMath (allowlisted:
    /// geometry, function and shader math/texture nodes; no importers, bakes, tools or zones).
    #[schemars(length(min = 1, max = 80), regex(pattern = r"^[A-Za-z]+$"))]
    pub node_type: Option<String>,
    /// add_modifier / add_node: the new modifier's or node's name.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]+$"))]
    pub name: Option<String>,
    /// set_input / remove_node: the node.
    #[schemars(length(min = 1, max = 63))]
    pub node: Option<String>,
    /// set_input: the input socket, by name or identifier.
    #[schemars(length(min = 1, max = 63))]
    pub socket: Option<String>,
    /// set_input: a number, boolean, vector, string, or an object/material/collection name.
    pub value: Option<GeometryGraphEditParamsValue>,
    /// add_node / set_input: node settings by RNA identifier, e.g. {"operation": "MULTIPLY"}.
    pub properties: Option<BTreeMap<String, GeometryGraphEditParamsPropertiesValue>>,
    #[schemars(length(min = 1, max = 63))]
    pub from_node: Option<String>,
    #[schemars(length(min = 1, max = 63))]
    pub from_socket: Option<String>,
    #[schemars(length(min = 1, max = 63))]
    pub to_node: Option<String>,
    #[schemars(length(min = 1, max = 63))]
    pub to_socket: Option<String>,
}

/// Build and edit Geometry Nodes graphs: add a nodes modifier, add, connect, set and remove nodes, read the graph.
///
/// Nodes are addressed by name (add_node answers with the new node's name and its sockets;
/// "Group Input" and "Group Output" exist from the start). Sockets are named or given by
/// identifier where a node has several with one name (e.g. "Value_001"). Node types are
/// allowlisted: nothing that reads or writes files.
#[capability(
    key = "generation.geometry_nodes",
    family = "generation",
    tags = ["geometry nodes", "node graph", "procedural", "nodes modifier", "gn", "set position", "instances"],
    aliases = ["geometry_graph_edit", "geometry_nodes", "model.geometry_nodes", "gn_edit"],
    examples = ["add a geometry nodes modifier to the plane", "add a set position node and connect it", "show me the node graph of the cube"],
    uses = [GeometryGraphEdit, GeometryGraphInfo],
    cases = cases,
)]
fn geometry_nodes(args: GraphArgs) -> PackResult<Value> {
    let action = match args.action {
        Action::Info => {
            let extra = args.node_type.is_some() || args.name.is_some() || args.node.is_some() || args.socket.is_some() || args.value.is_some()
                || args.properties.is_some() || args.from_node.is_some() || args.from_socket.is_some() || args.to_node.is_some() || args.to_socket.is_some();
            if extra {
                return Err(PackError::invalid("info takes only object and modifier"));
            }
            return Ok(json!(geometry_graph_info(&GeometryGraphInfoParams { object: args.object, modifier: args.modifier })?));
        }
        Action::AddModifier => A::AddModifier,
        Action::AddNode => A::AddNode,
        Action::Connect => A::Connect,
        Action::SetInput => A::SetInput,
        Action::RemoveNode => A::RemoveNode,
    };
    Ok(json!(geometry_graph_edit(&GeometryGraphEditParams {
        object: args.object, action, modifier: args.modifier, node_type: args.node_type, name: args.name, node: args.node, socket: args.socket,
        value: args.value, properties: args.properties, from_node: args.from_node, from_socket: args.from_socket, to_node: args.to_node, to_socket: args.to_socket,
    })?))
}

fn cases() -> Vec<Case> {
    let setup_gn = json!({ "object": "Cube", "action": "add_modifier", "name": "Shape" });
    let setup_node = json!({ "object": "Cube", "action": "add_node", "node_type": "GeometryNodeTransform", "name": "Lift" });
    vec![
        Case::new("a nodes modifier with its own graph")
            .args(json!({ "object": "Cube", "action": "add_modifier", "name": "Shape" }))
            .changed(&["Cube"]).fields("Cube", &["modifiers"]).added(&[]).datablocks_added("node_groups", &["Shape"])
            .result(json!({ "modifier": "Shape", "node_group": "Shape", "links": 1 }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "modifiers": [{ "name": "Shape", "type": "NODES" }] })),
        Case::new("add a transform node, wire it in, stretch the cube 3 times along z")
            .setup("generation.geometry_nodes", setup_gn.clone())
            .setup("generation.geometry_nodes", setup_node.clone())
            .setup("generation.geometry_nodes", json!({ "object": "Cube", "action": "connect", "from_node": "Group Input", "from_socket": "Geometry", "to_node": "Lift", "to_socket": "Geometry" }))
            .setup("generation.geometry_nodes", json!({ "object": "Cube", "action": "connect", "from_node": "Lift", "from_socket": "Geometry", "to_node": "Group Output", "to_socket": "Geometry" }))
            .args(json!({ "object": "Cube", "action": "set_input", "node": "Lift", "socket": "Scale", "value": [1, 1, 3] }))
            .changed(&[]).added(&[])
            .result(json!({ "node": { "name": "Lift", "type": "GeometryNodeTransform" }, "links": 2 }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "dimensions": [2.0, 2.0, 6.0], "mesh": { "vertices": 8 } })),
        Case::new("info reads the graph back")
            .setup("generation.geometry_nodes", setup_gn.clone())
            .setup("generation.geometry_nodes", setup_node)
            .args(json!({ "object": "Cube", "action": "info" })).changed(&[])
            .result(json!({ "modifier": "Shape", "links": [{ "from_node": "Group Input", "to_node": "Group Output", "valid": true }] })),
        Case::new("file importers are not allowed")
            .setup("generation.geometry_nodes", setup_gn.clone())
            .args(json!({ "object": "Cube", "action": "add_node", "node_type": "GeometryNodeImportOBJ" })).error("invalid_params"),
        Case::new("a connection between incompatible sockets is refused")
            .setup("generation.geometry_nodes", setup_gn)
            .setup("generation.geometry_nodes", json!({ "object": "Cube", "action": "add_node", "node_type": "ShaderNodeMath", "name": "Sum" }))
            .args(json!({ "object": "Cube", "action": "connect", "from_node": "Group Input", "from_socket": "Geometry", "to_node": "Sum", "to_socket": "Value" }))
            .error("invalid_params"),
        Case::new("no nodes modifier yet").args(json!({ "object": "Cube", "action": "info" })).error("not_found"),
    ]
}
