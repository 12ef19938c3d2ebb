use capstan_blender::{Cleanup, CleanupParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Clean up meshes and the file: merge by distance, purge unused data, shading, normals.
///
/// merge_by_distance welds vertices closer than `threshold` metres (default 0.0001);
/// purge_orphans deletes datablocks nothing uses (meshes, materials, images, node groups, ...)
/// and takes no object; shade_smooth, shade_flat and shade_auto_smooth (sharp above `angle`
/// degrees, default 30) set shading; recalc_normals points faces outward.
#[capability(
    key = "mutate.cleanup",
    family = "mutate",
    tags = ["cleanup", "merge by distance", "remove doubles", "weld", "purge", "orphans", "shade smooth", "shade flat", "auto smooth", "normals"],
    aliases = ["cleanup", "scene.cleanup", "mesh_merge_by_distance", "remove_doubles", "purge_orphans", "shade_smooth", "recalculate_normals"],
    examples = ["merge by distance on the scan", "remove doubles", "purge unused data", "shade the model smooth", "fix the normals"],
    uses = [Cleanup],
    cases = cases,
)]
fn cleanup(args: CleanupParams) -> PackResult<impl Serialize> {
    Ok(forward::<Cleanup>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("merge by distance halves a doubled mesh")
            .setup("create.mesh", json!({ "name": "Scan", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 0], [1, 0, 0], [0, 1, 0]], "faces": [[0, 1, 2], [3, 4, 5]] }))
            .args(json!({ "action": "merge_by_distance", "object": "Scan" }))
            .changed(&["Scan"]).fields("Scan", &["data"]).added(&[]).removed(&[])
            .result(json!({ "before": { "vertices": 6 }, "after": { "vertices": 3 }, "removed_vertices": 3 }))
            .reads("scene.object_info", json!({ "name": "Scan" }), json!({ "mesh": { "vertices": 3 } })),
        Case::new("shade smooth").args(json!({ "action": "shade_smooth", "object": "Cube" })).changed(&["Cube"]).fields("Cube", &["data"]),
        Case::new("purging the factory scene removes nothing it uses")
            .args(json!({ "action": "purge_orphans" })).changed(&[]).removed(&[]).added(&[])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "materials": ["Material"] })),
        Case::new("merge needs an object").args(json!({ "action": "merge_by_distance" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a camera is not a mesh").args(json!({ "action": "shade_flat", "object": "Camera" })).error("invalid_target"),
    ]
}
