//! The routing family this pack declares, with cue words for accident reconstruction.
//! Families merge across packs in the host's router; these cues are only words no other
//! pack uses ("collision", "intersect", "camera", "sun", "sky", "keyframe", "duplicate"
//! stay with physics, spatial, camera, world, animation and object). The router drops
//! apostrophes and splits on hyphens, so cues are written without them ("birds eye").

use capstan_sdk::Family;

pub fn families() -> Vec<Family> {
    vec![Family::new("forensic", "Accident reconstruction: roads, vehicle and figure proxies, markers, annotations, standard views, time of day, vehicle paths, what-if ghosts")
        .cues(5, &["forensic", "accident", "crash", "reconstruction", "courtroom", "road", "lanes", "junction", "crossroads", "vehicle", "sedan", "suv",
                   "pickup", "bus", "pedestrian", "skid", "debris", "impact point", "point of impact", "birds eye", "drivers view",
                   "driver pov", "witness", "time of day", "dusk", "dawn", "overcast", "nighttime", "waypoints", "ghost", "what if"])]
}
