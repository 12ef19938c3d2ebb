use crate::capabilities::light_add::{LightType, bridge_size};
use capstan_blender::color::ColorInput;
use capstan_blender::{SetLight, SetLightParams, SetLightParamsType, set_light};
use capstan_sdk::prelude::*;

/// At least one setting to change, said in the schema.
fn something_to_set(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &["type", "energy", "color", "size", "spot_size", "spot_blend", "shadow"]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = something_to_set)]
pub struct LightSetArgs {
    /// Exact name of the light to change.
    #[schemars(length(min = 1, max = 63))]
    pub name: String,
    /// Change the light's type.
    #[serde(rename = "type")]
    pub kind: Option<LightType>,
    /// Power in watts (sun: irradiance in W/m2).
    #[schemars(range(min = 0.0, max = 1000000.0))]
    pub energy: Option<f64>,
    /// Light colour (hex or name in sRGB, or linear channels).
    pub color: Option<ColorInput>,
    /// Area: edge in metres; point/spot: radius in metres; sun: angular diameter in degrees.
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub size: Option<f64>,
    /// Spot cone angle in degrees.
    #[schemars(range(min = 1.0, max = 180.0))]
    pub spot_size: Option<f64>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub spot_blend: Option<f64>,
    pub shadow: Option<bool>,
}

/// Change an existing light: power, colour, size, spot cone, shadows or type.
///
/// Edits the named light in place; only the fields given change. Angles in degrees.
#[capability(
    key = "lighting.set",
    family = "lighting",
    tags = ["light", "lamp", "energy", "power", "brightness", "colour", "spot", "shadow"],
    aliases = ["set_light", "edit_light", "light_settings"],
    examples = ["make the key light brighter", "turn the light warm orange", "widen the spot cone to 60 degrees", "turn off the light's shadows"],
    uses = [SetLight],
    cases = cases,
)]
fn light_set(args: LightSetArgs) -> PackResult<Value> {
    let kind = args.kind.map(|k| match k {
        LightType::Point => SetLightParamsType::Point,
        LightType::Sun => SetLightParamsType::Sun,
        LightType::Spot => SetLightParamsType::Spot,
        LightType::Area => SetLightParamsType::Area,
    });
    let size = match (args.kind, args.size) {
        (Some(k), s) => bridge_size(k, s)?,
        // Without a type change the light's own type decides: the bridge refuses a sun
        // size past pi, so an unknown type passes metres through.
        (None, s) => s,
    };
    let p = SetLightParams {
        name: args.name.clone(),
        r#type: kind,
        energy: args.energy,
        color: args.color.as_ref().map(|c| c.to_linear_rgba().map(|v| v[..3].to_vec())).transpose()?,
        size,
        spot_size: args.spot_size.map(f64::to_radians),
        spot_blend: args.spot_blend,
        shadow: args.shadow,
    };
    let nothing = p.r#type.is_none() && p.energy.is_none() && p.color.is_none() && p.size.is_none() && p.spot_size.is_none()
        && p.spot_blend.is_none() && p.shadow.is_none();
    if nothing {
        return Err(PackError::invalid("nothing to set: give energy, color, size, spot_size, spot_blend, shadow or type"));
    }
    Ok(json!(set_light(&p)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("the factory light brighter and warmer")
            .args(json!({ "name": "Light", "energy": 2500, "color": [1.0, 0.6, 0.3] }))
            .changed(&["Light"]).fields("Light", &["data"]).added(&[]).settings(&[])
            .result(json!({ "type": "POINT", "energy": 2500.0, "color": [1.0, 0.6, 0.3] }))
            .reads("scene.object_info", json!({ "name": "Light" }), json!({ "light": { "type": "POINT", "energy": 2500.0, "color": [1.0, 0.6, 0.3] } })),
        Case::new("the point light becomes a spot with a cone")
            .args(json!({ "name": "Light", "type": "SPOT", "spot_size": 60, "spot_blend": 0.5 }))
            .changed(&["Light"]).result(json!({ "type": "SPOT", "spot_size": std::f64::consts::FRAC_PI_3, "spot_blend": 0.5 })),
        Case::new("a point light has no cone").args(json!({ "name": "Light", "spot_size": 30 })).error("invalid_params"),
        Case::new("a mesh is not a light").args(json!({ "name": "Cube", "energy": 10 })).error("invalid_target"),
        Case::new("nothing to set").args(json!({ "name": "Light" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
