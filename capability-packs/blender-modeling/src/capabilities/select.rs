use capstan_blender::{SelectObjects, SelectObjectsParams, SelectObjectsResult, select_objects};
use capstan_sdk::prelude::*;

/// What selects: at least one filter, or an active object. A call with neither (`{}`,
/// or only `mode`) could only fail in Blender as "nothing to select", so the schema
/// refuses it before any bridge call.
const SELECTS: [&str; 8] = ["names", "pattern", "type", "material", "collection", "modifier", "polycount", "active"];

/// The bridge command's parameters, with the rule that something must select.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct SelectArgs(pub SelectObjectsParams);

impl JsonSchema for SelectArgs {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SelectArgs".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = SelectObjectsParams::json_schema(generator);
        capstan_sdk::schema_rules::require_any(&mut schema, &SELECTS);
        schema
    }
}

/// Select objects by names, glob, type, material, collection, modifier type or polygon count; set the active object.
///
/// The filters given all apply; what they match replaces the selection (`mode`
/// `replace`, the default), is added to it (`extend`) or removed from it (`deselect`).
/// `polycount` {min, max} counts the evaluated mesh (modifiers applied), and the answer
/// gives each match's count (so "the highest polycount" is one call). `active` makes an
/// object the active one and selects it; without a filter only the active object
/// changes. The answer lists the selection afterwards and the active object; the delta
/// reports the change as the settings domain `selection`. Undo restores it.
#[capability(
    key = "object.select",
    family = "object",
    tags = ["select", "selection", "selected", "deselect", "active object", "make active", "pick", "highlight", "polycount", "select all"],
    aliases = ["select_objects", "select_object", "set_active_object", "deselect_all", "select_by_material", "select_by_type"],
    examples = ["select all objects that use the material Red", "select the object with the highest polycount",
                "select only the lights", "deselect everything", "make the camera the active object",
                "add the empties to the selection", "select every object whose name starts with Tree"],
    uses = [SelectObjects],
    cases = cases,
    output = SelectObjectsResult,
)]
fn select(args: SelectArgs) -> PackResult<SelectObjectsResult> {
    Ok(select_objects(&args.0)?)
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("select the objects that use a material")
            .setup("scene.create_object", json!({ "type": "uv_sphere", "name": "Ball" }))
            .setup("object.select", json!({ "names": ["Ball"] }))
            .args(json!({ "material": "Material" }))
            .changed(&[]).added(&[]).removed(&[]).settings(&["selection"])
            .result(json!({ "matched": ["Cube"], "selected": ["Cube"], "selected_total": 1, "active": "Cube", "mode": "replace" }))
            .reads("scene.info", json!({}), json!({ "selected": ["Cube"], "selected_total": 1, "active": "Cube" })),
        Case::new("the evaluated polygon count, modifiers applied")
            .setup("mutate.modifier_add", json!({ "object": "Cube", "type": "SUBSURF", "properties": { "levels": 2 } }))
            .setup("object.select", json!({ "type": "LIGHT" }))
            .args(json!({ "polycount": { "min": 50 } }))
            .changed(&[]).settings(&["selection"])
            .result(json!({ "selected": ["Cube"], "polygons": { "Cube": 96 } }))
            .reads("scene.info", json!({}), json!({ "selected": ["Cube"] })),
        Case::new("extend by type and set the active object")
            .args(json!({ "type": "LIGHT", "mode": "extend", "active": "Camera" }))
            .changed(&[]).settings(&["selection"])
            .result(json!({ "matched": ["Light"], "selected": ["Camera", "Cube", "Light"], "active": "Camera" }))
            .reads("scene.info", json!({}), json!({ "selected": ["Camera", "Cube", "Light"], "selected_total": 3, "active": "Camera" })),
        Case::new("deselect everything")
            .args(json!({ "pattern": "*", "mode": "deselect" }))
            .changed(&[]).settings(&["selection"])
            .result(json!({ "selected": [], "selected_total": 0 }))
            .reads("scene.info", json!({}), json!({ "selected": [], "selected_total": 0, "active": "Cube" })),
        Case::new("objects in a collection")
            .setup("object.collection", json!({ "action": "create", "name": "Rig", "objects": ["Light", "Camera"] }))
            .args(json!({ "collection": "Rig" }))
            .settings(&["selection"])
            .result(json!({ "selected": ["Camera", "Light"] })),
        Case::new("an unknown material").args(json!({ "material": "Nope" })).error("not_found"),
        Case::new("a modifier type Blender does not have").args(json!({ "modifier": "WIGGLE" })).error("invalid_params"),
        Case::new("nothing to select").args(json!({})).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("a mode alone selects nothing").args(json!({ "mode": "extend" })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_refuses_a_call_that_selects_nothing() {
        let schema = serde_json::to_value(schemars::schema_for!(SelectArgs)).unwrap();
        let any_of = schema["allOf"][0]["anyOf"].as_array().unwrap();
        assert_eq!(any_of.len(), SELECTS.len());
        assert_eq!(schema["minProperties"], 1);
        // Every key the anyOf names is a property of the command.
        for k in SELECTS {
            assert!(schema["properties"].get(k).is_some(), "{k}");
        }
        let args: SelectArgs = serde_json::from_value(json!({ "material": "Red", "mode": "extend" })).unwrap();
        assert_eq!(args.0.material.as_deref(), Some("Red"));
    }
}
