//! Render audit: the render configuration checked against a profile's thresholds.
//! Pure logic over the bridge's `render_config` facts, tested without Blender.

use capstan_blender::RenderConfigResult;
use capstan_sdk::prelude::*;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// Quick look: 16 samples, 640x360.
    Preview,
    /// Final stills: Cycles, 128 samples, 1920x1080, depth of field.
    #[default]
    Cinema,
    /// Sequences: 64 samples, 1280x720, motion blur, more than one frame.
    Animation,
    /// Product shots: Cycles, 256 samples, 1920x1080, denoising.
    Product,
}

/// What a profile requires; `require_*` and `min_samples` arguments override it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub min_samples: i64,
    pub min_resolution: (i64, i64),
    pub cycles: bool,
    pub dof: bool,
    pub exr: bool,
    pub motion_blur: bool,
    pub compositor: bool,
    pub multi_frame: bool,
    pub denoise: bool,
}

pub fn rules(p: Profile) -> Rules {
    let base = Rules { min_samples: 16, min_resolution: (640, 360), cycles: false, dof: false, exr: false, motion_blur: false, compositor: false, multi_frame: false, denoise: false };
    match p {
        Profile::Preview => base,
        Profile::Cinema => Rules { min_samples: 128, min_resolution: (1920, 1080), cycles: true, dof: true, ..base },
        Profile::Animation => Rules { min_samples: 64, min_resolution: (1280, 720), motion_blur: true, multi_frame: true, ..base },
        Profile::Product => Rules { min_samples: 256, min_resolution: (1920, 1080), cycles: true, denoise: true, ..base },
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    /// `error` fails the audit; `warning` fails it only when strict.
    pub severity: &'static str,
    pub detail: String,
}

fn check(out: &mut Vec<Check>, name: &'static str, ok: bool, severity: &'static str, detail: String) {
    out.push(Check { name, ok, severity, detail });
}

/// Every check of `rules` against `c`.
pub fn audit(c: &RenderConfigResult, r: &Rules) -> Vec<Check> {
    let mut out = Vec::new();
    let (w, h) = (c.resolution[0] * c.percentage / 100, c.resolution[1] * c.percentage / 100);
    check(&mut out, "camera", c.camera.is_some(), "error", format!("active camera: {}", c.camera.as_deref().unwrap_or("none")));
    if r.cycles {
        check(&mut out, "engine", c.engine == "CYCLES", "error", format!("engine {} (Cycles wanted)", c.engine));
    }
    match c.samples {
        Some(s) => check(&mut out, "samples", s >= r.min_samples, "error", format!("{s} samples (at least {})", r.min_samples)),
        None => check(&mut out, "samples", true, "warning", format!("engine {} has no sample count", c.engine)),
    }
    let (mw, mh) = r.min_resolution;
    check(&mut out, "resolution", w >= mw && h >= mh || w >= mh && h >= mw, "error", format!("{w}x{h} effective (at least {mw}x{mh}, either orientation)"));
    if r.dof {
        check(&mut out, "depth_of_field", c.dof, "warning", format!("depth of field {}", if c.dof { "on" } else { "off" }));
    }
    if r.exr {
        check(&mut out, "exr", c.file_format == "OPEN_EXR" || c.file_format == "OPEN_EXR_MULTILAYER", "error", format!("file format {}", c.file_format));
    }
    if r.motion_blur {
        check(&mut out, "motion_blur", c.motion_blur, "warning", format!("motion blur {}", if c.motion_blur { "on" } else { "off" }));
    }
    if r.compositor {
        check(&mut out, "compositor", c.compositor_nodes > 0, "error", format!("{} compositor nodes", c.compositor_nodes));
    }
    if r.multi_frame {
        let frames = c.frame_range[1] - c.frame_range[0] + 1;
        check(&mut out, "frame_range", frames > 1, "error", format!("{frames} frames ({}..{})", c.frame_range[0], c.frame_range[1]));
    }
    if r.denoise {
        check(&mut out, "denoising", c.denoising == Some(true), "warning", format!("denoising {:?}", c.denoising));
    }
    out
}

/// Passed: no failed error, and (strict) no failed warning.
pub fn passed(checks: &[Check], strict: bool) -> bool {
    checks.iter().all(|c| c.ok || (c.severity == "warning" && !strict))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> RenderConfigResult {
        serde_json::from_value(json!({
            "engine": "CYCLES", "samples": 128, "resolution": [1920, 1080], "percentage": 100, "file_format": "PNG",
            "color_depth": "8", "film_transparent": false, "motion_blur": false, "denoising": true, "compositor_nodes": 0,
            "view_transform": "AgX", "look": "None", "exposure": 0.0, "frame_range": [1, 250], "fps": 24.0,
            "camera": "Camera", "dof": false, "fstop": 2.8,
        })).unwrap()
    }

    #[test]
    fn cinema_passes_with_a_dof_warning_unless_strict() {
        let checks = audit(&config(), &rules(Profile::Cinema));
        let dof = checks.iter().find(|c| c.name == "depth_of_field").unwrap();
        assert!(!dof.ok && dof.severity == "warning");
        assert!(passed(&checks, false) && !passed(&checks, true));
    }

    #[test]
    fn the_percentage_scales_the_resolution_and_samples_are_counted() {
        let mut c = config();
        c.percentage = 50;
        c.samples = Some(8);
        let checks = audit(&c, &rules(Profile::Preview));
        assert!(!checks.iter().find(|c| c.name == "samples").unwrap().ok);
        assert!(checks.iter().find(|c| c.name == "resolution").unwrap().ok, "960x540 passes the preview");
        assert!(!audit(&c, &rules(Profile::Product)).iter().find(|c| c.name == "resolution").unwrap().ok);
    }

    #[test]
    fn exr_and_compositor_requirements_fail_as_errors() {
        let r = Rules { exr: true, compositor: true, ..rules(Profile::Preview) };
        let checks = audit(&config(), &r);
        assert!(!passed(&checks, false));
    }
}
