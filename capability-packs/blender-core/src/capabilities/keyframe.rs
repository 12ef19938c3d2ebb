use capstan_blender::angles::AngleUnit;
use capstan_blender::{InsertKeyframe, InsertKeyframeParams, InsertKeyframeParamsProperty as Property, InsertKeyframeParamsValue as KeyValue, insert_keyframe};
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyProperty {
    Location,
    Rotation,
    Scale,
    /// Visibility in viewport and render together.
    Visible,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyframeArgs {
    /// Exact object name.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    pub property: KeyProperty,
    /// Frame number.
    #[schemars(range(min = -100000, max = 1000000))]
    pub frame: i64,
    /// Value to set before keying: [x, y, z] for transforms, true/false for visible.
    /// Without it the current value is keyed.
    pub value: Option<Value>,
    /// Unit of a rotation value.
    #[serde(default)]
    pub rotation_unit: AngleUnit,
}

fn vec3(value: &Value) -> PackResult<[f64; 3]> {
    serde_json::from_value(value.clone()).map_err(|_| PackError::invalid("this property takes [x, y, z]"))
}

/// The bridge calls one keyframe request needs.
pub fn calls(a: &KeyframeArgs) -> PackResult<Vec<InsertKeyframeParams>> {
    let call = |property, value| InsertKeyframeParams { object: a.object.clone(), property, frame: a.frame, value };
    Ok(match a.property {
        KeyProperty::Location => vec![call(Property::Location, a.value.as_ref().map(vec3).transpose()?.map(KeyValue::Vec3))],
        KeyProperty::Scale => vec![call(Property::Scale, a.value.as_ref().map(vec3).transpose()?.map(KeyValue::Vec3))],
        KeyProperty::Rotation => {
            let v = a.value.as_ref().map(vec3).transpose()?.map(|v| KeyValue::Vec3(a.rotation_unit.to_radians(v)));
            vec![call(Property::RotationEuler, v)]
        }
        KeyProperty::Visible => {
            let hidden = match &a.value {
                None => None,
                Some(Value::Bool(b)) => Some(KeyValue::Boolean(!b)),
                Some(_) => return Err(PackError::invalid("visible takes true or false")),
            };
            vec![call(Property::HideViewport, hidden.clone()), call(Property::HideRender, hidden)]
        }
    })
}

/// Key an object's location, rotation, scale or visibility at a frame.
///
/// Optionally sets the value first (rotation in degrees unless rotation_unit is radians),
/// then inserts a keyframe.
#[capability(
    key = "animation.keyframe",
    family = "animation",
    tags = ["animation", "animate", "keyframe", "key", "frame", "timeline", "motion"],
    aliases = ["blender_insert_keyframe", "insert_keyframe", "keyframe"],
    examples = ["animate the cube moving up", "keyframe the rotation at frame 24", "make it spin"],
    uses = [InsertKeyframe],
    cases = cases,
)]
fn keyframe(args: KeyframeArgs) -> PackResult<Value> {
    let mut keys = Vec::new();
    for call in calls(&args)? {
        keys.push(json!(insert_keyframe(&call)?));
    }
    Ok(json!({ "object": args.object, "frame": args.frame, "keys": keys }))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a rotation key in degrees")
            .setup("animation.keyframe", json!({ "object": "Cube", "property": "rotation", "frame": 1, "value": [0, 0, 0] }))
            .args(json!({ "object": "Cube", "property": "rotation", "frame": 48, "value": [0, 0, 180] }))
            // At frame 1 the cube holds its frame-1 key: only its animation changed.
            .changed(&["Cube"]).fields("Cube", &["animation"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "rotation": [0.0, 0.0, 0.0], "keyframes": [{ "property": "rotation_euler", "keys_total": 6 }] })),
        Case::new("a first key creates an action").args(json!({ "object": "Cube", "property": "location", "frame": 10, "value": [0, 0, 1] }))
            .changed(&["Cube"]).datablocks_added("actions", &["CubeAction"]),
        Case::new("visibility keys both flags").args(json!({ "object": "Cube", "property": "visible", "frame": 5, "value": false }))
            .changed(&["Cube"]).fields("Cube", &["animation", "visibility"]),
        Case::new("a missing object").args(json!({ "object": "Ghost", "property": "location", "frame": 1 })).error("not_found"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> KeyframeArgs {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn rotation_keys_are_radians_and_visibility_keys_both_flags() {
        let c = calls(&args(json!({ "object": "Cube", "property": "rotation", "frame": 10, "value": [0, 0, 90] }))).unwrap();
        assert_eq!(c[0].property, Property::RotationEuler);
        let Some(KeyValue::Vec3(v)) = c[0].value else { panic!("{c:?}") };
        assert!((v[2] - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        let c = calls(&args(json!({ "object": "Cube", "property": "visible", "frame": 1, "value": false }))).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].value, Some(KeyValue::Boolean(true)));
    }

    #[test]
    fn wrong_value_shapes_are_refused() {
        assert!(calls(&args(json!({ "object": "C", "property": "location", "frame": 1, "value": true }))).is_err());
        assert!(calls(&args(json!({ "object": "C", "property": "visible", "frame": 1, "value": [1, 2, 3] }))).is_err());
    }
}
