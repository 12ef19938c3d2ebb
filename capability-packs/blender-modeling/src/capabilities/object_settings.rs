use capstan_blender::{
    ReadSettings, ReadSettingsParams, ReadSettingsParamsTarget, SetSettings, SetSettingsParams, SetSettingsParamsSettingsItem,
    SetSettingsParamsTarget, read_settings, set_settings,
};
use capstan_sdk::prelude::*;

/// What the paths start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Object,
    Mesh,
    Curve,
    Text,
    Light,
    Camera,
    Material,
    World,
    RigidBody,
    Constraint,
    Modifier,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// object; its data (mesh, curve, text, light, camera: by object or data name); material; world (default: the scene's);
    /// rigid_body (by object name); constraint or modifier (name, plus `object`).
    pub kind: Kind,
    /// The object, datablock, constraint or modifier name.
    #[schemars(length(min = 1, max = 63))]
    pub name: Option<String>,
    /// constraint, modifier: the object that has it.
    #[schemars(length(min = 1, max = 63))]
    pub object: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    /// RNA path from the target: `shape`, `size_y`, `deactivate_linear_velocity`, `cycles.is_shadow_catcher`, or `["key"]`.
    #[schemars(length(min = 1, max = 256))]
    pub path: String,
    /// Number, boolean, string, enum item (a list for flags), array, or a datablock name for a pointer.
    pub value: Value,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = settings_or_read)]
pub struct ObjectSettingsArgs {
    pub target: Target,
    /// Settings to set, in order, in one undo step.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub settings: Vec<Setting>,
    /// Paths to read (after setting), each with its type, enum items, range and default; `*` lists every property.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub read: Vec<String>,
}

/// At least one of `settings` and `read`, said in the schema.
fn settings_or_read(schema: &mut schemars::Schema) {
    capstan_sdk::schema_rules::require_any_nonempty(schema, &["settings", "read"]);
}

fn bridge_target(t: &Target) -> PackResult<Value> {
    let needs_name = !matches!(t.kind, Kind::World);
    if needs_name && t.name.is_none() {
        return Err(PackError::invalid("target.name is required (the object, datablock, constraint or modifier name)"));
    }
    let owned = matches!(t.kind, Kind::Constraint | Kind::Modifier);
    if owned != t.object.is_some() {
        return Err(PackError::invalid(if owned {
            "a constraint or modifier target needs `object`, the object that has it"
        } else {
            "`object` belongs to constraint and modifier targets only"
        }));
    }
    Ok(json!({ "kind": t.kind, "name": t.name, "object": t.object }))
}

/// Set several settings and/or read them, on one target.
pub fn run(target: Value, settings: Vec<Setting>, read: Vec<String>) -> PackResult<Value> {
    if settings.is_empty() && read.is_empty() {
        return Err(PackError::invalid("nothing to do: give `settings` ([{path, value}]) or `read` ([path])"));
    }
    let mut out = serde_json::Map::new();
    if !settings.is_empty() {
        let target: SetSettingsParamsTarget = serde_json::from_value(strip_nulls(target.clone())).map_err(|e| PackError::invalid(e.to_string()))?;
        let settings = settings.into_iter().map(|s| SetSettingsParamsSettingsItem { path: s.path, value: s.value }).collect();
        let done = set_settings(&SetSettingsParams { target, settings })?;
        out.insert("target".into(), json!(done.target));
        out.insert("changes".into(), json!(done.changes));
    }
    if !read.is_empty() {
        let target: ReadSettingsParamsTarget = serde_json::from_value(strip_nulls(target)).map_err(|e| PackError::invalid(e.to_string()))?;
        let got = read_settings(&ReadSettingsParams { target, read })?;
        out.insert("target".into(), json!(got.target));
        out.insert("version".into(), json!(got.version));
        out.insert("values".into(), json!(got.values));
    }
    Ok(Value::Object(out))
}

fn strip_nulls(mut v: Value) -> Value {
    if let Value::Object(map) = &mut v {
        map.retain(|_, x| !x.is_null());
    }
    v
}

/// Set or read any setting of an object and what belongs to it, by Blender's RNA path.
///
/// Targets: the object, its data (mesh, curve, text, light, camera), a material, the world,
/// its rigid body, a constraint or a modifier. Types, enum items and ranges come from the
/// running Blender; a refused value changes nothing and names the valid choices. Another
/// datablock is set by name (`parent: "Empty"`); custom properties are `["key"]`. Reading
/// answers each value with its type, enum items, range and default; `*` lists them all.
#[capability(
    key = "object.settings",
    family = "object",
    tags = ["settings", "property", "rna", "light shape", "disk", "ellipse", "rigid body", "deactivation", "modifier settings",
            "constraint settings", "camera settings", "text bevel", "material settings", "custom property"],
    aliases = ["set_property", "set_object_property", "object_settings", "get_property"],
    examples = ["make the area light a disk", "set the rigid body deactivation speed", "set the light's second size to 0.5",
                "set the camera sensor width to 36", "give the text a bevel resolution of 4", "what shapes can this light have"],
    uses = [SetSettings, ReadSettings],
    cases = cases,
)]
fn object_settings(args: ObjectSettingsArgs) -> PackResult<Value> {
    let target = bridge_target(&args.target)?;
    run(target, args.settings, args.read)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("an area light made a disk, read back")
            .args(json!({ "target": { "kind": "light", "name": "Light" },
                          "settings": [{ "path": "type", "value": "AREA" }, { "path": "shape", "value": "DISK" }, { "path": "size", "value": 2 }],
                          "read": ["type", "shape", "size"] }))
            .changed(&["Light"]).fields("Light", &["data"]).added(&[]).settings(&[])
            .result(json!({ "changes": [{ "path": "type", "before": "POINT", "after": "AREA" }, { "path": "shape", "after": "DISK" }, { "path": "size", "after": 2.0 }],
                            "values": [{ "path": "type", "value": "AREA" }, { "path": "shape", "value": "DISK", "facts": { "type": "ENUM" } }, { "path": "size", "value": 2.0 }] })),
        Case::new("an enum item this Blender lacks is refused")
            .args(json!({ "target": { "kind": "light", "name": "Light" }, "settings": [{ "path": "type", "value": "LASER" }] }))
            .error("invalid_params"),
        Case::new("the rigid body deactivation speed")
            .setup("physics.rigid_body", json!({ "object": "Cube" }))
            .args(json!({ "target": { "kind": "rigid_body", "name": "Cube" },
                          "settings": [{ "path": "use_deactivation", "value": true }, { "path": "deactivate_linear_velocity", "value": 0.25 }],
                          "read": ["deactivate_linear_velocity"] }))
            .changed(&["Cube"]).fields("Cube", &["physics"])
            .result(json!({ "changes": [{ "path": "use_deactivation", "before": false, "after": true }, { "path": "deactivate_linear_velocity", "after": 0.25 }],
                            "values": [{ "path": "deactivate_linear_velocity", "value": 0.25 }] })),
        Case::new("a parent by name and a typed custom property")
            .setup("scene.create_object", json!({ "type": "empty", "name": "Anchor" }))
            .args(json!({ "target": { "kind": "object", "name": "Cube" },
                          "settings": [{ "path": "parent", "value": "Anchor" }, { "path": "[\"count\"]", "value": 12345 }], "read": ["[\"count\"]"] }))
            .changed(&["Cube"]).fields("Cube", &["parent", "custom_properties"])
            .result(json!({ "values": [{ "path": "[\"count\"]", "value": 12345, "facts": { "type": "INT" } }] })),
        Case::new("a python attribute is no path").args(json!({ "target": { "kind": "object", "name": "Cube" }, "read": ["__class__"] }))
            .error("invalid_params"),
        Case::new("nothing to do").args(json!({ "target": { "kind": "object", "name": "Cube" } })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}
