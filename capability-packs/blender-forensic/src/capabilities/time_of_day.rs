use crate::plan::{TimeOfDay, sky_rotation, sun_rotation};
use capstan_blender::{
    CreateLight, CreateLightParams, CreateLightParamsType, GetObjectInfo, GetObjectInfoParams, ModifyObject, ModifyObjectParams, SetLight, SetLightParams,
    SetWorld, SetWorldParams, SetWorldSky, SetWorldSkyParams, AppErrorCode, create_light, get_object_info, modify_object, set_light, set_world, set_world_sky,
};
use capstan_sdk::prelude::*;

/// The sun this capability owns; a second call re-sets it instead of adding another.
const SUN: &str = "Forensic Sun";

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeOfDayArgs {
    pub time: TimeOfDay,
    /// Sun strength in W/m2, instead of the time's own (day 4, dusk 1.5, dawn 1.2,
    /// overcast 0.6, night moonlight 0.05).
    #[schemars(range(min = 0.0, max = 100.0))]
    pub strength: Option<f64>,
}

/// Light the scene for a time of day: day, dusk, dawn, overcast or night.
///
/// One sun ("Forensic Sun", re-set on later calls) at the time's elevation and heading
/// (compass bearings, +Y north: day 55 deg high in the south-south-east, dusk and dawn 4 deg in the west and east,
/// overcast 40 deg and soft, night a faint blue moon), and the world: a physical sky with
/// the sun at the same elevation, a grey overcast sky, or a near-black night.
#[capability(
    key = "forensic.time_of_day",
    family = "forensic",
    tags = ["time of day", "daylight", "night", "dusk", "dawn", "overcast", "sun position", "lighting conditions", "visibility"],
    aliases = ["set_time_of_day", "forensic_time_of_day", "time_of_day"],
    examples = ["set the scene at dusk", "make it night time for the reconstruction", "overcast daylight conditions", "light the accident scene as at dawn"],
    uses = [GetObjectInfo, CreateLight, SetLight, ModifyObject, SetWorldSky, SetWorld],
    cases = cases,
)]
fn time_of_day(args: TimeOfDayArgs) -> PackResult<Value> {
    let light = args.time.daylight();
    let energy = args.strength.unwrap_or(light.energy);
    let rotation = sun_rotation(light.elevation_deg, light.azimuth_deg);
    let created = match get_object_info(&GetObjectInfoParams { name: SUN.into() }) {
        Ok(_) => {
            set_light(&SetLightParams { name: SUN.into(), r#type: None, energy: Some(energy), color: Some(light.color.to_vec()), size: None,
                                        spot_size: None, spot_blend: None, shadow: None })?;
            modify_object(&ModifyObjectParams { name: SUN.into(), new_name: None, location: None, rotation: Some(rotation), scale: None, visible: None })?;
            false
        }
        Err(e) if e.app_error() == Some(AppErrorCode::NotFound) => {
            create_light(&CreateLightParams { r#type: CreateLightParamsType::Sun, name: Some(SUN.into()), location: [0.0, 0.0, 20.0],
                                              rotation: Some(rotation), look_at: None, energy: Some(energy), color: Some(light.color.to_vec()),
                                              size: None, spot_size: None, shape: None, size_y: None })?;
            true
        }
        Err(e) => return Err(e.into()),
    };
    let world = match args.time {
        TimeOfDay::Night => { set_world(&SetWorldParams { color: Some(vec![0.004, 0.005, 0.012]), strength: Some(1.0), sky: None })?; "night" }
        TimeOfDay::Overcast => { set_world(&SetWorldParams { color: Some(vec![0.45, 0.47, 0.5]), strength: Some(1.0), sky: None })?; "overcast" }
        _ => {
            set_world_sky(&SetWorldSkyParams { sky_type: None, sun_elevation: Some(light.elevation_deg.to_radians()),
                sun_rotation: Some(sky_rotation(light.azimuth_deg)), altitude: None, air: None, dust: None, ozone: None, strength: Some(1.0) })?;
            "sky"
        }
    };
    Ok(json!({ "time": args.time, "sun": SUN, "created": created, "energy": energy, "elevation": light.elevation_deg,
               "azimuth": light.azimuth_deg, "rotation": rotation, "world": world }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("dusk: a low sun and a physical sky")
            .args(json!({ "time": "dusk" }))
            .added(&["Forensic Sun"]).removed(&[])
            .result(json!({ "sun": "Forensic Sun", "created": true, "energy": 1.5, "elevation": 4.0, "world": "sky" }))
            .reads("scene.object_info", json!({ "name": "Forensic Sun" }), json!({ "type": "LIGHT", "rotation": [86f64.to_radians(), 0.0, 260f64.to_radians()] })),
        Case::new("night after day re-sets the same sun")
            .setup("forensic.time_of_day", json!({ "time": "day" }))
            .args(json!({ "time": "night", "strength": 0.1 }))
            .added(&[]).changed(&["Forensic Sun"]).removed(&[])
            .result(json!({ "created": false, "energy": 0.1, "world": "night" })),
        Case::new("an unknown time is refused").args(json!({ "time": "noonish" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a negative strength is refused").args(json!({ "time": "day", "strength": -1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
