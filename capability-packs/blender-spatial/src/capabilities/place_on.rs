use capstan_blender::{PlaceOn, PlaceOnParams, PlaceOnParamsAlign as Align, place_on as bridge_place_on};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceOnArgs {
    /// The object to move.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// The support it rests on (a table, a floor, a shelf).
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub target: String,
    /// Gap above the surface in metres (default 0: touching).
    #[schemars(range(min = -1000.0, max = 1000.0))]
    pub offset_z: Option<f64>,
    /// center (default): over the middle of the support; keep_xy: straight down from where it is.
    pub align: Option<Align>,
    /// Only compute where it would go; change nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// Rest an object on the top surface of another (a cup on a table, a box on the floor).
///
/// The surface height comes from ray casts over the object's footprint onto the
/// support's evaluated geometry, not from its bounding box, so a tabletop's real height
/// counts. Answers the new location, the move, the object's new bounds and the surface
/// height, all in metres.
#[capability(
    key = "spatial.place_on",
    family = "spatial",
    tags = ["place on", "rest on", "put on top", "on top of", "drop onto", "support", "snap to surface"],
    aliases = ["place_on", "put_on", "snap_to_surface", "find_placement_position"],
    examples = ["rest the cup on the table", "drop the box onto the floor", "place the lamp on top of the desk"],
    uses = [PlaceOn],
    cases = cases,
)]
fn place_on(args: PlaceOnArgs) -> PackResult<Value> {
    if args.object == args.target {
        return Err(PackError::invalid("an object cannot rest on itself"));
    }
    let mut out = json!(bridge_place_on(&PlaceOnParams {
        object: args.object,
        target: args.target,
        offset_z: args.offset_z,
        align: args.align,
        dry_run: Some(args.dry_run),
    })?);
    out["units"] = json!("metres");
    Ok(out)
}

fn cases() -> Vec<Case> {
    let floor = json!({ "type": "plane", "name": "Floor", "location": [0, 0, -3], "size": 10 });
    vec![
        Case::new("the cube rests on a plane")
            .setup("scene.create_object", floor.clone())
            .args(json!({ "object": "Cube", "target": "Floor" }))
            .changed(&["Cube"]).added(&[]).fields("Cube", &["transform"])
            .result(json!({ "location": [0.0, 0.0, -2.0], "moved_by": [0.0, 0.0, -2.0], "support_z": -3.0, "dry_run": false }))
            .reads("spatial.assert", json!({ "constraints": [{ "type": "on_top_of", "object": "Cube", "support": "Floor" }] }), json!({ "passed": true }))
            .reads("spatial.check_collision", json!({ "a": "Cube", "b": "Floor" }), json!({ "intersects": false })),
        Case::new("a small box is centred on a raised box")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Crate", "location": [6, 4, 9], "size": 0.5 }))
            .args(json!({ "object": "Crate", "target": "Cube", "offset_z": 0.1 }))
            .changed(&["Crate"])
            .result(json!({ "location": [0.0, 0.0, 1.35], "support_z": 1.0, "bounds": { "min": [-0.25, -0.25, 1.1] } })),
        Case::new("a dry run changes nothing")
            .setup("scene.create_object", floor)
            .args(json!({ "object": "Cube", "target": "Floor", "align": "keep_xy", "dry_run": true }))
            .changed(&[])
            .result(json!({ "location": [0.0, 0.0, -2.0], "dry_run": true }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "location": [0.0, 0.0, 0.0] })),
        Case::new("a wide roof rests on a narrow pillar under one end")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Pillar", "location": [20, 0, 0], "size": 0.5 }))
            .setup("scene.create_object", json!({ "type": "plane", "name": "Roof", "location": [24, 0, 5], "size": 9 }))
            .args(json!({ "object": "Roof", "target": "Pillar", "align": "keep_xy" }))
            .changed(&["Roof"])
            .result(json!({ "location": [24.0, 0.0, 0.25], "support_z": 0.25 })),
        Case::new("a footprint beside the support is refused, naming both")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Far", "location": [30, 0, 0], "size": 1 }))
            .args(json!({ "object": "Far", "target": "Cube", "align": "keep_xy" }))
            .error("invalid_target"),
        Case::new("a camera is no support").args(json!({ "object": "Cube", "target": "Camera" })).error("invalid_target"),
    ]
}
