use capstan_blender::{Simulate, SimulateParams, SimulateParamsMode as BridgeMode, simulate};
use capstan_sdk::prelude::*;

pub const MAX_FRAMES: i64 = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Step every frame in order from frame_start; the caches fill as it goes.
    Step,
    /// Bake every simulation cache over the range (replacing earlier bakes), then sample.
    /// Baked caches stay: later steps read the bake until it is baked again.
    Bake,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BakeArgs {
    /// First frame (simulations start here).
    #[schemars(range(min = 0, max = 1048574))]
    pub frame_start: i64,
    /// Last frame, at most frame_start + 500.
    #[schemars(range(min = 0, max = 1048574))]
    pub frame_end: i64,
    /// step (default) or bake.
    pub mode: Option<Mode>,
    /// Gravity [x, y, z] m/s² (default the scene's, [0, 0, -9.81]).
    pub gravity: Option<[f64; 3]>,
    /// Rigid body substeps per frame 1..100.
    #[schemars(range(min = 1, max = 100))]
    pub substeps: Option<i64>,
    /// Objects whose evaluated location and rotation (degrees) to sample, up to 16.
    #[schemars(length(min = 1, max = 16), inner(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$")))]
    pub report_objects: Option<Vec<String>>,
    /// Sample every N frames (default about 50 samples); the last frame is always sampled.
    #[schemars(range(min = 1, max = 500))]
    pub sample_every: Option<i64>,
}

/// Run the physics simulation over a frame range and report where objects end up.
///
/// Rigid bodies, cloth and particles are stepped frame by frame from frame_start
/// (simulations need frames in order), or baked over the range (mode bake), at most 500
/// frames per call; the scene is left at frame_end. Answers sampled evaluated transforms (metres, degrees) and particle
/// counts of report_objects. Mantaflow fluid domains are refused (`unsupported`): their
/// solver fails in the headless Blender build capstan tests against.
#[capability(
    key = "physics.bake",
    family = "physics",
    tags = ["simulate", "bake", "run physics", "step simulation", "play simulation", "drop", "settle"],
    aliases = ["simulate", "bake_physics", "run_simulation", "bake_simulation"],
    examples = ["run the simulation for 100 frames", "simulate the drop and tell me where the box lands", "bake the cloth over frames 1 to 60"],
    uses = [Simulate],
    cases = cases,
)]
fn bake(args: BakeArgs) -> PackResult<Value> {
    if args.frame_end < args.frame_start || args.frame_end - args.frame_start > MAX_FRAMES {
        return Err(PackError::invalid(format!("frame_end must be within frame_start..frame_start+{MAX_FRAMES}")));
    }
    let mut out = json!(simulate(&SimulateParams {
        frame_start: args.frame_start, frame_end: args.frame_end, gravity: args.gravity, substeps: args.substeps,
        report_objects: args.report_objects, sample_every: args.sample_every,
        mode: args.mode.map(|m| match m { Mode::Step => BridgeMode::Step, Mode::Bake => BridgeMode::Bake }),
    })?);
    out["units"] = json!({ "location": "metres", "rotation": "degrees" });
    Ok(out)
}

fn cases() -> Vec<Case> {
    let drop = |c: Case| {
        c.setup("scene.create_object", json!({ "type": "plane", "name": "Floor", "size": 10 }))
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [0, 0, 3] }))
            .setup("physics.rigid_body", json!({ "object": "Cube", "shape": "BOX" }))
            .setup("physics.rigid_body", json!({ "object": "Floor", "type": "PASSIVE", "shape": "MESH" }))
    };
    vec![
        drop(Case::new("a dropped cube comes to rest on the floor"))
            .args(json!({ "frame_start": 1, "frame_end": 60, "report_objects": ["Cube"] }))
            .settings(&["scene"])
            .result(json!({ "frames_stepped": 60, "frame_end": 60 }))
            .reads("spatial.assert", json!({ "constraints": [
                { "type": "on_top_of", "object": "Cube", "support": "Floor", "tolerance": 0.05 },
                { "type": "not_overlapping", "object": "Cube", "support": "Floor", "tolerance": 0.05 }] }), json!({ "passed": true }))
            .reads("scene.info", json!({}), json!({ "frame": { "current": 60 } })),
        drop(Case::new("baked, the cube rests on the floor too"))
            .args(json!({ "frame_start": 1, "frame_end": 60, "mode": "bake", "report_objects": ["Cube"], "sample_every": 30 }))
            .result(json!({ "mode": "bake", "from_bake": true, "samples": [{ "frame": 1 }, { "frame": 31 }, { "frame": 60 }] }))
            .reads("spatial.assert", json!({ "constraints": [{ "type": "on_top_of", "object": "Cube", "support": "Floor", "tolerance": 0.05 }] }), json!({ "passed": true })),
        Case::new("cloth falls")
            .setup("scene.create_object", json!({ "type": "grid", "name": "Sheet", "size": 2, "location": [0, 0, 5] }))
            .setup("physics.cloth", json!({ "object": "Sheet" }))
            .args(json!({ "frame_start": 1, "frame_end": 24 }))
            .reads("spatial.assert", json!({ "constraints": [{ "type": "within_bounds", "object": "Sheet", "min": [-5, -5, -10], "max": [5, 5, 4.5] }] }),
                   json!({ "passed": true })),
        Case::new("particles are born")
            .setup("physics.particles", json!({ "object": "Cube", "count": 100, "frame_start": 1, "frame_end": 10, "lifetime": 100, "seed": 3 }))
            .args(json!({ "frame_start": 1, "frame_end": 20, "report_objects": ["Cube"] }))
            .result(json!({ "final": { "Cube": { "particles_alive": 100, "particles_total": 100 } } })),
        Case::new("fluids are not stepped")
            .setup("physics.fluid", json!({ "role": "domain", "object": "Cube", "resolution": 16 }))
            .args(json!({ "frame_start": 1, "frame_end": 5 })).error("unsupported"),
        Case::new("more than 500 frames").args(json!({ "frame_start": 1, "frame_end": 700 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
