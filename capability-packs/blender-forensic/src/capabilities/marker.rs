use crate::plan::{debris, disc, safe_name, skid_tracks};
use capstan_blender::{CreateMesh, CreateMeshParams, CreateText, ParentObjects, SetMaterial, SetMaterialParams, create_mesh, set_material};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MarkerType {
    ImpactPoint,
    SkidMark,
    Debris,
}

/// A skid mark is placed by its two ends, said in the schema.
fn type_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "marker_type", &[("skid_mark", &["start", "end"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = type_needs)]
pub struct MarkerArgs {
    pub marker_type: MarkerType,
    /// Name of the marker (default "Impact Point", "Skid Mark" or "Debris").
    #[schemars(length(min = 1, max = 57), regex(pattern = r"^[A-Za-z0-9_. -]{1,57}$"))]
    pub name: Option<String>,
    /// Centre of an impact point or debris field, [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// Skid marks: where the tyre tracks start and end, [x, y, z] in metres.
    pub start: Option<[f64; 3]>,
    pub end: Option<[f64; 3]>,
    /// Impact point radius or debris field radius in metres (default 0.4 and 1.5).
    #[schemars(range(min = 0.05, max = 20.0))]
    pub size: Option<f64>,
    /// Debris pieces (3 to 64, default 12).
    #[schemars(range(min = 3, max = 64))]
    pub count: Option<usize>,
    /// Debris layout seed (the same seed gives the same field).
    pub seed: Option<u32>,
    /// A caption above the marker.
    #[schemars(length(min = 1, max = 128))]
    pub label: Option<String>,
}

/// Mark the scene: an impact point, skid marks (two tyre tracks) or a debris field.
///
/// An impact point is a red 24-sided disc of radius `size` at `location`; a skid mark two
/// dark tyre tracks 1.5 m apart from `start` to `end`; debris `count` small grey shards
/// scattered within `size` of `location`, laid out by `seed`. All lie just above z.
#[capability(
    key = "forensic.marker",
    family = "forensic",
    tags = ["marker", "impact point", "point of impact", "skid mark", "tyre marks", "tire marks", "debris", "glass", "evidence"],
    aliases = ["add_impact_marker", "forensic_marker", "add_marker", "skid_mark"],
    examples = ["mark the point of impact at 3, 2", "add skid marks from the stop line to the car", "scatter debris around the impact point"],
    uses = [CreateMesh, SetMaterial, CreateText, ParentObjects],
    cases = cases,
)]
fn marker(args: MarkerArgs) -> PackResult<Value> {
    let skid = args.marker_type == MarkerType::SkidMark;
    if skid != (args.start.is_some() && args.end.is_some()) || (!skid && (args.start.is_some() || args.end.is_some())) {
        return Err(PackError::invalid("a skid_mark takes start and end (and no location); other markers take location"));
    }
    if skid && args.location.is_some() {
        return Err(PackError::invalid("a skid_mark is placed by start and end, not location"));
    }
    if (args.count.is_some() || args.seed.is_some()) && args.marker_type != MarkerType::Debris {
        return Err(PackError::invalid("count and seed are for debris"));
    }
    let location = args.location.unwrap_or([0.0; 3]);
    let (default_name, color, emission, (vertices, faces), origin) = match args.marker_type {
        MarkerType::ImpactPoint => ("Impact Point", [0.9, 0.02, 0.02, 1.0], 2.0, disc(args.size.unwrap_or(0.4), 24), location),
        MarkerType::SkidMark => {
            let (s, e) = (args.start.unwrap(), args.end.unwrap());
            ("Skid Mark", [0.02, 0.02, 0.02, 1.0], 0.0, skid_tracks(s, e, 1.5, 0.22)?, s)
        }
        MarkerType::Debris => ("Debris", [0.55, 0.57, 0.6, 1.0], 0.0, debris(args.count.unwrap_or(12), args.size.unwrap_or(1.5), args.seed.unwrap_or(0)), location),
    };
    let name = safe_name(&args.name.clone().unwrap_or_else(|| default_name.into()))?;
    if args.label.is_some() {
        crate::label::name_for(&name)?;
    }
    let pieces = faces.len();
    let made = create_mesh(&CreateMeshParams { name, vertices, edges: None, faces: Some(faces), location: Some(origin), smooth: None })?;
    let mat = set_material(&SetMaterialParams {
        object: made.name.clone(),
        material: Some(safe_name(&format!("{} Material", made.name))?),
        base_color: Some(color),
        metallic: None,
        roughness: Some(0.8),
        emission_color: (emission > 0.0).then_some(color),
        emission_strength: (emission > 0.0).then_some(emission),
    })?;
    let label = match &args.label {
        Some(text) => Some(crate::label::add(&made.name, text, origin, 0.3, 0.0)?),
        None => None,
    };
    Ok(json!({ "name": made.name, "marker_type": args.marker_type, "pieces": pieces, "location": made.location, "mesh": made.mesh,
               "material": mat.material, "label": label }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("an impact point is a red disc where asked")
            .args(json!({ "marker_type": "impact_point", "location": [4, 1, 0], "label": "POI" }))
            .added(&["Impact Point", "Impact Point Label"]).removed(&[])
            .datablocks_added("materials", &["Impact Point Material"])
            .result(json!({ "name": "Impact Point", "pieces": 1, "location": [4.0, 1.0, 0.0], "mesh": { "vertices": 24, "faces": 1 } }))
            .reads("scene.object_info", json!({ "name": "Impact Point" }), json!({ "dimensions": [0.8, 0.8, 0.0], "materials": ["Impact Point Material"] })),
        Case::new("skid marks are two tracks from start to end")
            .args(json!({ "marker_type": "skid_mark", "start": [0, 0, 0], "end": [0, 12, 0] }))
            .added(&["Skid Mark"]).result(json!({ "pieces": 2, "location": [0.0, 0.0, 0.0], "mesh": { "vertices": 8, "faces": 2 } }))
            .reads("scene.object_info", json!({ "name": "Skid Mark" }), json!({ "dimensions": [1.72, 12.0, 0.0] })),
        Case::new("a seeded debris field")
            .args(json!({ "marker_type": "debris", "name": "Glass", "location": [2, 2, 0], "count": 20, "seed": 3 }))
            .added(&["Glass"]).result(json!({ "name": "Glass", "pieces": 20, "mesh": { "vertices": 60, "faces": 20 } })),
        Case::new("a skid mark needs its end").args(json!({ "marker_type": "skid_mark", "start": [0, 0, 0] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unsafe name is refused").args(json!({ "marker_type": "debris", "name": "x\ny" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
