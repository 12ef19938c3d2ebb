use capstan_blender::{SetCustomProperty, SetCustomPropertyParams, SetCustomPropertyParamsAction, SetCustomPropertyParamsValue, set_custom_property};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PropertyArgs {
    /// The object whose property this is.
    #[schemars(length(min = 1, max = 63))]
    pub object: String,
    /// Property identifier: letters, digits and `_`, starting with a letter.
    #[schemars(length(min = 1, max = 63), regex(pattern = r"^[A-Za-z][A-Za-z0-9_]*$"))]
    pub key: String,
    /// Absent: read the property. A number, boolean or string: set it. null: delete it.
    #[serde(default, deserialize_with = "present")]
    #[schemars(with = "Option<SetCustomPropertyParamsValue>")]
    pub value: Option<Option<SetCustomPropertyParamsValue>>,
}

/// `Some(None)` for an explicit null, `None` (by `default`) for an absent field.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<SetCustomPropertyParamsValue>>, D::Error> {
    Option::<SetCustomPropertyParamsValue>::deserialize(d).map(Some)
}

pub fn params(a: PropertyArgs) -> SetCustomPropertyParams {
    let (action, value) = match a.value {
        None => (SetCustomPropertyParamsAction::Get, None),
        Some(None) => (SetCustomPropertyParamsAction::Delete, None),
        Some(Some(v)) => (SetCustomPropertyParamsAction::Set, Some(v)),
    };
    SetCustomPropertyParams { object: a.object, key: a.key, action, value }
}

/// Get, set or delete a custom (ID) property of an object (metadata, tags, ownership).
///
/// Without `value` the property is read; a number, boolean or string sets it; `null`
/// deletes it. The answer has the value now and the previous one.
#[capability(
    key = "object.custom_property",
    family = "object",
    tags = ["custom property", "property", "metadata", "tag", "id property", "attribute", "sku"],
    aliases = ["set_custom_property", "scene_set_custom_property", "custom_properties", "get_custom_property"],
    examples = ["tag the cube with sku A-17", "set the custom property price to 19.99 on the box", "remove the owner property from the lamp"],
    uses = [SetCustomProperty],
    cases = cases,
)]
fn custom_property(args: PropertyArgs) -> PackResult<Value> {
    Ok(json!(set_custom_property(&params(args))?))
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
        Case::new("deleting a property that is not there").args(json!({ "object": "Cube", "key": "nothing", "value": null })).error("not_found"),
        Case::new("hidden keys are refused").args(json!({ "object": "Cube", "key": "_rna_ui", "value": 1 })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_reads_null_deletes_a_value_sets() {
        let get = params(serde_json::from_value(json!({ "object": "A", "key": "k" })).unwrap());
        assert_eq!(get.action, SetCustomPropertyParamsAction::Get);
        let del = params(serde_json::from_value(json!({ "object": "A", "key": "k", "value": null })).unwrap());
        assert_eq!((del.action, del.value), (SetCustomPropertyParamsAction::Delete, None));
        let set = params(serde_json::from_value(json!({ "object": "A", "key": "k", "value": true })).unwrap());
        assert_eq!(set.value, Some(SetCustomPropertyParamsValue::Boolean(true)));
    }
}
