use capstan_blender::{MeshQuality, MeshQualityParams, MeshQualityResult, mesh_quality};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeshQualityArgs {
    /// Mesh objects to check, 1..256 (default: every mesh object in the scene).
    #[schemars(length(min = 1, max = 256))]
    pub objects: Option<Vec<Name>>,
    /// Faces smaller than this (square metres, object space) count as zero-area (default 1e-8).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub area_epsilon: Option<f64>,
}

/// An exact object name.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Name(#[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))] String);

/// Mesh quality checks: non-manifold and boundary edges, loose vertices and edges, zero-area faces, flipped normals, n-gons, triangles, separate parts.
///
/// One row per mesh object (one object, a list, or every mesh in the scene), measured on
/// the evaluated mesh at the current frame (modifiers applied): `manifold` (no boundary,
/// wire or multi-face edges) and the counts behind it, `loose_vertices`, `loose_edges`,
/// `zero_area_faces` (below `area_epsilon`), `inconsistent_normal_edges` and
/// `flipped_faces` (the smaller set of faces whose winding disagrees with their part),
/// `triangles`, `quads`, `ngons`, `parts` (connected pieces), `clean` when nothing is
/// wrong, and the first indices of each problem in `examples`. `spatial.assert` checks
/// `manifold` and `no_loose_geometry` as constraints. Changes nothing.
#[capability(
    key = "inspect.mesh_quality",
    family = "inspect",
    tags = ["mesh quality", "manifold", "non manifold", "watertight", "boundary edges", "holes", "loose geometry", "zero area", "degenerate",
            "flipped normals", "ngons", "triangles", "separate parts", "printable", "check", "cleanup"],
    aliases = ["mesh_quality", "mesh.quality", "check_mesh", "mesh_check", "non_manifold", "check_manifold", "mesh_cleanup_report"],
    examples = ["is the mesh manifold", "check the meshes for non-manifold edges and loose geometry", "does the model have holes",
                "find flipped normals on the cube", "how many ngons does the model have", "is the mesh watertight for 3d printing"],
    uses = [MeshQuality],
    cases = cases,
    output = MeshQualityResult,
)]
fn mesh_quality_check(args: MeshQualityArgs) -> PackResult<MeshQualityResult> {
    Ok(mesh_quality(&MeshQualityParams {
        objects: args.objects.map(|names| names.into_iter().map(|n| n.0).collect()),
        area_epsilon: args.area_epsilon,
    })?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory cube is clean")
            .args(json!({ "objects": ["Cube"] }))
            .result(json!({ "total": 1, "truncated": false, "clean": true, "objects": [{
                "object": "Cube", "vertices": 8, "edges": 12, "faces": 6, "manifold": true, "clean": true,
                "non_manifold_edges": 0, "boundary_edges": 0, "multi_face_edges": 0, "loose_vertices": 0, "loose_edges": 0,
                "zero_area_faces": 0, "inconsistent_normal_edges": 0, "flipped_faces": 0, "quads": 6, "triangles": 0, "ngons": 0, "parts": 1,
                "examples": { "boundary_edges": [] } }] })),
        Case::new("a cube with a deleted face reports its four boundary edges")
            .setup("mutate.mesh_edit", json!({ "object": "Cube", "op": "delete", "selection": { "kind": "faces", "indices": [0] } }))
            .args(json!({ "objects": ["Cube"] }))
            .result(json!({ "clean": false, "objects": [{
                "object": "Cube", "faces": 5, "manifold": false, "clean": false, "boundary_edges": 4, "non_manifold_edges": 4,
                "multi_face_edges": 0, "parts": 1 }] })),
        Case::new("a flipped face and a wire chain, among every mesh")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Flipped", "location": [5, 0, 0] }))
            .setup("mutate.mesh_edit", json!({ "object": "Flipped", "op": "flip_normals", "selection": { "kind": "faces", "indices": [2] } }))
            .setup("scene.create_object", json!({ "type": "cube", "name": "Whisker", "location": [-5, 0, 0] }))
            .setup("mutate.mesh_edit", json!({ "object": "Whisker", "op": "spin", "selection": { "kind": "verts", "indices": [0] }, "params": { "angle": 90, "steps": 2 } }))
            .args(json!({}))
            .result(json!({ "total": 3, "clean": false, "objects": [
                { "object": "Cube", "clean": true },
                { "object": "Flipped", "manifold": true, "clean": false, "inconsistent_normal_edges": 4, "flipped_faces": 1,
                  "examples": { "flipped_faces": [2] } },
                { "object": "Whisker", "manifold": false, "loose_edges": 2, "loose_vertices": 0, "non_manifold_edges": 2, "parts": 1 },
            ] })),
        Case::new("the evaluated mesh is measured: a triangulate modifier makes triangles")
            .setup("mutate.modifier_add", json!({ "object": "Cube", "type": "TRIANGULATE" }))
            .args(json!({ "objects": ["Cube"] }))
            .result(json!({ "objects": [{ "object": "Cube", "faces": 12, "triangles": 12, "quads": 0, "manifold": true }] })),
        Case::new("a light is not a mesh").args(json!({ "objects": ["Light"] })).error("invalid_target"),
        Case::new("no such object").args(json!({ "objects": ["Ghost"] })).error("not_found"),
        Case::new("an empty list is refused").args(json!({ "objects": [] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
