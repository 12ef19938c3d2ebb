use capstan_blender::{MeshOp, MeshOpParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Edit a mesh's topology with bmesh: extrude, inset, bevel, subdivide, merge, delete, bisect, spin, ...
///
/// `op` is one of extrude, inset, bevel, subdivide, triangulate, tris_to_quads, merge,
/// dissolve_limited, delete, flip_normals, recalc_normals, poke, bisect, spin, solidify,
/// smooth_vertices, randomize. `selection` picks the elements: all (default), or vertex,
/// edge or face `indices` (converted to what the op works on). `params` holds the op's own
/// settings in metres and degrees (extrude: offset or direction; inset: width, depth,
/// individual; bevel: width, segments, profile, vertex_only; subdivide: cuts, smooth;
/// tris_to_quads and dissolve_limited: angle; merge: distance; poke: offset; bisect:
/// plane_co, plane_no, clear_inner, clear_outer; spin: angle, steps, axis, center;
/// solidify: thickness; smooth_vertices: factor, iterations; randomize: offset, seed);
/// a setting another op takes is an error. No edit mode, no view.
#[capability(
    key = "mutate.mesh_edit",
    family = "mutate",
    tags = ["extrude", "inset", "bevel", "subdivide", "triangulate", "merge", "dissolve", "delete faces", "flip normals", "poke",
            "bisect", "spin", "lathe", "solidify", "smooth vertices", "randomize", "bmesh", "edit mesh", "topology"],
    aliases = ["mesh_op", "mesh_edit", "model.mesh_edit", "edit_mesh", "mesh_extrude", "mesh_inset", "mesh_bevel"],
    examples = ["extrude the top face by 1 metre", "inset the faces of the cube", "bevel all edges with 3 segments", "cut the mesh in half along z",
                "triangulate the mesh", "lathe this profile around z"],
    uses = [MeshOp],
    cases = cases,
)]
fn mesh_edit(args: MeshOpParams) -> PackResult<impl Serialize> {
    Ok(forward::<MeshOp>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("extrude face 5 (the +y side) by 1 m")
            .args(json!({ "object": "Cube", "op": "extrude", "selection": { "kind": "faces", "indices": [5] }, "params": { "offset": 1 } }))
            .changed(&["Cube"]).fields("Cube", &["data"]).added(&[])
            .result(json!({ "op": "extrude", "before": { "vertices": 8, "faces": 6 }, "after": { "vertices": 12, "faces": 10 } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "dimensions": [2.0, 3.0, 2.0], "mesh": { "vertices": 12, "faces": 10 } })),
        Case::new("one subdivision cut over the whole cube")
            .args(json!({ "object": "Cube", "op": "subdivide", "params": { "cuts": 1 } }))
            .changed(&["Cube"]).result(json!({ "after": { "vertices": 26, "edges": 48, "faces": 24 } })),
        Case::new("a two-segment bevel of every edge")
            .args(json!({ "object": "Cube", "op": "bevel", "params": { "width": 0.1, "segments": 2 } }))
            .changed(&["Cube"]).result(json!({ "before": { "faces": 6 } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "dimensions": [2.0, 2.0, 2.0] })),
        Case::new("bisect keeps the lower half")
            .args(json!({ "object": "Cube", "op": "bisect", "params": { "plane_no": [0, 0, 1], "clear_outer": true } }))
            .changed(&["Cube"]).reads("scene.object_info", json!({ "name": "Cube" }), json!({ "dimensions": [2.0, 2.0, 1.0] })),
        Case::new("a setting of another op is refused")
            .args(json!({ "object": "Cube", "op": "bevel", "params": { "cuts": 2 } })).error("invalid_params"),
        Case::new("an index out of range")
            .args(json!({ "object": "Cube", "op": "inset", "selection": { "kind": "faces", "indices": [6] } })).error("invalid_params"),
        Case::new("a light has no mesh").args(json!({ "object": "Light", "op": "triangulate" })).error("invalid_target"),
    ]
}
