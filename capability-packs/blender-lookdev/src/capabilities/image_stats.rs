use capstan_blender::{ImageStats, ImageStatsParams, ImageStatsResult, image_stats as bridge_image_stats};
use capstan_sdk::prelude::*;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImageStatsArgs {
    /// A PNG file name in the session's output folder (a render of this session).
    #[schemars(length(min = 5, max = 128), regex(pattern = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.png$"))]
    pub filename: String,
    /// Only this region, [x_min, y_min, x_max, y_max] in frame fractions with y up (the
    /// bounds spatial.camera_framing answers); parts outside the image are clipped off.
    #[schemars(inner(range(min = -1000.0, max = 1000.0)))]
    pub region: Option<[f64; 4]>,
}

/// Plain-language flags a critic can act on, from the statistics.
pub fn flags(s: &ImageStatsResult) -> Vec<&'static str> {
    let mut out = Vec::new();
    if s.empty {
        out.push("empty");
    } else if s.uniform {
        out.push("uniform");
    }
    if s.clipped_fraction > 0.01 {
        out.push("clipped_highlights");
    }
    if s.black_fraction > 0.5 && s.transparent_fraction < 0.5 {
        out.push("mostly_black");
    }
    if s.transparent_fraction > 0.5 {
        out.push("mostly_transparent");
    }
    if !s.empty && s.mean_luminance < 0.1 && s.alpha_mean > 0.5 {
        out.push("dark");
    }
    if s.mean_luminance > 0.9 {
        out.push("bright");
    }
    out
}

/// Measure a rendered PNG: luminance, clipped highlights, black and transparent pixels, emptiness.
///
/// Reads a PNG of the session's output folder (e.g. scene.render's file), whole or a
/// region in frame fractions (y up; pass spatial.camera_framing's bounds to measure an
/// object's pixels), and answers its size, the pixels counted, mean and spread of the
/// Rec.709 luminance of the stored (display) values 0..1, the share of clipped pixels
/// (a channel at 254/255 or more), of black pixels (every channel at most 1/255), the
/// mean alpha, the share of transparent pixels (alpha below 0.01), `uniform` (luminance
/// spread below 0.005), `empty` (all transparent, or one colour) and `flags`: empty,
/// uniform, clipped_highlights (over 1%), mostly_black, mostly_transparent, dark (mean
/// below 0.1), bright (mean above 0.9). Changes nothing; images over 8192 pixels a side
/// or 16.7 million pixels are refused.
#[capability(
    key = "render.image_stats",
    family = "render",
    tags = ["render", "image", "statistics", "luminance", "brightness", "overexposed", "underexposed", "too dark", "clipping", "blown out", "black", "empty render", "transparent", "critic"],
    aliases = ["image_stats", "render_stats", "analyze_render", "image_histogram", "check_render_image"],
    examples = ["is the render blown out or too dark", "how bright is the rendered image", "is the rendered png empty", "measure the pixels of the bottle in the render"],
    uses = [ImageStats],
    cases = cases,
)]
fn image_stats(args: ImageStatsArgs) -> PackResult<Value> {
    if let Some(r) = args.region
        && (r.iter().any(|v| !v.is_finite()) || r[0] >= r[2] || r[1] >= r[3])
    {
        return Err(PackError::invalid("region must be [x_min, y_min, x_max, y_max] with x_min < x_max and y_min < y_max"));
    }
    let stats = bridge_image_stats(&ImageStatsParams { filename: args.filename, region: args.region })?;
    let mut out = json!(stats);
    out["flags"] = json!(flags(&stats));
    Ok(out)
}

fn render(filename: &str, transparent: bool) -> Value {
    json!({ "filename": filename, "engine": "cycles", "resolution": [32, 32], "percentage": 100, "samples": 1, "transparent": transparent })
}

fn cases() -> Vec<Case> {
    // The factory cube fills the middle of the factory camera's frame; the corners are background.
    vec![
        Case::new("a tiny transparent render: the cube is opaque, the background transparent")
            .setup("scene.render", render("stats.png", true))
            .args(json!({ "filename": "stats.png" }))
            .result(json!({ "filename": "stats.png", "width": 32, "height": 32, "pixels": 1024, "region_pixels": [0, 0, 32, 32],
                            "empty": false, "uniform": false, "clipped_fraction": 0.0, "flags": ["mostly_transparent"] })),
        Case::new("a corner of the transparent render is empty")
            .setup("scene.render", render("corner.png", true))
            .args(json!({ "filename": "corner.png", "region": [-0.5, -0.5, 0.125, 0.125] }))
            .result(json!({ "pixels": 16, "region_pixels": [0, 0, 4, 4], "alpha_mean": 0.0, "transparent_fraction": 1.0,
                            "black_fraction": 1.0, "empty": true, "flags": ["empty", "mostly_transparent"] })),
        Case::new("the middle of the frame is the opaque cube")
            .setup("scene.render", render("middle.png", true))
            .args(json!({ "filename": "middle.png", "region": [0.45, 0.45, 0.55, 0.55] }))
            .result(json!({ "pixels": 16, "region_pixels": [14, 14, 18, 18], "alpha_mean": 1.0, "transparent_fraction": 0.0,
                            "black_fraction": 0.0, "empty": false })),
        Case::new("an opaque render's background is the world's grey")
            .setup("scene.render", render("opaque.png", false))
            .args(json!({ "filename": "opaque.png", "region": [0, 0, 0.125, 0.125] }))
            .result(json!({ "pixels": 16, "alpha_mean": 1.0, "transparent_fraction": 0.0, "black_fraction": 0.0, "clipped_fraction": 0.0, "empty": true })),
        Case::new("a missing file").args(json!({ "filename": "never_rendered.png" })).error("not_found"),
        Case::new("a path out of the output folder").args(json!({ "filename": "../x.png" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("not a png").args(json!({ "filename": "render.jpg" })).error("INVALID_CAPABILITY_ARGUMENTS"),
        Case::new("an upside-down region")
            .setup("scene.render", render("flip.png", true))
            .args(json!({ "filename": "flip.png", "region": [0.5, 0.5, 0.4, 0.9] })).error("INVALID_CAPABILITY_ARGUMENTS"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(mean: f64, clipped: f64, black: f64, transparent: f64, alpha: f64, uniform: bool, empty: bool) -> ImageStatsResult {
        serde_json::from_value(json!({
            "filename": "a.png", "width": 2, "height": 2, "region_pixels": [0, 0, 2, 2], "pixels": 4, "mean_luminance": mean,
            "std_luminance": 0.1, "mean_rgb": [mean, mean, mean], "clipped_fraction": clipped, "black_fraction": black,
            "alpha_mean": alpha, "transparent_fraction": transparent, "uniform": uniform, "empty": empty,
        })).unwrap()
    }

    #[test]
    fn flags_name_what_is_wrong() {
        assert!(flags(&stats(0.4, 0.0, 0.0, 0.0, 1.0, false, false)).is_empty());
        assert_eq!(flags(&stats(0.95, 0.3, 0.0, 0.0, 1.0, false, false)), ["clipped_highlights", "bright"]);
        assert_eq!(flags(&stats(0.02, 0.0, 0.8, 0.0, 1.0, false, false)), ["mostly_black", "dark"]);
        assert_eq!(flags(&stats(0.0, 0.0, 1.0, 1.0, 0.0, true, true)), ["empty", "mostly_transparent"]);
        assert_eq!(flags(&stats(0.25, 0.0, 0.0, 0.0, 1.0, true, false)), ["uniform"]);
    }
}
