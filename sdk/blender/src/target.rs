//! Where to aim or place things: a point, or an object by name, whose location the
//! bridge reports (or which the bridge resolves itself, for commands that take a name).

use crate::{GetObjectInfoParams, get_object_info};
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

    /// The world-space point; asks the bridge for an object's location
    /// (`get_object_info`, which the capability must declare in `uses`).
    pub fn resolve(&self) -> PackResult<[f64; 3]> {
        match self {
            Target::Object(name) => Ok(get_object_info(&GetObjectInfoParams { name: name.clone() })?.location),
            point => match point.split()? {
                (_, Some(p)) => Ok(p),
                _ => unreachable!("a point splits into a point"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GetObjectInfo;
    use capstan_sdk::testing::MockBridge;

    #[test]
    fn targets_parse_as_points_or_names() {
        assert_eq!(serde_json::from_value::<Target>(json!([1, 2, 3])).unwrap(), Target::Point([1.0, 2.0, 3.0]));
        assert_eq!(serde_json::from_value::<Target>(json!("Cube")).unwrap(), Target::Object("Cube".into()));
        assert_eq!(Target::Point([1.0, 2.0, 3.0]).split().unwrap(), (None, Some([1.0, 2.0, 3.0])));
        assert_eq!(Target::Object("Cube".into()).split().unwrap(), (Some("Cube".into()), None));
        assert!(serde_json::from_value::<Target>(json!([1, 2])).is_err());
    }

    #[test]
    fn a_point_resolves_without_the_bridge_and_a_name_through_it() {
        let bridge = MockBridge::install();
        assert_eq!(Target::Point([0.5, 0.0, -1.0]).resolve().unwrap(), [0.5, 0.0, -1.0]);
        assert!(matches!(Target::Point([f64::NAN, 0.0, 0.0]).resolve(), Err(PackError::InvalidArguments(_))));
        assert!(bridge.commands().is_empty());
        bridge.on::<GetObjectInfo, _>(|p| {
            let mut info: Value = serde_json::from_str(include_str!("../tests/object_info.json")).unwrap();
            info["name"] = json!(p.name);
            Ok(serde_json::from_value(info).unwrap())
        });
        assert_eq!(Target::Object("Hero".into()).resolve().unwrap(), [2.0, 0.0, 1.0]);
        assert_eq!(bridge.calls()[0].1, json!({ "name": "Hero" }));
    }
}
