use capstan_freecad::{CreatePrimitive, CreatePrimitiveParams, CreatePrimitiveParamsKind as Kind, create_primitive};
use capstan_sdk::prelude::*;

/// The dimensions each kind needs (the others are refused).
const NEEDS: &[(&str, &[&str])] = &[
    ("box", &["length", "width", "height"]),
    ("cylinder", &["radius", "height"]),
    ("sphere", &["radius"]),
    ("cone", &["radius", "height"]),
    ("torus", &["radius", "tube_radius"]),
];

fn dimensions_follow_kind(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "kind", NEEDS);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = dimensions_follow_kind)]
pub struct PrimitiveArgs {
    /// box (length, width, height), cylinder (radius, height), sphere (radius), cone
    /// (radius, height, optional top_radius) or torus (radius, tube_radius).
    pub kind: Kind,
    /// The new object's name (default: FreeCAD's, such as Box or Box001).
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// box: size along X, mm.
    #[schemars(range(min = 0.001, max = 1000000.0))]
    pub length: Option<f64>,
    /// box: size along Y, mm.
    #[schemars(range(min = 0.001, max = 1000000.0))]
    pub width: Option<f64>,
    /// box, cylinder, cone: size along Z, mm.
    #[schemars(range(min = 0.001, max = 1000000.0))]
    pub height: Option<f64>,
    /// cylinder, sphere: radius; cone: base radius; torus: radius of the ring's centre line (mm).
    #[schemars(range(min = 0.001, max = 1000000.0))]
    pub radius: Option<f64>,
    /// cone: top radius, mm (default 0: a pointed cone).
    #[schemars(range(min = 0.0, max = 1000000.0))]
    pub top_radius: Option<f64>,
    /// torus: radius of the tube, mm (smaller than radius).
    #[schemars(range(min = 0.001, max = 1000000.0))]
    pub tube_radius: Option<f64>,
    /// Where the solid's origin goes, [x, y, z] in mm (default the origin). A box's
    /// origin is its corner; a cylinder's and cone's the centre of the base; a
    /// sphere's and torus's the centre.
    pub position: Option<[f64; 3]>,
    /// Rotation about X, Y and Z in degrees (default none).
    pub rotation: Option<[f64; 3]>,
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Box => "box",
        Kind::Cylinder => "cylinder",
        Kind::Sphere => "sphere",
        Kind::Cone => "cone",
        Kind::Torus => "torus",
    }
}

/// Dimensions given that the kind does not have, a torus's tube within its ring, a cone
/// that is not a cylinder.
fn check(args: &PrimitiveArgs) -> PackResult<()> {
    let kind = kind_name(args.kind);
    let given = [
        ("length", args.length),
        ("width", args.width),
        ("height", args.height),
        ("radius", args.radius),
        ("top_radius", args.top_radius),
        ("tube_radius", args.tube_radius),
    ];
    let needed = NEEDS.iter().find(|(k, _)| *k == kind).map_or(&[][..], |(_, n)| *n);
    let allowed = |field: &str| needed.contains(&field) || (kind == "cone" && field == "top_radius");
    let extra: Vec<&str> = given.iter().filter(|(f, v)| v.is_some() && !allowed(f)).map(|(f, _)| *f).collect();
    if !extra.is_empty() {
        return Err(PackError::invalid(format!("a {kind} has no {}; it takes {}", extra.join(", "), needed.join(", "))));
    }
    if let (Some(ring), Some(tube)) = (args.radius, args.tube_radius)
        && tube >= ring
    {
        return Err(PackError::invalid(format!("a torus's tube_radius ({tube} mm) must be smaller than its radius ({ring} mm)")));
    }
    if args.top_radius.is_some() && args.top_radius == args.radius {
        return Err(PackError::invalid("a cone's top_radius must differ from its radius (that is a cylinder)"));
    }
    Ok(())
}

/// Add a parametric solid (box, cylinder, sphere, cone or torus) with dimensions in millimetres.
///
/// The solid is a FreeCAD Part feature whose dimensions stay editable; it can be placed
/// and rotated. The answer names the new object and its volume in mm^3.
#[capability(
    key = "cad.primitive",
    family = "cad",
    tags = ["cad", "freecad", "primitive", "solid", "box", "cylinder", "sphere", "cone", "torus", "millimetres", "parametric"],
    aliases = ["freecad_create_primitive", "create_primitive", "cad_box", "cad_cylinder"],
    examples = ["make a 40 by 20 by 10 mm block in freecad", "a cad cylinder 8 mm across and 25 mm tall", "parametric solid sphere of radius 15 mm"],
    uses = [CreatePrimitive],
    cases = cases,
)]
fn primitive(args: PrimitiveArgs) -> PackResult<Value> {
    check(&args)?;
    let out = create_primitive(&CreatePrimitiveParams {
        kind: args.kind,
        name: args.name,
        length: args.length,
        width: args.width,
        height: args.height,
        radius: args.radius,
        top_radius: args.top_radius,
        tube_radius: args.tube_radius,
        position: args.position,
        rotation: args.rotation,
    })?;
    Ok(json!(out))
}

fn cases() -> Vec<Case> {
    let block = json!({ "kind": "box", "length": 10, "width": 20, "height": 30 });
    vec![
        Case::new("a 10 x 20 x 30 mm box is 6000 mm^3")
            .args(block.clone())
            .added(&["Box"])
            .result(json!({ "name": "Box", "kind": "box", "volume": 6000.0 }))
            .reads("cad.measure", json!({ "objects": ["Box"] }), json!({ "total_volume_mm3": 6000.0,
                "objects": [{ "bounds_mm": { "min": [0.0, 0.0, 0.0], "max": [10.0, 20.0, 30.0] }, "center_of_mass": [5.0, 10.0, 15.0], "solids": 1, "valid": true }] })),
        Case::new("a second box gets the next name")
            .setup("cad.primitive", block)
            .args(json!({ "kind": "box", "length": 1, "width": 1, "height": 1 }))
            .added(&["Box001"])
            .result(json!({ "name": "Box001", "volume": 1.0 })),
        // Before the cylinder: the required-arguments sweep takes each dimension from the
        // first passing case that gives it, and a torus needs its tube below its radius.
        Case::new("a torus stood up and raised")
            .args(json!({ "kind": "torus", "radius": 10, "tube_radius": 2, "name": "Ring", "rotation": [90, 0, 0], "position": [0, 0, 5] }))
            .added(&["Ring"])
            .result(json!({ "volume": 789.5683520871486 }))
            .reads("cad.object_info", json!({ "name": "Ring" }), json!({ "position": [0.0, 0.0, 5.0], "rotation": [90.0, 0.0, 0.0] })),
        Case::new("a named cylinder, placed")
            .args(json!({ "kind": "cylinder", "radius": 2, "height": 30, "name": "Pin", "position": [5, 10, 0] }))
            .added(&["Pin"])
            .result(json!({ "name": "Pin", "volume": 376.99111843077515 }))
            .reads("cad.object_info", json!({ "name": "Pin" }), json!({ "type": "Part::Cylinder", "position": [5.0, 10.0, 0.0] })),
        Case::new("a sphere").args(json!({ "kind": "sphere", "radius": 10 })).added(&["Sphere"]).result(json!({ "volume": 4188.790204786391 })),
        Case::new("a pointed cone").args(json!({ "kind": "cone", "radius": 5, "height": 10 })).added(&["Cone"]).result(json!({ "volume": 261.7993877991494 })),
        Case::new("a box without its height").args(json!({ "kind": "box", "length": 1, "width": 1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a sphere with a length").args(json!({ "kind": "sphere", "radius": 1, "length": 2 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a torus fatter than its ring").args(json!({ "kind": "torus", "radius": 2, "tube_radius": 3 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a zero radius").args(json!({ "kind": "sphere", "radius": 0 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unknown kind").args(json!({ "kind": "wedge", "length": 1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
