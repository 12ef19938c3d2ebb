//! Where to aim or place things: a point, or an object whose location the bridge reports.

use capstan_sdk::prelude::*;

/// A point `[x, y, z]` in metres, or the exact name of an object.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Target {
    Point([f64; 3]),
    Object(#[schemars(length(min = 1, max = 63))] String),
}

#[derive(Deserialize)]
struct ObjectLocation {
    location: [f64; 3],
}

impl Target {
    /// The world-space point; asks the bridge for an object's location.
    pub fn resolve(&self) -> PackResult<[f64; 3]> {
        match self {
            Target::Point(p) if p.iter().all(|v| v.is_finite()) => Ok(*p),
            Target::Point(_) => Err(PackError::invalid("a target point must be finite numbers")),
            Target::Object(name) => {
                let info: ObjectLocation = bridge::call("get_object_info", &json!({ "name": name }))?;
                Ok(info.location)
            }
        }
    }
}

/// Merge the `delta` objects of several bridge results into one.
pub fn merge_deltas<'a>(results: impl IntoIterator<Item = &'a Value>) -> Value {
    let mut merged: std::collections::BTreeMap<&str, std::collections::BTreeSet<String>> = Default::default();
    for r in results {
        if let Some(Value::Object(delta)) = r.get("delta") {
            for (k, v) in delta {
                let set = merged.entry(match k.as_str() {
                    "added" => "added",
                    "removed" => "removed",
                    "changed" => "changed",
                    _ => "settings",
                }).or_default();
                for item in v.as_array().into_iter().flatten().filter_map(Value::as_str) {
                    set.insert(item.to_string());
                }
            }
        }
    }
    let added = merged.get("added").cloned().unwrap_or_default();
    let changed: Vec<&String> = merged.get("changed").map(|c| c.iter().filter(|n| !added.contains(*n)).collect()).unwrap_or_default();
    json!({
        "added": added,
        "removed": merged.get("removed").cloned().unwrap_or_default(),
        "changed": changed,
        "settings": merged.get("settings").cloned().unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_as_points_or_names() {
        assert_eq!(serde_json::from_value::<Target>(json!([1, 2, 3])).unwrap(), Target::Point([1.0, 2.0, 3.0]));
        assert_eq!(serde_json::from_value::<Target>(json!("Cube")).unwrap(), Target::Object("Cube".into()));
        assert!(serde_json::from_value::<Target>(json!([1, 2])).is_err());
    }

    #[test]
    fn deltas_merge_without_double_counting() {
        let a = json!({ "delta": { "added": ["Key"], "removed": [], "changed": [], "settings": [] } });
        let b = json!({ "delta": { "added": ["Fill"], "removed": [], "changed": ["Key"], "settings": ["world"] } });
        let m = merge_deltas([&a, &b]);
        assert_eq!(m["added"], json!(["Fill", "Key"]));
        assert_eq!(m["changed"], json!([]));
        assert_eq!(m["settings"], json!(["world"]));
    }
}
