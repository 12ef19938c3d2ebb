//! Rotations: agents think in degrees, Blender stores radians. The unit is explicit in
//! the arguments (`rotation_unit`, default degrees) or fixed by the capability, and
//! converted here, once.

use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AngleUnit {
    #[default]
    Degrees,
    Radians,
}

impl AngleUnit {
    pub fn to_radians(self, v: [f64; 3]) -> [f64; 3] {
        match self {
            AngleUnit::Radians => v,
            AngleUnit::Degrees => radians(v),
        }
    }
}

/// Degrees to radians, per axis (toward Blender).
pub fn radians(v: [f64; 3]) -> [f64; 3] {
    v.map(f64::to_radians)
}

/// Radians to degrees, per axis (Blender's values, reported back).
pub fn degrees(v: [f64; 3]) -> [f64; 3] {
    v.map(f64::to_degrees)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degrees_become_radians() {
        let r = AngleUnit::Degrees.to_radians([90.0, 180.0, -45.0]);
        assert!((r[0] - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!((r[1] - std::f64::consts::PI).abs() < 1e-12);
        assert!((r[2] + std::f64::consts::FRAC_PI_4).abs() < 1e-12);
        assert_eq!(AngleUnit::Radians.to_radians([1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]);
    }

    #[test]
    fn default_unit_is_degrees() {
        assert_eq!(AngleUnit::default(), AngleUnit::Degrees);
    }

    #[test]
    fn radians_and_degrees_round_trip() {
        let d = degrees(radians([90.0, 180.0, -45.0]));
        assert!(d.iter().zip([90.0, 180.0, -45.0]).all(|(a, b)| (a - b).abs() < 1e-12), "{d:?}");
    }
}
