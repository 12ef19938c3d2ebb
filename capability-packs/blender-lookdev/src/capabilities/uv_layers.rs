use capstan_blender::{ListUvLayers, ListUvLayersParams, UvLayers, UvLayersParams, UvLayersParamsAction, list_uv_layers, uv_layers};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    List,
    Add,
    Remove,
    Rename,
    SetActive,
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("add", &["name"]), ("remove", &["name"]), ("rename", &["name", "new_name"]), ("set_active", &["name"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct LayersArgs {
    /// The mesh.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    pub action: Action,
    /// The UV map to add, remove, rename or make active.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// rename: the new name.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub new_name: Option<String>,
}

/// List, add, remove or rename a mesh's UV maps, or pick the active one.
///
/// `list` changes nothing. `set_active` makes the map the one edited and rendered.
/// `remove` discards the map's UVs (it cannot be undone by another call).
#[capability(
    key = "uv.layers",
    family = "uv",
    tags = ["uv", "uv map", "uv layer", "channels", "lightmap"],
    aliases = ["uv_layers", "uv_list_maps", "uv_maps", "manage_uv_maps"],
    examples = ["which uv maps does the cube have", "add a second uv map called Lightmap", "remove the old uv map", "make Lightmap the active uv map"],
    uses = [ListUvLayers, UvLayers],
    cases = cases,
)]
fn layers(args: LayersArgs) -> PackResult<Value> {
    let action = match args.action {
        Action::List => return Ok(json!(list_uv_layers(&ListUvLayersParams { object: args.object.clone() })?)),
        Action::Add => UvLayersParamsAction::Add,
        Action::Remove => UvLayersParamsAction::Remove,
        Action::Rename => UvLayersParamsAction::Rename,
        Action::SetActive => UvLayersParamsAction::SetActive,
    };
    let name = args.name.clone().ok_or_else(|| PackError::invalid("this action needs `name`"))?;
    if args.action == Action::Rename && args.new_name.is_none() {
        return Err(PackError::invalid("rename needs `new_name`"));
    }
    Ok(json!(uv_layers(&UvLayersParams { object: args.object.clone(), action, name, new_name: args.new_name.clone() })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory cube's one UV map")
            .args(json!({ "object": "Cube", "action": "list" }))
            .result(json!({ "layers": [{ "name": "UVMap", "active": true, "active_render": true }] })),
        Case::new("a second map added and made active")
            .setup("uv.layers", json!({ "object": "Cube", "action": "add", "name": "Lightmap" }))
            .args(json!({ "object": "Cube", "action": "set_active", "name": "Lightmap" }))
            .changed(&["Cube"]).fields("Cube", &["data"]).added(&[]).settings(&[])
            .result(json!({ "layers": [{ "name": "UVMap", "active": false, "active_render": false }, { "name": "Lightmap", "active": true, "active_render": true }] })),
        Case::new("the map removed")
            .args(json!({ "object": "Cube", "action": "remove", "name": "UVMap" }))
            .changed(&["Cube"]).result(json!({ "layers": [] })),
        Case::new("renamed")
            .args(json!({ "object": "Cube", "action": "rename", "name": "UVMap", "new_name": "Main" }))
            .changed(&["Cube"]).result(json!({ "layers": [{ "name": "Main" }] })),
        Case::new("a missing map").args(json!({ "object": "Cube", "action": "remove", "name": "Ghost" })).error("not_found"),
        Case::new("rename without a new name").args(json!({ "object": "Cube", "action": "rename", "name": "UVMap" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
