use capstan_blender::color::ColorInput;
use capstan_blender::target::Target;
use capstan_blender::{
    CreateLight, CreateLightParams, CreateLightParamsShape, CreateLightParamsType, GetObjectInfo, SetLight, SetLightParams, create_light, set_light,
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
#[schemars(transform = arguments_need_their_types)]
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
    /// AREA only: the emitter's shape (default SQUARE).
    pub shape: Option<AreaShape>,
    /// AREA of shape RECTANGLE or ELLIPSE only: the second edge (Y) in metres; `size` is X.
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub size_y: Option<f64>,
}

/// An area light's shape, as Blender names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum AreaShape {
    Square,
    Rectangle,
    Disk,
    Ellipse,
}

impl AreaShape {
    fn bridge(self) -> CreateLightParamsShape {
        match self {
            AreaShape::Square => CreateLightParamsShape::Square,
            AreaShape::Rectangle => CreateLightParamsShape::Rectangle,
            AreaShape::Disk => CreateLightParamsShape::Disk,
            AreaShape::Ellipse => CreateLightParamsShape::Ellipse,
        }
    }
}

/// The schema says what `light_add` and `check_area` check: the spot and area arguments
/// need their light type, `size_y` a shape with a second edge.
fn arguments_need_their_types(schema: &mut schemars::Schema) {
    let of = |kind: &str| json!({ "properties": { "type": { "const": kind } } });
    schema.insert("dependentSchemas".into(), json!({
        "spot_size": of("SPOT"),
        "spot_blend": of("SPOT"),
        "shape": of("AREA"),
        "size_y": { "required": ["shape"], "properties": { "type": { "const": "AREA" }, "shape": { "enum": ["RECTANGLE", "ELLIPSE"] } } },
    }));
}

/// The area-only arguments are given for an area light, and `size_y` only with a shape
/// that has a second edge; checked before any bridge call.
pub fn check_area(args: &LightAddArgs) -> PackResult<()> {
    if (args.shape.is_some() || args.size_y.is_some()) && args.kind != LightType::Area {
        return Err(PackError::invalid("shape and size_y are for AREA lights"));
    }
    if args.size_y.is_some() && !matches!(args.shape, Some(AreaShape::Rectangle | AreaShape::Ellipse)) {
        return Err(PackError::invalid("size_y needs shape RECTANGLE or ELLIPSE (SQUARE and DISK have one size)"));
    }
    Ok(())
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
/// power in watts, colour, size, spot cone and blend, shadow switch, and an area light's shape
/// (square, rectangle, disk, ellipse) with its second size.
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
    check_area(&args)?;
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
        shape: args.shape.map(AreaShape::bridge),
        size_y: args.size_y,
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
        Case::new("an area light made a 3 by 1 ellipse")
            .args(json!({ "type": "AREA", "name": "Strip", "location": [0, -3, 3], "look_at": [0, 0, 0], "size": 3, "shape": "ELLIPSE", "size_y": 1 }))
            .added(&["Strip"])
            .reads("scene.object_info", json!({ "name": "Strip" }), json!({ "light": { "type": "AREA", "shape": "ELLIPSE", "size": 3.0, "size_y": 1.0 } })),
        Case::new("a disk has one size").args(json!({ "type": "AREA", "shape": "DISK", "size_y": 2 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a spot has no area shape").args(json!({ "type": "SPOT", "shape": "DISK" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a point light has no cone").args(json!({ "type": "POINT", "spot_size": 30 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("aim at a missing object").args(json!({ "type": "AREA", "look_at": "Ghost" })).error("not_found"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_arguments_need_an_area_light() {
        let args = |v: Value| serde_json::from_value::<LightAddArgs>(v).unwrap();
        assert!(check_area(&args(json!({"type": "AREA", "shape": "ELLIPSE", "size_y": 1}))).is_ok());
        assert!(check_area(&args(json!({"type": "AREA", "shape": "DISK", "size_y": 1}))).is_err());
        assert!(check_area(&args(json!({"type": "AREA", "size_y": 1}))).is_err());
        assert!(check_area(&args(json!({"type": "POINT", "shape": "DISK"}))).is_err());
        let schema = serde_json::to_value(schemars::schema_for!(LightAddArgs)).unwrap();
        assert_eq!(schema["dependentSchemas"]["shape"]["properties"]["type"]["const"], "AREA");
    }

    #[test]
    fn a_sun_size_is_degrees_others_metres() {
        assert!((bridge_size(LightType::Sun, Some(180.0)).unwrap().unwrap() - std::f64::consts::PI).abs() < 1e-12);
        assert_eq!(bridge_size(LightType::Area, Some(2.0)).unwrap(), Some(2.0));
        assert!(bridge_size(LightType::Sun, Some(200.0)).is_err());
    }
}
