use capstan_blender::{
    ApplyTransform, ApplyTransformParams, ApplyTransformParamsApplyItem as Part, SetOrigin, SetOriginParams, SetOriginParamsMode as Mode,
    apply_transform, set_origin,
};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Leave the origin where it is.
    #[default]
    None,
    /// The median of the geometry.
    Geometry,
    /// The centre of the geometry's bounding box.
    BoundsCenter,
    /// The 3D cursor.
    Cursor,
    /// The world origin.
    World,
}

/// Something to do (a part to apply, or an origin to move to), said in the schema.
fn something_to_do(schema: &mut schemars::Schema) {
    let rule = json!({ "anyOf": [
        { "required": ["apply"], "properties": { "apply": { "minItems": 1 } } },
        { "required": ["origin"], "properties": { "origin": { "enum": ["geometry", "bounds_center", "cursor", "world"] } } },
    ] });
    capstan_sdk::schema_rules::add_rule(schema, rule);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = something_to_do)]
pub struct TransformApplyArgs {
    /// A mesh or curve object.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// Which parts of the transform to bake into the data: location, rotation, scale.
    #[serde(default)]
    #[schemars(length(max = 3))]
    pub apply: Vec<Part>,
    /// Where to move the origin afterwards (default none).
    #[serde(default)]
    pub origin: Origin,
}

/// Bake location, rotation and/or scale into the data, and/or move the origin.
///
/// Nothing moves in the world: what goes into the mesh or curve leaves the object's
/// transform, and children keep their place. `apply` lists the parts to bake (after which
/// they read 0 / 0 / 1); `origin` then moves the origin to the geometry's median, its
/// bounds centre, the 3D cursor or the world origin. Shared data is refused.
#[capability(
    key = "mutate.transform_apply",
    family = "mutate",
    tags = ["apply transform", "apply scale", "apply rotation", "freeze transforms", "origin", "pivot", "set origin", "center origin"],
    aliases = ["apply_transform", "set_origin", "modeling_set_origin", "apply_scale", "origin_to_geometry", "freeze_transforms"],
    examples = ["apply the scale of the box", "apply rotation and scale", "set the origin to the geometry", "move the pivot to the world origin"],
    uses = [ApplyTransform, SetOrigin],
    cases = cases,
)]
fn transform_apply(args: TransformApplyArgs) -> PackResult<Value> {
    if args.apply.is_empty() && args.origin == Origin::None {
        return Err(PackError::invalid("nothing to do: give apply (location, rotation, scale) and/or an origin"));
    }
    let mut out = json!({ "object": args.object });
    if !args.apply.is_empty() {
        out["applied"] = json!(apply_transform(&ApplyTransformParams { object: args.object.clone(), apply: args.apply })?);
    }
    let mode = match args.origin {
        Origin::None => return Ok(out),
        Origin::Geometry => Mode::Geometry,
        Origin::BoundsCenter => Mode::BoundsCenter,
        Origin::Cursor => Mode::Cursor,
        Origin::World => Mode::World,
    };
    out["origin"] = json!(set_origin(&SetOriginParams { object: args.object, mode })?);
    Ok(out)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("apply scale keeps the size in the world")
            .setup("scene.modify_object", json!({ "name": "Cube", "scale": [2, 1, 0.5], "location": [1, 0, 0] }))
            .args(json!({ "object": "Cube", "apply": ["scale"] }))
            .changed(&["Cube"]).fields("Cube", &["data", "transform"]).added(&[])
            .result(json!({ "applied": { "scale": [1.0, 1.0, 1.0], "location": [1.0, 0.0, 0.0] } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "scale": [1.0, 1.0, 1.0], "dimensions": [4.0, 2.0, 1.0] })),
        Case::new("origin to the world keeps the geometry in place")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [3, 0, 0] }))
            .args(json!({ "object": "Cube", "origin": "world" }))
            .changed(&["Cube"]).result(json!({ "origin": { "location": [0.0, 0.0, 0.0], "moved_by": [-3.0, 0.0, 0.0] } }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "location": [0.0, 0.0, 0.0], "dimensions": [2.0, 2.0, 2.0] })),
        Case::new("apply everything, then origin back to the geometry")
            .setup("scene.modify_object", json!({ "name": "Cube", "location": [0, 2, 0], "rotation": [0, 0, 45] }))
            .args(json!({ "object": "Cube", "apply": ["location", "rotation", "scale"], "origin": "geometry" }))
            .changed(&["Cube"])
            .result(json!({ "applied": { "location": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0] }, "origin": { "location": [0.0, 2.0, 0.0] } })),
        Case::new("nothing to do").args(json!({ "object": "Cube" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a light has no data to bake into").args(json!({ "object": "Light", "apply": ["scale"] })).error("invalid_target"),
    ]
}
