//! `scene.create_object`: one object, with the parameters Blender's add operators take.
//!
//! Every type-specific parameter is checked against the type before any bridge call, so
//! a parameter the type ignores is an error naming the types it is for, never dropped.
//! Safety: Blender lets a UV sphere have 100,000 x 100,000 segments; one call must not
//! make the app allocate without bound (it runs under a hard address-space limit and
//! would die with the session's unsaved scene), so the vertex count the parameters
//! imply is capped at [`MAX_VERTICES`].

use capstan_blender::angles::AngleUnit;
use capstan_blender::{
    CreateObject, CreateObjectParams, CreateObjectParamsEmpty, CreateObjectParamsEmptyDisplayType, CreateObjectParamsLight,
    CreateObjectParamsLightShape, CreateObjectParamsPrimitive, CreateObjectParamsPrimitiveFillType, CreateObjectParamsType,
    create_object as bridge_create,
};
use capstan_sdk::prelude::*;

/// The most vertices one created primitive may have.
pub const MAX_VERTICES: u64 = 2_000_000;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = arguments_need_their_types)]
pub struct CreateArgs {
    /// What to add.
    #[serde(rename = "type")]
    pub kind: CreateObjectParamsType,
    /// Name for the new object; Blender picks one (`Cube.001`) when absent or taken.
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// Overall size in metres (edge of a cube, diameter of round things; absent: Blender's
    /// defaults, 2 for most). Empties: twice the display size; area lights: the edge;
    /// point and spot lights: the radius. Not for camera or light_sun.
    #[schemars(range(min = 0.0001, max = 100000.0))]
    pub size: Option<f64>,
    /// Location [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// Rotation [x, y, z] (Euler XYZ) in `rotation_unit`.
    pub rotation: Option<[f64; 3]>,
    /// Unit of `rotation`: degrees (default) or radians.
    #[serde(default)]
    pub rotation_unit: AngleUnit,
    /// Scale [x, y, z]; every factor must be positive.
    #[schemars(inner(range(min = 0.000001)))]
    pub scale: Option<[f64; 3]>,
    /// cylinder, cone, circle: vertices around (Blender's default 32).
    #[schemars(range(min = 3, max = 100000))]
    pub vertices: Option<u32>,
    /// uv_sphere: segments around (default 32).
    #[schemars(range(min = 3, max = 100000))]
    pub segments: Option<u32>,
    /// uv_sphere: rings from pole to pole (default 16).
    #[schemars(range(min = 3, max = 100000))]
    pub rings: Option<u32>,
    /// ico_sphere: subdivisions (default 2).
    #[schemars(range(min = 1, max = 10))]
    pub subdivisions: Option<u32>,
    /// grid: subdivisions along X (default 10).
    #[schemars(range(min = 1, max = 100000))]
    pub x_subdivisions: Option<u32>,
    /// grid: subdivisions along Y (default 10).
    #[schemars(range(min = 1, max = 100000))]
    pub y_subdivisions: Option<u32>,
    /// uv_sphere, ico_sphere, cylinder, circle: radius in metres (default size/2, or 1).
    #[schemars(range(min = 0.0001, max = 100000.0))]
    pub radius: Option<f64>,
    /// cone: base radius in metres (default size/2, or 1).
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub radius1: Option<f64>,
    /// cone: tip radius in metres (default 0: a point).
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub radius2: Option<f64>,
    /// cylinder, cone: height in metres (default size, or 2).
    #[schemars(range(min = 0.0001, max = 100000.0))]
    pub depth: Option<f64>,
    /// torus: radius of the ring's centre line in metres (default 1).
    #[schemars(range(min = 0.0, max = 10000.0))]
    pub major_radius: Option<f64>,
    /// torus: radius of the tube in metres (default 0.25).
    #[schemars(range(min = 0.0, max = 10000.0))]
    pub minor_radius: Option<f64>,
    /// torus: segments around the ring (default 48).
    #[schemars(range(min = 3, max = 256))]
    pub major_segments: Option<u32>,
    /// torus: segments around the tube (default 12).
    #[schemars(range(min = 3, max = 256))]
    pub minor_segments: Option<u32>,
    /// cylinder, cone: how the ends are filled (default NGON); circle: how it is filled (default NOTHING).
    pub fill_type: Option<CreateObjectParamsPrimitiveFillType>,
    /// empty: how it is drawn (default PLAIN_AXES).
    pub display_type: Option<CreateObjectParamsEmptyDisplayType>,
    /// empty: drawn size in metres (default 1, or size/2).
    #[schemars(range(min = 0.0001, max = 1000.0))]
    pub display_size: Option<f64>,
    /// light_area: the emitter's shape (default SQUARE).
    pub shape: Option<CreateObjectParamsLightShape>,
    /// light_area of shape RECTANGLE or ELLIPSE: the Y edge in metres (`size` is X).
    #[schemars(range(min = 0.0, max = 100000.0))]
    pub size_y: Option<f64>,
    /// light_spot: cone angle in degrees (default 45).
    #[schemars(range(min = 1.0, max = 180.0))]
    pub spot_size: Option<f64>,
    /// light_spot: edge softness 0..1 (default 0.15).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub spot_blend: Option<f64>,
}

use CreateObjectParamsType as K;

const PRIMITIVES: &[K] = &[K::Cube, K::UvSphere, K::IcoSphere, K::Cylinder, K::Cone, K::Torus, K::Plane, K::Circle, K::Grid, K::Monkey];
const SIZED: &[K] = &[
    K::Cube, K::UvSphere, K::IcoSphere, K::Cylinder, K::Cone, K::Torus, K::Plane, K::Circle, K::Grid, K::Monkey,
    K::Empty, K::LightPoint, K::LightSpot, K::LightArea,
];

/// Each type-specific argument and the types it is for: the pack's check and the
/// schema's `dependentSchemas` both come from this table.
const APPLIES: &[(&str, &[K])] = &[
    ("vertices", &[K::Cylinder, K::Cone, K::Circle]),
    ("segments", &[K::UvSphere]),
    ("rings", &[K::UvSphere]),
    ("subdivisions", &[K::IcoSphere]),
    ("x_subdivisions", &[K::Grid]),
    ("y_subdivisions", &[K::Grid]),
    ("radius", &[K::UvSphere, K::IcoSphere, K::Cylinder, K::Circle]),
    ("radius1", &[K::Cone]),
    ("radius2", &[K::Cone]),
    ("depth", &[K::Cylinder, K::Cone]),
    ("major_radius", &[K::Torus]),
    ("minor_radius", &[K::Torus]),
    ("major_segments", &[K::Torus]),
    ("minor_segments", &[K::Torus]),
    ("fill_type", &[K::Cylinder, K::Cone, K::Circle]),
    ("display_type", &[K::Empty]),
    ("display_size", &[K::Empty]),
    ("shape", &[K::LightArea]),
    ("size_y", &[K::LightArea]),
    ("spot_size", &[K::LightSpot]),
    ("spot_blend", &[K::LightSpot]),
    ("size", SIZED),
];

fn given(a: &CreateArgs, arg: &str) -> bool {
    match arg {
        "vertices" => a.vertices.is_some(),
        "segments" => a.segments.is_some(),
        "rings" => a.rings.is_some(),
        "subdivisions" => a.subdivisions.is_some(),
        "x_subdivisions" => a.x_subdivisions.is_some(),
        "y_subdivisions" => a.y_subdivisions.is_some(),
        "radius" => a.radius.is_some(),
        "radius1" => a.radius1.is_some(),
        "radius2" => a.radius2.is_some(),
        "depth" => a.depth.is_some(),
        "major_radius" => a.major_radius.is_some(),
        "minor_radius" => a.minor_radius.is_some(),
        "major_segments" => a.major_segments.is_some(),
        "minor_segments" => a.minor_segments.is_some(),
        "fill_type" => a.fill_type.is_some(),
        "display_type" => a.display_type.is_some(),
        "display_size" => a.display_size.is_some(),
        "shape" => a.shape.is_some(),
        "size_y" => a.size_y.is_some(),
        "spot_size" => a.spot_size.is_some(),
        "spot_blend" => a.spot_blend.is_some(),
        "size" => a.size.is_some(),
        _ => false,
    }
}

/// The schema says what the pack checks: each type-specific argument requires one of
/// its types, and `size_y` a shape with a second edge.
fn arguments_need_their_types(schema: &mut schemars::Schema) {
    let mut dependent = serde_json::Map::new();
    for (arg, kinds) in APPLIES {
        let names: Vec<String> = kinds.iter().map(|k| type_name(*k)).collect();
        dependent.insert((*arg).into(), json!({ "properties": { "type": { "enum": names } } }));
    }
    dependent.insert("size_y".into(), json!({
        "required": ["shape"],
        "properties": { "type": { "const": "light_area" }, "shape": { "enum": ["RECTANGLE", "ELLIPSE"] } },
    }));
    schema.insert("dependentSchemas".into(), Value::Object(dependent));
}

fn type_name(kind: K) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// Refuses an argument the type does not take, naming the types it is for.
pub fn check_applicable(a: &CreateArgs) -> PackResult<()> {
    for (arg, kinds) in APPLIES {
        if given(a, arg) && !kinds.contains(&a.kind) {
            let names: Vec<String> = kinds.iter().map(|k| type_name(*k)).collect();
            return Err(PackError::invalid(format!("{arg} is for {}, not {}", names.join(", "), type_name(a.kind))));
        }
    }
    if a.size_y.is_some() && !matches!(a.shape, Some(CreateObjectParamsLightShape::Rectangle | CreateObjectParamsLightShape::Ellipse)) {
        return Err(PackError::invalid("size_y needs shape RECTANGLE or ELLIPSE (SQUARE and DISK have one size)"));
    }
    Ok(())
}

/// The vertices the primitive will have (an upper bound), from the arguments and
/// Blender's defaults.
pub fn vertex_estimate(a: &CreateArgs) -> u64 {
    let v = u64::from(a.vertices.unwrap_or(32));
    match a.kind {
        K::Cylinder | K::Cone => 2 * v + 2,
        K::Circle => v + 1,
        K::UvSphere => u64::from(a.segments.unwrap_or(32)) * u64::from(a.rings.unwrap_or(16)) + 2,
        K::IcoSphere => 10 * 4u64.pow(a.subdivisions.unwrap_or(2)) + 2,
        K::Grid => (u64::from(a.x_subdivisions.unwrap_or(10)) + 1) * (u64::from(a.y_subdivisions.unwrap_or(10)) + 1),
        K::Torus => u64::from(a.major_segments.unwrap_or(48)) * u64::from(a.minor_segments.unwrap_or(12)),
        _ => 0,
    }
}

fn primitive(a: &CreateArgs) -> Option<CreateObjectParamsPrimitive> {
    let p = CreateObjectParamsPrimitive {
        vertices: a.vertices.map(i64::from),
        segments: a.segments.map(i64::from),
        rings: a.rings.map(i64::from),
        subdivisions: a.subdivisions.map(i64::from),
        x_subdivisions: a.x_subdivisions.map(i64::from),
        y_subdivisions: a.y_subdivisions.map(i64::from),
        radius: a.radius,
        radius1: a.radius1,
        radius2: a.radius2,
        depth: a.depth,
        major_radius: a.major_radius,
        minor_radius: a.minor_radius,
        major_segments: a.major_segments.map(i64::from),
        minor_segments: a.minor_segments.map(i64::from),
        fill_type: a.fill_type,
    };
    (PRIMITIVES.contains(&a.kind) && p != CreateObjectParamsPrimitive::default()).then_some(p)
}

pub fn params(a: &CreateArgs) -> PackResult<CreateObjectParams> {
    for v in [a.location, a.rotation].into_iter().flatten() {
        if !v.iter().all(|x| x.is_finite()) {
            return Err(PackError::invalid("location and rotation must be finite numbers"));
        }
    }
    check_applicable(a)?;
    let vertices = vertex_estimate(a);
    if vertices > MAX_VERTICES {
        return Err(PackError::invalid(format!(
            "these parameters make about {vertices} vertices; at most {MAX_VERTICES} in one primitive"
        )));
    }
    let is_light = matches!(a.kind, K::LightPoint | K::LightSpot | K::LightArea | K::LightSun);
    let empty = CreateObjectParamsEmpty { display_type: a.display_type, display_size: a.display_size };
    let light = CreateObjectParamsLight {
        shape: a.shape,
        size: if is_light { a.size } else { None },
        size_y: a.size_y,
        spot_size: a.spot_size.map(f64::to_radians),
        spot_blend: a.spot_blend,
    };
    Ok(CreateObjectParams {
        r#type: a.kind,
        name: a.name.clone(),
        size: if is_light { None } else { a.size },
        location: a.location,
        rotation: a.rotation.map(|r| a.rotation_unit.to_radians(r)),
        scale: a.scale,
        primitive: primitive(a),
        empty: (empty != CreateObjectParamsEmpty::default()).then_some(empty),
        light: (light != CreateObjectParamsLight::default()).then_some(light),
    })
}

/// Add a primitive (cube, sphere, cylinder, cone, torus, plane, monkey, ...), an empty, a camera or a light.
///
/// Adds one object at a location with optional rotation (degrees unless rotation_unit is
/// radians), scale and size, into the active collection. Takes what Blender's add operators
/// take: vertices, segments, rings, subdivisions, radius, depth, torus radii and segments,
/// fill type; an empty's display type and size; an area light's shape and second size, a
/// spot's cone. Absent ones keep Blender's defaults. Built with Blender's data API, so its
/// cost does not grow with the scene.
#[capability(
    key = "scene.create_object",
    family = "create",
    tags = ["add", "create", "primitive", "mesh", "cube", "sphere", "cylinder", "plane", "empty"],
    aliases = ["blender_create_object", "create_object", "add_object"],
    examples = ["add a cube", "create a sphere", "put a plane on the floor"],
    uses = [CreateObject],
    cases = cases,
)]
fn create_object(args: CreateArgs) -> PackResult<Value> {
    Ok(json!(bridge_create(&params(&args)?)?))
}

fn cases() -> Vec<Case> {
    let info = |name: &str| json!({ "name": name });
    vec![
        Case::new("a named cube at a location, rotated in degrees")
            .args(json!({ "type": "cube", "name": "Probe", "location": [1, 2, 3], "rotation": [0, 0, 90], "size": 1 }))
            .added(&["Probe"]).changed(&[]).removed(&[])
            .result(json!({ "name": "Probe", "type": "MESH", "location": [1.0, 2.0, 3.0], "rotation": [0.0, 0.0, std::f64::consts::FRAC_PI_2] }))
            .reads("scene.object_info", info("Probe"), json!({ "dimensions": [1.0, 1.0, 1.0], "mesh": { "vertices": 8, "faces": 6 } })),
        Case::new("a torus fits its size")
            .args(json!({ "type": "torus", "name": "Ring", "size": 2 }))
            .added(&["Ring"])
            .reads("scene.object_info", info("Ring"), json!({ "dimensions": [2.0, 2.0, 0.4], "mesh": { "vertices": 576, "faces": 576, "uv_layers": ["UVMap"] } })),
        Case::new("a torus without a size is Blender's default one")
            .args(json!({ "type": "torus", "name": "Donut" }))
            .added(&["Donut"])
            .reads("scene.object_info", info("Donut"), json!({ "dimensions": [2.5, 2.5, 0.5], "mesh": { "vertices": 576 } })),
        Case::new("a torus with its radii and segments")
            .args(json!({ "type": "torus", "name": "Tyre", "major_radius": 2, "minor_radius": 0.5, "major_segments": 24, "minor_segments": 8 }))
            .added(&["Tyre"])
            .reads("scene.object_info", info("Tyre"), json!({ "dimensions": [5.0, 5.0, 1.0], "mesh": { "vertices": 192, "faces": 192 } })),
        Case::new("a 12-vertex cylinder with its radius and depth")
            .args(json!({ "type": "cylinder", "name": "Post", "vertices": 12, "radius": 0.5, "depth": 3 }))
            .added(&["Post"])
            .reads("scene.object_info", info("Post"), json!({
                "dimensions": [1.0, 1.0, 3.0],
                "mesh": { "vertices": 24, "edges": 36, "faces": 14, "evaluated": { "vertices": 24, "edges": 36, "faces": 14 } },
            })),
        Case::new("an open cylinder has no caps")
            .args(json!({ "type": "cylinder", "name": "Tube", "vertices": 12, "fill_type": "NOTHING" }))
            .added(&["Tube"])
            .reads("scene.object_info", info("Tube"), json!({ "mesh": { "vertices": 24, "faces": 12 } })),
        Case::new("a truncated cone with triangle-fan ends")
            .args(json!({ "type": "cone", "name": "Shade", "vertices": 8, "radius1": 1, "radius2": 0.5, "depth": 1, "fill_type": "TRIFAN" }))
            .added(&["Shade"])
            .reads("scene.object_info", info("Shade"), json!({ "dimensions": [2.0, 2.0, 1.0], "mesh": { "vertices": 18, "faces": 24 } })),
        Case::new("a low UV sphere")
            .args(json!({ "type": "uv_sphere", "name": "Low", "segments": 8, "rings": 4, "radius": 0.5 }))
            .added(&["Low"])
            .reads("scene.object_info", info("Low"), json!({ "dimensions": [1.0, 1.0, 1.0], "mesh": { "vertices": 26, "faces": 32 } })),
        Case::new("an ico sphere subdivided three times")
            .args(json!({ "type": "ico_sphere", "name": "Ico", "subdivisions": 3 }))
            .added(&["Ico"])
            .reads("scene.object_info", info("Ico"), json!({ "mesh": { "vertices": 162, "faces": 320 } })),
        Case::new("a 4 by 2 grid")
            .args(json!({ "type": "grid", "name": "Tiles", "x_subdivisions": 4, "y_subdivisions": 2 }))
            .added(&["Tiles"])
            .reads("scene.object_info", info("Tiles"), json!({ "mesh": { "vertices": 15, "faces": 8 } })),
        Case::new("a filled circle")
            .args(json!({ "type": "circle", "name": "Disc", "vertices": 12, "fill_type": "NGON", "radius": 2 }))
            .added(&["Disc"])
            .reads("scene.object_info", info("Disc"), json!({ "dimensions": [4.0, 4.0, 0.0], "mesh": { "vertices": 12, "faces": 1 } })),
        Case::new("an empty drawn as a cube")
            .args(json!({ "type": "empty", "name": "Marker", "display_type": "CUBE", "display_size": 0.5 }))
            .added(&["Marker"])
            .reads("scene.object_info", info("Marker"), json!({ "type": "EMPTY", "empty": { "display_type": "CUBE", "display_size": 0.5 } })),
        Case::new("a sun light").args(json!({ "type": "light_sun", "name": "Sunny" })).added(&["Sunny"])
            .reads("scene.object_info", info("Sunny"), json!({ "type": "LIGHT", "light": { "type": "SUN" } })),
        Case::new("an area light made a disk")
            .args(json!({ "type": "light_area", "name": "Softbox", "shape": "DISK", "size": 3 }))
            .added(&["Softbox"])
            .reads("scene.object_info", info("Softbox"), json!({ "light": { "type": "AREA", "shape": "DISK", "size": 3.0 } })),
        Case::new("a rectangular area light has two sizes")
            .args(json!({ "type": "light_area", "name": "Strip", "shape": "RECTANGLE", "size": 4, "size_y": 0.5 }))
            .added(&["Strip"])
            .reads("scene.object_info", info("Strip"), json!({ "light": { "shape": "RECTANGLE", "size": 4.0, "size_y": 0.5 } })),
        Case::new("a narrow soft spot")
            .args(json!({ "type": "light_spot", "name": "Beam", "spot_size": 30, "spot_blend": 0.5, "size": 0.2 }))
            .added(&["Beam"])
            .reads("scene.object_info", info("Beam"), json!({ "light": { "type": "SPOT", "spot_size": std::f64::consts::FRAC_PI_6, "spot_blend": 0.5, "radius": 0.2 } })),
        Case::new("a taken name is reported").args(json!({ "type": "cube", "name": "Cube" }))
            .added(&["Cube.001"]).result(json!({ "name": "Cube.001", "renamed_from": "Cube" })),
        Case::new("an unknown type").args(json!({ "type": "teapot" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a cube has no vertices argument").args(json!({ "type": "cube", "vertices": 12 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a disk light has one size").args(json!({ "type": "light_area", "shape": "DISK", "size_y": 1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a sphere too dense to build").args(json!({ "type": "uv_sphere", "segments": 100000, "rings": 100000 }))
            .error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degrees_become_radians_and_absent_fields_stay_absent() {
        let a: CreateArgs = serde_json::from_value(json!({"type": "uv_sphere", "name": "Ball", "location": [1, 2, 3], "rotation": [0, 0, 90]})).unwrap();
        let p = serde_json::to_value(params(&a).unwrap()).unwrap();
        assert_eq!(p["type"], "uv_sphere");
        assert!((p["rotation"][2].as_f64().unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!(p.get("scale").is_none(), "{p}");
    }

    fn args(v: Value) -> CreateArgs {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_parameter_for_other_types_is_refused_naming_them() {
        let err = params(&args(json!({"type": "cube", "vertices": 12}))).unwrap_err().to_string();
        assert!(err.contains("vertices is for cylinder, cone, circle, not cube"), "{err}");
        let err = params(&args(json!({"type": "light_point", "shape": "DISK"}))).unwrap_err().to_string();
        assert!(err.contains("shape is for light_area"), "{err}");
        assert!(params(&args(json!({"type": "camera", "size": 2}))).is_err());
        assert!(params(&args(json!({"type": "light_sun", "size": 2}))).is_err());
        assert!(params(&args(json!({"type": "empty", "radius": 2}))).is_err());
    }

    #[test]
    fn the_schema_names_the_types_each_argument_is_for() {
        let schema = serde_json::to_value(schemars::schema_for!(CreateArgs)).unwrap();
        let dependent = &schema["dependentSchemas"];
        assert_eq!(dependent["vertices"]["properties"]["type"]["enum"], json!(["cylinder", "cone", "circle"]));
        assert_eq!(dependent["size_y"]["required"], json!(["shape"]));
        for (arg, kinds) in APPLIES {
            assert!(schema["properties"].get(*arg).is_some(), "{arg} is an argument");
            assert!(!kinds.contains(&K::Camera), "{arg}");
            // Every argument in the table is seen when given: aimed at a camera, it is refused by name.
            let sample = match *arg {
                "fill_type" => json!("NGON"),
                "display_type" => json!("CUBE"),
                "shape" => json!("RECTANGLE"),
                _ => json!(3),
            };
            let err = params(&args(json!({"type": "camera", *arg: sample}))).unwrap_err().to_string();
            assert!(err.contains(&format!("{arg} is for ")), "{arg}: {err}");
        }
    }

    #[test]
    fn size_y_needs_a_shape_with_two_edges() {
        assert!(params(&args(json!({"type": "light_area", "size_y": 1}))).is_err());
        assert!(params(&args(json!({"type": "light_area", "shape": "SQUARE", "size_y": 1}))).is_err());
        let p = params(&args(json!({"type": "light_area", "shape": "ELLIPSE", "size": 2, "size_y": 1}))).unwrap();
        let light = p.light.unwrap();
        assert_eq!((light.size, light.size_y), (Some(2.0), Some(1.0)));
        assert_eq!(p.size, None, "a light's size travels in its light block");
    }

    #[test]
    fn operator_parameters_travel_and_absent_ones_stay_absent() {
        let p = serde_json::to_value(params(&args(json!({"type": "cylinder", "vertices": 12, "depth": 3}))).unwrap()).unwrap();
        assert_eq!(p["primitive"], json!({"vertices": 12, "depth": 3.0}));
        assert!(p.get("empty").is_none() && p.get("light").is_none(), "{p}");
        let p = serde_json::to_value(params(&args(json!({"type": "cylinder"}))).unwrap()).unwrap();
        assert!(p.get("primitive").is_none(), "Blender's defaults apply: {p}");
        let p = serde_json::to_value(params(&args(json!({"type": "light_spot", "spot_size": 90}))).unwrap()).unwrap();
        assert!((p["light"]["spot_size"].as_f64().unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        let p = serde_json::to_value(params(&args(json!({"type": "empty", "display_type": "ARROWS"}))).unwrap()).unwrap();
        assert_eq!(p["empty"], json!({"display_type": "ARROWS"}));
    }

    #[test]
    fn the_vertex_budget_holds() {
        assert!(params(&args(json!({"type": "uv_sphere", "segments": 2000, "rings": 2000}))).is_err());
        assert!(params(&args(json!({"type": "grid", "x_subdivisions": 100000, "y_subdivisions": 100000}))).is_err());
        assert!(params(&args(json!({"type": "ico_sphere", "subdivisions": 10}))).is_err());
        assert!(params(&args(json!({"type": "ico_sphere", "subdivisions": 8}))).is_ok());
        assert!(params(&args(json!({"type": "cylinder", "vertices": 100000}))).is_ok());
        assert_eq!(vertex_estimate(&args(json!({"type": "grid", "x_subdivisions": 4, "y_subdivisions": 2}))), 15);
    }

    #[test]
    fn unknown_fields_and_types_are_refused() {
        assert!(serde_json::from_value::<CreateArgs>(json!({"type": "cube", "colour": "red"})).is_err());
        assert!(serde_json::from_value::<CreateArgs>(json!({"type": "teapot"})).is_err());
    }
}
