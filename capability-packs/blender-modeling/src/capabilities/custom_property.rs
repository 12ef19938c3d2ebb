use capstan_blender::{
    SetCustomProperty, SetCustomPropertyParams, SetCustomPropertyParamsAction, SetCustomPropertyParamsSubtype, SetCustomPropertyParamsValue,
    set_custom_property,
};
use capstan_sdk::prelude::*;

/// The UI data fields: given with a value, or alone to change an existing property's.
const UI_FIELDS: [&str; 6] = ["min", "max", "soft_min", "soft_max", "subtype", "description"];

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = deleting_takes_no_ui)]
pub struct PropertyArgs {
    /// The object whose property this is.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// Property identifier: letters, digits and `_`, starting with a letter.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z][A-Za-z0-9_]*$"))]
    pub key: String,
    /// Absent: read the property (or, with UI fields, change its UI data). An integer
    /// (stays an int), a number (a float), a boolean, a string or a vector (a list of
    /// numbers): set it. null: delete it.
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "Option<SetCustomPropertyParamsValue>")]
    pub value: Option<Option<SetCustomPropertyParamsValue>>,
    /// Hard minimum (numbers and vectors).
    pub min: Option<f64>,
    /// Hard maximum (numbers and vectors).
    pub max: Option<f64>,
    /// Soft minimum: where the UI slider starts.
    pub soft_min: Option<f64>,
    /// Soft maximum: where the UI slider ends.
    pub soft_max: Option<f64>,
    /// How Blender shows the value: FACTOR, PERCENTAGE, ANGLE, DISTANCE... for numbers;
    /// COLOR, TRANSLATION, EULER... for vectors; FILE_PATH, DIR_PATH, FILE_NAME for strings.
    pub subtype: Option<SetCustomPropertyParamsSubtype>,
    /// The tooltip.
    #[schemars(length(max = 512))]
    pub description: Option<String>,
}

/// Deleting (`value` null) takes no UI data: said in the schema, so that a call the
/// schema accepts does not fail on it.
fn deleting_takes_no_ui(schema: &mut schemars::Schema) {
    let ui: Vec<Value> = UI_FIELDS.iter().map(|f| json!({ "required": [f] })).collect();
    schema.insert(
        "if".into(),
        json!({ "required": ["value"], "properties": { "value": { "type": "null" } } }),
    );
    schema.insert("then".into(), json!({ "not": { "anyOf": ui } }));
}

/// `Some(None)` for an explicit null, `None` (by `default`) for an absent field.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<SetCustomPropertyParamsValue>>, D::Error> {
    Option::<SetCustomPropertyParamsValue>::deserialize(d).map(Some)
}

/// The bridge's parameters; refuses what the schema cannot say (a minimum above its maximum).
pub fn params(a: PropertyArgs) -> PackResult<SetCustomPropertyParams> {
    let has_ui = a.min.is_some() || a.max.is_some() || a.soft_min.is_some() || a.soft_max.is_some() || a.subtype.is_some() || a.description.is_some();
    for (low, high, what) in [(a.min, a.max, "min"), (a.soft_min, a.soft_max, "soft_min")] {
        if let (Some(l), Some(h)) = (low, high)
            && l > h
        {
            return Err(PackError::invalid(format!("{what} {l} is above its maximum {h}")));
        }
    }
    let (action, value) = match a.value {
        None if has_ui => (SetCustomPropertyParamsAction::Set, None),
        None => (SetCustomPropertyParamsAction::Get, None),
        Some(None) if has_ui => return Err(PackError::invalid("deleting a property (value null) takes no UI data")),
        Some(None) => (SetCustomPropertyParamsAction::Delete, None),
        Some(Some(v)) => (SetCustomPropertyParamsAction::Set, Some(v)),
    };
    Ok(SetCustomPropertyParams {
        object: a.object,
        key: a.key,
        action,
        value,
        min: a.min,
        max: a.max,
        soft_min: a.soft_min,
        soft_max: a.soft_max,
        subtype: a.subtype,
        description: a.description,
    })
}

/// Get, set or delete a custom (ID) property of an object, with its type and UI data.
///
/// Without `value` the property is read; an integer, number, boolean, string or vector
/// (list of numbers) sets it with that type (12345 stays an int); `null` deletes it.
/// min, max, soft_min, soft_max, subtype and description set its UI data (Blender's
/// property UI: limits, slider range, display, tooltip), with a value or alone on an
/// existing property. The answer has the value now, its type, the UI data and the
/// previous value.
#[capability(
    key = "object.custom_property",
    family = "object",
    tags = ["custom property", "property", "metadata", "tag", "id property", "attribute", "sku", "integer property", "tooltip", "soft limits"],
    aliases = ["set_custom_property", "scene_set_custom_property", "custom_properties", "get_custom_property"],
    examples = ["tag the cube with sku A-17", "set the custom property price to 19.99 on the box", "remove the owner property from the lamp",
                "add an integer property count 12345 to the cube, between 0 and 100000, with a tooltip"],
    uses = [SetCustomProperty],
    cases = cases,
)]
fn custom_property(args: PropertyArgs) -> PackResult<Value> {
    Ok(json!(set_custom_property(&params(args)?)?))
}

fn cases() -> Vec<Case> {
    vec![
        Case::new("set a string property")
            .args(json!({ "object": "Cube", "key": "sku", "value": "A-17" }))
            .changed(&["Cube"]).fields("Cube", &["custom_properties"]).added(&[])
            .result(json!({ "object": "Cube", "key": "sku", "action": "set", "exists": true, "value": "A-17" }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "custom_properties": { "sku": "A-17" } })),
        Case::new("read it back without changing anything")
            .setup("object.custom_property", json!({ "object": "Cube", "key": "price", "value": 19.5 }))
            .args(json!({ "object": "Cube", "key": "price" }))
            .changed(&[]).added(&[]).result(json!({ "action": "get", "exists": true, "value": 19.5 })),
        Case::new("null deletes it")
            .setup("object.custom_property", json!({ "object": "Cube", "key": "owner", "value": "me" }))
            .args(json!({ "object": "Cube", "key": "owner", "value": null }))
            .changed(&["Cube"]).result(json!({ "action": "delete", "exists": false, "previous": "me" }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "custom_properties": {} })),
        Case::new("an integer stays an integer")
            .args(json!({ "object": "Cube", "key": "count", "value": 12345 }))
            .changed(&["Cube"])
            .result(json!({ "value": 12345, "type": "int" }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "custom_properties": { "count": 12345 } })),
        Case::new("read back, an integer is still an integer")
            .setup("object.custom_property", json!({ "object": "Cube", "key": "count", "value": 12345 }))
            .args(json!({ "object": "Cube", "key": "count" }))
            .changed(&[]).result(json!({ "action": "get", "value": 12345, "type": "int" })),
        Case::new("a float keeps its type").args(json!({ "object": "Cube", "key": "ratio", "value": 2.0 }))
            .changed(&["Cube"]).result(json!({ "value": 2.0, "type": "float" })),
        Case::new("a bool keeps its type").args(json!({ "object": "Cube", "key": "flag", "value": true }))
            .changed(&["Cube"]).result(json!({ "value": true, "type": "bool" }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "custom_properties": { "flag": true } })),
        Case::new("a string of digits stays a string").args(json!({ "object": "Cube", "key": "label", "value": "7" }))
            .changed(&["Cube"]).result(json!({ "value": "7", "type": "string" })),
        Case::new("a list of numbers is a vector")
            .args(json!({ "object": "Cube", "key": "offset", "value": [1, 2.5, -3] }))
            .changed(&["Cube"])
            .result(json!({ "value": [1.0, 2.5, -3.0], "type": "vector" }))
            .reads("scene.object_info", json!({ "name": "Cube" }), json!({ "custom_properties": { "offset": [1.0, 2.5, -3.0] } })),
        Case::new("limits, soft limits, subtype and tooltip, read back")
            .setup("object.custom_property", json!({ "object": "Cube", "key": "amount", "value": 0.25, "min": 0, "max": 2, "soft_min": 0,
                                                     "soft_max": 1, "subtype": "FACTOR", "description": "How much" }))
            .args(json!({ "object": "Cube", "key": "amount" }))
            .changed(&[])
            .result(json!({ "value": 0.25, "type": "float",
                            "ui": { "min": 0.0, "max": 2.0, "soft_min": 0.0, "soft_max": 1.0, "subtype": "FACTOR", "description": "How much" } })),
        // The delta does not see UI data (the scene fingerprint covers values only), so
        // this case checks the answer and not `changed`.
        Case::new("the UI data of an existing integer property, alone")
            .setup("object.custom_property", json!({ "object": "Cube", "key": "count", "value": 5 }))
            .args(json!({ "object": "Cube", "key": "count", "max": 10, "description": "Copies" }))
            .result(json!({ "value": 5, "type": "int", "ui": { "max": 10, "description": "Copies" } })),
        Case::new("min and max on a string are refused")
            .args(json!({ "object": "Cube", "key": "label", "value": "x", "min": 1 })).error("invalid_params"),
        Case::new("deleting takes no UI data (the schema says so)")
            .args(json!({ "object": "Cube", "key": "count", "value": null, "max": 1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("deleting a property that is not there").args(json!({ "object": "Cube", "key": "nothing", "value": null })).error("not_found"),
        Case::new("hidden keys are refused").args(json!({ "object": "Cube", "key": "_rna_ui", "value": 1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_reads_null_deletes_a_value_sets() {
        let p = |v: Value| params(serde_json::from_value(v).unwrap()).unwrap();
        let get = p(json!({ "object": "A", "key": "k" }));
        assert_eq!(get.action, SetCustomPropertyParamsAction::Get);
        let del = p(json!({ "object": "A", "key": "k", "value": null }));
        assert_eq!((del.action, del.value), (SetCustomPropertyParamsAction::Delete, None));
        let set = p(json!({ "object": "A", "key": "k", "value": true }));
        assert_eq!(set.value, Some(SetCustomPropertyParamsValue::Boolean(true)));
        let ui = p(json!({ "object": "A", "key": "k", "description": "tip" }));
        assert_eq!((ui.action, ui.value), (SetCustomPropertyParamsAction::Set, None));
    }

    #[test]
    fn integers_stay_integers_on_the_way_to_the_bridge() {
        let set = params(serde_json::from_value(json!({ "object": "A", "key": "k", "value": 12345 })).unwrap()).unwrap();
        assert_eq!(set.value, Some(SetCustomPropertyParamsValue::Integer(12345)));
        assert_eq!(serde_json::to_value(&set).unwrap()["value"], json!(12345));
        let float = params(serde_json::from_value(json!({ "object": "A", "key": "k", "value": 2.5 })).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&float).unwrap()["value"], json!(2.5));
        let vector = params(serde_json::from_value(json!({ "object": "A", "key": "k", "value": [1, 2.5] })).unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&vector).unwrap()["value"], json!([1, 2.5]));
    }

    #[test]
    fn a_minimum_above_its_maximum_is_refused_before_the_bridge() {
        let args = serde_json::from_value(json!({ "object": "A", "key": "k", "value": 1, "soft_min": 2, "soft_max": 1 })).unwrap();
        assert!(params(args).is_err());
    }
}
