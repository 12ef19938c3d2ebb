//! The visual check's measurements: a small render decoded and reduced to pixel
//! statistics (not empty, not uniform, the subject inside the frame).
//!
//! Security reasoning: the picture comes from a pack. It is size-capped before decoding,
//! decoded with the `png` crate's limits, and only statistics leave this module.

use base64::Engine as _;
use serde::Serialize;
use serde_json::Value;

/// The largest decoded picture the visual check accepts.
const MAX_PNG_BYTES: usize = 4 * 1024 * 1024;

/// Pixel statistics of a small render.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PictureStats {
    pub width: u32,
    pub height: u32,
    /// The share of pixels that differ from the background (the border's commonest colour).
    pub foreground: f64,
    /// Standard deviation of luminance, 0..255.
    pub luminance_std: f64,
    /// The foreground's bounding box `[x0, y0, x1, y1]` (inclusive), if any.
    pub bbox: Option<[u32; 4]>,
}

/// At least this share of pixels must be foreground for "not empty".
pub const MIN_FOREGROUND: f64 = 0.005;
/// A pixel is foreground when a channel differs from the background by more than this
/// (out of 255): above a small render's noise, below grey-on-grey contrast.
pub const FOREGROUND_DIFFERENCE: f64 = 10.0;
/// Luminance spread below this is "uniform".
pub const MIN_LUMINANCE_STD: f64 = 2.0;

/// Whether an RGBA pixel is foreground: a channel differs from the background colour
/// by more than [`FOREGROUND_DIFFERENCE`]. The one rule for "something is drawn here",
/// for the picture checks and for `visual_match`'s silhouettes alike.
pub fn is_foreground(pixel: &[u8], background: &[f64; 4]) -> bool {
    (0..4).any(|c| (f64::from(pixel[c]) - background[c]).abs() > FOREGROUND_DIFFERENCE)
}

impl PictureStats {
    pub fn not_empty(&self) -> bool {
        self.foreground >= MIN_FOREGROUND
    }
    pub fn not_uniform(&self) -> bool {
        self.luminance_std >= MIN_LUMINANCE_STD
    }
    pub fn subject_inside(&self) -> bool {
        self.bbox.is_some_and(|[x0, y0, x1, y1]| x0 > 0 && y0 > 0 && x1 + 1 < self.width && y1 + 1 < self.height)
    }
}

pub fn picture(result: &Value) -> Result<PictureStats, String> {
    let (w, h, rgba) = decode_png(&png_bytes(result)?)?;
    Ok(analyse(w, h, &rgba))
}

/// The PNG bytes of a preview's answer (`image.data` or `image_base64`), size-capped
/// before the base64 is decoded.
pub fn png_bytes(result: &Value) -> Result<Vec<u8>, String> {
    let image = &result["image"];
    let data = image["data"].as_str().or_else(|| result["image_base64"].as_str()).ok_or("cannot measure: the preview has no image data")?;
    if data.len() > MAX_PNG_BYTES / 3 * 4 + 4 {
        return Err("cannot measure: the preview is too large".into());
    }
    base64::engine::general_purpose::STANDARD.decode(data).map_err(|e| format!("cannot measure: the preview is not base64: {e}"))
}

/// RGBA8 pixels of a PNG.
pub fn decode_png(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16 | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().map_err(|e| format!("cannot measure: not a PNG: {e}"))?;
    let size = reader.output_buffer_size().ok_or("cannot measure: the PNG is too large")?;
    if size > 64 * 1024 * 1024 {
        return Err("cannot measure: the PNG is too large".into());
    }
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| format!("cannot measure: PNG decoding failed: {e}"))?;
    buf.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    let rgba: Vec<u8> = match channels {
        4 => buf,
        2 => buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        3 => buf.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        1 => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        n => return Err(format!("cannot measure: {n} channels")),
    };
    Ok((info.width, info.height, rgba))
}

/// The background of RGBA8 pixels: the mean of the border pixels of the commonest
/// (quantised) border colour.
pub fn background(w: u32, h: u32, rgba: &[u8]) -> [f64; 4] {
    let px = |x: u32, y: u32| -> [u8; 4] {
        let i = ((y * w + x) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]]
    };
    // The background: the commonest (quantised) border colour.
    let mut counts: std::collections::HashMap<[u8; 4], usize> = std::collections::HashMap::new();
    let mut border = Vec::new();
    for x in 0..w {
        border.push(px(x, 0));
        border.push(px(x, h - 1));
    }
    for y in 0..h {
        border.push(px(0, y));
        border.push(px(w - 1, y));
    }
    for p in &border {
        *counts.entry(p.map(|c| c / 16)).or_default() += 1;
    }
    let mode = counts.into_iter().max_by_key(|(k, n)| (*n, *k)).map(|(k, _)| k).unwrap_or([0; 4]);
    let members: Vec<&[u8; 4]> = border.iter().filter(|p| p.map(|c| c / 16) == mode).collect();
    let mut bg = [0f64; 4];
    for p in &members {
        for c in 0..4 {
            bg[c] += f64::from(p[c]) / members.len() as f64;
        }
    }
    bg
}

/// Statistics of RGBA8 pixels (`w * h * 4` bytes).
pub fn analyse(w: u32, h: u32, rgba: &[u8]) -> PictureStats {
    let px = |x: u32, y: u32| -> [u8; 4] {
        let i = ((y * w + x) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]]
    };
    let bg = background(w, h, rgba);
    let (mut fg, mut sum, mut sum2) = (0usize, 0f64, 0f64);
    let mut bbox: Option<[u32; 4]> = None;
    for y in 0..h {
        for x in 0..w {
            let p = px(x, y);
            let lum = 0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]);
            sum += lum;
            sum2 += lum * lum;
            if is_foreground(&p, &bg) {
                fg += 1;
                bbox = Some(match bbox {
                    None => [x, y, x, y],
                    Some([x0, y0, x1, y1]) => [x0.min(x), y0.min(y), x1.max(x), y1.max(y)],
                });
            }
        }
    }
    let n = f64::from(w) * f64::from(h);
    let mean = sum / n;
    PictureStats { width: w, height: h, foreground: fg as f64 / n, luminance_std: (sum2 / n - mean * mean).max(0.0).sqrt(), bbox }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).flat_map(|(x, y)| f(x, y)).collect()
    }

    #[test]
    fn pictures_empty_uniform_centred_and_cut() {
        let grey = image(32, 32, |_, _| [80, 80, 80, 255]);
        let s = analyse(32, 32, &grey);
        assert!(!s.not_empty() && !s.not_uniform() && !s.subject_inside());
        let centred = image(32, 32, |x, y| if (10..20).contains(&x) && (8..24).contains(&y) { [220, 30, 30, 255] } else { [80, 80, 80, 255] });
        let s = analyse(32, 32, &centred);
        assert!(s.not_empty() && s.not_uniform() && s.subject_inside(), "{s:?}");
        assert_eq!(s.bbox, Some([10, 8, 19, 23]));
        let cut = image(32, 32, |x, _| if x < 12 { [220, 30, 30, 255] } else { [80, 80, 80, 255] });
        let s = analyse(32, 32, &cut);
        assert!(s.not_empty() && !s.subject_inside(), "{s:?}");
    }

    #[test]
    fn png_round_trip() {
        let mut bytes = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut bytes, 4, 2);
            enc.set_color(png::ColorType::Rgb);
            let mut w = enc.write_header().unwrap();
            w.write_image_data(&[1u8; 24]).unwrap();
        }
        let (w, h, rgba) = decode_png(&bytes).unwrap();
        assert_eq!((w, h, rgba.len()), (4, 2, 32));
        assert_eq!(&rgba[..4], &[1, 1, 1, 255]);
        assert!(decode_png(b"not a png").is_err());
    }
}
