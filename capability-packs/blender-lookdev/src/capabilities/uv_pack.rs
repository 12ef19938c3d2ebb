use capstan_blender::{UvPack, UvPackParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Pack a mesh's UV islands into the unit square with a margin.
///
/// Rearranges (and by default rotates) the islands of the UV map (default the active
/// one) to fill the 0..1 square, `margin` apart.
#[capability(
    key = "uv.pack",
    family = "uv",
    tags = ["uv", "pack", "islands", "margin", "layout"],
    aliases = ["uv_pack", "pack_islands", "uv_pack_islands"],
    examples = ["pack the uv islands", "pack the uvs with a bigger margin without rotating"],
    uses = [UvPack],
    cases = cases,
)]
fn pack(args: UvPackParams) -> PackResult<impl Serialize> {
    Ok(forward::<UvPack>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the cube's islands packed")
            .setup("uv.unwrap", json!({ "object": "Cube" }))
            .args(json!({ "object": "Cube", "margin": 0.02, "rotate": false }))
            .changed(&["Cube"]).fields("Cube", &["data"]).added(&[]).settings(&[])
            .result(json!({ "islands": 6, "method": "pack" })),
        Case::new("a missing UV map").args(json!({ "object": "Cube", "uv_map": "Nope" })).error("not_found"),
        Case::new("a light has no UVs").args(json!({ "object": "Light" })).error("invalid_target"),
    ]
}
