//! Where to aim: a point, or an object by name (the bridge resolves it).

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
    /// (object, point) as the bridge takes them: exactly one is set.
    pub fn split(&self) -> PackResult<(Option<String>, Option<[f64; 3]>)> {
        match self {
            Target::Point(p) if p.iter().all(|v| v.is_finite()) => Ok((None, Some(*p))),
            Target::Point(_) => Err(PackError::invalid("a target point must be finite numbers")),
            Target::Object(name) => Ok((Some(name.clone()), None)),
        }
    }

    /// The world-space point; asks the bridge for an object's location.
    pub fn resolve(&self) -> PackResult<[f64; 3]> {
        match self.split()? {
            (_, Some(p)) => Ok(p),
            (Some(name), None) => Ok(get_object_info(&GetObjectInfoParams { name })?.location),
            (None, None) => unreachable!("a target is a point or a name"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_as_points_or_names() {
        assert_eq!(serde_json::from_value::<Target>(json!([1, 2, 3])).unwrap().split().unwrap(), (None, Some([1.0, 2.0, 3.0])));
        assert_eq!(serde_json::from_value::<Target>(json!("Cube")).unwrap().split().unwrap(), (Some("Cube".into()), None));
        assert!(serde_json::from_value::<Target>(json!([1, 2])).is_err());
    }
}
