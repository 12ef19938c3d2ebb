use crate::plan::{arrow_points, length, safe_name, sub};
use capstan_blender::{
    CreateCurve, CreateCurveParams, CreateCurveParamsCurveType, CreateText, CreateTextParams, CreateTextParamsAlignX, SetMaterial, SetMaterialParams,
    create_curve, create_text, set_material,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnnotationType {
    Label,
    Speed,
    Distance,
    Arrow,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum SpeedUnit {
    #[default]
    #[serde(rename = "km/h")]
    Kmh,
    #[serde(rename = "mph")]
    Mph,
}

/// What each annotation type needs, said in the schema: a label its text, a line its
/// two ends, a speed caption its speed or its text.
fn type_needs(schema: &mut schemars::Schema) {
    use capstan_sdk::schema_rules::{needs_any_by_value, needs_by_value};
    needs_by_value(schema, "annotation_type", &[("label", &["text"]), ("distance", &["start", "end"]), ("arrow", &["start", "end"])]);
    needs_any_by_value(schema, "annotation_type", "speed", &["speed", "text"]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = type_needs)]
pub struct AnnotationArgs {
    pub annotation_type: AnnotationType,
    /// The words shown (a label's text; replaces a speed's or distance's own caption).
    #[schemars(length(min = 1, max = 256))]
    pub text: Option<String>,
    /// Name of the annotation (default "Label", "Speed", "Distance" or "Arrow").
    #[schemars(length(min = 1, max = 57), regex(pattern = r"^[A-Za-z0-9_. -]{1,57}$"))]
    pub name: Option<String>,
    /// Where a label or speed caption stands, [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// Distance and arrow: from here to `end`, [x, y, z] in metres.
    pub start: Option<[f64; 3]>,
    pub end: Option<[f64; 3]>,
    /// Speed annotations: the speed, shown as "<speed> <speed_unit>".
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub speed: Option<f64>,
    #[serde(default)]
    pub speed_unit: SpeedUnit,
    /// Letter height in metres (default 0.6).
    #[schemars(range(min = 0.05, max = 20.0))]
    pub size: Option<f64>,
    /// Linear [r, g, b, a] in 0..1 (default amber); it glows so it reads at night.
    pub color: Option<[f64; 4]>,
}

/// Annotate the scene: a label, a speed caption, a measured distance line, or an arrow.
///
/// A label or speed caption is upright text at `location`; a distance is a line from
/// `start` to `end` with its measured length ("12.35 m") at the midpoint; an arrow is a
/// line with a head at `end` (and `text` at its start if given). Lines are 4 cm tubes.
#[capability(
    key = "forensic.annotation",
    family = "forensic",
    tags = ["annotation", "label", "caption", "speed", "distance", "measurement", "dimension line", "arrow", "callout"],
    aliases = ["add_annotation", "forensic_annotation", "annotate", "measure_line"],
    examples = ["label the stop line", "show 48 km/h above car A", "draw the distance from the kerb to the impact point", "add an arrow showing the direction of travel"],
    uses = [CreateText, CreateCurve, SetMaterial],
    cases = cases,
)]
fn annotation(args: AnnotationArgs) -> PackResult<Value> {
    use AnnotationType::*;
    let line = matches!(args.annotation_type, Distance | Arrow);
    if line != (args.start.is_some() && args.end.is_some()) || (line && args.location.is_some()) || (!line && (args.start.is_some() || args.end.is_some())) {
        return Err(PackError::invalid("distance and arrow take start and end; label and speed take location"));
    }
    if args.speed.is_some() && args.annotation_type != Speed {
        return Err(PackError::invalid("speed is for annotation_type speed"));
    }
    if args.annotation_type == Speed && args.speed.is_none() && args.text.is_none() {
        return Err(PackError::invalid("a speed annotation needs speed (or text)"));
    }
    let default = match args.annotation_type { Label => "Label", Speed => "Speed", Distance => "Distance", Arrow => "Arrow" };
    let name = safe_name(&args.name.clone().unwrap_or_else(|| default.into()))?;
    let text_name = if line { safe_name(&format!("{name} Text"))? } else { name.clone() };
    let size = args.size.unwrap_or(0.6);
    let color = args.color.unwrap_or([1.0, 0.65, 0.0, 1.0]);
    let (caption, at, measured, curve_points) = match args.annotation_type {
        Label => (Some(args.text.clone().ok_or_else(|| PackError::invalid("a label needs text"))?), args.location.unwrap_or([0.0; 3]), None, None),
        Speed => {
            let unit = match args.speed_unit { SpeedUnit::Kmh => "km/h", SpeedUnit::Mph => "mph" };
            let words = args.text.clone().unwrap_or_else(|| format!("{} {unit}", trim(args.speed.unwrap_or(0.0))));
            (Some(words), args.location.unwrap_or([0.0; 3]), None, None)
        }
        Distance => {
            let (s, e) = (args.start.unwrap(), args.end.unwrap());
            let d = length(sub(e, s));
            if d < 0.05 {
                return Err(PackError::invalid("start and end are less than 5 cm apart"));
            }
            let mid = [(s[0] + e[0]) / 2.0, (s[1] + e[1]) / 2.0, (s[2] + e[2]) / 2.0 + 0.3];
            (Some(args.text.clone().unwrap_or_else(|| format!("{d:.2} m"))), mid, Some(d), Some(vec![[0.0; 3], sub(e, s)]))
        }
        Arrow => (args.text.clone(), args.start.unwrap(), None, Some(arrow_points(args.start.unwrap(), args.end.unwrap())?)),
    };
    let paint = |object: &str| -> PackResult<String> {
        Ok(set_material(&SetMaterialParams {
            object: object.to_string(), material: Some(safe_name(&format!("{object} Material"))?), base_color: Some(color), metallic: None,
            roughness: Some(0.5), emission_color: Some(color), emission_strength: Some(1.5),
        })?.material)
    };
    let mut objects = Vec::new();
    if let Some(points) = curve_points {
        let start = args.start.unwrap();
        let c = create_curve(&CreateCurveParams {
            curve_type: Some(CreateCurveParamsCurveType::Poly), points: Some(points), cyclic: None, radius: None, bevel_depth: Some(0.04),
            extrude: None, resolution: None, name: Some(name.clone()), location: Some(start),
        })?;
        paint(&c.name)?;
        objects.push(c.name);
    }
    let mut text = None;
    if let Some(words) = caption {
        let t = create_text(&CreateTextParams {
            text: words, name: Some(text_name), location: Some(at), rotation: Some([90.0, 0.0, 0.0]),
            size: Some(size), extrude: Some(0.02), bevel_depth: None, bevel_resolution: None, align_x: Some(CreateTextParamsAlignX::Center), align_y: None,
        })?;
        paint(&t.name)?;
        text = Some(t.text.clone());
        objects.push(t.name);
    }
    Ok(json!({ "annotation_type": args.annotation_type, "objects": objects, "text": text, "distance": measured.map(|d| (d * 1e4).round() / 1e4) }))
}

/// 48.0 -> "48", 47.5 -> "47.5".
fn trim(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a measured distance is a line and its length")
            .args(json!({ "annotation_type": "distance", "start": [0, 0, 0], "end": [3, 4, 0] }))
            .added(&["Distance", "Distance Text"]).removed(&[])
            .datablocks_added("materials", &["Distance Material", "Distance Text Material"])
            .result(json!({ "objects": ["Distance", "Distance Text"], "text": "5.00 m", "distance": 5.0 }))
            .reads("scene.object_info", json!({ "name": "Distance Text" }), json!({ "type": "FONT", "location": [1.5, 2.0, 0.3] })),
        Case::new("a speed caption").args(json!({ "annotation_type": "speed", "speed": 48, "location": [0, 0, 2], "name": "V1 Speed" }))
            .added(&["V1 Speed"]).result(json!({ "objects": ["V1 Speed"], "text": "48 km/h", "distance": null })),
        Case::new("an arrow with a caption at its tail")
            .args(json!({ "annotation_type": "arrow", "start": [0, 0, 0.1], "end": [6, 0, 0.1], "text": "Direction of travel" }))
            .added(&["Arrow", "Arrow Text"]).result(json!({ "objects": ["Arrow", "Arrow Text"], "text": "Direction of travel" })),
        Case::new("a label needs text").args(json!({ "annotation_type": "label", "location": [0, 0, 0] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a distance needs start and end").args(json!({ "annotation_type": "distance", "location": [0, 0, 0] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
