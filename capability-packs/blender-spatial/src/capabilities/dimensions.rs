use crate::dimensions_table::{self as table, CATEGORIES, Entry, TABLE};
use capstan_blender::{BoundsWorld, BoundsWorldParams, GetObjectInfo, GetObjectInfoParams, ModifyObject, ModifyObjectParams, bounds_world, get_object_info, modify_object};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The real size of one `object_type`.
    Get,
    /// Every entry (of one `category`).
    List,
    /// Measure `object` and name the things of that size.
    Estimate,
    /// Scale `object` uniformly so its largest dimension is the real one of `object_type`.
    ScaleToReal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Furniture,
    Kitchen,
    Electronics,
    Vehicles,
    People,
    Architecture,
    Nature,
    Objects,
}

/// What each action needs besides itself, said in the schema: a call without it is refused
/// before any bridge call.
fn action_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "action", &[("get", &["object_type"]), ("estimate", &["object"]), ("scale_to_real", &["object", "object_type"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = action_needs)]
pub struct DimensionsArgs {
    pub action: Action,
    /// estimate, scale_to_real: the object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: Option<String>,
    /// get, scale_to_real: a table key such as chair_dining, car_sedan, person_adult, mug.
    #[schemars(length(min = 1, max = 64), regex(pattern = r"^[a-z0-9_]{1,64}$"))]
    pub object_type: Option<String>,
    /// list: only this category.
    pub category: Option<Category>,
}

fn entry_doc(e: &Entry) -> Value {
    json!({ "object_type": e.key, "category": e.category, "dimensions": e.dims, "note": e.note })
}

fn entry(key: &Option<String>) -> PackResult<&'static Entry> {
    let key = key.as_deref().ok_or_else(|| PackError::invalid("this action needs object_type"))?;
    table::get(key).ok_or_else(|| {
        let known: Vec<&str> = TABLE.iter().map(|e| e.key).collect();
        PackError::invalid(format!("unknown object_type {key:?}; known: {}", known.join(", ")))
    })
}

fn measure(object: &str) -> PackResult<[f64; 3]> {
    let b = bounds_world(&BoundsWorldParams { objects: Some(vec![object.to_string()]) })?;
    b.dimensions.ok_or_else(|| PackError::failed(format!("{object} has no geometry to measure")))
}

fn category_name(c: Category) -> &'static str {
    CATEGORIES[c as usize]
}

/// Real-world sizes of common things: look one up, list them, name what an object's size matches, or scale an object to real size.
///
/// Dimensions are [width X, depth Y, height Z] in metres from a table in this pack
/// (furniture, kitchen, electronics, vehicles, people, architecture, nature, objects).
/// estimate compares the measured world bounds orientation-free; scale_to_real changes
/// the object's scale uniformly (largest dimension to the real one) and reads back the result.
#[capability(
    key = "spatial.dimensions",
    family = "spatial",
    tags = ["dimensions", "real world size", "scale", "realistic", "life size", "how big", "reference sizes"],
    aliases = ["dimensions", "scene_dimensions", "real_world_size", "scale_to_real"],
    examples = ["how big is a real dining chair", "scale the car to real-world size", "is this object a realistic size"],
    uses = [BoundsWorld, GetObjectInfo, ModifyObject],
    cases = cases,
)]
fn dimensions(args: DimensionsArgs) -> PackResult<Value> {
    match args.action {
        Action::Get => Ok(json!({ "entry": entry_doc(entry(&args.object_type)?), "units": "metres" })),
        Action::List => {
            let rows: Vec<Value> = TABLE.iter().filter(|e| args.category.is_none_or(|c| e.category == category_name(c))).map(entry_doc).collect();
            Ok(json!({ "total": rows.len(), "entries": rows, "categories": CATEGORIES, "units": "metres" }))
        }
        Action::Estimate => {
            let object = args.object.ok_or_else(|| PackError::invalid("estimate needs object"))?;
            let dims = measure(&object)?;
            let matches: Vec<Value> = table::nearest(dims, 3).into_iter().map(|(e, u)| {
                json!({ "object_type": e.key, "dimensions": e.dims, "unlikeness": (u * 1e4).round() / 1e4, "scale_to_match": table::scale_factor(dims, e.dims) })
            }).collect();
            Ok(json!({ "object": object, "dimensions": dims, "matches": matches, "units": "metres" }))
        }
        Action::ScaleToReal => {
            let object = args.object.clone().ok_or_else(|| PackError::invalid("scale_to_real needs object"))?;
            let e = entry(&args.object_type)?;
            let before = measure(&object)?;
            let factor = table::scale_factor(before, e.dims).ok_or_else(|| PackError::failed(format!("{object} has zero size")))?;
            let info = get_object_info(&GetObjectInfoParams { name: object.clone() })?;
            let scale = info.scale.map(|s| s * factor);
            modify_object(&ModifyObjectParams { name: object.clone(), new_name: None, location: None, rotation: None, scale: Some(scale), visible: None })?;
            let after = measure(&object)?;
            Ok(json!({
                "object": object, "object_type": e.key, "real_dimensions": e.dims, "factor": factor,
                "dimensions_before": before, "dimensions_after": after, "scale": scale, "units": "metres",
            }))
        }
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a dining chair's size").args(json!({ "action": "get", "object_type": "chair_dining" }))
            .changed(&[]).result(json!({ "entry": { "dimensions": [0.45, 0.52, 0.9], "category": "furniture" } })),
        Case::new("list vehicles").args(json!({ "action": "list", "category": "vehicles" }))
            .result(json!({ "total": 6 })),
        Case::new("a sedan-sized box is recognised, lying any way round")
            .setup("scene.modify_object", json!({ "name": "Cube", "scale": [2.35, 0.725, 0.9] }))
            .args(json!({ "action": "estimate", "object": "Cube" }))
            .changed(&[]).result(json!({ "dimensions": [4.7, 1.45, 1.8], "matches": [{ "object_type": "car_sedan", "scale_to_match": 1.0, "unlikeness": 0.0 }, {}, {}] })),
        Case::new("scale the cube to a dining chair's height")
            .args(json!({ "action": "scale_to_real", "object": "Cube", "object_type": "chair_dining" }))
            .changed(&["Cube"]).fields("Cube", &["transform"])
            .result(json!({ "factor": 0.45, "dimensions_after": [0.9, 0.9, 0.9] }))
            .reads("spatial.bounds", json!({ "objects": ["Cube"] }), json!({ "dimensions": [0.9, 0.9, 0.9] }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "scale": [0.45, 0.45, 0.45] })),
        Case::new("an unknown object type").args(json!({ "action": "get", "object_type": "spaceship" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing object").args(json!({ "action": "estimate", "object": "Ghost" })).error("not_found"),
    ]
}
