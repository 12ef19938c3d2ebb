use crate::assertions::{self as verdicts, Verdict};
use capstan_blender::{
    BoundsWorld, BoundsWorldParams, BoundsWorldResult, CameraFraming, CameraFramingParams, CheckOverlap, CheckOverlapParams, GetObjectInfo, GetObjectInfoParams,
    MeshQuality, MeshQualityParams, MeshQualityResultObjectsItem, MeshStats, MeshStatsParams, MinDistance, MinDistanceParams, MinDistanceResultMeasuredA,
    MinDistanceResultMeasuredB, Raycast,
    RaycastParams, bounds_world, check_overlap, get_object_info, camera_framing, mesh_quality, mesh_stats, min_distance, raycast,
};
use capstan_sdk::prelude::*;
use std::collections::BTreeMap;

/// A local axis of the object; the front of a Blender model faces -Y by convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum Axis {
    X,
    Y,
    Z,
    #[serde(rename = "-X")]
    NegX,
    #[serde(rename = "-Y")]
    NegY,
    #[serde(rename = "-Z")]
    NegZ,
}

/// One geometric constraint, tagged by `type`. Lengths in metres, angles in degrees.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Constraint {
    /// The object's bottom touches the support's top surface under its centre (ray cast), within tolerance (default 0.01 m).
    OnTopOf { object: Name, support: Name, #[schemars(range(min = 0.0, max = 10.0))] tolerance: Option<f64> },
    /// The object's world box lies within the support's (a container, a room), within tolerance (default 0.001 m).
    Inside { object: Name, support: Name, #[schemars(range(min = 0.0, max = 10.0))] tolerance: Option<f64> },
    /// The two do not interpenetrate (exact triangle test); contacts shallower than tolerance (default 0.001 m) are fine.
    NotOverlapping { object: Name, support: Name, #[schemars(range(min = 0.0, max = 10.0))] tolerance: Option<f64> },
    /// The two are at least `distance` metres apart: surface to surface, or from the
    /// origin of one with no surface (a light, a camera, an empty); the verdict says which,
    /// and whether one is inside the other's closed surface.
    Clearance { object: Name, support: Name, #[schemars(range(min = 0.0, max = 1000.0))] distance: f64, #[schemars(range(min = 0.0, max = 10.0))] tolerance: Option<f64> },
    /// The object's `axis` (default -Y, a model's front) points at the support's centre, or along `direction`, within tolerance (default 10 degrees).
    Facing { object: Name, support: Option<Name>, direction: Option<[f64; 3]>, axis: Option<Axis>, #[schemars(range(min = 0.0, max = 180.0))] tolerance: Option<f64> },
    /// The object's local axes (or one `axis`) are parallel to world axes, within tolerance (default 1 degree).
    AxisAligned { object: Name, axis: Option<Axis>, #[schemars(range(min = 0.0, max = 90.0))] tolerance: Option<f64> },
    /// The evaluated vertex count is within [min_vertices, max_vertices].
    VertexCountRange { object: Name, #[schemars(range(min = 0, max = 100000000))] min_vertices: Option<i64>, #[schemars(range(min = 0, max = 100000000))] max_vertices: Option<i64> },
    /// Every evaluated face is a triangle.
    Triangulated { object: Name },
    /// The object has this material in a slot (or any material when none is named).
    HasMaterial { object: Name, #[schemars(length(min = 1, max = 63))] material: Option<String> },
    /// The evaluated mesh is manifold: no boundary edges (holes), wire edges or edges shared by more than two faces.
    Manifold { object: Name },
    /// The evaluated mesh has no loose vertices (no edge) and no loose edges (no face).
    NoLooseGeometry { object: Name },
    /// The object's world box lies within [min, max], within tolerance (default 0.001 m).
    WithinBounds { object: Name, min: [f64; 3], max: [f64; 3], #[schemars(range(min = 0.0, max = 10.0))] tolerance: Option<f64> },
    /// The object is in the camera's shot (the scene camera by default): wholly unless `fully_inside` is false, filling
    /// between min_coverage and max_coverage of the frame (coverage: the larger of its visible width and height shares).
    InFrame {
        object: Name,
        camera: Option<Name>,
        #[schemars(range(min = 0.0, max = 1.0))]
        min_coverage: Option<f64>,
        #[schemars(range(min = 0.0, max = 1.0))]
        max_coverage: Option<f64>,
        fully_inside: Option<bool>,
    },
}

/// An exact object name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Name(#[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))] String);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AssertArgs {
    /// The constraints to check, 1..64.
    #[schemars(length(min = 1, max = 64))]
    pub constraints: Vec<Constraint>,
}

/// Bounds per object, fetched once per call.
#[derive(Default)]
struct Cache(BTreeMap<String, BoundsWorldResult>);

impl Cache {
    fn bounds(&mut self, name: &Name) -> PackResult<&BoundsWorldResult> {
        if !self.0.contains_key(&name.0) {
            let b = bounds_world(&BoundsWorldParams { objects: Some(vec![name.0.clone()]) })?;
            if b.empty {
                return Err(PackError::failed(format!("{} has no geometry", name.0)));
            }
            self.0.insert(name.0.clone(), b);
        }
        Ok(&self.0[&name.0])
    }
}

fn box_of(b: &BoundsWorldResult) -> PackResult<([f64; 3], [f64; 3])> {
    Ok((b.min.ok_or_else(|| PackError::failed("no bounds"))?, b.max.ok_or_else(|| PackError::failed("no bounds"))?))
}

fn axis_vector(b: &BoundsWorldResult, axis: Axis) -> [f64; 3] {
    let axes = &b.objects[0].axes;
    let (v, sign) = match axis {
        Axis::X => (axes.x, 1.0),
        Axis::Y => (axes.y, 1.0),
        Axis::Z => (axes.z, 1.0),
        Axis::NegX => (axes.x, -1.0),
        Axis::NegY => (axes.y, -1.0),
        Axis::NegZ => (axes.z, -1.0),
    };
    v.map(|c| c * sign)
}

fn check(c: &Constraint, cache: &mut Cache) -> PackResult<Verdict> {
    Ok(match c {
        Constraint::OnTopOf { object, support, tolerance } => {
            let (lo, hi) = box_of(cache.bounds(object)?)?;
            let (_, shi) = box_of(cache.bounds(support)?)?;
            let top = shi[2].max(hi[2]) + 1.0;
            let origin = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0, top];
            let hit = raycast(&RaycastParams { origin, direction: [0.0, 0.0, -1.0], max_distance: None, objects: Some(vec![support.0.clone()]) })?;
            verdicts::on_top_of(lo[2], hit.location.map(|l| l[2]), tolerance.unwrap_or(0.01))
        }
        Constraint::Inside { object, support, tolerance } => {
            let (lo, hi) = box_of(cache.bounds(object)?)?;
            let (clo, chi) = box_of(cache.bounds(support)?)?;
            verdicts::contained(lo, hi, clo, chi, tolerance.unwrap_or(0.001), &support.0)
        }
        Constraint::NotOverlapping { object, support, tolerance } => {
            let r = check_overlap(&CheckOverlapParams { a: object.0.clone(), b: support.0.clone(), method: None, tolerance: *tolerance })?;
            verdicts::not_overlapping(r.intersects, r.how.as_deref())
        }
        Constraint::Clearance { object, support, distance, tolerance } => {
            let r = min_distance(&MinDistanceParams { a: object.0.clone(), b: support.0.clone() })?;
            let side = |origin: bool| if origin { "origin" } else { "surface" };
            let measured = [side(r.measured.a == MinDistanceResultMeasuredA::Origin), side(r.measured.b == MinDistanceResultMeasuredB::Origin)];
            let gap = verdicts::Gap { distance: r.distance, measured, contained: r.contained.as_deref() };
            verdicts::clearance(&gap, *distance, tolerance.unwrap_or(0.0))
        }
        Constraint::Facing { object, support, direction, axis, tolerance } => {
            let forward = axis_vector(cache.bounds(object)?, axis.unwrap_or(Axis::NegY));
            let origin = cache.bounds(object)?.objects[0].origin;
            let wanted = match (support, direction) {
                (Some(s), None) => {
                    let center = cache.bounds(s)?.center.ok_or_else(|| PackError::failed("no bounds"))?;
                    [center[0] - origin[0], center[1] - origin[1], center[2] - origin[2]]
                }
                (None, Some(d)) => *d,
                _ => return Err(PackError::invalid("facing needs exactly one of support or direction")),
            };
            verdicts::facing(forward, wanted, tolerance.unwrap_or(10.0))
        }
        Constraint::AxisAligned { object, axis, tolerance } => {
            let b = cache.bounds(object)?;
            let axes: Vec<[f64; 3]> = match axis {
                Some(a) => vec![axis_vector(b, *a)],
                None => vec![axis_vector(b, Axis::X), axis_vector(b, Axis::Y), axis_vector(b, Axis::Z)],
            };
            verdicts::axis_aligned(&axes, tolerance.unwrap_or(1.0))
        }
        Constraint::VertexCountRange { object, min_vertices, max_vertices } => {
            if min_vertices.is_none() && max_vertices.is_none() {
                return Err(PackError::invalid("vertex_count_range needs min_vertices, max_vertices or both"));
            }
            let s = mesh_stats(&MeshStatsParams { object: object.0.clone() })?;
            verdicts::count_range(s.vertices, *min_vertices, *max_vertices)
        }
        Constraint::Triangulated { object } => {
            let s = mesh_stats(&MeshStatsParams { object: object.0.clone() })?;
            verdicts::triangulated(s.non_triangle_faces, s.max_face_sides)
        }
        Constraint::Manifold { object } => {
            let q = quality(object)?;
            verdicts::manifold(q.boundary_edges, q.multi_face_edges, q.loose_edges)
        }
        Constraint::NoLooseGeometry { object } => {
            let q = quality(object)?;
            verdicts::no_loose_geometry(q.loose_vertices, q.loose_edges)
        }
        Constraint::HasMaterial { object, material } => {
            let info = get_object_info(&GetObjectInfoParams { name: object.0.clone() })?;
            verdicts::has_material(&info.materials, material.as_deref())
        }
        Constraint::WithinBounds { object, min, max, tolerance } => {
            if (0..3).any(|i| min[i] > max[i]) {
                return Err(PackError::invalid("within_bounds needs min <= max on every axis"));
            }
            let (lo, hi) = box_of(cache.bounds(object)?)?;
            verdicts::contained(lo, hi, *min, *max, tolerance.unwrap_or(0.001), "the bounds")
        }
        Constraint::InFrame { object, camera, min_coverage, max_coverage, fully_inside } => {
            if let (Some(lo), Some(hi)) = (min_coverage, max_coverage)
                && lo > hi
            {
                return Err(PackError::invalid("in_frame needs min_coverage <= max_coverage"));
            }
            let f = camera_framing(&CameraFramingParams { object: object.0.clone(), camera: camera.as_ref().map(|c| c.0.clone()) })?;
            let framing = verdicts::Framing {
                in_front: f.in_front, visible: f.visible, fully_inside: f.fully_inside, coverage: f.coverage,
                bounds: f.bounds.map(|b| [b.x_min, b.x_max, b.y_min, b.y_max]),
            };
            let mut v = verdicts::in_frame(&framing, fully_inside.unwrap_or(true), *min_coverage, *max_coverage);
            v.measured["camera"] = json!(f.camera);
            v.measured["width_fraction"] = json!(f.width_fraction);
            v.measured["height_fraction"] = json!(f.height_fraction);
            v
        }
    })
}

/// The mesh quality row of one object (mesh_quality answers not_found / invalid_target itself).
fn quality(object: &Name) -> PackResult<MeshQualityResultObjectsItem> {
    let mut r = mesh_quality(&MeshQualityParams { objects: Some(vec![object.0.clone()]), area_epsilon: None })?;
    r.objects.pop().ok_or_else(|| PackError::failed(format!("no mesh quality row for {}", object.0)))
}

fn kind(c: &Constraint) -> (&'static str, &str) {
    match c {
        Constraint::OnTopOf { object, .. } => ("on_top_of", &object.0),
        Constraint::Inside { object, .. } => ("inside", &object.0),
        Constraint::NotOverlapping { object, .. } => ("not_overlapping", &object.0),
        Constraint::Clearance { object, .. } => ("clearance", &object.0),
        Constraint::Facing { object, .. } => ("facing", &object.0),
        Constraint::AxisAligned { object, .. } => ("axis_aligned", &object.0),
        Constraint::VertexCountRange { object, .. } => ("vertex_count_range", &object.0),
        Constraint::Triangulated { object } => ("triangulated", &object.0),
        Constraint::HasMaterial { object, .. } => ("has_material", &object.0),
        Constraint::Manifold { object } => ("manifold", &object.0),
        Constraint::NoLooseGeometry { object } => ("no_loose_geometry", &object.0),
        Constraint::WithinBounds { object, .. } => ("within_bounds", &object.0),
        Constraint::InFrame { object, .. } => ("in_frame", &object.0),
    }
}

/// Check geometric constraints in the real scene: per constraint pass/fail, the measurement, and by how much it failed.
///
/// Constraint types: on_top_of, inside, not_overlapping, clearance, facing,
/// axis_aligned, vertex_count_range, triangulated, has_material, within_bounds,
/// in_frame (in a camera's shot, with a frame coverage range), manifold (no holes or
/// non-manifold edges), no_loose_geometry (no loose vertices or edges). Every measurement is
/// taken in Blender on evaluated, world-space geometry (metres, degrees; in_frame in
/// frame fractions). A constraint naming a missing object fails with its error; the call
/// answers passed (all), score (share passed) and one result per constraint.
#[capability(
    key = "spatial.assert",
    family = "spatial",
    tags = ["assert", "verify", "check", "constraints", "validate layout", "critic", "on top of", "overlap", "clearance", "in frame", "manifold", "loose geometry"],
    aliases = ["spatial_assert", "assert_constraints", "verify_layout", "geometric_constraints", "check_constraints"],
    examples = ["check that the cup is on top of the table", "verify the chairs do not overlap the table", "assert the model is triangulated and under 5000 vertices",
                "require the meshes to be manifold with no loose geometry"],
    uses = [BoundsWorld, Raycast, CheckOverlap, MinDistance, MeshStats, GetObjectInfo, CameraFraming, MeshQuality],
    cases = cases,
)]
fn assert(args: AssertArgs) -> PackResult<Value> {
    let mut cache = Cache::default();
    let mut results = Vec::new();
    for (index, c) in args.constraints.iter().enumerate() {
        let (kind, object) = kind(c);
        let mut row = json!({ "index": index, "type": kind, "object": object });
        match check(c, &mut cache) {
            Ok(v) => {
                row["passed"] = json!(v.passed);
                row["measured"] = v.measured;
                row["failed_by"] = json!(v.failed_by);
                row["unit"] = json!(v.unit);
                row["detail"] = json!(v.detail);
            }
            Err(PackError::Bridge(e)) if e.app_code.is_some() => {
                row["passed"] = json!(false);
                row["error"] = json!({ "code": e.app_code, "message": e.message });
            }
            Err(PackError::Failed(m)) => {
                row["passed"] = json!(false);
                row["error"] = json!({ "code": "unmeasurable", "message": m });
            }
            Err(other) => return Err(other),
        }
        results.push(row);
    }
    let passed = results.iter().filter(|r| r["passed"] == json!(true)).count();
    let total = results.len();
    Ok(json!({
        "passed": passed == total,
        "score": verdicts::round6(passed as f64 / total as f64),
        "passed_count": passed,
        "failed_count": total - passed,
        "results": results,
    }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a 2 m cube at z=1 rests on a plane")
            .setup("scene.create_object", json!({ "type": "plane", "name": "Floor", "size": 10 }))
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [0, 0, 1] }))
            .args(json!({ "constraints": [
                { "type": "on_top_of", "object": "Cube", "support": "Floor" },
                { "type": "not_overlapping", "object": "Cube", "support": "Floor" },
                { "type": "within_bounds", "object": "Cube", "min": [-5, -5, 0], "max": [5, 5, 3] },
                { "type": "axis_aligned", "object": "Cube" },
            ] }))
            .result(json!({ "passed": true, "score": 1.0, "results": [
                { "type": "on_top_of", "passed": true, "measured": { "gap": 0.0, "surface_z": 0.0 } },
                { "type": "not_overlapping", "passed": true }, { "type": "within_bounds", "passed": true }, { "type": "axis_aligned", "passed": true },
            ] })),
        Case::new("failures say by how much")
            .setup("scene.create_object", json!({ "type": "plane", "name": "Floor", "size": 10 }))
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [0, 0, 1.25], "rotation": [0, 0, 30] }))
            .setup("scene.create_object", json!({ "type": "cube", "name": "Far", "location": [3, 0, 1.25] }))
            .args(json!({ "constraints": [
                { "type": "on_top_of", "object": "Cube", "support": "Floor" },
                { "type": "clearance", "object": "Cube", "support": "Far", "distance": 2 },
                { "type": "axis_aligned", "object": "Cube", "tolerance": 1 },
                { "type": "vertex_count_range", "object": "Cube", "max_vertices": 6 },
                { "type": "triangulated", "object": "Cube" },
                { "type": "has_material", "object": "Cube", "material": "Gold" },
                { "type": "facing", "object": "Cube", "direction": [0, -1, 0], "tolerance": 5 },
                { "type": "inside", "object": "Cube", "support": "Ghost" },
            ] }))
            .result(json!({ "passed": false, "passed_count": 0, "failed_count": 8, "results": [
                { "passed": false, "measured": { "gap": 0.25 }, "failed_by": 0.24 },
                { "passed": false, "failed_by": 2.0 - (3.0 - 1.0 - (2.0f64).sqrt() * (75f64).to_radians().sin()) },
                { "passed": false, "measured": { "max_deviation_deg": 30.0 }, "failed_by": 29.0 },
                { "passed": false, "measured": { "vertices": 8 }, "failed_by": 2.0 },
                { "passed": false, "measured": { "non_triangle_faces": 6 } },
                { "passed": false, "type": "has_material" },
                { "passed": false, "measured": { "angle_deg": 30.0 }, "failed_by": 25.0 },
                { "passed": false, "error": { "code": "not_found" } },
            ] })),
        Case::new("facing a target and being inside a box")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Room", "size": 10 }))
            .setup("scene.create_object", json!({ "type": "empty", "name": "Goal", "location": [0, -5, 0] }))
            .args(json!({ "constraints": [
                { "type": "facing", "object": "Cube", "support": "Goal" },
                { "type": "inside", "object": "Cube", "support": "Room" },
                { "type": "clearance", "object": "Cube", "support": "Room", "distance": 3.5 },
            ] }))
            .result(json!({ "passed": true, "results": [{ "measured": { "angle_deg": 0.0 } }, { "measured": { "protrusion": 0.0 } }, { "measured": { "distance": 4.0 } }] })),
        Case::new("in the shot or not, and by how much")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [0, 0, 2] }))
            .args(json!({ "constraints": [
                { "type": "in_frame", "object": "Cube" },
                { "type": "in_frame", "object": "Cube", "fully_inside": false, "min_coverage": 0.5 },
                { "type": "in_frame", "object": "Cube", "camera": "Camera", "fully_inside": false, "max_coverage": 0.5 },
                { "type": "in_frame", "object": "Light", "fully_inside": false },
                { "type": "in_frame", "object": "Cube", "camera": "Ghost" },
            ] }))
            .result(json!({ "passed": false, "passed_count": 1, "results": [
                { "type": "in_frame", "passed": false, "failed_by": 0.245114, "unit": "frame",
                  "measured": { "fully_inside": false, "visible": true, "camera": "Camera", "bounds": { "y_max": 1.245114 } } },
                { "passed": false, "failed_by": 0.5 - 0.415677, "measured": { "coverage": 0.415677 } },
                { "passed": true, "failed_by": 0.0 },
                { "passed": false, "failed_by": 1.123608, "measured": { "visible": false } },
                { "passed": false, "error": { "code": "not_found" } },
            ] })),
        Case::new("a cube is manifold; with a deleted face it is not, and loose geometry is found")
            .setup("scene.create_object", json!({ "type": "cube", "name": "Open", "location": [5, 0, 1] }))
            .setup("mutate.mesh_edit", json!({ "object": "Open", "op": "delete", "selection": { "kind": "faces", "indices": [0] } }))
            // Spinning one vertex leaves a chain of two wire edges on the cube.
            .setup("scene.create_object", json!({ "type": "cube", "name": "Whisker", "location": [-5, 0, 1] }))
            .setup("mutate.mesh_edit", json!({ "object": "Whisker", "op": "spin", "selection": { "kind": "verts", "indices": [0] }, "params": { "angle": 90, "steps": 2 } }))
            .args(json!({ "constraints": [
                { "type": "manifold", "object": "Cube" },
                { "type": "no_loose_geometry", "object": "Cube" },
                { "type": "manifold", "object": "Open" },
                { "type": "no_loose_geometry", "object": "Open" },
                { "type": "no_loose_geometry", "object": "Whisker" },
                { "type": "manifold", "object": "Light" },
            ] }))
            .result(json!({ "passed": false, "passed_count": 3, "results": [
                { "type": "manifold", "passed": true, "failed_by": 0.0 },
                { "type": "no_loose_geometry", "passed": true },
                { "type": "manifold", "passed": false, "failed_by": 4.0, "unit": "edges", "measured": { "boundary_edges": 4, "multi_face_edges": 0, "loose_edges": 0 } },
                { "type": "no_loose_geometry", "passed": true },
                { "type": "no_loose_geometry", "passed": false, "failed_by": 2.0, "measured": { "loose_vertices": 0, "loose_edges": 2 } },
                { "type": "manifold", "passed": false, "error": { "code": "invalid_target" } },
            ] })),
        Case::new("in_frame with min_coverage above max_coverage")
            .args(json!({ "constraints": [{ "type": "in_frame", "object": "Cube", "min_coverage": 0.8, "max_coverage": 0.2 }] }))
            .error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an unknown constraint type").args(json!({ "constraints": [{ "type": "levitating", "object": "Cube" }] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("no constraints").args(json!({ "constraints": [] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
