use capstan_blender::{BuildRoad, BuildRoadParams, BuildRoadParamsRoadType, build_road};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoadType {
    #[default]
    Straight,
    Intersection,
    TJunction,
    Curve,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoadArgs {
    /// straight (along X, centred on location), intersection (two crossing roads),
    /// t_junction (a branch towards +Y) or curve (a 90-degree left bend starting along +X).
    #[serde(default)]
    pub road_type: RoadType,
    /// Lanes across the road (1 to 8, default 2).
    #[schemars(range(min = 1, max = 8))]
    pub lanes: Option<i64>,
    /// End to end in metres (5 to 1000, default 50); a curve's centreline length.
    #[schemars(range(min = 5.0, max = 1000.0))]
    pub length: Option<f64>,
    /// Metres per lane (2 to 5, default 3.5).
    #[schemars(range(min = 2.0, max = 5.0))]
    pub lane_width: Option<f64>,
    /// Paint edge lines, the centre line and dashed lane dividers (default true).
    pub markings: Option<bool>,
    /// Name of the road (default "Road"); the markings are "<name> Markings".
    #[schemars(length(min = 1, max = 54), regex(pattern = r"^[A-Za-z0-9_. -]{1,54}$"))]
    pub name: Option<String>,
    /// Where the road's centre (a curve's start) is, [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
}

/// Build a road: straight, intersection, T-junction or curve, with lanes and painted markings.
///
/// The surface is one mesh (dark asphalt) and the markings a second ("<name> Markings",
/// white paint, 5 mm above): edge lines 0.3 m inside both edges, a solid centre line on
/// roads with an even number of lanes, dashed dividers (3 m paint, 6 m gap) between the
/// other lanes. The width is lanes x lane_width; junction arms carry the same markings.
#[capability(
    key = "forensic.road",
    family = "forensic",
    tags = ["road", "street", "lanes", "lane markings", "intersection", "junction", "crossroads", "carriageway", "asphalt", "accident scene"],
    aliases = ["build_road", "forensic_road", "create_road", "workflow.forensic_scene"],
    examples = ["build a two lane road for the accident scene", "make a four way intersection", "lay out a t-junction with markings", "a curved road 80 metres long"],
    uses = [BuildRoad],
    cases = cases,
)]
fn road(args: RoadArgs) -> PackResult<Value> {
    let road_type = match args.road_type {
        RoadType::Straight => BuildRoadParamsRoadType::Straight,
        RoadType::Intersection => BuildRoadParamsRoadType::Intersection,
        RoadType::TJunction => BuildRoadParamsRoadType::TJunction,
        RoadType::Curve => BuildRoadParamsRoadType::Curve,
    };
    Ok(json!(build_road(&BuildRoadParams {
        name: Some(args.name.unwrap_or_else(|| "Road".into())),
        road_type: Some(road_type),
        lanes: args.lanes,
        length: args.length,
        lane_width: args.lane_width,
        markings: args.markings,
        location: args.location,
    })?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a straight two-lane road with its markings")
            .args(json!({ "name": "Main St", "length": 60, "lanes": 2 }))
            .added(&["Main St", "Main St Markings"]).changed(&[]).removed(&[])
            .datablocks_added("materials", &["Main St Asphalt", "Main St Paint"])
            .result(json!({ "road": "Main St", "markings": "Main St Markings", "road_type": "straight", "width": 7.0, "dimensions": [60.0, 7.0, 0.0], "marking_pieces": 3 }))
            .reads("scene.object_info", json!({ "name": "Main St" }), json!({ "type": "MESH", "dimensions": [60.0, 7.0, 0.0], "materials": ["Main St Asphalt"] })),
        Case::new("a four-way intersection without markings")
            .args(json!({ "road_type": "intersection", "length": 40, "lanes": 4, "lane_width": 3, "markings": false }))
            .added(&["Road"]).result(json!({ "markings": null, "dimensions": [40.0, 40.0, 0.0], "mesh": { "faces": 5 } })),
        Case::new("a junction shorter than its width is refused")
            .args(json!({ "road_type": "t_junction", "lanes": 8, "lane_width": 5, "length": 20 })).error("invalid_params"),
        Case::new("nine lanes are refused").args(json!({ "lanes": 9 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unsafe name is refused before Blender").args(json!({ "name": "Road\"; import os" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
