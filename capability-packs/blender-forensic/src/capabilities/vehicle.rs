use crate::plan::VehicleType;
use capstan_blender::{CreateText, ParentObjects, PlaceProxy, PlaceProxyParams, PlaceProxyParamsDamageSide as Side, PlaceProxyParamsKind, place_proxy};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImpactSide {
    Front,
    Rear,
    Left,
    Right,
}

/// An impact side is for a damaged vehicle, said in the schema.
fn side_needs_damage(schema: &mut schemars::Schema) {
    let rule = json!({ "if": { "required": ["impact_side"] }, "then": { "required": ["damaged"], "properties": { "damaged": { "const": true } } } });
    capstan_sdk::schema_rules::add_rule(schema, rule);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = side_needs_damage)]
pub struct VehicleArgs {
    pub vehicle_type: VehicleType,
    /// Name of the vehicle ("Vehicle A"); its caption is "<name> Label".
    #[schemars(length(min = 1, max = 57), regex(pattern = r"^[A-Za-z0-9_. -]{1,57}$"))]
    pub name: String,
    /// Where it stands, [x, y, z] in metres (the proxy rests on this point).
    pub location: Option<[f64; 3]>,
    /// Heading about Z in degrees (0: front towards +X).
    #[schemars(range(min = -36000.0, max = 36000.0))]
    pub rotation: Option<f64>,
    /// Body colour, linear [r, g, b, a] in 0..1.
    pub color: Option<[f64; 4]>,
    /// Mark the impact side as damaged (red).
    #[serde(default)]
    pub damaged: bool,
    /// Which side took the impact (default front when damaged).
    pub impact_side: Option<ImpactSide>,
    /// A caption shown above the vehicle.
    #[schemars(length(min = 1, max = 128))]
    pub label: Option<String>,
}

/// Place a vehicle proxy of real dimensions: sedan, SUV, truck, pickup, van, motorcycle, bicycle, bus, semi.
///
/// The proxy (wheels, body, cabin; front towards +X before `rotation`) fills exactly its
/// class's [length, width, height] from the pack's table (sedan 4.8 x 1.85 x 1.45 m, SUV
/// 4.9 x 1.95 x 1.75, truck 8.5 x 2.5 x 3.4, pickup 5.4 x 2.0 x 1.85, van 5.2 x 2.0 x 2.1,
/// motorcycle 2.1 x 0.8 x 1.15, bicycle 1.75 x 0.6 x 1.05, bus 12.0 x 2.55 x 3.2, semi
/// 16.5 x 2.6 x 4.0). `damaged` paints the `impact_side` red; `label` adds a caption
/// parented to the vehicle.
#[capability(
    key = "forensic.vehicle",
    family = "forensic",
    tags = ["vehicle", "car", "sedan", "suv", "truck", "pickup", "van", "motorcycle", "bicycle", "bus", "semi", "proxy", "damage", "accident"],
    aliases = ["place_vehicle", "forensic_vehicle", "add_vehicle", "add_car"],
    examples = ["place a red sedan at the crossing", "put vehicle B, a damaged suv hit on the left side", "add a bus heading north", "place a motorcycle proxy labelled V2"],
    uses = [PlaceProxy, CreateText, ParentObjects],
    cases = cases,
)]
fn vehicle(args: VehicleArgs) -> PackResult<Value> {
    if args.impact_side.is_some() && !args.damaged {
        return Err(PackError::invalid("impact_side needs damaged: true"));
    }
    let label_name = args.label.as_ref().map(|_| crate::label::name_for(&args.name)).transpose()?;
    let dims = args.vehicle_type.dims();
    let side = args.damaged.then(|| match args.impact_side.unwrap_or(ImpactSide::Front) {
        ImpactSide::Front => Side::Front,
        ImpactSide::Rear => Side::Rear,
        ImpactSide::Left => Side::Left,
        ImpactSide::Right => Side::Right,
    });
    let kind = if args.vehicle_type.two_wheeled() { PlaceProxyParamsKind::TwoWheeler } else { PlaceProxyParamsKind::Vehicle };
    let location = args.location.unwrap_or([0.0; 3]);
    let placed = place_proxy(&PlaceProxyParams {
        name: args.name.clone(),
        kind,
        dims,
        location: Some(location),
        rotation: args.rotation,
        color: args.color,
        pose: None,
        damage_side: side,
    })?;
    let label = match (&args.label, label_name) {
        (Some(text), Some(_)) => Some(crate::label::add(&placed.name, text, location, dims[2], args.rotation.unwrap_or(0.0))?),
        _ => None,
    };
    Ok(json!({
        "name": placed.name, "vehicle_type": args.vehicle_type, "dimensions": placed.dimensions, "table_dimensions": dims,
        "location": placed.location, "rotation": placed.rotation, "materials": placed.materials,
        "damaged_faces": placed.damaged_faces, "impact_side": args.damaged.then(|| args.impact_side.unwrap_or(ImpactSide::Front)), "label": label,
    }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a damaged sedan has the table's dimensions and a caption")
            .args(json!({ "vehicle_type": "sedan", "name": "Vehicle A", "location": [3, -2, 0], "rotation": 90, "color": [0.6, 0.05, 0.05, 1],
                          "damaged": true, "impact_side": "left", "label": "V1 Sedan" }))
            .added(&["Vehicle A", "Vehicle A Label"]).removed(&[])
            .datablocks_added("materials", &["Vehicle A Damage", "Vehicle A Paint"])
            .result(json!({ "name": "Vehicle A", "dimensions": [4.8, 1.85, 1.45], "table_dimensions": [4.8, 1.85, 1.45], "rotation": 90.0,
                            "damaged_faces": 1, "impact_side": "left", "label": "Vehicle A Label", "location": [3.0, -2.0, 0.0] }))
            .reads("scene.object_info", json!({ "name": "Vehicle A" }), json!({ "type": "MESH", "dimensions": [4.8, 1.85, 1.45],
                   "location": [3.0, -2.0, 0.0], "children": ["Vehicle A Label"], "materials": ["Vehicle A Paint", "Vehicle A Damage"] })),
        Case::new("a semi and a bicycle are their table's size")
            .setup("forensic.vehicle", json!({ "vehicle_type": "semi", "name": "Rig" }))
            .args(json!({ "vehicle_type": "bicycle", "name": "Bike" }))
            .added(&["Bike"]).result(json!({ "dimensions": [1.75, 0.6, 1.05], "damaged_faces": 0, "label": null }))
            .reads("scene.object_info", json!({ "name": "Rig" }), json!({ "dimensions": [16.5, 2.6, 4.0] })),
        Case::new("an impact side without damage is refused")
            .args(json!({ "vehicle_type": "van", "name": "Van", "impact_side": "rear" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unknown vehicle class is refused").args(json!({ "vehicle_type": "tank", "name": "T" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unsafe name is refused before any bridge call")
            .args(json!({ "vehicle_type": "sedan", "name": "x'); import os; os.system('id" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
