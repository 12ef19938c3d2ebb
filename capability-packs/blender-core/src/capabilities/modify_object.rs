use capstan_blender::angles::AngleUnit;
use capstan_blender::{ModifyObject, ModifyObjectParams, modify_object as bridge_modify};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = something_to_change)]
pub struct ModifyArgs {
    /// Exact name of the object to change.
    #[schemars(length(min = 1, max = 63))]
    pub name: String,
    /// Rename the object.
    #[schemars(length(min = 1, max = 63))]
    pub new_name: Option<String>,
    /// New location [x, y, z] in metres.
    pub location: Option<[f64; 3]>,
    /// New rotation [x, y, z] (Euler XYZ) in `rotation_unit`.
    pub rotation: Option<[f64; 3]>,
    /// Unit of `rotation`: degrees (default) or radians.
    #[serde(default)]
    pub rotation_unit: AngleUnit,
    /// New scale [x, y, z]; every factor must be positive.
    #[schemars(inner(range(min = 0.000001)))]
    pub scale: Option<[f64; 3]>,
    /// Show (true) or hide (false) in viewport and render.
    pub visible: Option<bool>,
}

pub fn params(a: &ModifyArgs) -> PackResult<ModifyObjectParams> {
    if a.new_name.is_none() && a.location.is_none() && a.rotation.is_none() && a.scale.is_none() && a.visible.is_none() {
        return Err(PackError::invalid("nothing to change: give at least one of new_name, location, rotation, scale, visible"));
    }
    Ok(ModifyObjectParams {
        name: a.name.clone(),
        new_name: a.new_name.clone(),
        location: a.location,
        rotation: a.rotation.map(|r| a.rotation_unit.to_radians(r)),
        scale: a.scale,
        visible: a.visible,
    })
}

/// Move, rotate, scale, rename, show or hide an existing object.
///
/// Changes the transform, name or visibility of one object; only the given fields change.
/// Rotation in degrees unless rotation_unit is radians.
#[capability(
    key = "scene.modify_object",
    family = "mutate",
    tags = ["move", "rotate", "scale", "transform", "rename", "hide", "show"],
    aliases = ["blender_modify_object", "modify_object", "transform_object"],
    examples = ["move the cube up", "rotate the monkey 45 degrees", "make it bigger"],
    uses = [ModifyObject],
    cases = cases,
)]
fn modify_object(args: ModifyArgs) -> PackResult<Value> {
    Ok(json!(bridge_modify(&params(&args)?)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("move and scale, nothing else")
            .args(json!({ "name": "Cube", "location": [0, 0, 4], "scale": [2, 2, 2] }))
            .changed(&["Cube"]).added(&[]).fields("Cube", &["transform"])
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "location": [0.0, 0.0, 4.0], "scale": [2.0, 2.0, 2.0], "rotation": [0.0, 0.0, 0.0] })),
        Case::new("rename and hide").args(json!({ "name": "Cube", "new_name": "Box", "visible": false }))
            .changed(&["Box"]).fields("Box", &["name", "visibility"]).result(json!({ "name": "Box", "visible": false })),
        Case::new("nothing to change").args(json!({ "name": "Cube" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a missing object").args(json!({ "name": "Ghost", "visible": true })).error("not_found"),
    ]
}

/// At least one of these is given: a call with none could only be refused at run time,
/// so the schema says so (the check before the bridge call stays).
fn something_to_change(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any(schema, &["new_name", "location", "rotation", "scale", "visible"]);
}
