use capstan_blender::{CreateCurve, CreateCurveParams, CreateCurveParamsCurveType, create_curve};
use capstan_sdk::prelude::*;

/// Add a curve through points: Bezier, NURBS, poly or path, or a circle, optionally a round tube.
///
/// `points` are [x, y, z] in metres in the curve's own space (2 to 4096 of them; a CIRCLE
/// takes a `radius` instead). `cyclic` closes it, `bevel_depth` makes it a tube of that
/// radius, `extrude` a ribbon, `resolution` sets the segments per span. The answer gives the
/// evaluated length in metres.
#[capability(
    key = "create.curve",
    family = "create",
    tags = ["curve", "bezier", "nurbs", "poly", "path", "circle", "spline", "tube", "pipe", "wire", "cable"],
    aliases = ["create_curve", "add_curve", "curve_create", "model.curve"],
    examples = ["draw a bezier curve through these points", "make a pipe along a path", "add a circle curve of radius 2", "create a cable from (0,0,0) to (3,1,2)"],
    uses = [CreateCurve],
    cases = cases,
)]
fn curve(args: CreateCurveParams) -> PackResult<Value> {
    // Refused here, before any bridge call, so an agent learns it from validation.
    let circle = args.curve_type.as_ref().is_some_and(|t| matches!(t, CreateCurveParamsCurveType::Circle));
    match (circle, args.points.is_some()) {
        (true, true) => return Err(PackError::invalid("a CIRCLE curve takes a radius, not points")),
        (false, false) => return Err(PackError::invalid("a curve through points needs at least 2 points (or curve_type CIRCLE with a radius)")),
        _ => {}
    }
    Ok(json!(create_curve(&args)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a closed poly curve has its perimeter as length")
            .args(json!({ "curve_type": "POLY", "name": "Fence", "points": [[0, 0, 0], [3, 0, 0], [3, 4, 0]], "cyclic": true, "location": [1, 2, 0] }))
            .added(&["Fence"]).changed(&[]).removed(&[])
            .result(json!({ "name": "Fence", "type": "CURVE", "length": 12.0, "points": 3, "cyclic": true, "location": [1.0, 2.0, 0.0] }))
            .reads("scene.object_info", json!({ "name": "Fence" }), json!({ "type": "CURVE", "location": [1.0, 2.0, 0.0] })),
        Case::new("a bevelled bezier becomes a tube")
            .args(json!({ "name": "Pipe", "points": [[0, 0, 0], [2, 0, 0]], "bevel_depth": 0.25 }))
            .added(&["Pipe"]).result(json!({ "bevel_depth": 0.25, "length": 2.0, "splines": 1 })),
        Case::new("a circle curve of radius 2").args(json!({ "curve_type": "CIRCLE", "radius": 2, "name": "Hoop" }))
            .added(&["Hoop"]).result(json!({ "name": "Hoop", "cyclic": true, "points": 4 })),
        Case::new("a circle takes no points")
            .args(json!({ "curve_type": "CIRCLE", "points": [[0, 0, 0], [1, 0, 0]] })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a bezier needs points").args(json!({ "name": "Nothing" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("one point is not a curve").args(json!({ "points": [[0, 0, 0]] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
