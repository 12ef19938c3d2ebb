use capstan_blender::color::ColorInput;
use capstan_blender::target::Target;
use capstan_blender::{
    CreateLight, CreateLightParams, CreateLightParamsType, GetObjectInfo, SetLight, SetLightParams, create_light, set_light,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum LightType {
    Point,
    Sun,
    Spot,
    Area,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LightAddArgs {
    #[serde(rename = "type")]
    pub kind: LightType,
    /// Name of the new light (Blender picks a free one when taken).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// Position [x, y, z] in metres (default [0, 0, 3]).
    pub location: Option<[f64; 3]>,
    /// Rotation [x, y, z] in degrees, when not aiming with look_at.
    pub rotation: Option<[f64; 3]>,
    /// Aim at an object (by name) or a point.
    pub look_at: Option<Target>,
    /// Power in watts (sun: irradiance in W/m2).
    #[schemars(range(min = 0.0, max = 1000000.0))]
    pub energy: Option<f64>,
    /// Light colour (hex or name in sRGB, or linear channels).
    pub color: Option<ColorInput>,
    /// Area: edge length in metres; point/spot: radius in metres; sun: angular diameter in degrees.
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub size: Option<f64>,
    /// Spot cone angle in degrees.
    #[schemars(range(min = 1.0, max = 180.0))]
    pub spot_size: Option<f64>,
    /// Spot edge softness 0..1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub spot_blend: Option<f64>,
    /// Cast shadows (default true).
    pub shadow: Option<bool>,
}

pub fn bridge_size(kind: LightType, size: Option<f64>) -> PackResult<Option<f64>> {
    match (kind, size) {
        (LightType::Sun, Some(deg)) if deg > 180.0 => Err(PackError::invalid("a sun's size is its angle in degrees, at most 180")),
        (LightType::Sun, Some(deg)) => Ok(Some(deg.to_radians())),
        (_, s) => Ok(s),
    }
}

/// Add one light: point, sun, spot or area, placed, aimed and sized.
///
/// Creates a light with its position, aim (an object or point) or rotation in degrees,
/// power in watts, colour, size, spot cone and blend, and shadow switch.
#[capability(
    key = "lighting.add",
    family = "lighting",
    tags = ["light", "lamp", "add light", "point", "sun", "spot", "area", "softbox"],
    aliases = ["add_light", "create_light", "new_light"],
    examples = ["add a spot light above the table", "put an area light left of the model pointing at it", "add a warm point light"],
    uses = [CreateLight, SetLight, GetObjectInfo],
    cases = cases,
)]
fn light_add(args: LightAddArgs) -> PackResult<Value> {
    if (args.spot_size.is_some() || args.spot_blend.is_some()) && args.kind != LightType::Spot {
        return Err(PackError::invalid("spot_size and spot_blend are for SPOT lights"));
    }
    if args.look_at.is_some() && args.rotation.is_some() {
        return Err(PackError::invalid("give look_at or rotation, not both"));
    }
    let kind = match args.kind {
        LightType::Point => CreateLightParamsType::Point,
        LightType::Sun => CreateLightParamsType::Sun,
        LightType::Spot => CreateLightParamsType::Spot,
        LightType::Area => CreateLightParamsType::Area,
    };
    let color = args.color.as_ref().map(|c| c.to_linear_rgba().map(|v| v[..3].to_vec())).transpose()?;
    let created = create_light(&CreateLightParams {
        r#type: kind,
        name: args.name.clone(),
        location: args.location.unwrap_or([0.0, 0.0, 3.0]),
        rotation: args.rotation.map(|r| r.map(f64::to_radians)),
        look_at: args.look_at.as_ref().map(Target::resolve).transpose()?,
        energy: args.energy,
        color,
        size: bridge_size(args.kind, args.size)?,
        spot_size: args.spot_size.map(f64::to_radians),
    })?;
    let mut out = json!(created);
    if args.spot_blend.is_some() || args.shadow.is_some() {
        let set = set_light(&SetLightParams {
            name: created.name.clone(), r#type: None, energy: None, color: None, size: None, spot_size: None,
            spot_blend: args.spot_blend, shadow: args.shadow,
        })?;
        out["spot_blend"] = json!(set.spot_blend);
        out["shadow"] = json!(set.shadow);
    }
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a soft spot aimed at the cube")
            .args(json!({ "type": "SPOT", "name": "Key", "location": [3, -3, 4], "look_at": "Cube", "energy": 800, "spot_size": 45, "spot_blend": 0.3, "shadow": true }))
            .added(&["Key"]).changed(&[]).settings(&[])
            .result(json!({ "name": "Key", "type": "SPOT", "energy": 800.0, "spot_blend": 0.3, "shadow": true }))
            .reads("scene.object_info", json!({ "name": "Key" }), json!({ "location": [3.0, -3.0, 4.0], "light": { "type": "SPOT", "energy": 800.0 } })),
        Case::new("a sun with a 2 degree disc")
            .args(json!({ "type": "SUN", "name": "Sun", "rotation": [45, 0, 30], "energy": 3, "size": 2, "color": "#fff4e0" }))
            .added(&["Sun"]).result(json!({ "type": "SUN", "rotation": [std::f64::consts::FRAC_PI_4, 0.0, std::f64::consts::FRAC_PI_6] })),
        Case::new("a point light has no cone").args(json!({ "type": "POINT", "spot_size": 30 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("aim at a missing object").args(json!({ "type": "AREA", "look_at": "Ghost" })).error("not_found"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sun_size_is_degrees_others_metres() {
        assert!((bridge_size(LightType::Sun, Some(180.0)).unwrap().unwrap() - std::f64::consts::PI).abs() < 1e-12);
        assert_eq!(bridge_size(LightType::Area, Some(2.0)).unwrap(), Some(2.0));
        assert!(bridge_size(LightType::Sun, Some(200.0)).is_err());
    }
}
