//! How the scene looks: lighting rigs, the world background, the camera.

use crate::angles::AngleUnit;
use crate::color::ColorInput;
use crate::lighting::{self, LightingPreset};
use crate::target::{Target, merge_deltas};
use capstan_sdk::prelude::*;
use serde_json::Map;

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

pub fn lighting_preset(args: LightingArgs) -> PackResult<Value> {
    let target = match &args.target {
        Some(t) => t.resolve()?,
        None => [0.0; 3],
    };
    let distance = args.distance.unwrap_or(5.0);
    let intensity = args.intensity.unwrap_or(1.0);
    let mut results = Vec::new();
    for light in lighting::rig(args.preset) {
        let params = json!({
            "type": "area",
            "name": light.name,
            "location": lighting::position(&light, target, distance),
            "look_at": target,
            "energy": lighting::energy(&light, distance, intensity),
            "size": light.size,
        });
        let result: Value = bridge::call("create_light", &params)?;
        results.push(result);
    }
    let delta = merge_deltas(&results);
    let lights: Vec<Value> = results.iter().map(|r| json!({ "name": r["name"], "location": r["location"], "energy": r["energy"] })).collect();
    Ok(json!({ "preset": args.preset, "target": target, "lights": lights, "delta": delta }))
}

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
pub struct WorldArgs {
    /// Flat background colour (hex or name in sRGB, or linear channels).
    pub color: Option<ColorInput>,
    /// Background strength (1 = as is).
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub strength: Option<f64>,
    /// A procedural sky instead of a flat colour.
    pub sky: Option<SkyArgs>,
}

pub fn world_params(args: &WorldArgs) -> PackResult<Value> {
    if args.color.is_some() && args.sky.is_some() {
        return Err(PackError::invalid("give either color or sky, not both"));
    }
    let mut p = Map::new();
    if let Some(c) = &args.color {
        p.insert("color".into(), json!(c.to_linear_rgba()?[..3]));
    }
    if let Some(s) = args.strength {
        p.insert("strength".into(), json!(s));
    }
    if let Some(sky) = &args.sky {
        let mut s = Map::new();
        if let Some(e) = sky.sun_elevation_degrees {
            s.insert("sun_elevation".into(), json!(e.to_radians()));
        }
        if let Some(r) = sky.sun_rotation_degrees {
            s.insert("sun_rotation".into(), json!(r.to_radians()));
        }
        p.insert("sky".into(), Value::Object(s));
    }
    if p.is_empty() {
        return Err(PackError::invalid("nothing to set: give color, strength or sky"));
    }
    Ok(Value::Object(p))
}

pub fn world(args: WorldArgs) -> PackResult<Value> {
    bridge::call("set_world", &world_params(&args)?)
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DofArgs {
    pub enabled: bool,
    /// Keep this object in focus.
    #[schemars(length(min = 1, max = 63))]
    pub focus_object: Option<String>,
    /// Or focus at this distance in metres.
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub focus_distance: Option<f64>,
    /// Aperture f-stop: lower is blurrier.
    #[schemars(range(min = 0.1, max = 128.0))]
    pub fstop: Option<f64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CameraArgs {
    /// Camera to create or change; default the scene camera (or a new "Camera").
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// Camera position [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// Aim at an object (by name) or a point; overrides `rotation`.
    pub look_at: Option<Target>,
    /// Rotation [x, y, z] in `rotation_unit`, when not aiming with look_at.
    pub rotation: Option<[f64; 3]>,
    #[serde(default)]
    pub rotation_unit: AngleUnit,
    /// Focal length in millimetres (50 = normal, 85+ = portrait/product).
    #[schemars(range(min = 1.0, max = 5000.0))]
    pub lens: Option<f64>,
    /// Depth of field.
    pub dof: Option<DofArgs>,
    /// Make it the scene's active camera (default true).
    pub make_active: Option<bool>,
}

pub fn camera(args: CameraArgs) -> PackResult<Value> {
    let mut p = Map::new();
    if let Some(n) = &args.name {
        p.insert("name".into(), json!(n));
    }
    if let Some(l) = args.location {
        p.insert("location".into(), json!(l));
    }
    match (&args.look_at, args.rotation) {
        (Some(t), _) => {
            p.insert("look_at".into(), json!(t.resolve()?));
        }
        (None, Some(r)) => {
            p.insert("rotation".into(), json!(args.rotation_unit.to_radians(r)));
        }
        (None, None) => {}
    }
    if let Some(lens) = args.lens {
        p.insert("lens".into(), json!(lens));
    }
    if let Some(d) = &args.dof {
        if d.focus_object.is_some() && d.focus_distance.is_some() {
            return Err(PackError::invalid("dof takes focus_object or focus_distance, not both"));
        }
        let mut dof = Map::new();
        dof.insert("enabled".into(), json!(d.enabled));
        if let Some(o) = &d.focus_object {
            dof.insert("focus_object".into(), json!(o));
        }
        if let Some(f) = d.focus_distance {
            dof.insert("focus_distance".into(), json!(f));
        }
        if let Some(f) = d.fstop {
            dof.insert("fstop".into(), json!(f));
        }
        p.insert("dof".into(), Value::Object(dof));
    }
    p.insert("make_active".into(), json!(args.make_active.unwrap_or(true)));
    bridge::call("set_camera", &Value::Object(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_converts_colours_and_degrees() {
        let a: WorldArgs = serde_json::from_value(json!({ "color": "white", "strength": 0.5 })).unwrap();
        assert_eq!(world_params(&a).unwrap(), json!({ "color": [1.0, 1.0, 1.0], "strength": 0.5 }));
        let a: WorldArgs = serde_json::from_value(json!({ "sky": { "sun_elevation_degrees": 90 } })).unwrap();
        let p = world_params(&a).unwrap();
        assert!((p["sky"]["sun_elevation"].as_f64().unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    }

    #[test]
    fn world_refuses_contradictions_and_empty_requests() {
        let a: WorldArgs = serde_json::from_value(json!({ "color": "red", "sky": {} })).unwrap();
        assert!(world_params(&a).is_err());
        let a: WorldArgs = serde_json::from_value(json!({})).unwrap();
        assert!(world_params(&a).is_err());
    }
}
