use crate::path::{Interpolation, Subject, caption_names, key};
use crate::plan::{Waypoint, safe_name};
use capstan_blender::{
    CreateText, GetObjectInfo, GetObjectInfoParams, GhostCopy, GhostCopyParams, InsertKeyframe, SetFrameRange, SetInterpolation, get_object_info, ghost_copy,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GhostArgs {
    /// The vehicle (a mesh proxy) to copy, by exact name.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub source_vehicle: String,
    /// Name of the copy (default "<source> Ghost").
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub name: Option<String>,
    /// Opacity of the copy, 0 (invisible) to 1 (opaque); default 0.3.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub ghost_alpha: Option<f64>,
    /// Tint, linear [r, g, b] in 0..1 (default a light blue).
    pub color: Option<[f64; 3]>,
    /// The what-if path: 2 to 500 waypoints (frames increasing). Without them the ghost
    /// keeps the source's animation.
    #[schemars(length(min = 2, max = 500))]
    pub waypoints: Option<Vec<Waypoint>>,
    /// LINEAR (the default) or BEZIER, for the waypoints.
    #[serde(default)]
    pub interpolation: Interpolation,
}

/// Make a translucent "what-if" copy of a vehicle, optionally driving its own path.
///
/// The copy has its own mesh and one see-through material (`ghost_alpha`, tint `color`) in
/// place of the source's paint. Without `waypoints` it follows the source's animation;
/// with them its copied animation is dropped and it is keyed along the new path (as
/// forensic.animate_vehicle does, the source untouched).
#[capability(
    key = "forensic.ghost",
    family = "forensic",
    tags = ["ghost", "what if", "what-if", "alternative scenario", "translucent copy", "hypothetical", "counterfactual"],
    aliases = ["ghost_scenario", "forensic_ghost", "ghost_vehicle", "what_if"],
    examples = ["show a ghost of car A where it would have stopped", "make a translucent what-if copy of the truck", "ghost vehicle B on an alternative path"],
    uses = [GhostCopy, GetObjectInfo, InsertKeyframe, SetInterpolation, CreateText, SetFrameRange],
    cases = cases,
)]
fn ghost(args: GhostArgs) -> PackResult<Value> {
    let name = safe_name(&args.name.clone().unwrap_or_else(|| format!("{} Ghost", args.source_vehicle)))?;
    if let Some(points) = &args.waypoints {
        caption_names(&name, points)?;
    }
    let made = ghost_copy(&GhostCopyParams {
        source: args.source_vehicle.clone(),
        name: Some(name),
        alpha: args.ghost_alpha,
        color: args.color,
        keep_animation: Some(args.waypoints.is_none()),
    })?;
    let path = match &args.waypoints {
        Some(points) => {
            let info = get_object_info(&GetObjectInfoParams { name: made.name.clone() })?;
            let subject = Subject { name: made.name.clone(), rotation: info.rotation, height: made.dimensions[2] };
            Some(key(&subject, points, args.interpolation, false, None)?)
        }
        None => None,
    };
    Ok(json!({ "name": made.name, "source": made.source, "alpha": made.alpha, "material": made.material,
               "animated": made.animated || path.is_some(), "dimensions": made.dimensions, "path": path }))
}

fn cases() -> Vec<Case> {
    let car = json!({ "vehicle_type": "suv", "name": "Car B" });
    vec![
        Case::new("a ghost of a keyed vehicle on its own path")
            .setup("forensic.vehicle", car.clone())
            .setup("forensic.animate_vehicle", json!({ "vehicle_name": "Car B", "waypoints": [
                { "frame": 1, "location": [0, 0, 0] }, { "frame": 40, "location": [30, 0, 0] }] }))
            .args(json!({ "source_vehicle": "Car B", "ghost_alpha": 0.25, "waypoints": [
                { "frame": 1, "location": [0, 0, 0] }, { "frame": 40, "location": [18, 0, 0] }] }))
            .added(&["Car B Ghost"]).changed(&[]).removed(&[])
            .datablocks_added("materials", &["Car B Ghost Material"])
            .result(json!({ "name": "Car B Ghost", "source": "Car B", "alpha": 0.25, "animated": true, "dimensions": [4.9, 1.95, 1.75],
                            "path": { "keys": 2, "frames": [1, 40] } }))
            .reads("scene.object_info", json!({ "name": "Car B Ghost" }), json!({ "materials": ["Car B Ghost Material"], "keyframes": [{
                "property": "location", "channels": [[[1.0, 0.0], [40.0, 18.0]], [[1.0, 0.0], [40.0, 0.0]], [[1.0, 0.0], [40.0, 0.0]]] }] }))
            .reads("scene.object_info", json!({ "name": "Car B" }), json!({ "keyframes": [{
                "property": "location", "channels": [[[1.0, 0.0], [40.0, 30.0]], [[1.0, 0.0], [40.0, 0.0]], [[1.0, 0.0], [40.0, 0.0]]] }] })),
        Case::new("a named ghost without a path")
            .setup("forensic.vehicle", car.clone())
            .args(json!({ "source_vehicle": "Car B", "name": "What If B", "color": [1, 0.5, 0] }))
            .added(&["What If B"]).result(json!({ "name": "What If B", "alpha": 0.3, "animated": false, "path": null })),
        Case::new("a ghost of a missing vehicle").args(json!({ "source_vehicle": "Nobody" })).error("not_found"),
        Case::new("a ghost of a camera is refused").args(json!({ "source_vehicle": "Camera" })).error("invalid_target"),
        Case::new("an opacity above 1 is refused").args(json!({ "source_vehicle": "Cube", "ghost_alpha": 1.5 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
