use capstan_blender::{RemeshVoxel, RemeshVoxelParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Voxel-remesh a mesh into even, watertight quads.
///
/// `voxel_size` (metres, object space, 0.0001 to 1) sets the detail; `adaptivity` 0..1
/// thins faces in flat areas. The estimated face count is capped at two million before
/// anything runs. Replaces the mesh's topology (UVs are lost).
#[capability(
    key = "mutate.remesh",
    family = "mutate",
    tags = ["remesh", "voxel", "retopology", "watertight", "clean topology", "quad mesh"],
    aliases = ["remesh_voxel", "voxel_remesh", "mesh_remesh_voxel", "remesh"],
    examples = ["voxel remesh the sculpt at 5 cm", "remesh the cube with voxel size 0.1", "make the mesh watertight with a remesh"],
    uses = [RemeshVoxel],
    cases = cases,
)]
fn remesh(args: RemeshVoxelParams) -> PackResult<impl Serialize> {
    Ok(forward::<RemeshVoxel>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the cube at 10 cm voxels")
            .args(json!({ "object": "Cube", "voxel_size": 0.1 }))
            .changed(&["Cube"]).fields("Cube", &["data"]).added(&[])
            .result(json!({ "voxel_size": 0.1, "before": { "vertices": 8 }, "after": { "vertices": 2648, "faces": 2646 } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "modifiers_total": 0, "dimensions": [2.0, 2.0, 2.0], "mesh": { "vertices": 2648 } })),
        Case::new("too fine for the size is refused")
            .args(json!({ "object": "Cube", "voxel_size": 0.0001 })).error("limit_exceeded"),
        Case::new("a voxel larger than 1 m").args(json!({ "object": "Cube", "voxel_size": 2 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
