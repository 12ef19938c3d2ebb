use capstan_blender::{CreateTerrain, CreateTerrainParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Generate a noise terrain: a square grid displaced by seeded fractal noise.
///
/// `size` is the edge length in metres, `subdivisions` the grid cuts per side (1..512),
/// `height` the exact span from the lowest to the highest point, `noise_scale` the size of
/// the features in metres (default size / 4), `detail` extra octaves (0..15), `seed` makes
/// it reproducible. The heights are baked into the mesh.
#[capability(
    key = "generation.terrain",
    family = "generation",
    tags = ["terrain", "landscape", "ground", "hills", "mountains", "heightfield", "noise", "procedural"],
    aliases = ["create_terrain", "terrain", "generate_terrain", "landscape"],
    examples = ["generate a hilly terrain 50 metres wide", "make a landscape with 5 metre high mountains", "add a procedural ground with seed 3"],
    uses = [CreateTerrain],
    cases = cases,
)]
fn terrain(args: CreateTerrainParams) -> PackResult<impl Serialize> {
    Ok(forward::<CreateTerrain>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a 20 m terrain spans exactly its height")
            .args(json!({ "name": "Hills", "size": 20, "subdivisions": 32, "height": 3, "seed": 5 }))
            .added(&["Hills"]).changed(&[]).removed(&[])
            .result(json!({ "name": "Hills", "mesh": { "vertices": 1089, "faces": 1024 }, "z_min": 0.0, "z_max": 3.0, "seed": 5 }))
            .reads("scene.object_info", json!({ "name": "Hills" }), json!({ "dimensions": [20.0, 20.0, 3.0] })),
        Case::new("the same seed gives the same terrain")
            .setup("generation.terrain", json!({ "name": "A", "subdivisions": 16, "seed": 9 }))
            .args(json!({ "name": "B", "subdivisions": 16, "seed": 9 }))
            .added(&["B"]).result(json!({ "z_min": 0.0, "z_max": 2.0 })),
        Case::new("subdivisions are capped").args(json!({ "subdivisions": 1024 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
