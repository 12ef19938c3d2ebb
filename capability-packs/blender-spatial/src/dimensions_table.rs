//! Real-world dimensions of common things, in metres: width (X), depth (Y), height (Z)
//! as the object stands, typical values from furniture standards (EN 1729, BS 8541-type
//! tables), vehicle specifications and anthropometric averages. Good for scale, not for
//! engineering.

pub struct Entry {
    pub key: &'static str,
    pub category: &'static str,
    /// [width, depth, height] in metres.
    pub dims: [f64; 3],
    pub note: &'static str,
}

const fn e(key: &'static str, category: &'static str, dims: [f64; 3], note: &'static str) -> Entry {
    Entry { key, category, dims, note }
}

pub const CATEGORIES: [&str; 8] = ["furniture", "kitchen", "electronics", "vehicles", "people", "architecture", "nature", "objects"];

pub const TABLE: &[Entry] = &[
    e("chair_dining", "furniture", [0.45, 0.52, 0.9], "seat height 0.45"),
    e("chair_office", "furniture", [0.65, 0.65, 1.1], "seat height 0.45-0.55"),
    e("armchair", "furniture", [0.85, 0.9, 0.95], ""),
    e("sofa_3_seat", "furniture", [2.1, 0.9, 0.85], ""),
    e("table_dining", "furniture", [1.8, 0.9, 0.75], "seats six"),
    e("table_coffee", "furniture", [1.2, 0.6, 0.45], ""),
    e("desk", "furniture", [1.4, 0.7, 0.75], ""),
    e("bed_double", "furniture", [1.4, 2.0, 0.5], "mattress top 0.5"),
    e("bed_single", "furniture", [0.9, 2.0, 0.5], ""),
    e("bookshelf", "furniture", [0.8, 0.3, 1.8], ""),
    e("wardrobe", "furniture", [1.0, 0.6, 2.0], ""),
    e("stool_bar", "furniture", [0.4, 0.4, 0.75], ""),
    e("refrigerator", "kitchen", [0.6, 0.65, 1.8], ""),
    e("kitchen_counter", "kitchen", [0.6, 0.6, 0.9], "one 60 cm unit"),
    e("oven", "kitchen", [0.6, 0.6, 0.85], ""),
    e("mug", "kitchen", [0.08, 0.08, 0.095], ""),
    e("wine_glass", "kitchen", [0.08, 0.08, 0.2], ""),
    e("plate_dinner", "kitchen", [0.27, 0.27, 0.025], ""),
    e("bottle_wine", "kitchen", [0.075, 0.075, 0.3], ""),
    e("laptop", "electronics", [0.32, 0.22, 0.018], "closed"),
    e("smartphone", "electronics", [0.072, 0.008, 0.147], "standing"),
    e("monitor_27in", "electronics", [0.61, 0.2, 0.45], "with stand"),
    e("tv_55in", "electronics", [1.23, 0.06, 0.71], "without stand"),
    e("keyboard", "electronics", [0.44, 0.13, 0.03], ""),
    e("car_sedan", "vehicles", [1.8, 4.7, 1.45], "length along Y"),
    e("car_suv", "vehicles", [1.9, 4.8, 1.75], ""),
    e("pickup_truck", "vehicles", [2.0, 5.8, 1.9], ""),
    e("bus", "vehicles", [2.55, 12.0, 3.2], ""),
    e("bicycle", "vehicles", [0.6, 1.75, 1.05], ""),
    e("motorcycle", "vehicles", [0.8, 2.1, 1.15], ""),
    e("person_adult", "people", [0.5, 0.3, 1.7], "average adult standing"),
    e("person_child", "people", [0.35, 0.2, 1.2], "about 7 years"),
    e("door_interior", "architecture", [0.9, 0.04, 2.1], ""),
    e("window", "architecture", [1.2, 0.1, 1.2], ""),
    e("room_ceiling", "architecture", [4.0, 4.0, 2.5], "typical ceiling height 2.5"),
    e("stair_step", "architecture", [1.0, 0.28, 0.18], "tread 0.28, riser 0.18"),
    e("tree_deciduous", "nature", [6.0, 6.0, 12.0], "mature"),
    e("shrub", "nature", [1.0, 1.0, 1.0], ""),
    e("apple", "nature", [0.08, 0.08, 0.08], ""),
    e("book_hardcover", "objects", [0.16, 0.03, 0.24], "standing"),
    e("basketball", "objects", [0.24, 0.24, 0.24], ""),
    e("football", "objects", [0.22, 0.22, 0.22], "size 5"),
    e("soda_can", "objects", [0.066, 0.066, 0.122], "330 ml"),
    e("credit_card", "objects", [0.0856, 0.054, 0.00076], "ISO/IEC 7810 ID-1"),
];

pub fn get(key: &str) -> Option<&'static Entry> {
    TABLE.iter().find(|e| e.key == key)
}

fn sorted(mut d: [f64; 3]) -> [f64; 3] {
    d.sort_by(|a, b| a.total_cmp(b));
    d
}

/// How unlike two sizes are, orientation-free: the mean absolute log ratio of the
/// sorted dimensions (0 = identical, 0.69 = twice as big on average).
pub fn unlikeness(measured: [f64; 3], real: [f64; 3]) -> f64 {
    let (m, r) = (sorted(measured), sorted(real));
    (0..3).map(|i| (m[i].max(1e-6) / r[i].max(1e-6)).ln().abs()).sum::<f64>() / 3.0
}

/// The entries most like `measured`, best first.
pub fn nearest(measured: [f64; 3], n: usize) -> Vec<(&'static Entry, f64)> {
    let mut all: Vec<_> = TABLE.iter().map(|e| (e, unlikeness(measured, e.dims))).collect();
    all.sort_by(|a, b| a.1.total_cmp(&b.1));
    all.truncate(n);
    all
}

/// The uniform scale that makes the largest measured dimension the largest real one.
pub fn scale_factor(measured: [f64; 3], real: [f64; 3]) -> Option<f64> {
    let m = measured.iter().cloned().fold(0.0, f64::max);
    let r = real.iter().cloned().fold(0.0, f64::max);
    (m > 1e-9).then(|| r / m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_categories_known() {
        let mut keys: Vec<_> = TABLE.iter().map(|e| e.key).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), TABLE.len());
        assert!(TABLE.iter().all(|e| CATEGORIES.contains(&e.category) && e.dims.iter().all(|d| *d > 0.0)));
    }

    #[test]
    fn nearest_is_orientation_free_and_scale_matches_the_largest_dimension() {
        let (best, u) = nearest([4.7, 1.45, 1.8], 1)[0];
        assert_eq!(best.key, "car_sedan");
        assert!(u < 1e-9);
        assert!((scale_factor([2.0, 2.0, 2.0], [0.45, 0.52, 0.9]).unwrap() - 0.45).abs() < 1e-12);
        assert!(scale_factor([0.0; 3], [1.0; 3]).is_none());
    }
}
