use capstan_blender::color::ColorInput;
use capstan_blender::{SetMaterial, SetMaterialParams, set_material as bridge_set};
use capstan_sdk::prelude::*;

/// Starting points for common looks; explicit fields override them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MaterialPreset {
    Chrome,
    BrushedMetal,
    Gold,
    Copper,
    Plastic,
    Rubber,
    Ceramic,
    Matte,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = something_to_set)]
pub struct MaterialArgs {
    /// Exact name of the object that gets the material.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// Material name; defaults to `<object>_material`. An existing one is updated.
    #[schemars(length(min = 1, max = 63))]
    pub material: Option<String>,
    /// A preset look to start from.
    pub preset: Option<MaterialPreset>,
    /// Base colour: hex (`#ff8800`) or name (`red`) in sRGB, or linear [r, g, b(, a)] in 0..1.
    pub color: Option<ColorInput>,
    /// 0 = dielectric, 1 = metal.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub metallic: Option<f64>,
    /// 0 = mirror, 1 = fully diffuse.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub roughness: Option<f64>,
    /// Emission colour (same forms as `color`); makes the object glow.
    pub emission: Option<ColorInput>,
    /// Emission strength; defaults to 1 when `emission` is given.
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub emission_strength: Option<f64>,
}

/// What sets something: at least one is given. `{object}` alone could only fail at run
/// time ("nothing to set"), so the schema says so (the check in `params` stays).
const SETS: [&str; 6] = ["preset", "color", "metallic", "roughness", "emission", "emission_strength"];

fn something_to_set(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &SETS);
}

/// (linear base colour, metallic, roughness) of each preset.
fn preset_values(preset: MaterialPreset) -> ([f64; 4], f64, f64) {
    match preset {
        MaterialPreset::Chrome => ([0.8, 0.8, 0.8, 1.0], 1.0, 0.05),
        MaterialPreset::BrushedMetal => ([0.6, 0.6, 0.6, 1.0], 1.0, 0.35),
        MaterialPreset::Gold => ([1.0, 0.766, 0.336, 1.0], 1.0, 0.2),
        MaterialPreset::Copper => ([0.955, 0.638, 0.538, 1.0], 1.0, 0.25),
        MaterialPreset::Plastic => ([0.8, 0.8, 0.8, 1.0], 0.0, 0.4),
        MaterialPreset::Rubber => ([0.02, 0.02, 0.02, 1.0], 0.0, 0.9),
        MaterialPreset::Ceramic => ([0.9, 0.9, 0.88, 1.0], 0.0, 0.15),
        MaterialPreset::Matte => ([0.8, 0.8, 0.8, 1.0], 0.0, 1.0),
    }
}

pub fn params(a: &MaterialArgs) -> PackResult<SetMaterialParams> {
    let (mut base_color, mut metallic, mut roughness) = (None, None, None);
    if let Some(preset) = a.preset {
        let (c, m, r) = preset_values(preset);
        (base_color, metallic, roughness) = (Some(c), Some(m), Some(r));
    }
    if let Some(c) = &a.color {
        base_color = Some(c.to_linear_rgba()?);
    }
    let emission_color = a.emission.as_ref().map(ColorInput::to_linear_rgba).transpose()?;
    let emission_strength = a.emission_strength.or(emission_color.map(|_| 1.0));
    let p = SetMaterialParams {
        object: a.object.clone(),
        material: Some(a.material.clone().unwrap_or_else(|| format!("{}_material", a.object))),
        base_color,
        metallic: a.metallic.or(metallic),
        roughness: a.roughness.or(roughness),
        emission_color,
        emission_strength,
    };
    if p.base_color.is_none() && p.metallic.is_none() && p.roughness.is_none() && p.emission_color.is_none() && p.emission_strength.is_none() {
        return Err(PackError::invalid("nothing to set: give a preset, color, metallic, roughness or emission (to give the object an existing material as it is, use material.assign)"));
    }
    Ok(p)
}

/// Give an object a material: colour, metal, roughness, emission or a preset like chrome.
///
/// Creates or updates a Principled BSDF material and assigns it to the object's first slot.
/// Colours: hex or name (sRGB), or linear 0..1 channels. Presets (chrome, gold, plastic, ...)
/// set sensible values that explicit fields override.
#[capability(
    key = "scene.set_material",
    family = "material",
    tags = ["material", "color", "colour", "shader", "metal", "chrome", "gold", "roughness", "emission"],
    aliases = ["blender_set_material", "set_material", "apply_material"],
    examples = ["make it look like chrome", "paint the cube red", "make the sphere glow"],
    uses = [SetMaterial],
    cases = cases,
)]
fn set_material(args: MaterialArgs) -> PackResult<Value> {
    Ok(json!(bridge_set(&params(&args)?)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("an sRGB colour over the chrome preset")
            .args(json!({ "object": "Cube", "color": "#808080", "preset": "chrome", "roughness": 0.2 }))
            .changed(&["Cube"]).fields("Cube", &["materials"]).datablocks_added("materials", &["Cube_material"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "material_details": [{
                "name": "Cube_material", "base_color": [0.21586, 0.21586, 0.21586, 1.0], "metallic": 1.0, "roughness": 0.2,
            }] })),
        Case::new("a camera cannot hold a material").args(json!({ "object": "Camera", "color": "red" })).error("invalid_target"),
        Case::new("nothing to set").args(json!({ "object": "Cube" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_fields_override_the_preset_and_emission_defaults_to_one() {
        let a: MaterialArgs = serde_json::from_value(json!({"object": "Cube", "preset": "chrome", "roughness": 0.3})).unwrap();
        let p = params(&a).unwrap();
        assert_eq!((p.metallic, p.roughness, p.material.as_deref()), (Some(1.0), Some(0.3), Some("Cube_material")));
        let a: MaterialArgs = serde_json::from_value(json!({"object": "Lamp", "emission": "white"})).unwrap();
        let p = params(&a).unwrap();
        assert_eq!((p.emission_color, p.emission_strength), (Some([1.0, 1.0, 1.0, 1.0]), Some(1.0)));
    }
}
