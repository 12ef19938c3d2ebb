//! Angles: degrees on the wire, radians toward Blender; converted here, once.

pub fn radians(v: [f64; 3]) -> [f64; 3] {
    v.map(f64::to_radians)
}

pub fn degrees(v: [f64; 3]) -> [f64; 3] {
    v.map(f64::to_degrees)
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip() {
        let r = super::radians([90.0, 180.0, -45.0]);
        assert!((r[0] - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        let d = super::degrees(r);
        assert!((d[2] + 45.0).abs() < 1e-12);
    }
}
