use capstan_blender::color::ColorInput;
use capstan_blender::{SetWorld, SetWorldParams, SetWorldParamsSky, set_world};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkyArgs {
    /// Sun height above the horizon in degrees (default Blender's).
    #[schemars(range(min = -90.0, max = 90.0))]
    pub sun_elevation_degrees: Option<f64>,
    /// Sun direction around the vertical axis in degrees.
    #[schemars(range(min = -360.0, max = 360.0))]
    pub sun_rotation_degrees: Option<f64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = something_to_set)]
pub struct WorldArgs {
    /// Flat background colour (hex or name in sRGB, or linear channels).
    pub color: Option<ColorInput>,
    /// Background strength (1 = as is).
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub strength: Option<f64>,
    /// A procedural sky instead of a flat colour.
    pub sky: Option<SkyArgs>,
}

pub fn params(args: &WorldArgs) -> PackResult<SetWorldParams> {
    if args.color.is_some() && args.sky.is_some() {
        return Err(PackError::invalid("give either color or sky, not both"));
    }
    if args.color.is_none() && args.sky.is_none() && args.strength.is_none() {
        return Err(PackError::invalid("nothing to set: give color, strength or sky"));
    }
    let color = args.color.as_ref().map(|c| c.to_linear_rgba().map(|rgba| rgba[..3].to_vec())).transpose()?;
    Ok(SetWorldParams {
        color,
        strength: args.strength,
        sky: args.sky.as_ref().map(|s| SetWorldParamsSky {
            sun_elevation: s.sun_elevation_degrees.map(f64::to_radians),
            sun_rotation: s.sun_rotation_degrees.map(f64::to_radians),
        }),
    })
}

/// Set the world background: a colour with strength, or a procedural sky.
///
/// Changes the world shader: flat background colour (hex/name/linear) and strength, or a sky
/// with sun elevation and rotation in degrees.
#[capability(
    key = "scene.world",
    family = "world",
    tags = ["world", "background", "sky", "environment", "hdri", "ambient"],
    aliases = ["blender_set_world", "set_world", "set_background"],
    examples = ["hdri background", "make the background white", "add a sky", "dark background"],
    uses = [SetWorld],
    cases = cases,
)]
fn world(args: WorldArgs) -> PackResult<Value> {
    Ok(json!(set_world(&params(&args)?)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a white background").args(json!({ "color": "white", "strength": 0.25 }))
            .settings(&["world"]).added(&[]).result(json!({ "mode": "color", "color": [1.0, 1.0, 1.0], "strength": 0.25 })),
        Case::new("a sky").args(json!({ "sky": { "sun_elevation_degrees": 20 }, "strength": 1 }))
            .settings(&["world"]).result(json!({ "mode": "sky" })),
        Case::new("colour and sky at once").args(json!({ "color": "red", "sky": {} })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

/// At least one of these is given: a call with none could only be refused at run time,
/// so the schema says so (the check before the bridge call stays).
fn something_to_set(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &["color", "strength", "sky"]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_become_linear_and_degrees_radians() {
        let a: WorldArgs = serde_json::from_value(json!({ "color": "white", "strength": 0.5 })).unwrap();
        assert_eq!(serde_json::to_value(params(&a).unwrap()).unwrap(), json!({ "color": [1.0, 1.0, 1.0], "strength": 0.5 }));
        let a: WorldArgs = serde_json::from_value(json!({ "sky": { "sun_elevation_degrees": 90 } })).unwrap();
        let p = params(&a).unwrap();
        assert!((p.sky.unwrap().sun_elevation.unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    }
}
