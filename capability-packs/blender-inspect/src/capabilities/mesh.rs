use capstan_blender::{MeshInspect, MeshInspectParams, MeshInspectParamsAction as Action, mesh_inspect};
use capstan_sdk::prelude::*;

/// What each action needs besides itself, said in the schema.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("attributes", &["attribute_name"]), ("group_weights", &["group_name"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct MeshArgs {
    /// The mesh object to read.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// What to read (default summary: counts and the names of UV layers, groups, attributes, shape keys).
    #[serde(default = "summary")]
    pub action: Action,
    /// First row of the page (default 0).
    #[schemars(range(min = 0, max = 100000000))]
    #[serde(default)]
    pub offset: i64,
    /// Rows per page (default 250, at most 5000).
    #[schemars(range(min = 1, max = 5000))]
    #[serde(default = "limit")]
    pub limit: i64,
    /// Only selected vertices, edges or faces (default false).
    #[serde(default)]
    pub selected_only: bool,
    /// UV layer for `uvs` (default: the active one).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub uv_layer: Option<String>,
    /// Vertex group for `group_weights`.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub group_name: Option<String>,
    /// Attribute for `attributes` (e.g. position).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub attribute_name: Option<String>,
}

fn summary() -> Action {
    Action::Summary
}
fn limit() -> i64 {
    250
}

/// Paged mesh data: a summary, or vertices, edges, faces, UVs, normals, an attribute, shape keys or group weights.
///
/// Rows come `limit` at a time with `page {offset, limit, total, next_offset}`; ask again
/// with `offset: next_offset` for the next page (null when done). Coordinates are local
/// (object space) in metres. `selected_only` pages over the selected elements only.
#[capability(
    key = "inspect.mesh",
    family = "inspect",
    tags = ["mesh", "vertices", "edges", "faces", "uv", "normals", "attributes", "shape keys", "weights", "topology", "paged"],
    aliases = ["mesh_inspect", "mesh.inspect", "get_vertex_data", "mesh_get_vertex_data", "mesh_info"],
    examples = ["show me the vertex positions of the cube", "how many faces does the cube have", "list the uv coordinates of the plane", "what are the vertex weights of the arm group"],
    uses = [MeshInspect],
    cases = cases,
)]
fn mesh(args: MeshArgs) -> PackResult<Value> {
    let out = mesh_inspect(&MeshInspectParams {
        object: args.object,
        action: Some(args.action),
        offset: Some(args.offset),
        limit: Some(args.limit),
        selected_only: Some(args.selected_only),
        uv_layer: args.uv_layer,
        group_name: args.group_name,
        attribute_name: args.attribute_name,
    })?;
    let mut out = json!(out);
    out["units"] = json!("metres, object space");
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory cube's summary")
            .args(json!({ "object": "Cube" }))
            .result(json!({ "summary": { "vertices": 8, "edges": 12, "faces": 6, "triangles": 12, "loops": 24, "uv_layers": ["UVMap"] } })),
        Case::new("the first page of vertices")
            .args(json!({ "object": "Cube", "action": "vertices", "limit": 5 }))
            .result(json!({ "page": { "offset": 0, "limit": 5, "total": 8, "next_offset": 5 }, "rows": [
                { "index": 0, "co": [1.0, 1.0, 1.0] }, { "index": 1, "co": [1.0, 1.0, -1.0] }, { "index": 2, "co": [1.0, -1.0, 1.0] },
                { "index": 3 }, { "index": 4, "co": [-1.0, 1.0, 1.0] }] })),
        Case::new("the last page ends the paging")
            .args(json!({ "object": "Cube", "action": "faces", "offset": 4, "limit": 5 }))
            .result(json!({ "page": { "total": 6, "next_offset": null }, "rows": [{ "index": 4, "area": 4.0 }, { "index": 5 }] })),
        Case::new("a subdivided cube's topology after the edit")
            .setup("mutate.modifier_add", json!({ "object": "Cube", "type": "SUBSURF", "properties": { "levels": 1 } }))
            .setup("mutate.modifier_apply", json!({ "object": "Cube", "modifier": "Subsurf" }))
            .args(json!({ "object": "Cube", "action": "summary" }))
            .result(json!({ "summary": { "vertices": 26, "faces": 24 } })),
        Case::new("uv rows stay in the unit square")
            .args(json!({ "object": "Cube", "action": "uvs", "limit": 2 }))
            .result(json!({ "page": { "total": 24 }, "rows": [{ "index": 0, "face": 0 }, { "index": 1, "face": 0 }] })),
        Case::new("group weights need a group").args(json!({ "object": "Cube", "action": "group_weights" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a light is not a mesh").args(json!({ "object": "Light" })).error("invalid_target"),
        Case::new("no such object").args(json!({ "object": "Ghost" })).error("not_found"),
        Case::new("the page is bounded").args(json!({ "object": "Cube", "limit": 5001 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
