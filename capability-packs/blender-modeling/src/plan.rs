//! Pure helpers of the generation capabilities, tested without Blender: axes, the
//! radial pattern's pivot, LOD names and ratios.

use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    #[default]
    X,
    Y,
    Z,
}

impl Axis {
    pub fn unit(self) -> [f64; 3] {
        match self {
            Axis::X => [1.0, 0.0, 0.0],
            Axis::Y => [0.0, 1.0, 0.0],
            Axis::Z => [0.0, 0.0, 1.0],
        }
    }
    /// The axis after this one (x -> y -> z -> x): a grid's second direction, a ring's radius direction.
    pub fn next(self) -> Axis {
        match self {
            Axis::X => Axis::Y,
            Axis::Y => Axis::Z,
            Axis::Z => Axis::X,
        }
    }
}

pub fn scaled(v: [f64; 3], k: f64) -> [f64; 3] {
    [v[0] * k, v[1] * k, v[2] * k]
}

/// Rotate `v` by `angle` radians about a coordinate axis.
fn rotate(v: [f64; 3], axis: Axis, angle: f64) -> [f64; 3] {
    let (s, c) = angle.sin_cos();
    match axis {
        Axis::X => [v[0], c * v[1] - s * v[2], s * v[1] + c * v[2]],
        Axis::Y => [c * v[0] + s * v[2], v[1], -s * v[0] + c * v[2]],
        Axis::Z => [c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]],
    }
}

/// The offset an array's object offset needs so that each copy turns by 360/count degrees
/// about `axis` through a centre `radius` metres from the object's origin (along minus the
/// next axis): in the object's space, location `p = c - R c` and rotation R.
pub fn radial_offset(axis: Axis, count: u32, radius: f64) -> ([f64; 3], [f64; 3]) {
    let angle = std::f64::consts::TAU / f64::from(count.max(1));
    let centre = scaled(axis.next().unit(), -radius);
    let turned = rotate(centre, axis, angle);
    let p = [centre[0] - turned[0], centre[1] - turned[1], centre[2] - turned[2]];
    (p, scaled(axis.unit(), angle))
}

/// `{name}` and `{n}` filled in; the template must use `{n}` so the levels differ.
pub fn lod_name(template: &str, name: &str, n: u32) -> PackResult<String> {
    if !template.contains("{n}") {
        return Err(PackError::invalid("naming must contain {n} (the level number)"));
    }
    let out = template.replace("{name}", name).replace("{n}", &n.to_string());
    let ok = !out.is_empty() && out.chars().count() <= 63 && out.chars().all(|c| c.is_ascii_alphanumeric() || "_. -".contains(c));
    if !ok {
        return Err(PackError::invalid(format!("the LOD name {out:?} is not a valid name (letters, digits, _ . - and space, at most 63)")));
    }
    Ok(out)
}

pub fn lod_ratio(step: f64, n: u32) -> f64 {
    step.powi(n as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn a_quarter_turn_about_a_centre_one_metre_away() {
        // Centre at (-1, 0, 0); turning the origin 90 degrees about z through it lands at (-1, 1, 0).
        let (p, r) = radial_offset(Axis::Z, 4, 1.0);
        assert!(close(p, [-1.0, 1.0, 0.0]), "{p:?}");
        assert!(close(r, [0.0, 0.0, std::f64::consts::FRAC_PI_2]), "{r:?}");
        let (p, _) = radial_offset(Axis::Z, 6, 0.0);
        assert!(close(p, [0.0, 0.0, 0.0]), "no radius turns about the origin itself");
    }

    #[test]
    fn lod_names_and_ratios() {
        assert_eq!(lod_name("{name}_LOD{n}", "Rock", 2).unwrap(), "Rock_LOD2");
        assert!(lod_name("{name}_LOD", "Rock", 2).is_err());
        assert!(lod_name("{name}/{n}", "Rock", 2).is_err());
        assert!((lod_ratio(0.5, 3) - 0.125).abs() < 1e-12);
    }
}
