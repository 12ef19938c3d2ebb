use crate::path::{Interpolation, Subject, caption_names, key};
use crate::plan::Waypoint;
use capstan_blender::{CreateText, GetObjectInfo, GetObjectInfoParams, InsertKeyframe, SetFrameRange, SetInterpolation, get_object_info};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnimateVehicleArgs {
    /// The vehicle (or any object) to move, by exact name.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub vehicle_name: String,
    /// 2 to 500 waypoints, frames increasing: where the vehicle is at each frame, its
    /// heading in degrees, and an optional speed caption (at most 16 captions).
    #[schemars(length(min = 2, max = 500))]
    pub waypoints: Vec<Waypoint>,
    /// LINEAR (constant speed between waypoints, the default) or BEZIER (eased).
    #[serde(default)]
    pub interpolation: Interpolation,
    /// Set the scene's frame range to the first..last waypoint (default true).
    pub fit_frame_range: Option<bool>,
    /// The frame the scene shows afterwards (default the first waypoint's).
    #[schemars(range(min = -1048574, max = 1048574))]
    pub show_frame: Option<i64>,
}

/// Animate a vehicle along waypoints: a location (and heading) key at each waypoint's frame.
///
/// Each waypoint keys the location [x, y, z] in metres at its frame, and the heading about
/// Z in degrees when any waypoint gives one (a waypoint without keeps the previous
/// heading). LINEAR interpolation gives constant speed between waypoints. Speed captions
/// become text objects above the waypoint. The scene ends on the first waypoint's frame
/// (or `show_frame`), with its range fitted to the path unless `fit_frame_range` is false.
#[capability(
    key = "forensic.animate_vehicle",
    family = "forensic",
    tags = ["animate vehicle", "vehicle path", "trajectory", "waypoints", "motion path", "keyframes", "speed", "reconstruction"],
    aliases = ["animate_vehicle", "forensic_animate", "vehicle_path", "drive_vehicle"],
    examples = ["animate vehicle A through these waypoints", "drive the sedan from the stop line to the point of impact in 48 frames",
                "move car B along its trajectory at 50 km/h"],
    uses = [GetObjectInfo, InsertKeyframe, SetInterpolation, CreateText, SetFrameRange],
    cases = cases,
)]
fn animate_vehicle(args: AnimateVehicleArgs) -> PackResult<Value> {
    caption_names(&args.vehicle_name, &args.waypoints)?;
    let info = get_object_info(&GetObjectInfoParams { name: args.vehicle_name.clone() })?;
    let subject = Subject { name: info.name, rotation: info.rotation, height: info.dimensions[2] };
    key(&subject, &args.waypoints, args.interpolation, args.fit_frame_range.unwrap_or(true), args.show_frame)
}

fn cases() -> Vec<Case> {
    let car = json!({ "vehicle_type": "sedan", "name": "Car A" });
    vec![
        Case::new("a sedan keyed along three waypoints sits on the first one at its frame")
            .setup("forensic.vehicle", car.clone())
            .args(json!({ "vehicle_name": "Car A", "waypoints": [
                { "frame": 1, "location": [0, 0, 0], "rotation": 0 },
                { "frame": 24, "location": [12, 0, 0], "speed_label": "50 km/h" },
                { "frame": 48, "location": [20, 6, 0], "rotation": 45 } ] }))
            .added(&["Car A Speed 24"]).changed(&["Car A"]).removed(&[])
            .fields("Car A", &["animation"])
            .result(json!({ "object": "Car A", "keys": 3, "frames": [1, 48], "rotation_keyed": true, "interpolation": "LINEAR",
                            "speed_labels": ["Car A Speed 24"], "frame_range": [1, 48], "frame_current": 1, "fcurves": 6 }))
            .reads("scene.object_info", json!({ "name": "Car A" }), json!({ "location": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0] })),
        Case::new("at a later waypoint's frame the vehicle is on that waypoint")
            .setup("forensic.vehicle", car.clone())
            .args(json!({ "vehicle_name": "Car A", "fit_frame_range": false, "show_frame": 30, "interpolation": "BEZIER", "waypoints": [
                { "frame": 10, "location": [5, 5, 0] }, { "frame": 30, "location": [25, 5, 0] } ] }))
            .changed(&["Car A"]).added(&[])
            .result(json!({ "keys": 2, "rotation_keyed": false, "fcurves": 3, "frame_current": 30, "interpolation": "BEZIER" }))
            .reads("scene.object_info", json!({ "name": "Car A" }), json!({ "location": [25.0, 5.0, 0.0], "keyframes": [{
                "property": "location", "keys_total": 6, "channels": [[[10.0, 5.0], [30.0, 25.0]], [[10.0, 5.0], [30.0, 5.0]], [[10.0, 0.0], [30.0, 0.0]]] }] })),
        Case::new("frames that go backwards are refused")
            .setup("forensic.vehicle", car.clone())
            .args(json!({ "vehicle_name": "Car A", "waypoints": [{ "frame": 20, "location": [0, 0, 0] }, { "frame": 10, "location": [1, 0, 0] }] }))
            .error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("one waypoint is not a path")
            .args(json!({ "vehicle_name": "Cube", "waypoints": [{ "frame": 1, "location": [0, 0, 0] }] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing vehicle").args(json!({ "vehicle_name": "Nobody", "waypoints": [
            { "frame": 1, "location": [0, 0, 0] }, { "frame": 2, "location": [1, 0, 0] }] })).error("not_found"),
    ]
}
