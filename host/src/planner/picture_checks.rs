//! The critic's picture checks: `visual` (a small render is not empty, not uniform, and
//! its subject is inside the frame) and `visual_match` (a small render looks like the
//! image goal's reference). Both take their picture the same way, through
//! [`small_render`]: the pack that declares the role "pictures the scene", at a size in
//! the render's own aspect, with few samples.
//!
//! Security reasoning: a picture is measured through a read-only capability a pack
//! declared for the role (`critique::by_role` refuses anything that mutates), so the
//! critic cannot change the scene it judges; the PNG is decoded in
//! [`super::picture`], and only numbers leave this module.

use super::Registry;
use super::critique::{Check, Expectation, by_role, fail, pass};
use super::picture::{decode_png, picture, png_bytes};
use super::visual_match::{DEFAULT_SIZE, MIN_IOU, MIN_SSIM, Picture, SAMPLES, compare};
use crate::roles::Role;
use serde_json::{Value, json};

/// The `visual` check's render: its longer side unless the expectation gives `size`.
const VISUAL_SIZE: u32 = 64;
/// The `visual` check's samples: enough to tell a subject from the background.
const VISUAL_SAMPLES: u32 = 2;

pub(super) fn visual(registry: &dyn Registry, e: &Expectation, camera: Option<&str>, size: Option<u32>) -> Check {
    match small_render(registry, camera, size.unwrap_or(VISUAL_SIZE), VISUAL_SAMPLES).and_then(|r| picture(&r)) {
        Ok(stats) => {
            let measured = serde_json::to_value(&stats).unwrap_or(Value::Null);
            let mut why = Vec::new();
            if !stats.not_empty() {
                why.push("the frame is empty (nothing differs from the background)");
            }
            if !stats.not_uniform() {
                why.push("the frame is uniform");
            }
            if !stats.subject_inside() {
                why.push("the subject touches or leaves the frame edge");
            }
            if why.is_empty() { pass(e, measured) } else { fail(e, measured, why.join("; ")) }
        }
        Err(m) => fail(e, Value::Null, m),
    }
}

pub(super) fn visual_match(registry: &dyn Registry, e: &Expectation, camera: Option<&str>, size: Option<u32>, reference: Option<&Picture>) -> Check {
    let Some(reference) = reference else {
        return fail(e, Value::Null, "cannot measure: no reference picture to compare with (only an image task's run has one)");
    };
    match match_picture(registry, camera, size).and_then(|(candidate, _)| compare(reference, &candidate)) {
        Ok(s) => {
            let measured = json!({ "ssim": s.ssim, "ssim_channels": s.ssim_channels, "iou": s.iou, "min_ssim": MIN_SSIM, "min_iou": MIN_IOU });
            match s.shortfall() {
                None => pass(e, measured),
                Some(why) => fail(e, measured, why),
            }
        }
        Err(m) => fail(e, Value::Null, m),
    }
}

/// The render `visual_match` compares (the reference is taken the same way): `size` on
/// its longer side (default [`DEFAULT_SIZE`]) in the render's aspect, [`SAMPLES`]
/// samples, through `camera` (default: the active one). The decoded picture and its PNG.
pub fn match_picture(registry: &dyn Registry, camera: Option<&str>, size: Option<u32>) -> Result<(Picture, Vec<u8>), String> {
    let png = small_render(registry, camera, size.unwrap_or(DEFAULT_SIZE), SAMPLES).and_then(|r| png_bytes(&r))?;
    let (w, h, rgba) = decode_png(&png)?;
    Ok((Picture::new(w, h, rgba)?, png))
}

/// One small render through the role's capability: `longest` (clamped to 16-256) on
/// the longer side, in the render's aspect, with `samples`, through `camera`.
fn small_render(registry: &dyn Registry, camera: Option<&str>, longest: u32, samples: u32) -> Result<Value, String> {
    let (width, height) = frame_size(registry, longest.clamp(16, 256));
    let mut args = json!({ "width": width, "height": height, "samples": samples });
    if let Some(c) = camera {
        args["camera"] = json!(c);
    }
    by_role(registry, Role::PicturesScene, args)
}

/// The picture's size: `longest` on its longer side, in the render's own aspect (so the
/// subject is judged in the frame the final picture will have); square when the render
/// settings cannot be read.
fn frame_size(registry: &dyn Registry, longest: u32) -> (u32, u32) {
    let resolution = by_role(registry, Role::ListsObjects, json!({ "limit": 1 })).ok().and_then(|r| {
        let res = r["render"]["resolution"].as_array()?.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>()?;
        match res.as_slice() {
            [w, h] if *w >= 1.0 && *h >= 1.0 => Some((*w, *h)),
            _ => None,
        }
    });
    let Some((w, h)) = resolution else { return (longest, longest) };
    let short = |a: f64, b: f64| ((f64::from(longest) * a / b).round() as u32).clamp(16, longest);
    if w >= h { (longest, short(h, w)) } else { (short(w, h), longest) }
}
