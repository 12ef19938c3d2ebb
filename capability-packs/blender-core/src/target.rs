//! Where to aim or place things: a point, or an object whose location the bridge reports.

use capstan_sdk::blender::{GetObjectInfoParams, get_object_info};
use capstan_sdk::prelude::*;

/// A point `[x, y, z]` in metres, or the exact name of an object.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Target {
    Point([f64; 3]),
    Object(#[schemars(length(min = 1, max = 63))] String),
}

impl Target {
    /// The world-space point; asks the bridge for an object's location.
    pub fn resolve(&self) -> PackResult<[f64; 3]> {
        match self {
            Target::Point(p) if p.iter().all(|v| v.is_finite()) => Ok(*p),
            Target::Point(_) => Err(PackError::invalid("a target point must be finite numbers")),
            Target::Object(name) => {
                let info = get_object_info(&GetObjectInfoParams { name: name.clone() })?;
                Ok(info.location)
            }
        }
    }
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
}
