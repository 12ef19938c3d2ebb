//! The `visual_match` metric: how closely a small render of the scene matches an image
//! goal's reference picture, taken with the same camera, size and samples.
//!
//! Two scores, both of which must reach their threshold:
//!
//! - **SSIM** (structural similarity, Wang et al. 2004) on each colour channel of the
//!   8-bit sRGB pixels, over every 7x7 window (uniform weights, stride 1: the common
//!   `win_size=7` of small images), with the usual constants `C1 = (0.01 * 255)^2`,
//!   `C2 = (0.03 * 255)^2`. The score is the lowest of the three channels' mean SSIM: a
//!   greyscale SSIM misses a colour change of equal brightness (red to a green as
//!   bright), a per-channel one does not. It catches colour, brightness (lighting) and
//!   texture.
//! - **Silhouette IoU**: the foreground of each picture is what differs from its own
//!   background (the border's commonest colour, the rule [`super::picture`] uses, so a
//!   picture whose film is opaque works), and the score is intersection over union of
//!   the two masks (1 when both are empty). It catches a moved, missing, extra or
//!   reshaped object, which SSIM dilutes when the object is small in the frame.
//!
//! Thresholds ([`MIN_SSIM`], [`MIN_IOU`]) were set from measurements on the shipped
//! image tasks in Blender 4.5 and 5.2 (`host/eval/README.md` lists them): the same scene
//! rendered twice scores 1.0 on both (a CPU Cycles render with a fixed seed is
//! deterministic); each near miss (one thing wrong) scores below at least one threshold
//! by a clear margin, while the thresholds leave room for an equivalent scene that is
//! not bit-identical (an object a few centimetres off, a colour a few percent off).
//!
//! Security reasoning: both pictures come from a pack. They are size-capped and decoded
//! only in [`super::picture`]; this module does arithmetic on the decoded pixels of two
//! pictures whose sizes it checks first, and nothing leaves it but the scores.

use serde::Serialize;

/// The lowest channel's mean SSIM must be at least this.
pub const MIN_SSIM: f64 = 0.88;
/// The silhouettes' intersection over union must be at least this.
pub const MIN_IOU: f64 = 0.80;
/// The render's longer side (pixels) unless the assertion gives `size`.
pub const DEFAULT_SIZE: u32 = 96;
/// Samples per pixel of both renders (few: the pictures are compared, not looked at).
pub const SAMPLES: u32 = 4;
/// SSIM window side (pixels).
const WINDOW: usize = 7;
const C1: f64 = (0.01 * 255.0) * (0.01 * 255.0);
const C2: f64 = (0.03 * 255.0) * (0.03 * 255.0);

/// A decoded picture: RGBA8, `width * height * 4` bytes.
#[derive(Clone, PartialEq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Picture({}x{})", self.width, self.height)
    }
}

impl Picture {
    /// Err when the buffer does not hold `width * height` RGBA pixels.
    pub fn new(width: u32, height: u32, rgba: Vec<u8>) -> Result<Picture, String> {
        if width == 0 || height == 0 || rgba.len() != width as usize * height as usize * 4 {
            return Err(format!("a {width}x{height} picture needs {} bytes, not {}", width as usize * height as usize * 4, rgba.len()));
        }
        Ok(Picture { width, height, rgba })
    }
}

/// What the comparison measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scores {
    /// The lowest of `ssim_channels`.
    pub ssim: f64,
    /// Mean SSIM of the red, green and blue channels.
    pub ssim_channels: [f64; 3],
    /// Silhouette intersection over union.
    pub iou: f64,
}

impl Scores {
    /// Why the candidate does not match (None: it does).
    pub fn shortfall(&self) -> Option<String> {
        let mut why = Vec::new();
        if self.ssim < MIN_SSIM {
            why.push(format!("SSIM {:.3} is below {MIN_SSIM}", self.ssim));
        }
        if self.iou < MIN_IOU {
            why.push(format!("silhouette IoU {:.3} is below {MIN_IOU}", self.iou));
        }
        (!why.is_empty()).then(|| format!("the scene does not look like the reference: {}", why.join("; ")))
    }
}

/// Compare a render with the reference; Err when they cannot be compared (sizes differ).
pub fn compare(reference: &Picture, candidate: &Picture) -> Result<Scores, String> {
    if (reference.width, reference.height) != (candidate.width, candidate.height) {
        return Err(format!(
            "the render is {}x{} and the reference {}x{}: the render size changed, so the framing differs",
            candidate.width, candidate.height, reference.width, reference.height
        ));
    }
    let ssim_channels = [0, 1, 2].map(|c| ssim(reference, candidate, c));
    let ssim = ssim_channels.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(Scores { ssim, ssim_channels, iou: iou(&silhouette(reference), &silhouette(candidate)) })
}

/// Mean SSIM of one channel over every `WINDOW`-square window (the whole picture as one
/// window when it is smaller).
fn ssim(a: &Picture, b: &Picture, channel: usize) -> f64 {
    let (w, h) = (a.width as usize, a.height as usize);
    let at = |p: &Picture, x: usize, y: usize| f64::from(p.rgba[(y * w + x) * 4 + channel]);
    let (win_w, win_h) = (WINDOW.min(w), WINDOW.min(h));
    let n = (win_w * win_h) as f64;
    let (mut total, mut windows) = (0.0, 0usize);
    for y0 in 0..=h - win_h {
        for x0 in 0..=w - win_w {
            let (mut sa, mut sb, mut saa, mut sbb, mut sab) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for y in y0..y0 + win_h {
                for x in x0..x0 + win_w {
                    let (p, q) = (at(a, x, y), at(b, x, y));
                    sa += p;
                    sb += q;
                    saa += p * p;
                    sbb += q * q;
                    sab += p * q;
                }
            }
            let (ma, mb) = (sa / n, sb / n);
            let (va, vb, cov) = (saa / n - ma * ma, sbb / n - mb * mb, sab / n - ma * mb);
            total += ((2.0 * ma * mb + C1) * (2.0 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
            windows += 1;
        }
    }
    total / windows as f64
}

/// The foreground mask: pixels that differ from the background (the border's commonest
/// colour) by [`super::picture::is_foreground`].
pub fn silhouette(p: &Picture) -> Vec<bool> {
    let bg = super::picture::background(p.width, p.height, &p.rgba);
    p.rgba.chunks_exact(4).map(|px| super::picture::is_foreground(px, &bg)).collect()
}

/// Intersection over union of two masks of one size (1 when both are empty).
fn iou(a: &[bool], b: &[bool]) -> f64 {
    let inter = a.iter().zip(b).filter(|(x, y)| **x && **y).count();
    let union = a.iter().zip(b).filter(|(x, y)| **x || **y).count();
    if union == 0 { 1.0 } else { inter as f64 / union as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grey picture with a coloured box `[x0, y0, x1, y1)`.
    fn scene(w: u32, h: u32, boxed: [u32; 4], colour: [u8; 3]) -> Picture {
        let rgba = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .flat_map(|(x, y)| {
                let inside = (boxed[0]..boxed[2]).contains(&x) && (boxed[1]..boxed[3]).contains(&y);
                // A little shading so windows have structure.
                let shade = ((x + y) % 3) as u8 * 4;
                if inside { [colour[0].saturating_sub(shade), colour[1].saturating_sub(shade), colour[2].saturating_sub(shade), 255] } else { [50, 50, 50, 255] }
            })
            .collect();
        Picture::new(w, h, rgba).unwrap()
    }

    #[test]
    fn the_same_picture_scores_one_and_passes() {
        let a = scene(64, 36, [20, 10, 40, 30], [200, 40, 40]);
        let s = compare(&a, &a.clone()).unwrap();
        assert!((s.ssim - 1.0).abs() < 1e-9 && (s.iou - 1.0).abs() < 1e-9, "{s:?}");
        assert_eq!(s.shortfall(), None);
    }

    #[test]
    fn a_colour_change_of_equal_brightness_fails_on_ssim_not_iou() {
        let red = scene(64, 36, [20, 10, 40, 30], [200, 40, 40]);
        // Luma of (200,40,40) is about 74; (40,85,40) is about the same.
        let green = scene(64, 36, [20, 10, 40, 30], [40, 85, 40]);
        let s = compare(&red, &green).unwrap();
        assert!(s.iou > 0.99, "{s:?}");
        assert!(s.ssim < MIN_SSIM, "{s:?}");
        assert!(s.shortfall().unwrap().contains("SSIM"), "{s:?}");
    }

    #[test]
    fn a_moved_or_missing_object_fails_on_iou() {
        let here = scene(64, 36, [10, 10, 24, 26], [200, 200, 200]);
        let moved = scene(64, 36, [30, 10, 44, 26], [200, 200, 200]);
        let s = compare(&here, &moved).unwrap();
        assert!(s.iou < 0.1 && s.shortfall().unwrap().contains("IoU"), "{s:?}");
        let empty = scene(64, 36, [0, 0, 0, 0], [0, 0, 0]);
        let s = compare(&here, &empty).unwrap();
        assert_eq!(s.iou, 0.0);
        assert!(s.shortfall().is_some());
    }

    #[test]
    fn pictures_of_other_sizes_cannot_be_compared() {
        let a = scene(64, 36, [10, 10, 20, 20], [200, 0, 0]);
        let b = scene(36, 64, [10, 10, 20, 20], [200, 0, 0]);
        assert!(compare(&a, &b).unwrap_err().contains("framing"));
        assert!(Picture::new(2, 2, vec![0; 15]).is_err());
        // Smaller than a window: one window over the whole picture.
        let tiny = scene(4, 4, [1, 1, 3, 3], [200, 0, 0]);
        assert!((compare(&tiny, &tiny).unwrap().ssim - 1.0).abs() < 1e-9);
    }
}
