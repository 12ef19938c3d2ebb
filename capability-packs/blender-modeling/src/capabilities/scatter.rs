use capstan_blender::{ScatterInstances, ScatterInstancesParams};
use capstan_sdk::bridge::forward;
use capstan_sdk::prelude::*;

/// Scatter instances of an object or collection over a mesh surface (Geometry Nodes).
///
/// Adds a nodes modifier to `surface` that distributes points (`density` per square
/// metre, `seed`), keeps at most `max_count` of them, and instances `instance` (an object,
/// or a collection if no object has the name) on them, with random scale between
/// `scale_min` and `scale_max`, a random turn about the normal (`rotation_random`, a
/// fraction of a full turn) and Z along the normal (`align_to_normal`, default true). The
/// answer gives the evaluated instance count and the first positions: the same seed gives
/// the same result.
#[capability(
    key = "generation.scatter",
    family = "generation",
    tags = ["scatter", "distribute", "instances", "instance on points", "populate", "forest", "rocks", "grass", "geometry nodes"],
    aliases = ["scatter_instances", "scatter", "distribute_instances", "instance_on_points"],
    examples = ["scatter rocks over the terrain", "populate the plane with 200 trees", "distribute copies of the pebble on the ground with random scale"],
    uses = [ScatterInstances],
    cases = cases,
)]
fn scatter(args: ScatterInstancesParams) -> PackResult<impl Serialize> {
    Ok(forward::<ScatterInstances>(&args)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("pebbles over a 10 m plane, capped at 50")
            .setup("scene.create_object", json!({ "type": "plane", "name": "Ground", "size": 10 }))
            .setup("scene.create_object", json!({ "type": "ico_sphere", "name": "Pebble", "size": 0.2, "location": [0, 0, -5] }))
            .args(json!({ "surface": "Ground", "instance": "Pebble", "density": 5, "seed": 2, "max_count": 50, "scale_min": 0.5, "scale_max": 1.5, "rotation_random": 1 }))
            .changed(&["Ground"]).fields("Ground", &["modifiers"]).added(&[]).datablocks_added("node_groups", &["Scatter"])
            .result(json!({ "surface": "Ground", "modifier": "Scatter", "instances": 50, "area": 100.0 }))
            .reads("scene.object_info", json!({ "name": "Ground" }), json!({ "modifiers": [{ "name": "Scatter", "type": "NODES" }] })),
        Case::new("a seed gives the same points every time")
            .setup("scene.create_object", json!({ "type": "plane", "name": "Ground", "size": 10 }))
            .args(json!({ "surface": "Ground", "instance": "Cube", "density": 0.1, "seed": 1 }))
            .changed(&["Ground"])
            .result(json!({ "surface": "Ground", "instances": 10,
                            "first_positions": [[0.70568, -3.87802, 0.0], [-0.985, -1.47224, 0.0], [3.74634, -2.94761, 0.0]] })),
        Case::new("a missing instance").args(json!({ "surface": "Cube", "instance": "Ghost" })).error("not_found"),
        Case::new("a light is no surface").args(json!({ "surface": "Light", "instance": "Cube" })).error("invalid_target"),
        Case::new("too dense for the cap on points")
            .setup("scene.create_object", json!({ "type": "plane", "name": "Field", "size": 1000 }))
            .args(json!({ "surface": "Field", "instance": "Cube", "density": 100 })).error("limit_exceeded"),
    ]
}
