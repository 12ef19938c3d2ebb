use capstan_blender::{MeshFilter, MeshFilterParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Deform a whole mesh deterministically: smooth, inflate, flatten or randomize.
///
/// Stands in for sculpt brushes (which need a view). `strength` 0..1; inflate and randomize
/// move vertices along their normals by up to strength x the mean edge length per
/// iteration; flatten pulls toward the best-fit plane; smooth averages neighbours.
/// `iterations` 1..50; `seed` makes randomize reproducible.
#[capability(
    key = "mutate.sculpt_filter",
    family = "mutate",
    tags = ["sculpt", "smooth", "inflate", "flatten", "randomize", "noise", "relax", "mesh filter", "deform"],
    aliases = ["mesh_filter", "sculpt_auto", "model.sculpt", "sculpt"],
    examples = ["smooth the whole mesh", "inflate the sphere a little", "flatten the rock", "roughen the surface randomly"],
    uses = [MeshFilter],
    cases = cases,
)]
fn sculpt_filter(args: MeshFilterParams) -> PackResult<impl Serialize> {
    Ok(forward::<MeshFilter>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("flatten at full strength squashes the sphere to a disc")
            .setup("scene.create_object", json!({ "type": "ico_sphere", "name": "Rock" }))
            .args(json!({ "object": "Rock", "filter": "flatten", "strength": 1 }))
            .changed(&["Rock"]).fields("Rock", &["data"]).added(&[])
            .result(json!({ "filter": "flatten", "iterations": 1, "vertices": 42, "max_displacement": 1.0, "mean_displacement": 0.486897 })),
        Case::new("randomize is seeded")
            .setup("scene.create_object", json!({ "type": "ico_sphere", "name": "Rock" }))
            .args(json!({ "object": "Rock", "filter": "randomize", "strength": 0.5, "seed": 4 }))
            .changed(&["Rock"]).result(json!({ "filter": "randomize", "vertices": 42, "mean_displacement": 0.134823, "max_displacement": 0.281914 })),
        Case::new("a seed for smoothing is refused")
            .args(json!({ "object": "Cube", "filter": "smooth", "strength": 0.5, "seed": 1 })).error("invalid_params"),
        Case::new("strength above 1").args(json!({ "object": "Cube", "filter": "smooth", "strength": 2 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
