use capstan_blender::{SetWorldSky, SetWorldSkyParams, SetWorldSkyParamsSkyType as SkyType, set_world_sky};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkyArgs {
    /// NISHITA (physical; Blender 5 calls it multiple scattering), HOSEK_WILKIE or PREETHAM.
    pub sky_type: Option<SkyType>,
    /// Sun height above the horizon in degrees (default 15).
    #[schemars(range(min = -10.0, max = 90.0))]
    pub sun_elevation: Option<f64>,
    /// Sun direction about the vertical axis in degrees.
    #[schemars(range(min = 0.0, max = 360.0))]
    pub sun_rotation: Option<f64>,
    /// Viewer altitude in metres (physical sky).
    #[schemars(range(min = 0.0, max = 60000.0))]
    pub altitude: Option<f64>,
    /// Air density (physical sky).
    #[schemars(range(min = 0.0, max = 10.0))]
    pub air: Option<f64>,
    /// Dust (aerosol) density (physical sky).
    #[schemars(range(min = 0.0, max = 10.0))]
    pub dust: Option<f64>,
    /// Ozone density (physical sky).
    #[schemars(range(min = 0.0, max = 10.0))]
    pub ozone: Option<f64>,
    /// Background strength (default 1).
    #[schemars(range(min = 0.0, max = 100.0))]
    pub strength: Option<f64>,
}

/// A physical sky as the world: sun elevation and direction, altitude, air, dust and ozone.
///
/// Replaces the world's shader with a sky texture: the physical model (Nishita; multiple
/// scattering in Blender 5) or the analytic Hosek-Wilkie and Preetham models. Angles in degrees.
#[capability(
    key = "world.sky",
    family = "world",
    tags = ["world", "sky", "sun", "daylight", "nishita", "atmosphere", "outdoor"],
    aliases = ["set_world_sky", "sky_texture", "physical_sky"],
    examples = ["a clear sky with the sun low on the horizon", "midday sky", "a hazy sky at sunset"],
    uses = [SetWorldSky],
    cases = cases,
)]
fn sky(args: SkyArgs) -> PackResult<Value> {
    Ok(json!(set_world_sky(&SetWorldSkyParams {
        sky_type: args.sky_type,
        sun_elevation: args.sun_elevation.map(f64::to_radians),
        sun_rotation: args.sun_rotation.map(f64::to_radians),
        altitude: args.altitude,
        air: args.air,
        dust: args.dust,
        ozone: args.ozone,
        strength: args.strength,
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a low sun in a physical sky")
            .args(json!({ "sun_elevation": 5, "sun_rotation": 120, "altitude": 500, "dust": 2, "strength": 0.8 }))
            .settings(&["world"]).added(&[]).changed(&[])
            .result(json!({ "mode": "sky", "strength": 0.8, "nodes": ["ShaderNodeBackground", "ShaderNodeOutputWorld", "ShaderNodeTexSky"] })),
        Case::new("an analytic sky")
            .args(json!({ "sky_type": "HOSEK_WILKIE", "sun_elevation": 60 }))
            .settings(&["world"]).result(json!({ "sky_type": "HOSEK_WILKIE" })),
        Case::new("altitude belongs to the physical sky").args(json!({ "sky_type": "PREETHAM", "altitude": 100 })).error("invalid_params"),
        Case::new("the sun below -10 degrees").args(json!({ "sun_elevation": -20 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
