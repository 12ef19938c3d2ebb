use capstan_blender::color::ColorInput;
use capstan_blender::{
    AssignMaterial, AssignMaterialParams, BuildNodeMaterial, BuildNodeMaterialParams, BuildNodeMaterialParamsPreset as Preset,
    GetObjectInfo, GetObjectInfoParams, assign_material, build_node_material, get_object_info,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProceduralArgs {
    /// Object that gets the material in its first slot (optional: the material is built either way).
    #[schemars(length(min = 1, max = 63))]
    pub object: Option<String>,
    /// The look to build (default marble).
    pub preset: Option<Preset>,
    /// Material name; default `<object>_<preset>` or `<preset>`. An existing one is rebuilt.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// Main colour (hex or name in sRGB, or linear channels).
    pub color1: Option<ColorInput>,
    /// Second colour of the pattern (veins, grain, weave, flame).
    pub color2: Option<ColorInput>,
    /// Pattern scale: repeats per metre.
    #[schemars(range(min = 0.001, max = 1000.0))]
    pub scale: Option<f64>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub roughness: Option<f64>,
    /// Index of refraction (glass).
    #[schemars(range(min = 1.0, max = 3.0))]
    pub ior: Option<f64>,
    /// Volume density (fog, fire).
    #[schemars(range(min = 0.0, max = 100.0))]
    pub density: Option<f64>,
    /// Glow strength (emissive, fire).
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub emission_strength: Option<f64>,
}

/// (color1, color2, scale, roughness, ior, density, emission_strength) of each preset.
fn defaults(p: Preset) -> ([f64; 4], [f64; 4], f64, f64, f64, f64, f64) {
    match p {
        Preset::Marble => ([0.9, 0.9, 0.88, 1.0], [0.12, 0.12, 0.14, 1.0], 2.0, 0.15, 1.5, 0.0, 0.0),
        Preset::Wood => ([0.45, 0.25, 0.1, 1.0], [0.18, 0.08, 0.03, 1.0], 3.0, 0.5, 1.5, 0.0, 0.0),
        Preset::Metal => ([0.8, 0.8, 0.8, 1.0], [0.8, 0.8, 0.8, 1.0], 8.0, 0.3, 1.5, 0.0, 0.0),
        Preset::Glass => ([1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], 1.0, 0.0, 1.45, 0.0, 0.0),
        Preset::Emissive => ([1.0, 0.8, 0.5, 1.0], [1.0, 0.8, 0.5, 1.0], 1.0, 0.5, 1.5, 0.0, 5.0),
        Preset::Concrete => ([0.5, 0.5, 0.48, 1.0], [0.3, 0.3, 0.29, 1.0], 6.0, 0.9, 1.5, 0.0, 0.0),
        Preset::Fabric => ([0.2, 0.25, 0.5, 1.0], [0.14, 0.17, 0.38, 1.0], 1.0, 0.8, 1.5, 0.0, 0.0),
        Preset::VolumeFog => ([0.8, 0.8, 0.85, 1.0], [0.8, 0.8, 0.85, 1.0], 1.0, 0.5, 1.5, 0.1, 0.0),
        Preset::VolumeFire => ([1.0, 0.4, 0.05, 1.0], [1.0, 0.5, 0.1, 1.0], 1.0, 0.5, 1.5, 0.5, 5.0),
    }
}

fn preset_name(p: Preset) -> String {
    serde_json::to_value(p).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

pub fn params(a: &ProceduralArgs) -> PackResult<BuildNodeMaterialParams> {
    let preset = a.preset.unwrap_or(Preset::Marble);
    let (c1, c2, scale, roughness, ior, density, emission) = defaults(preset);
    let name = match (&a.name, &a.object) {
        (Some(n), _) => n.clone(),
        (None, Some(o)) => format!("{o}_{}", preset_name(preset)),
        (None, None) => preset_name(preset),
    };
    if name.len() > 63 {
        return Err(PackError::invalid("the material name would pass 63 characters; give `name`"));
    }
    Ok(BuildNodeMaterialParams {
        name,
        preset,
        color1: a.color1.as_ref().map(ColorInput::to_linear_rgba).transpose()?.unwrap_or(c1),
        color2: a.color2.as_ref().map(ColorInput::to_linear_rgba).transpose()?.unwrap_or(c2),
        scale: a.scale.unwrap_or(scale),
        roughness: a.roughness.unwrap_or(roughness),
        ior: a.ior.unwrap_or(ior),
        density: a.density.unwrap_or(density),
        emission_strength: a.emission_strength.unwrap_or(emission),
    })
}

/// Build a node material from a preset: marble, wood, metal, glass, emissive, concrete, fabric, fog or fire.
///
/// Builds (or rebuilds, when the name exists) a node-based material from a preset with its
/// colours, pattern scale, roughness, IOR, volume density and emission strength, and
/// optionally puts it in an object's first material slot.
#[capability(
    key = "material.procedural",
    family = "material",
    tags = ["material", "procedural", "node", "marble", "wood", "metal", "glass", "emissive", "concrete", "fabric", "fog", "fire", "volume"],
    aliases = ["procedural_material", "build_node_material", "material_preset", "create_material"],
    examples = ["make the floor marble", "give the table a wood material", "a glass material for the vase", "fill the box with fog"],
    uses = [BuildNodeMaterial, AssignMaterial, GetObjectInfo],
    cases = cases,
)]
fn procedural(args: ProceduralArgs) -> PackResult<Value> {
    let p = params(&args)?;
    if let Some(object) = &args.object {
        // Refuse a wrong object before building anything.
        let info = get_object_info(&GetObjectInfoParams { name: object.clone() })?;
        if !matches!(info.r#type.as_str(), "MESH" | "CURVE" | "SURFACE" | "FONT" | "META") {
            return Err(PackError::invalid(format!("object {object:?} is a {} and cannot hold materials", info.r#type)));
        }
    }
    let built = build_node_material(&p)?;
    let assigned = match &args.object {
        Some(object) => Some(assign_material(&AssignMaterialParams { object: object.clone(), material: built.material.clone(), slot: Some(0), faces: None })?),
        None => None,
    };
    Ok(json!({ "material": built.material, "preset": built.preset, "created": built.created, "nodes": built.nodes, "assigned": assigned }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("marble on the cube")
            .args(json!({ "object": "Cube", "preset": "marble", "scale": 3 }))
            .changed(&["Cube"]).fields("Cube", &["materials"]).datablocks_added("materials", &["Cube_marble"])
            .result(json!({ "material": "Cube_marble", "created": true, "assigned": { "slot": 0, "slots": ["Cube_marble"] } }))
            .reads("material.list", json!({ "object": "Cube" }), json!({ "materials": [{ "name": "Cube_marble", "preset": "marble", "objects": ["Cube"] }] })),
        Case::new("a glass material on its own")
            .args(json!({ "preset": "glass", "name": "Clear Glass", "ior": 1.5, "roughness": 0.05 }))
            .added(&[]).changed(&[]).datablocks_added("materials", &["Clear Glass"])
            .reads("material.list", json!({ "material": "Clear Glass", "include_graph": true }), json!({ "materials": [{ "graph": { "links": [
                { "from_node": "Principled BSDF", "from_socket": "BSDF", "to_node": "Material Output", "to_socket": "Surface" },
            ] } }] })),
        Case::new("fog is a volume")
            .args(json!({ "object": "Cube", "preset": "volume_fog", "density": 0.2 }))
            .changed(&["Cube"]).datablocks_added("materials", &["Cube_volume_fog"])
            .reads("material.list", json!({ "material": "Cube_volume_fog", "include_graph": true }), json!({ "materials": [{ "graph": { "links": [
                { "from_node": "Principled Volume", "from_socket": "Volume", "to_node": "Material Output", "to_socket": "Volume" },
            ] } }] })),
        Case::new("a camera cannot hold a material").args(json!({ "object": "Camera", "preset": "wood" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("no such object").args(json!({ "object": "Ghost" })).error("not_found"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_defaults_follow_the_preset() {
        let a: ProceduralArgs = serde_json::from_value(json!({ "object": "Floor", "preset": "wood", "color1": "#ffffff" })).unwrap();
        let p = params(&a).unwrap();
        assert_eq!(p.name, "Floor_wood");
        assert_eq!(p.color1, [1.0, 1.0, 1.0, 1.0]);
        assert_eq!(p.scale, 3.0);
        let p = params(&serde_json::from_value(json!({})).unwrap()).unwrap();
        assert_eq!((p.name.as_str(), p.preset), ("marble", Preset::Marble));
    }
}
