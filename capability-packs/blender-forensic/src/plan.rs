//! Pure helpers of the forensic capabilities (no bridge calls): the vehicle dimension
//! table, names, waypoint checks, marker geometry and the standard camera placements.

use capstan_sdk::prelude::*;


/// Names this pack derives ("<vehicle> Label", ...) must follow the rule too; checked
/// before any bridge call.
pub fn safe_name(name: &str) -> PackResult<String> {
    let ok = (1..=63).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || "_. -".contains(c));
    if ok { Ok(name.to_string()) } else { Err(PackError::invalid(format!("{name:?} is not a safe name (letters, digits, _ . - space; 1 to 63)"))) }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VehicleType {
    Sedan,
    Suv,
    Truck,
    Pickup,
    Van,
    Motorcycle,
    Bicycle,
    Bus,
    Semi,
}

impl VehicleType {
    /// [length, width, height] in metres: typical outer dimensions of each class (a
    /// mid-size sedan, a box truck, a 12 m city bus, a tractor with a 13.6 m trailer).
    pub fn dims(self) -> [f64; 3] {
        match self {
            VehicleType::Sedan => [4.8, 1.85, 1.45],
            VehicleType::Suv => [4.9, 1.95, 1.75],
            VehicleType::Truck => [8.5, 2.5, 3.4],
            VehicleType::Pickup => [5.4, 2.0, 1.85],
            VehicleType::Van => [5.2, 2.0, 2.1],
            VehicleType::Motorcycle => [2.1, 0.8, 1.15],
            VehicleType::Bicycle => [1.75, 0.6, 1.05],
            VehicleType::Bus => [12.0, 2.55, 3.2],
            VehicleType::Semi => [16.5, 2.6, 4.0],
        }
    }

    pub fn two_wheeled(self) -> bool {
        matches!(self, VehicleType::Motorcycle | VehicleType::Bicycle)
    }
}

/// A figure's depth and shoulder width (m); its height is an argument.
pub const FIGURE_DEPTH: f64 = 0.3;
pub const FIGURE_WIDTH: f64 = 0.5;

/// One point of a keyed path: where the object is at `frame`, its heading about Z.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Waypoint {
    /// Frame number.
    #[schemars(range(min = 0, max = 1048574))]
    pub frame: i64,
    /// [x, y, z] in metres.
    pub location: [f64; 3],
    /// Heading about Z in degrees (0: front towards +X); omitted keeps the last one.
    #[schemars(range(min = -36000.0, max = 36000.0))]
    pub rotation: Option<f64>,
    /// A speed caption shown above the vehicle at this waypoint ("48 km/h").
    #[schemars(length(min = 1, max = 64))]
    pub speed_label: Option<String>,
}

/// At most this many speed captions per path (each is a text object).
pub const MAX_SPEED_LABELS: usize = 16;

/// Frames strictly increasing (one place per frame), and the caption cap.
pub fn check_waypoints(points: &[Waypoint]) -> PackResult<()> {
    if let Some(w) = points.windows(2).find(|w| w[1].frame <= w[0].frame) {
        return Err(PackError::invalid(format!("waypoint frames must increase: frame {} follows frame {}", w[1].frame, w[0].frame)));
    }
    let labels = points.iter().filter(|w| w.speed_label.is_some()).count();
    if labels > MAX_SPEED_LABELS {
        return Err(PackError::invalid(format!("{labels} speed labels; at most {MAX_SPEED_LABELS}")));
    }
    Ok(())
}

pub fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn length(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// Mesh data for `create_mesh`: vertices [x, y, z] in metres and faces by vertex index.
pub type Geometry = (Vec<[f64; 3]>, Vec<Vec<i64>>);

/// A flat n-gon of `radius` (vertices, one face), just above z = 0.
pub fn disc(radius: f64, n: usize) -> Geometry {
    let verts = (0..n).map(|i| {
        let a = std::f64::consts::TAU * i as f64 / n as f64;
        [radius * a.cos(), radius * a.sin(), 0.01]
    }).collect();
    (verts, vec![(0..n as i64).collect()])
}

/// Two parallel tyre tracks (`track` apart, each `width` wide) from start to end,
/// relative to start, just above the road.
pub fn skid_tracks(start: [f64; 3], end: [f64; 3], track: f64, width: f64) -> PackResult<Geometry> {
    let d = sub(end, start);
    let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if len < 0.1 {
        return Err(PackError::invalid("a skid mark needs start and end at least 0.1 m apart on the ground"));
    }
    let (ux, uy) = (d[0] / len, d[1] / len);
    let (lx, ly) = (-uy, ux);
    let mut verts = Vec::new();
    let mut faces = Vec::new();
    for side in [-0.5, 0.5] {
        let base = verts.len() as i64;
        for (off, along) in [(side * track - width / 2.0, 0.0), (side * track + width / 2.0, 0.0), (side * track + width / 2.0, 1.0), (side * track - width / 2.0, 1.0)] {
            verts.push([lx * off + d[0] * along, ly * off + d[1] * along, 0.01 + d[2] * along]);
        }
        faces.push(vec![base, base + 1, base + 2, base + 3]);
    }
    Ok((verts, faces))
}

/// `count` small triangles scattered within `radius`, the same for the same seed.
pub fn debris(count: usize, radius: f64, seed: u32) -> Geometry {
    let mut state = seed as u64 ^ 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) as f64) / ((1u64 << 31) as f64)
    };
    let mut verts = Vec::new();
    let mut faces = Vec::new();
    for i in 0..count {
        let (r, a) = (radius * next().sqrt(), std::f64::consts::TAU * next());
        let (cx, cy) = (r * a.cos(), r * a.sin());
        let size = 0.04 + 0.08 * next();
        let spin = std::f64::consts::TAU * next();
        for k in 0..3 {
            let t = spin + std::f64::consts::TAU * k as f64 / 3.0;
            verts.push([cx + size * t.cos(), cy + size * t.sin(), 0.01]);
        }
        let b = 3 * i as i64;
        faces.push(vec![b, b + 1, b + 2]);
    }
    (verts, faces)
}

/// An arrow from start to end as one polyline, relative to start: the shaft, then two
/// barbs (a quarter of the length, at most 1 m) at the head.
pub fn arrow_points(start: [f64; 3], end: [f64; 3]) -> PackResult<Vec<[f64; 3]>> {
    let d = sub(end, start);
    let len = length(d);
    if len < 0.05 {
        return Err(PackError::invalid("an arrow needs start and end at least 0.05 m apart"));
    }
    let flat = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let (ux, uy) = if flat > 1e-9 { (d[0] / flat, d[1] / flat) } else { (1.0, 0.0) };
    let barb = (len / 4.0).min(1.0);
    let back = |side: f64| {
        let (c, s) = (150f64.to_radians().cos(), side * 150f64.to_radians().sin());
        [d[0] + barb * (ux * c - uy * s), d[1] + barb * (ux * s + uy * c), d[2]]
    };
    Ok(vec![[0.0, 0.0, 0.0], d, back(1.0), d, back(-1.0)])
}

/// The driver's eye of a vehicle at `location` heading `heading_rad`: 1/5 of the way
/// back from the front, a quarter of the width to the left, 0.2 m below the roof (at
/// least 1 m up); looking 30 m ahead at the same height.
pub fn driver_view(location: [f64; 3], heading_rad: f64, dims: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let (c, s) = (heading_rad.cos(), heading_rad.sin());
    let (fx, fy) = (dims[0] * 0.3, dims[1] * 0.25);
    let eye_z = (dims[2] - 0.2).max(1.0).min(dims[2] + 0.5);
    let eye = [location[0] + fx * c - fy * s, location[1] + fx * s + fy * c, location[2] + eye_z];
    let ahead = [eye[0] + 30.0 * c, eye[1] + 30.0 * s, eye[2]];
    (eye, ahead)
}

/// Sun heading and elevation (degrees) and the sky for a time of day.
pub struct Daylight {
    pub elevation_deg: f64,
    pub azimuth_deg: f64,
    pub energy: f64,
    pub color: [f64; 3],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TimeOfDay {
    Day,
    Night,
    Dusk,
    Dawn,
    Overcast,
}

impl TimeOfDay {
    pub fn daylight(self) -> Daylight {
        let (elevation_deg, azimuth_deg, energy, color) = match self {
            TimeOfDay::Day => (55.0, 160.0, 4.0, [1.0, 0.97, 0.92]),
            TimeOfDay::Dusk => (4.0, 280.0, 1.5, [1.0, 0.55, 0.3]),
            TimeOfDay::Dawn => (4.0, 80.0, 1.2, [1.0, 0.65, 0.45]),
            TimeOfDay::Overcast => (40.0, 160.0, 0.6, [0.85, 0.88, 0.92]),
            TimeOfDay::Night => (25.0, 200.0, 0.05, [0.6, 0.7, 1.0]),
        };
        Daylight { elevation_deg, azimuth_deg, energy, color }
    }
}

/// A sun's Euler rotation (radians, XYZ) shining from `elevation_deg` above the horizon
/// and compass bearing `bearing_deg` (+Y north, +X east): a sun light shines along its
/// −Z, so tilt by (90 − elevation) about X (it then comes from −Y, bearing 180) and turn
/// by 180 − bearing about Z.
pub fn sun_rotation(elevation_deg: f64, bearing_deg: f64) -> [f64; 3] {
    [(90.0 - elevation_deg).to_radians(), 0.0, sky_rotation(bearing_deg)]
}

/// The same turn about Z in 0..2π (radians), for the sky texture's sun.
pub fn sky_rotation(bearing_deg: f64) -> f64 {
    (180.0 - bearing_deg).rem_euclid(360.0).to_radians()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_safe_name_rule() {
        assert!(safe_name("Car A.001 - red_1").is_ok());
        for bad in ["", "x;import os", "a/b", "ünïcode", &"x".repeat(64)] {
            assert!(safe_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_table_has_a_plausible_size_for_every_class() {
        for v in [VehicleType::Sedan, VehicleType::Suv, VehicleType::Truck, VehicleType::Pickup, VehicleType::Van,
                  VehicleType::Motorcycle, VehicleType::Bicycle, VehicleType::Bus, VehicleType::Semi] {
            let [l, w, h] = v.dims();
            assert!(l > w && (0.5..=2.6).contains(&w) && (1.0..=4.2).contains(&h), "{v:?}");
        }
        assert!(VehicleType::Bicycle.two_wheeled() && !VehicleType::Sedan.two_wheeled());
    }

    fn wp(frame: i64, label: bool) -> Waypoint {
        Waypoint { frame, location: [0.0; 3], rotation: None, speed_label: label.then(|| "1 km/h".into()) }
    }

    #[test]
    fn waypoint_frames_must_increase_and_captions_are_capped() {
        assert!(check_waypoints(&[wp(1, false), wp(2, true)]).is_ok());
        assert!(check_waypoints(&[wp(5, false), wp(5, false)]).is_err());
        assert!(check_waypoints(&[wp(5, false), wp(3, false)]).is_err());
        let many: Vec<_> = (0..17).map(|f| wp(f, true)).collect();
        assert!(check_waypoints(&many).is_err());
    }

    #[test]
    fn debris_is_deterministic_and_inside_its_radius() {
        let (a, fa) = debris(12, 2.0, 7);
        assert_eq!((a.len(), fa.len()), (36, 12));
        assert_eq!(a, debris(12, 2.0, 7).0);
        assert_ne!(a, debris(12, 2.0, 8).0);
        assert!(a.iter().all(|v| (v[0] * v[0] + v[1] * v[1]).sqrt() <= 2.0 + 0.12));
    }

    #[test]
    fn skid_tracks_run_from_start_to_end() {
        let (v, f) = skid_tracks([1.0, 1.0, 0.0], [1.0, 11.0, 0.0], 1.5, 0.2).unwrap();
        assert_eq!((v.len(), f.len()), (8, 2));
        let ys: Vec<f64> = v.iter().map(|p| p[1]).collect();
        assert_eq!((ys.iter().cloned().fold(f64::MAX, f64::min), ys.iter().cloned().fold(f64::MIN, f64::max)), (0.0, 10.0));
        assert!(skid_tracks([0.0; 3], [0.0, 0.05, 0.0], 1.5, 0.2).is_err());
    }

    #[test]
    fn an_arrow_ends_at_its_end_with_two_barbs_behind_it() {
        let p = arrow_points([0.0; 3], [4.0, 0.0, 0.0]).unwrap();
        assert_eq!((p.len(), p[1], p[3]), (5, [4.0, 0.0, 0.0], [4.0, 0.0, 0.0]));
        assert!(p[2][0] < 4.0 && p[4][0] < 4.0 && (p[2][1] + p[4][1]).abs() < 1e-9 && p[2][1].abs() > 0.1);
    }

    #[test]
    fn the_sun_comes_from_its_bearing() {
        for (elev, bearing) in [(55.0f64, 160.0f64), (4.0, 280.0), (30.0, 0.0)] {
            let r = sun_rotation(elev, bearing);
            // -Z turned by X then Z: the light's direction; the sun is opposite it.
            let (sx, cx, sz, cz) = (r[0].sin(), r[0].cos(), r[2].sin(), r[2].cos());
            let dir = [-sz * sx, cz * sx, -cx];
            let (b, e) = (bearing.to_radians(), elev.to_radians());
            let from = [b.sin() * e.cos(), b.cos() * e.cos(), e.sin()];
            for i in 0..3 {
                assert!((dir[i] + from[i]).abs() < 1e-9, "{elev} {bearing}: {dir:?} vs {from:?}");
            }
        }
    }

    #[test]
    fn the_driver_looks_ahead_along_the_heading() {
        let (eye, ahead) = driver_view([10.0, 0.0, 0.0], std::f64::consts::FRAC_PI_2, [4.8, 1.85, 1.45]);
        assert!((eye[1] - 1.44).abs() < 1e-9 && (eye[0] - (10.0 - 0.4625)).abs() < 1e-9 && (eye[2] - 1.25).abs() < 1e-9);
        assert!((ahead[1] - eye[1] - 30.0).abs() < 1e-9 && (ahead[0] - eye[0]).abs() < 1e-9);
    }
}
