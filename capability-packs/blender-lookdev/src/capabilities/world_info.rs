use capstan_blender::{GetWorldInfo, GetWorldInfoParams, get_world_info};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorldInfoArgs {}

/// The world as it looks: a flat colour, a vertical gradient, a sky or an HDRI, with its values.
///
/// Reads the node feeding the world's background: the colour (linear RGB), a gradient's
/// bottom and top colours, a sky's type and sun angles in degrees, an HDRI's file name,
/// and the strength. Changes nothing.
#[capability(
    key = "world.info",
    family = "world",
    tags = ["world", "background", "environment", "sky", "hdri", "gradient", "inspect"],
    aliases = ["get_world_info", "world_info", "get_world", "world_settings"],
    examples = ["what does the background look like", "which hdri is the world using", "how high is the sun in the sky"],
    uses = [GetWorldInfo],
    cases = cases,
)]
fn info(_args: WorldInfoArgs) -> PackResult<Value> {
    Ok(json!(get_world_info(&GetWorldInfoParams {})?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory world is a flat grey")
            .args(json!({}))
            .result(json!({ "world": "World", "mode": "color", "gradient": null, "sky": null, "hdri": null })),
        Case::new("a gradient reads back its colours")
            .setup("world.gradient", json!({ "top": [1.0, 1.0, 1.0], "bottom": [0.2, 0.2, 0.2], "strength": 0.5 }))
            .args(json!({}))
            .result(json!({ "mode": "gradient", "strength": 0.5, "gradient": { "bottom": [0.2, 0.2, 0.2], "top": [1.0, 1.0, 1.0] } })),
        Case::new("a sky reads back its sun in degrees")
            .setup("world.sky", json!({ "sun_elevation": 10, "sun_rotation": 90 }))
            .args(json!({}))
            .result(json!({ "mode": "sky", "sky": { "sun_elevation_degrees": 10.0, "sun_rotation_degrees": 90.0 } })),
        Case::new("a flat colour reads back its value")
            .setup("scene.world", json!({ "color": [0.1, 0.3, 0.6], "strength": 2 }))
            .args(json!({}))
            .result(json!({ "mode": "color", "color": [0.1, 0.3, 0.6], "strength": 2.0 })),
        Case::new("no arguments are taken").args(json!({ "world": "Other" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
