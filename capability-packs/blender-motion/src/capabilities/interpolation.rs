use capstan_blender::{
    SetInterpolation, SetInterpolationParams, SetInterpolationParamsEasing as Easing, SetInterpolationParamsExtrapolation as Extrapolation,
    SetInterpolationParamsHandleType as Handle, SetInterpolationParamsInterpolation as Interpolation, set_interpolation,
};
use capstan_sdk::prelude::*;

/// At least one setting to change, said in the schema.
fn something_to_set(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &["interpolation", "easing", "handle_type", "extrapolation"]);
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = something_to_set)]
pub struct InterpolationArgs {
    /// The animated object.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z0-9_. -]{1,63}$"))]
    pub object: String,
    /// Only this property (location, rotation_euler, scale, ...); default every animated property.
    #[schemars(length(min = 1, max = 256), regex(pattern = r#"^[A-Za-z_][A-Za-z0-9_]*(\["[A-Za-z0-9_. -]{1,63}"\]\.[A-Za-z_][A-Za-z0-9_]*)?$"#))]
    pub data_path: Option<String>,
    /// Only this channel (0 = X, 1 = Y, 2 = Z, 3 = W); -1 (default) = all.
    #[schemars(range(min = -1, max = 3))]
    pub index: Option<i64>,
    /// How values move between keys: CONSTANT (jumps), LINEAR, BEZIER (smooth), or an easing curve.
    pub interpolation: Option<Interpolation>,
    /// Which end the easing curve applies to.
    pub easing: Option<Easing>,
    /// Bezier handle type of every key.
    pub handle_type: Option<Handle>,
    /// Beyond the last key: CONSTANT (hold), LINEAR (continue), CYCLIC (repeat the motion).
    pub extrapolation: Option<Extrapolation>,
}

/// Set how an object's animation moves between keys: interpolation, easing, handles, looping.
///
/// Applies to every keyframe of the chosen F-curves (all, one property, or one channel).
#[capability(
    key = "animation.interpolation",
    family = "animation",
    tags = ["interpolation", "easing", "ease in", "ease out", "linear", "bezier", "constant", "bounce", "elastic", "handles", "cyclic", "loop"],
    aliases = ["set_interpolation", "interpolation", "easing", "fcurve_interpolation"],
    examples = ["make the motion linear", "ease out the bounce", "loop the animation forever"],
    uses = [SetInterpolation],
    cases = cases,
)]
fn interpolation(args: InterpolationArgs) -> PackResult<Value> {
    if args.interpolation.is_none() && args.easing.is_none() && args.handle_type.is_none() && args.extrapolation.is_none() {
        return Err(PackError::invalid("give interpolation, easing, handle_type or extrapolation"));
    }
    Ok(json!(set_interpolation(&SetInterpolationParams {
        object: args.object,
        data_path: args.data_path,
        index: args.index,
        interpolation: args.interpolation,
        easing: args.easing,
        handle_type: args.handle_type,
        extrapolation: args.extrapolation,
    })?))
}

fn cases() -> Vec<Case> {
    let k1 = json!({ "object": "Cube", "property": "location", "frame": 1, "value": [0, 0, 0] });
    let k2 = json!({ "object": "Cube", "property": "location", "frame": 11, "value": [10, 0, 0] });
    vec![
        Case::new("linear on every channel")
            .setup("animation.keyframe", k1.clone()).setup("animation.keyframe", k2.clone())
            .args(json!({ "object": "Cube", "interpolation": "LINEAR" }))
            .changed(&["Cube"]).fields("Cube", &["animation"])
            .result(json!({ "fcurves": 3, "keyframes": 6, "data_paths": ["location"] })),
        Case::new("one channel, eased")
            .setup("animation.keyframe", k1.clone()).setup("animation.keyframe", k2.clone())
            .args(json!({ "object": "Cube", "data_path": "location", "index": 0, "interpolation": "BOUNCE", "easing": "EASE_OUT" }))
            .changed(&["Cube"]).result(json!({ "fcurves": 1, "keyframes": 2 })),
        Case::new("cyclic extrapolation repeats the motion")
            .setup("animation.keyframe", k1).setup("animation.keyframe", k2)
            .args(json!({ "object": "Cube", "interpolation": "LINEAR", "extrapolation": "CYCLIC" }))
            .changed(&["Cube"]).fields("Cube", &["animation"]).result(json!({ "fcurves": 3 })),
        Case::new("no animation to change").args(json!({ "object": "Cube", "interpolation": "LINEAR" })).error("not_found"),
        Case::new("nothing to set").args(json!({ "object": "Cube" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
