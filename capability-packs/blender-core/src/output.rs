//! Producing output: render settings, rendering, keyframes.

use crate::angles::AngleUnit;
use capstan_sdk::prelude::*;
use serde_json::Map;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// Path tracing; works headless on CPU.
    Cycles,
    /// Real-time rasteriser.
    Eevee,
    /// Flat viewport shading; fastest.
    Workbench,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderSettingsArgs {
    pub engine: Option<Engine>,
    /// Output size [width, height] in pixels.
    #[schemars(inner(range(min = 4, max = 16384)))]
    pub resolution: Option<[u32; 2]>,
    /// Percentage of the resolution actually rendered (for quick previews).
    #[schemars(range(min = 1, max = 100))]
    pub percentage: Option<u32>,
    /// Samples per pixel (Cycles, EEVEE).
    #[schemars(range(min = 1, max = 65536))]
    pub samples: Option<u32>,
    /// Transparent background (film) instead of the world.
    pub transparent: Option<bool>,
}

pub fn settings_params(a: &RenderSettingsArgs) -> Map<String, Value> {
    let mut p = Map::new();
    if let Some(e) = a.engine {
        p.insert("engine".into(), json!(e));
    }
    if let Some([w, h]) = a.resolution {
        p.insert("resolution_x".into(), json!(w));
        p.insert("resolution_y".into(), json!(h));
    }
    if let Some(v) = a.percentage {
        p.insert("resolution_percentage".into(), json!(v));
    }
    if let Some(v) = a.samples {
        p.insert("samples".into(), json!(v));
    }
    if let Some(v) = a.transparent {
        p.insert("transparent".into(), json!(v));
    }
    p
}

pub fn render_settings(args: RenderSettingsArgs) -> PackResult<Value> {
    let p = settings_params(&args);
    if p.is_empty() {
        return Err(PackError::invalid("nothing to set: give engine, resolution, percentage, samples or transparent"));
    }
    bridge::call("set_render_settings", &Value::Object(p))
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderArgs {
    /// PNG file name inside the session's output directory (default render.png).
    #[schemars(length(min = 5, max = 128), regex(pattern = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.png$"))]
    pub filename: Option<String>,
    /// Settings to apply first (same as scene.render_settings).
    #[serde(flatten)]
    pub settings: RenderSettingsArgs,
}

pub fn render(args: RenderArgs) -> PackResult<Value> {
    let p = settings_params(&args.settings);
    let settings = if p.is_empty() { None } else { Some(bridge::call::<_, Value>("set_render_settings", &Value::Object(p))?) };
    let filename = args.filename.unwrap_or_else(|| "render.png".into());
    let mut image: Value = bridge::call("render_image", &json!({ "filename": filename }))?;
    if let Some(s) = settings {
        image["settings"] = s;
    }
    Ok(image)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyProperty {
    Location,
    Rotation,
    Scale,
    /// Visibility in viewport and render together.
    Visible,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyframeArgs {
    /// Exact object name.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    pub property: KeyProperty,
    /// Frame number.
    #[schemars(range(min = -100000, max = 1000000))]
    pub frame: i64,
    /// Value to set before keying: [x, y, z] for transforms, true/false for visible.
    /// Without it the current value is keyed.
    pub value: Option<Value>,
    /// Unit of a rotation value.
    #[serde(default)]
    pub rotation_unit: AngleUnit,
}

fn vec3(value: &Value) -> PackResult<[f64; 3]> {
    serde_json::from_value(value.clone()).map_err(|_| PackError::invalid("this property takes [x, y, z]"))
}

/// The bridge calls one keyframe request needs.
pub fn keyframe_calls(a: &KeyframeArgs) -> PackResult<Vec<Value>> {
    let base = |property: &str, value: Option<Value>| {
        let mut p = json!({ "object": a.object, "property": property, "frame": a.frame });
        if let Some(v) = value {
            p["value"] = v;
        }
        p
    };
    Ok(match a.property {
        KeyProperty::Location => vec![base("location", a.value.as_ref().map(vec3).transpose()?.map(|v| json!(v)))],
        KeyProperty::Scale => vec![base("scale", a.value.as_ref().map(vec3).transpose()?.map(|v| json!(v)))],
        KeyProperty::Rotation => {
            let v = a.value.as_ref().map(vec3).transpose()?.map(|v| json!(a.rotation_unit.to_radians(v)));
            vec![base("rotation_euler", v)]
        }
        KeyProperty::Visible => {
            let hidden = match &a.value {
                None => None,
                Some(Value::Bool(b)) => Some(json!(!b)),
                Some(_) => return Err(PackError::invalid("visible takes true or false")),
            };
            vec![base("hide_viewport", hidden.clone()), base("hide_render", hidden)]
        }
    })
}

pub fn keyframe(args: KeyframeArgs) -> PackResult<Value> {
    let mut results = Vec::new();
    for call in keyframe_calls(&args)? {
        results.push(bridge::call::<_, Value>("insert_keyframe", &call)?);
    }
    let delta = crate::target::merge_deltas(&results);
    Ok(json!({ "object": args.object, "frame": args.frame, "keys": results, "delta": delta }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> KeyframeArgs {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn rotation_keys_are_converted_to_radians() {
        let calls = keyframe_calls(&args(json!({ "object": "Cube", "property": "rotation", "frame": 10, "value": [0, 0, 90] }))).unwrap();
        assert_eq!(calls[0]["property"], "rotation_euler");
        assert!((calls[0]["value"][2].as_f64().unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    }

    #[test]
    fn visibility_keys_both_hide_flags() {
        let calls = keyframe_calls(&args(json!({ "object": "Cube", "property": "visible", "frame": 1, "value": false }))).unwrap();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0]["value"], true);
        assert_eq!(calls[1]["property"], "hide_render");
    }

    #[test]
    fn wrong_value_shapes_are_refused() {
        assert!(keyframe_calls(&args(json!({ "object": "C", "property": "location", "frame": 1, "value": true }))).is_err());
        assert!(keyframe_calls(&args(json!({ "object": "C", "property": "visible", "frame": 1, "value": [1, 2, 3] }))).is_err());
    }

    #[test]
    fn render_settings_map_to_bridge_names() {
        let a: RenderSettingsArgs = serde_json::from_value(json!({ "engine": "cycles", "resolution": [64, 48], "samples": 4 })).unwrap();
        let p = settings_params(&a);
        assert_eq!(p["engine"], "cycles");
        assert_eq!(p["resolution_x"], 64);
        assert_eq!(p["resolution_y"], 48);
    }
}
