use crate::lighting::{self, LightingPreset};
use capstan_blender::target::Target;
use capstan_blender::{CreateLight, CreateLightParams, CreateLightParamsType, GetObjectInfo, create_light};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LightingArgs {
    /// The rig to build.
    pub preset: LightingPreset,
    /// What the lights aim at: an object name or a point; default the origin.
    pub target: Option<Target>,
    /// Rig distance from the target in metres (default 5).
    #[schemars(range(min = 0.1, max = 1000.0))]
    pub distance: Option<f64>,
    /// Brightness multiplier (default 1).
    #[schemars(range(min = 0.01, max = 100.0))]
    pub intensity: Option<f64>,
}

/// Light the scene with a rig: three-point, studio soft boxes, or rim lights.
///
/// Adds area lights placed around a target (object or point) and aimed at it; energy scales
/// with the square of the distance, so a rig looks the same at any size.
#[capability(
    key = "scene.lighting_preset",
    family = "lighting",
    tags = ["light", "lights", "lighting", "three point", "studio", "softbox", "rim", "key light"],
    aliases = ["blender_lighting_preset", "lighting_preset", "setup_lighting"],
    examples = ["three point lights", "studio lighting", "light the product", "add soft box lights"],
    uses = [CreateLight, GetObjectInfo],
    cases = cases,
)]
fn lighting_preset(args: LightingArgs) -> PackResult<Value> {
    let target = match &args.target {
        Some(t) => t.resolve()?,
        None => [0.0; 3],
    };
    let distance = args.distance.unwrap_or(5.0);
    let intensity = args.intensity.unwrap_or(1.0);
    let mut lights = Vec::new();
    for light in lighting::rig(args.preset) {
        let created = create_light(&CreateLightParams {
            r#type: CreateLightParamsType::Area,
            name: Some(light.name.to_string()),
            location: lighting::position(&light, target, distance),
            look_at: Some(target),
            energy: Some(lighting::energy(&light, distance, intensity)),
            size: Some(light.size),
            rotation: None,
            color: None,
            spot_size: None, shape: None, size_y: None,
        })?;
        lights.push(json!({ "name": created.name, "location": created.location, "energy": created.energy }));
    }
    Ok(json!({ "preset": args.preset, "target": target, "lights": lights }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("three-point around an object")
            .setup("scene.create_object", json!({ "type": "monkey", "name": "Hero", "location": [2, 0, 1] }))
            .args(json!({ "preset": "three_point", "target": "Hero", "distance": 6 }))
            .added(&["Fill Light", "Key Light", "Rim Light"]).changed(&[])
            .result(json!({ "target": [2.0, 0.0, 1.0], "lights": [
                { "name": "Key Light", "location": [5.4754, -3.4754, 4.4415], "energy": 1440.0 }, { "name": "Fill Light" }, { "name": "Rim Light" },
            ] }))
            .reads("scene.object_info", json!({ "name": "Key Light" }), json!({ "type": "LIGHT", "light": { "type": "AREA" } })),
        Case::new("studio at the origin").args(json!({ "preset": "studio" }))
            .added(&["Softbox Left", "Softbox Right", "Top Light"]),
        Case::new("a missing target object").args(json!({ "preset": "rim", "target": "Ghost" })).error("not_found"),
    ]
}
