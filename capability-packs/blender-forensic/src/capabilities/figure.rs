use crate::plan::{FIGURE_DEPTH, FIGURE_WIDTH};
use capstan_blender::{CreateText, ParentObjects, PlaceProxy, PlaceProxyParams, PlaceProxyParamsKind, PlaceProxyParamsPose, place_proxy};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pose {
    #[default]
    Standing,
    Walking,
    Lying,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FigureArgs {
    /// Name of the person ("Pedestrian 1"); the caption is "<name> Label".
    #[schemars(length(min = 1, max = 57), regex(pattern = r"^[A-Za-z0-9_. -]{1,57}$"))]
    pub name: String,
    /// Where the figure stands (or lies), [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// Facing about Z in degrees (0: towards +X; a lying figure's head points this way).
    #[schemars(range(min = -36000.0, max = 36000.0))]
    pub rotation: Option<f64>,
    #[serde(default)]
    pub pose: Pose,
    /// Body height in metres (0.5 to 2.2, default 1.75).
    #[schemars(range(min = 0.5, max = 2.2))]
    pub height: Option<f64>,
    /// A caption shown above the figure.
    #[schemars(length(min = 1, max = 128))]
    pub label: Option<String>,
}

/// Place a human figure proxy: standing, walking or lying, of a given height.
///
/// Legs, torso and head inside a 0.3 m deep, 0.5 m wide box of the given height (a lying
/// figure is that long on the ground, head towards its heading). `label` adds a caption
/// parented to the figure.
#[capability(
    key = "forensic.figure",
    family = "forensic",
    tags = ["figure", "person", "pedestrian", "human", "witness", "victim", "body", "mannequin", "proxy"],
    aliases = ["place_figure", "forensic_figure", "add_person", "add_pedestrian"],
    examples = ["place a pedestrian on the crosswalk", "add a lying figure next to the car", "put a 1.8 m tall witness standing at the corner"],
    uses = [PlaceProxy, CreateText, ParentObjects],
    cases = cases,
)]
fn figure(args: FigureArgs) -> PackResult<Value> {
    if args.label.is_some() {
        crate::label::name_for(&args.name)?;
    }
    let height = args.height.unwrap_or(1.75);
    let location = args.location.unwrap_or([0.0; 3]);
    let pose = match args.pose {
        Pose::Standing => PlaceProxyParamsPose::Standing,
        Pose::Walking => PlaceProxyParamsPose::Walking,
        Pose::Lying => PlaceProxyParamsPose::Lying,
    };
    let placed = place_proxy(&PlaceProxyParams {
        name: args.name.clone(),
        kind: PlaceProxyParamsKind::Figure,
        dims: [FIGURE_DEPTH, FIGURE_WIDTH, height],
        location: Some(location),
        rotation: args.rotation,
        color: None,
        pose: Some(pose),
        damage_side: None,
    })?;
    let top = placed.dimensions[2];
    let label = match &args.label {
        Some(text) => Some(crate::label::add(&placed.name, text, location, top, args.rotation.unwrap_or(0.0))?),
        None => None,
    };
    Ok(json!({ "name": placed.name, "pose": args.pose, "height": height, "dimensions": placed.dimensions, "location": placed.location,
               "rotation": placed.rotation, "label": label }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a standing pedestrian is as tall as asked")
            .args(json!({ "name": "Pedestrian 1", "location": [1, 4, 0], "height": 1.8, "label": "P1" }))
            .added(&["Pedestrian 1", "Pedestrian 1 Label"]).removed(&[])
            .result(json!({ "name": "Pedestrian 1", "pose": "standing", "dimensions": [0.3, 0.5, 1.8], "label": "Pedestrian 1 Label" }))
            .reads("scene.object_info", json!({ "name": "Pedestrian 1" }), json!({ "dimensions": [0.3, 0.5, 1.8], "location": [1.0, 4.0, 0.0] })),
        Case::new("a lying figure is its height long")
            .args(json!({ "name": "Victim", "pose": "lying", "rotation": 45 }))
            .added(&["Victim"]).result(json!({ "pose": "lying", "dimensions": [1.75, 0.5, 0.3], "rotation": 45.0, "label": null })),
        Case::new("a 3 m person is refused").args(json!({ "name": "Giant", "height": 3 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unsafe name is refused").args(json!({ "name": "a/b" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
