//! `--report DIR`: `report.json`, `report.md` (one table row per task and the totals)
//! and `contact-sheet.png`, each task's final picture framed green (passed), red
//! (failed) or orange (error; a blank tile when there is no picture), made by
//! `scripts/contact_sheet.py` under Blender's Python.
//!
//! Security reasoning: files are written only inside DIR, under names built from task
//! ids that [`Suite::parse`](super::Suite::parse) restricted to `[A-Za-z0-9._-]`; the
//! contact sheet script is the workspace's own, run with the located Blender.

use super::metrics::{HEADER, Status, SuiteReport, summary_row, totals_line};
use crate::blender::locate::{BlenderInstall, BlenderKind};
use std::path::{Path, PathBuf};

const CONTACT_SHEET: &str = include_str!("../../../scripts/contact_sheet.py");

/// The Markdown report: one row per task, the totals, then why each task that did not
/// pass fell short (measured values, side effects, refused calls).
pub fn markdown(report: &SuiteReport) -> String {
    let cell = |c: &str| crate::control_chars::escape(c).replace('|', "\\|");
    let mut out = String::from("# capstan eval\n\n");
    out += &format!("| {} |\n|{}\n", HEADER.join(" | "), "---|".repeat(HEADER.len()));
    for t in &report.tasks {
        let cells: Vec<String> = summary_row(t).iter().map(|c| cell(c)).collect();
        out += &format!("| {} |\n", cells.join(" | "));
    }
    out += &format!("\n**Totals:** {}.\n", totals_line(&report.totals));
    let why: Vec<String> = report
        .tasks
        .iter()
        .filter(|t| t.status != Status::Passed)
        .map(|t| {
            let lines: Vec<String> = t.reasons().iter().map(|r| format!("  - {}", crate::control_chars::escape(r))).collect();
            format!("- **{}** ({}): {}\n{}", t.id, t.status.as_str(), crate::control_chars::escape(&t.goal), lines.join("\n"))
        })
        .collect();
    if !why.is_empty() {
        out += &format!("\n## Tasks that did not pass\n\n{}\n", why.join("\n"));
    }
    out
}

/// A dark 128x96 PNG: the tile of a task that has no picture.
fn blank_tile() -> Vec<u8> {
    let (w, h) = (128u32, 96u32);
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let written = enc.write_header().and_then(|mut writer| writer.write_image_data(&[30, 30, 32, 255].repeat((w * h) as usize)));
    debug_assert!(written.is_ok(), "a fixed-size PNG encodes");
    out
}

/// A PNG with a coloured frame (3 px) round it.
pub fn framed(png: &[u8], status: Status) -> Result<Vec<u8>, String> {
    let (w, h, mut rgba) = crate::planner::picture::decode_png(png)?;
    let colour = match status {
        Status::Passed => [40, 200, 60, 255],
        Status::Failed => [220, 40, 40, 255],
        Status::Error => [240, 150, 20, 255],
    };
    for y in 0..h {
        for x in 0..w {
            if x < 3 || y < 3 || x + 3 >= w || y + 3 >= h {
                let i = ((y * w + x) * 4) as usize;
                rgba[i..i + 4].copy_from_slice(&colour);
            }
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&rgba).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Write the report into `dir`; returns the files written.
pub fn write(dir: &Path, report: &SuiteReport, blender: Option<&BlenderInstall>) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    let json = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    let path = dir.join("report.json");
    std::fs::write(&path, crate::redact::redact(&json).as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    written.push(path);
    let path = dir.join("report.md");
    std::fs::write(&path, crate::redact::redact(&markdown(report)).as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    written.push(path);
    let renders = dir.join("renders");
    let mut pictures = Vec::new();
    for (i, t) in report.tasks.iter().enumerate() {
        // A task with no picture (an error, or a scene that could not be pictured) still
        // gets its cell: a blank tile in its frame colour, so the sheet lists every task.
        let png = t.thumbnail.clone().unwrap_or_else(blank_tile);
        let Ok(bytes) = framed(&png, t.status).or_else(|_| framed(&blank_tile(), t.status)) else { continue };
        std::fs::create_dir_all(&renders).map_err(|e| format!("{}: {e}", renders.display()))?;
        let path = renders.join(format!("{:03}-{}.png", i + 1, t.id));
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        pictures.push(path);
    }
    if let (Some(install), false) = (blender, pictures.is_empty()) {
        // The workspace's script, built into capstan, written beside the report for the run.
        let script = dir.join(".contact_sheet.py");
        std::fs::write(&script, CONTACT_SHEET).map_err(|e| format!("{}: {e}", script.display()))?;
        let out = dir.join("contact-sheet.png");
        let mut cmd = std::process::Command::new(&install.path);
        if install.kind == BlenderKind::Executable {
            cmd.args(["-b", "--factory-startup", "--python"]).arg(&script).arg("--");
        } else {
            cmd.arg(&script);
        }
        let output = cmd.arg(&out).args(&pictures).stdin(std::process::Stdio::null()).output();
        let _ = std::fs::remove_file(&script);
        let output = output.map_err(|e| format!("contact sheet: {e}"))?;
        if !output.status.success() || !out.exists() {
            return Err(format!("contact sheet failed: {}", String::from_utf8_lossy(&output.stderr).chars().take(2000).collect::<String>()));
        }
        // The script names the task of each cell (row, column, picture) beside the sheet.
        let cells = out.with_extension("txt");
        written.push(out);
        if cells.exists() {
            written.push(cells);
        }
    }
    Ok(written)
}
