use crate::plan::driver_view;
use capstan_blender::{GetObjectInfo, GetObjectInfoParams, SetCamera, SetCameraParams, get_object_info, set_camera};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CameraType {
    BirdEye,
    DriverPov,
    Witness,
    Orbit,
    /// Bird's eye and orbit, plus driver_pov with driver_vehicle and witness with location.
    #[default]
    All,
}

/// A driver's view needs the vehicle, a witness view where the witness stands: said in the schema.
fn type_needs(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::needs_by_value(schema, "camera_type", &[("driver_pov", &["driver_vehicle"]), ("witness", &["location"])]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = type_needs)]
pub struct CamerasArgs {
    #[serde(default)]
    pub camera_type: CameraType,
    /// What the views look at, [x, y, z] in metres (default the origin).
    pub target: Option<[f64; 3]>,
    /// driver_pov: the vehicle whose driver's eyes the camera takes.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub driver_vehicle: Option<String>,
    /// witness: where the witness stands, [x, y, z] in metres (eyes 1.6 m above it).
    pub location: Option<[f64; 3]>,
}

const EYE: f64 = 1.6;

/// Set up the standard forensic views: bird's eye, driver's point of view, witness, orbit.
///
/// Bird's eye: 40 m straight above the target. Orbit: an elevated three-quarter view
/// (30 m out to the south-east, 20 m up; a still view, not an animated orbit). Driver: at
/// the driver's eyes of `driver_vehicle`, looking 30 m ahead along its heading. Witness:
/// eyes 1.6 m above `location`, looking at the target. Cameras are named "Forensic Bird
/// Eye", "Forensic Orbit", "Forensic Driver POV", "Forensic Witness" and re-set on later
/// calls; the first one set becomes the scene camera.
#[capability(
    key = "forensic.cameras",
    family = "forensic",
    tags = ["forensic cameras", "bird's eye", "top view", "driver pov", "driver's view", "witness view", "orbit view", "standard views"],
    aliases = ["setup_cameras", "forensic_cameras", "forensic_views"],
    examples = ["set up the standard forensic views", "add a bird's eye view of the crash", "show the driver's view from vehicle A", "a witness view from the bus stop"],
    uses = [SetCamera, GetObjectInfo],
    cases = cases,
)]
fn cameras(args: CamerasArgs) -> PackResult<Value> {
    use CameraType::*;
    if args.camera_type == DriverPov && args.driver_vehicle.is_none() {
        return Err(PackError::invalid("a driver_pov view needs driver_vehicle"));
    }
    if args.camera_type == Witness && args.location.is_none() {
        return Err(PackError::invalid("a witness view needs location (where the witness stands)"));
    }
    if args.driver_vehicle.is_some() && !matches!(args.camera_type, DriverPov | All) || args.location.is_some() && !matches!(args.camera_type, Witness | All) {
        return Err(PackError::invalid("driver_vehicle is for driver_pov and location for witness views"));
    }
    let t = args.target.unwrap_or([0.0; 3]);
    let wanted = |k: CameraType| args.camera_type == k || args.camera_type == All;
    let mut views: Vec<(&str, [f64; 3], [f64; 3], f64)> = Vec::new();
    if wanted(BirdEye) {
        views.push(("Forensic Bird Eye", [t[0], t[1], t[2] + 40.0], t, 35.0));
    }
    if wanted(Orbit) {
        views.push(("Forensic Orbit", [t[0] + 21.2, t[1] - 21.2, t[2] + 20.0], t, 35.0));
    }
    if wanted(DriverPov) && let Some(vehicle) = &args.driver_vehicle {
        let info = get_object_info(&GetObjectInfoParams { name: vehicle.clone() })?;
        let (eye, ahead) = driver_view(info.location, info.rotation[2], info.dimensions);
        views.push(("Forensic Driver POV", eye, ahead, 24.0));
    }
    if wanted(Witness) && let Some(at) = args.location {
        views.push(("Forensic Witness", [at[0], at[1], at[2] + EYE], t, 50.0));
    }
    let mut out = Vec::new();
    for (i, (name, location, look_at, lens)) in views.into_iter().enumerate() {
        let cam = set_camera(&SetCameraParams {
            name: Some(name.into()), location: Some(location), rotation: None, look_at: Some(look_at), lens: Some(lens), dof: None, make_active: Some(i == 0),
        })?;
        out.push(json!({ "name": cam.name, "created": cam.created, "location": cam.location, "look_at": look_at, "lens": cam.lens, "active": cam.active }));
    }
    Ok(json!({ "camera_type": args.camera_type, "cameras": out }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("all views of a scene with a driver and a witness")
            .setup("forensic.vehicle", json!({ "vehicle_type": "sedan", "name": "Car A", "location": [-10, 0, 0] }))
            .args(json!({ "camera_type": "all", "target": [0, 0, 0], "driver_vehicle": "Car A", "location": [5, 8, 0] }))
            .added(&["Forensic Bird Eye", "Forensic Orbit", "Forensic Driver POV", "Forensic Witness"]).removed(&[])
            .result(json!({ "cameras": [
                { "name": "Forensic Bird Eye", "created": true, "location": [0.0, 0.0, 40.0], "active": true },
                { "name": "Forensic Orbit", "location": [21.2, -21.2, 20.0], "active": false },
                { "name": "Forensic Driver POV", "location": [-8.56, 0.4625, 1.25], "look_at": [21.44, 0.4625, 1.25], "lens": 24.0 },
                { "name": "Forensic Witness", "location": [5.0, 8.0, 1.6], "look_at": [0.0, 0.0, 0.0] } ] }))
            .reads("scene.info", json!({}), json!({ "camera": "Forensic Bird Eye" })),
        Case::new("a bird's eye view is re-set, not duplicated")
            .setup("forensic.cameras", json!({ "camera_type": "bird_eye" }))
            .args(json!({ "camera_type": "bird_eye", "target": [10, 5, 0] }))
            .added(&[]).changed(&["Forensic Bird Eye"])
            .result(json!({ "cameras": [{ "name": "Forensic Bird Eye", "created": false, "location": [10.0, 5.0, 40.0] }] })),
        Case::new("a witness view needs where the witness stands").args(json!({ "camera_type": "witness" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("the driver's vehicle must exist").args(json!({ "camera_type": "driver_pov", "driver_vehicle": "Nobody" })).error("not_found"),
    ]
}
