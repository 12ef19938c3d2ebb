use capstan_blender::{UvUnwrap, UvUnwrapParams, UvUnwrapParamsMethod as Method, uv_unwrap};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnwrapArgs {
    /// The mesh to unwrap.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// How (default smart_project). angle_based and conformal follow the seams; the
    /// cylinder and sphere projections use the object's own axes (no view exists).
    pub method: Option<Method>,
    /// smart_project: the angle in degrees above which faces are split (default 66).
    #[schemars(range(min = 1.0, max = 89.0))]
    pub angle_limit: Option<f64>,
    /// Space between islands, 0..1 of the UV square (default 0.02).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub island_margin: Option<f64>,
    /// UV map to write (created when missing; default the active one).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub uv_map: Option<String>,
}

/// Unwrap or project a mesh's UVs: smart project, angle based, conformal, lightmap, cube, cylinder, sphere.
///
/// Writes the UV map (creating it when missing) with the chosen method, and answers the
/// UV bounds and the number of islands. The previous UVs of that map are replaced.
#[capability(
    key = "uv.unwrap",
    family = "uv",
    tags = ["uv", "unwrap", "projection", "smart project", "lightmap", "texture coordinates"],
    aliases = ["uv_unwrap", "unwrap", "smart_uv_project", "uv_manage"],
    examples = ["unwrap the statue", "smart uv project the crate with a 45 degree limit", "cube project the box", "make a lightmap uv"],
    uses = [UvUnwrap],
    cases = cases,
)]
fn unwrap(args: UnwrapArgs) -> PackResult<Value> {
    Ok(json!(uv_unwrap(&UvUnwrapParams {
        object: args.object.clone(),
        method: args.method.unwrap_or(Method::SmartProject),
        angle_limit: args.angle_limit.map(f64::to_radians),
        island_margin: args.island_margin,
        uv_map: args.uv_map.clone(),
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the cube smart-projected into six islands")
            .args(json!({ "object": "Cube", "angle_limit": 45 }))
            .changed(&["Cube"]).fields("Cube", &["data"]).added(&[]).settings(&[])
            .result(json!({ "uv_map": "UVMap", "islands": 6, "method": "smart_project" })),
        Case::new("a new lightmap layer")
            .args(json!({ "object": "Cube", "method": "lightmap_pack", "uv_map": "Lightmap" }))
            .changed(&["Cube"]).fields("Cube", &["data"]).result(json!({ "uv_map": "Lightmap", "method": "lightmap_pack" })),
        Case::new("a camera has no UVs").args(json!({ "object": "Camera" })).error("invalid_target"),
        Case::new("the angle is bounded").args(json!({ "object": "Cube", "angle_limit": 120 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
