//! Lighting presets: rigs of area lights placed around a target and aimed at it.
//!
//! Positions are spherical around the target: azimuth measured from the -Y axis
//! (Blender's "front"), counter-clockwise seen from above; elevation above the
//! horizon. Energy scales with the square of the distance so a rig looks the same at
//! any size.

use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LightingPreset {
    /// Key, fill and rim: the classic portrait/product setup.
    ThreePoint,
    /// Two large soft boxes and an overhead light: even, soft studio light.
    Studio,
    /// A strong back light only: silhouettes and edges.
    Rim,
}

/// One light of a rig.
#[derive(Debug, Clone, PartialEq)]
pub struct RigLight {
    pub name: &'static str,
    pub azimuth_deg: f64,
    pub elevation_deg: f64,
    /// Multiple of the rig distance.
    pub distance: f64,
    /// Watts at a rig distance of 5 m.
    pub energy: f64,
    /// Area light edge length in metres.
    pub size: f64,
}

pub fn rig(preset: LightingPreset) -> Vec<RigLight> {
    let l = |name, azimuth_deg, elevation_deg, distance, energy, size| RigLight { name, azimuth_deg, elevation_deg, distance, energy, size };
    match preset {
        LightingPreset::ThreePoint => vec![
            l("Key Light", 45.0, 35.0, 1.0, 1000.0, 1.5),
            l("Fill Light", -60.0, 20.0, 1.2, 400.0, 2.5),
            l("Rim Light", 170.0, 45.0, 1.0, 800.0, 1.0),
        ],
        LightingPreset::Studio => vec![
            l("Softbox Left", 40.0, 25.0, 1.0, 900.0, 3.0),
            l("Softbox Right", -40.0, 25.0, 1.0, 700.0, 3.0),
            l("Top Light", 0.0, 85.0, 1.0, 500.0, 4.0),
        ],
        LightingPreset::Rim => vec![
            l("Rim Light Left", 150.0, 30.0, 1.0, 1000.0, 1.0),
            l("Rim Light Right", -150.0, 30.0, 1.0, 1000.0, 1.0),
        ],
    }
}

/// The world position of a rig light around `target` at `distance` metres.
pub fn position(light: &RigLight, target: [f64; 3], distance: f64) -> [f64; 3] {
    let (az, el) = (light.azimuth_deg.to_radians(), light.elevation_deg.to_radians());
    let d = distance * light.distance;
    let horizontal = d * el.cos();
    [
        round4(target[0] + horizontal * az.sin()),
        round4(target[1] - horizontal * az.cos()),
        round4(target[2] + d * el.sin()),
    ]
}

/// Energy for a light at `distance` (inverse-square compensated against 5 m).
pub fn energy(light: &RigLight, distance: f64, intensity: f64) -> f64 {
    let d = distance * light.distance / 5.0;
    round4(light.energy * d * d * intensity)
}

fn round4(v: f64) -> f64 {
    (v * 1e4).round() / 1e4
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
        a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
    }

    #[test]
    fn lights_sit_at_the_rig_distance_around_the_target() {
        let target = [1.0, 2.0, 0.5];
        for preset in [LightingPreset::ThreePoint, LightingPreset::Studio, LightingPreset::Rim] {
            for light in rig(preset) {
                let p = position(&light, target, 4.0);
                assert!((dist(p, target) - 4.0 * light.distance).abs() < 1e-3, "{light:?}");
                assert!(p[2] > target[2], "{} is above the target", light.name);
            }
        }
    }

    #[test]
    fn the_key_light_is_in_front_and_the_rim_light_behind() {
        let lights = rig(LightingPreset::ThreePoint);
        let key = position(&lights[0], [0.0; 3], 5.0);
        let rim = position(&lights[2], [0.0; 3], 5.0);
        assert!(key[1] < 0.0, "front is -Y: {key:?}");
        assert!(rim[1] > 0.0, "behind is +Y: {rim:?}");
    }

    #[test]
    fn energy_follows_the_inverse_square_law() {
        let key = &rig(LightingPreset::ThreePoint)[0];
        assert_eq!(energy(key, 5.0, 1.0), 1000.0);
        assert_eq!(energy(key, 10.0, 1.0), 4000.0);
        assert_eq!(energy(key, 5.0, 0.5), 500.0);
    }
}
