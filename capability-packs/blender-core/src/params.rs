//! Pure translation from capability arguments to bridge params (Blender-native units).

use crate::args::*;
use capstan_sdk::prelude::*;
use serde_json::Map;

fn put<T: Serialize>(map: &mut Map<String, Value>, key: &str, value: Option<T>) {
    if let Some(v) = value {
        map.insert(key.to_string(), json!(v));
    }
}

fn check_finite(what: &str, v: &[f64]) -> PackResult<()> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(PackError::invalid(format!("{what} must be finite numbers")))
    }
}

pub fn create_object(a: &CreateObject) -> PackResult<Value> {
    let mut p = Map::new();
    p.insert("type".into(), json!(a.kind));
    put(&mut p, "name", a.name.as_ref());
    put(&mut p, "size", a.size);
    if let Some(l) = a.location {
        check_finite("location", &l)?;
        p.insert("location".into(), json!(l));
    }
    if let Some(r) = a.rotation {
        check_finite("rotation", &r)?;
        p.insert("rotation".into(), json!(a.rotation_unit.to_radians(r)));
    }
    put(&mut p, "scale", a.scale);
    Ok(Value::Object(p))
}

pub fn modify_object(a: &ModifyObject) -> PackResult<Value> {
    let mut p = Map::new();
    p.insert("name".into(), json!(a.name));
    put(&mut p, "new_name", a.new_name.as_ref());
    if let Some(l) = a.location {
        check_finite("location", &l)?;
        p.insert("location".into(), json!(l));
    }
    if let Some(r) = a.rotation {
        check_finite("rotation", &r)?;
        p.insert("rotation".into(), json!(a.rotation_unit.to_radians(r)));
    }
    put(&mut p, "scale", a.scale);
    put(&mut p, "visible", a.visible);
    if p.len() == 1 {
        return Err(PackError::invalid(
            "nothing to change: give at least one of new_name, location, rotation, scale, visible",
        ));
    }
    Ok(Value::Object(p))
}

/// (base colour sRGB hex, metallic, roughness) of each preset.
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

pub fn set_material(a: &SetMaterial) -> PackResult<Value> {
    let mut p = Map::new();
    p.insert("object".into(), json!(a.object));
    p.insert(
        "material".into(),
        json!(a.material.clone().unwrap_or_else(|| format!("{}_material", a.object))),
    );
    let (mut color, mut metallic, mut roughness) = (None, None, None);
    if let Some(preset) = a.preset {
        let (c, m, r) = preset_values(preset);
        (color, metallic, roughness) = (Some(c), Some(m), Some(r));
    }
    if let Some(c) = &a.color {
        color = Some(c.to_linear_rgba()?);
    }
    metallic = a.metallic.or(metallic);
    roughness = a.roughness.or(roughness);
    put(&mut p, "base_color", color);
    put(&mut p, "metallic", metallic);
    put(&mut p, "roughness", roughness);
    if let Some(e) = &a.emission {
        p.insert("emission_color".into(), json!(e.to_linear_rgba()?));
        p.insert("emission_strength".into(), json!(a.emission_strength.unwrap_or(1.0)));
    } else if let Some(s) = a.emission_strength {
        p.insert("emission_strength".into(), json!(s));
    }
    if p.len() == 2 {
        return Err(PackError::invalid(
            "nothing to set: give a preset, color, metallic, roughness or emission",
        ));
    }
    Ok(Value::Object(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: serde::de::DeserializeOwned>(v: Value) -> T {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn create_converts_degrees_and_keeps_the_rest() {
        let a: CreateObject = parse(json!({"type": "uv_sphere", "name": "Ball", "location": [1, 2, 3], "rotation": [0, 0, 90]}));
        let p = create_object(&a).unwrap();
        assert_eq!(p["type"], "uv_sphere");
        assert_eq!(p["name"], "Ball");
        assert_eq!(p["location"], json!([1.0, 2.0, 3.0]));
        let z = p["rotation"][2].as_f64().unwrap();
        assert!((z - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!(p.get("scale").is_none());
    }

    #[test]
    fn radians_pass_through() {
        let a: CreateObject = parse(json!({"type": "cube", "rotation": [1.0, 0, 0], "rotation_unit": "radians"}));
        assert_eq!(create_object(&a).unwrap()["rotation"], json!([1.0, 0.0, 0.0]));
    }

    #[test]
    fn unknown_fields_and_types_are_refused() {
        assert!(serde_json::from_value::<CreateObject>(json!({"type": "cube", "colour": "red"})).is_err());
        assert!(serde_json::from_value::<CreateObject>(json!({"type": "teapot"})).is_err());
    }

    #[test]
    fn modify_needs_a_change() {
        let a: ModifyObject = parse(json!({"name": "Cube"}));
        assert!(matches!(modify_object(&a), Err(PackError::InvalidArguments(_))));
        let a: ModifyObject = parse(json!({"name": "Cube", "visible": false, "scale": [2, 2, 2]}));
        let p = modify_object(&a).unwrap();
        assert_eq!(p["visible"], false);
        assert_eq!(p["scale"], json!([2.0, 2.0, 2.0]));
    }

    #[test]
    fn material_preset_is_overridden_by_explicit_fields() {
        let a: SetMaterial = parse(json!({"object": "Cube", "preset": "chrome", "roughness": 0.3}));
        let p = set_material(&a).unwrap();
        assert_eq!(p["material"], "Cube_material");
        assert_eq!(p["metallic"], 1.0);
        assert_eq!(p["roughness"], 0.3);
        let a: SetMaterial = parse(json!({"object": "Cube", "color": "#ff0000"}));
        let p = set_material(&a).unwrap();
        assert_eq!(p["base_color"], json!([1.0, 0.0, 0.0, 1.0]));
        assert!(p.get("metallic").is_none());
    }

    #[test]
    fn material_needs_something_to_set() {
        let a: SetMaterial = parse(json!({"object": "Cube"}));
        assert!(matches!(set_material(&a), Err(PackError::InvalidArguments(_))));
    }

    #[test]
    fn emission_defaults_to_strength_one() {
        let a: SetMaterial = parse(json!({"object": "Lamp", "emission": "white"}));
        let p = set_material(&a).unwrap();
        assert_eq!(p["emission_color"], json!([1.0, 1.0, 1.0, 1.0]));
        assert_eq!(p["emission_strength"], 1.0);
    }
}
