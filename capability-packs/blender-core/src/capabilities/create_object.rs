use capstan_blender::angles::AngleUnit;
use capstan_blender::{CreateObject, CreateObjectParams, CreateObjectParamsType, create_object as bridge_create};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateArgs {
    /// What to add.
    #[serde(rename = "type")]
    pub kind: CreateObjectParamsType,
    /// Name for the new object; Blender picks one (`Cube.001`) when absent or taken.
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// Overall size in metres (edge length of a cube, diameter of round things; default 2).
    #[schemars(range(min = 0.0001, max = 100000.0))]
    pub size: Option<f64>,
    /// Location [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// Rotation [x, y, z] (Euler XYZ) in `rotation_unit`.
    pub rotation: Option<[f64; 3]>,
    /// Unit of `rotation`: degrees (default) or radians.
    #[serde(default)]
    pub rotation_unit: AngleUnit,
    /// Scale [x, y, z]; every factor must be positive.
    #[schemars(inner(range(min = 0.000001)))]
    pub scale: Option<[f64; 3]>,
}

pub fn params(a: &CreateArgs) -> PackResult<CreateObjectParams> {
    for v in [a.location, a.rotation].into_iter().flatten() {
        if !v.iter().all(|x| x.is_finite()) {
            return Err(PackError::invalid("location and rotation must be finite numbers"));
        }
    }
    Ok(CreateObjectParams {
        r#type: a.kind,
        name: a.name.clone(),
        size: a.size,
        location: a.location,
        rotation: a.rotation.map(|r| a.rotation_unit.to_radians(r)),
        scale: a.scale,
    })
}

/// Add a primitive (cube, sphere, cylinder, cone, torus, plane, monkey, ...), an empty, a camera or a light.
///
/// Adds one object at a location with optional rotation (degrees unless rotation_unit is
/// radians), scale and size, into the active collection. Built with Blender's data API, so
/// its cost does not grow with the scene.
#[capability(
    key = "scene.create_object",
    family = "create",
    tags = ["add", "create", "primitive", "mesh", "cube", "sphere", "cylinder", "plane", "empty"],
    aliases = ["blender_create_object", "create_object", "add_object"],
    examples = ["add a cube", "create a sphere", "put a plane on the floor"],
    uses = [CreateObject],
    cases = cases,
)]
fn create_object(args: CreateArgs) -> PackResult<Value> {
    Ok(json!(bridge_create(&params(&args)?)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("a named cube at a location, rotated in degrees")
            .args(json!({ "type": "cube", "name": "Probe", "location": [1, 2, 3], "rotation": [0, 0, 90], "size": 1 }))
            .added(&["Probe"]).changed(&[]).removed(&[])
            .result(json!({ "name": "Probe", "type": "MESH", "location": [1.0, 2.0, 3.0], "rotation": [0.0, 0.0, std::f64::consts::FRAC_PI_2] }))
            .reads("scene.object_info", json!({ "name": "Probe" }), json!({ "dimensions": [1.0, 1.0, 1.0], "mesh": { "vertices": 8, "faces": 6 } })),
        Case::new("a torus fits its size")
            .args(json!({ "type": "torus", "name": "Ring", "size": 2 }))
            .added(&["Ring"])
            .reads("scene.object_info", json!({ "name": "Ring" }), json!({ "dimensions": [2.0, 2.0, 0.4], "mesh": { "vertices": 576, "faces": 576, "uv_layers": ["UVMap"] } })),
        Case::new("a sun light").args(json!({ "type": "light_sun", "name": "Sunny" })).added(&["Sunny"])
            .reads("scene.object_info", json!({ "name": "Sunny" }), json!({ "type": "LIGHT", "light": { "type": "SUN" } })),
        Case::new("a taken name is reported").args(json!({ "type": "cube", "name": "Cube" }))
            .added(&["Cube.001"]).result(json!({ "name": "Cube.001", "renamed_from": "Cube" })),
        Case::new("an unknown type").args(json!({ "type": "teapot" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degrees_become_radians_and_absent_fields_stay_absent() {
        let a: CreateArgs = serde_json::from_value(json!({"type": "uv_sphere", "name": "Ball", "location": [1, 2, 3], "rotation": [0, 0, 90]})).unwrap();
        let p = serde_json::to_value(params(&a).unwrap()).unwrap();
        assert_eq!(p["type"], "uv_sphere");
        assert!((p["rotation"][2].as_f64().unwrap() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!(p.get("scale").is_none(), "{p}");
    }

    #[test]
    fn unknown_fields_and_types_are_refused() {
        assert!(serde_json::from_value::<CreateArgs>(json!({"type": "cube", "colour": "red"})).is_err());
        assert!(serde_json::from_value::<CreateArgs>(json!({"type": "teapot"})).is_err());
    }
}
