use capstan_blender::{
    CompositorGraphEdit, CompositorGraphEditParams, CompositorGraphEditParamsFromSocket as FromSocket,
    CompositorGraphEditParamsInput as InputSocket, CompositorGraphEditParamsNodeType as NodeType, CompositorGraphEditParamsOp as Op,
    CompositorGraphEditParamsPreset as Preset, CompositorGraphEditParamsToSocket as ToSocket, CompositorGraphEditParamsValue as NodeValue,
    CompositorGraphInfo, CompositorGraphInfoParams, compositor_graph_edit, compositor_graph_info,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Info,
    Preset,
    AddNode,
    RemoveNode,
    Connect,
    Disconnect,
    SetInput,
}

/// What each action needs besides itself (the bridge checks the same): said in the
/// schema, so a call without them is refused before any bridge call.
const NEEDS: [(&str, &[&str]); 6] = [
    ("preset", &["preset"]),
    ("add_node", &["node_type"]),
    ("remove_node", &["node"]),
    ("connect", &["from_node", "from_socket", "to_node", "to_socket"]),
    ("disconnect", &["to_node", "to_socket"]),
    ("set_input", &["node", "input", "value"]),
];

fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &NEEDS);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct CompositorArgs {
    pub action: Action,
    /// preset: a chain inserted before the output (bloom, vignette, glare, denoise, color_balance).
    pub preset: Option<Preset>,
    /// add_node: an allowlisted compositor node (no File Output, no Image or Movie Clip).
    pub node_type: Option<NodeType>,
    /// The node to remove or set.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub node: Option<String>,
    /// add_node: the new node's name.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    pub location: Option<[f64; 2]>,
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub from_node: Option<String>,
    pub from_socket: Option<FromSocket>,
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub to_node: Option<String>,
    pub to_socket: Option<ToSocket>,
    /// set_input: the input socket.
    pub input: Option<InputSocket>,
    /// set_input: a number, boolean, 2-4 numbers, or a menu item (a Glare node's Type: "Bloom").
    pub value: Option<NodeValue>,
}

fn op(a: Action) -> Option<Op> {
    Some(match a {
        Action::Info => return None,
        Action::Preset => Op::Preset,
        Action::AddNode => Op::AddNode,
        Action::RemoveNode => Op::RemoveNode,
        Action::Connect => Op::Connect,
        Action::Disconnect => Op::Disconnect,
        Action::SetInput => Op::SetInput,
    })
}

/// Post-process the render in the compositor: bloom, vignette, glare, denoise, colour balance, or node edits.
///
/// `info` reads the compositor graph and changes nothing. `preset` inserts a chain before
/// the output (creating the compositor graph, Render Layers to output, when the scene
/// has none). The other actions add allowlisted nodes, remove, connect or disconnect
/// them, or set an input. The graph is the scene's compositing node group from Blender
/// 5.0 (output: Group Output) and the scene's node tree in 4.5 LTS (output: Composite).
#[capability(
    key = "render.compositor",
    family = "render",
    tags = ["render", "compositor", "compositing", "post", "bloom", "vignette", "glare", "denoise", "color balance"],
    aliases = ["compositor_graph_edit", "compositor", "post_processing", "render_compositor"],
    examples = ["add bloom to the render", "put a vignette on the image", "denoise the render in the compositor", "show the compositor nodes"],
    uses = [CompositorGraphInfo, CompositorGraphEdit],
    cases = cases,
)]
fn compositor(args: CompositorArgs) -> PackResult<Value> {
    let Some(op) = op(args.action) else {
        return Ok(json!(compositor_graph_info(&CompositorGraphInfoParams {})?));
    };
    Ok(json!(compositor_graph_edit(&CompositorGraphEditParams {
        op,
        preset: args.preset,
        node_type: args.node_type,
        node: args.node.clone(),
        name: args.name.clone(),
        location: args.location,
        from_node: args.from_node.clone(),
        from_socket: args.from_socket.clone(),
        to_node: args.to_node.clone(),
        to_socket: args.to_socket.clone(),
        input: args.input.clone(),
        value: args.value.clone(),
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory scene has no compositor graph")
            .args(json!({ "action": "info" }))
            .result(json!({ "tree": null, "nodes": [], "links": [] })),
        Case::new("bloom between the render and the output")
            .args(json!({ "action": "preset", "preset": "bloom" }))
            // The same on 4.5 LTS and 5.x: the scene starts compositing (render); the graph's
            // own name and output node differ by version (see the add-on's tests).
            .added(&[]).changed(&[]).settings(&["render"])
            .result(json!({ "node": "capstan_bloom", "graph": { "links": [
                { "from_node": "capstan_bloom", "from_socket": "Image", "to_socket": "Image" },
                { "from_node": "Render Layers", "from_socket": "Image", "to_node": "capstan_bloom", "to_socket": "Image" },
            ] } }))
            .reads("render.audit", json!({ "profile": "preview", "require_compositor": true }), json!({ "config": { "compositor_nodes": 3 } })),
        Case::new("a vignette after the bloom")
            .setup("render.compositor", json!({ "action": "preset", "preset": "bloom" }))
            .args(json!({ "action": "preset", "preset": "vignette" }))
            .result(json!({ "node": "capstan_vignette" }))
            .reads("render.audit", json!({ "profile": "preview" }), json!({ "config": { "compositor_nodes": 6 } })),
        Case::new("a Glare node set to fog glow")
            .setup("render.compositor", json!({ "action": "add_node", "node_type": "CompositorNodeGlare", "name": "Glow" }))
            .args(json!({ "action": "set_input", "node": "Glow", "input": "Type", "value": "Fog Glow" }))
            .result(json!({ "node": "Glow" })),
        Case::new("File Output nodes are not allowed").args(json!({ "action": "add_node", "node_type": "CompositorNodeOutputFile" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a menu item that does not exist")
            .setup("render.compositor", json!({ "action": "add_node", "node_type": "CompositorNodeGlare", "name": "Glow" }))
            .args(json!({ "action": "set_input", "node": "Glow", "input": "Type", "value": "Laser" }))
            .error("invalid_params"),
        Case::new("connecting without a graph").args(json!({ "action": "connect", "from_node": "A", "from_socket": 0, "to_node": "B", "to_socket": 0 })).error("not_found"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_rule_names_a_real_action_and_real_arguments() {
        let schema = serde_json::to_value(schemars::schema_for!(CompositorArgs)).unwrap();
        let props = schema["properties"].as_object().unwrap();
        let rules = schema["allOf"].as_array().unwrap();
        assert_eq!(rules.len(), 6);
        for rule in rules {
            let action: Action = serde_json::from_value(rule["if"]["properties"]["action"]["const"].clone()).unwrap();
            assert!(op(action).is_some(), "{rule}");
            for need in rule["then"]["required"].as_array().unwrap() {
                assert!(props.contains_key(need.as_str().unwrap()), "{need}");
            }
        }
    }
}
