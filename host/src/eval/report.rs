//! `--report DIR`: `report.json`, `report.md` (one table row per task and the totals),
//! `renders/NNN-<task>.png` and `contact-sheet.png` (with `contact-sheet.txt`, the task
//! of each cell), each task's final picture framed green (passed), red (failed) or
//! orange (error; a blank tile when there is no picture). The app the suite ran in
//! makes the sheet ([`ContactSheets`], in its unit's confined scratch folder).
//!
//! Security reasoning: DIR is a folder the user named, but what is inside it may have
//! been planted by anyone who can write there (a shared folder, a CI workspace), so the
//! report never opens a name in DIR by path:
//!
//! - DIR is opened once as a [`Folder`] (cap-std), and every file is written through
//!   that handle as a fresh temporary name which is then renamed over the final one
//!   ([`Folder::write_private_atomic`]). A symlink planted at `report.json` (or any
//!   other name the report writes) is replaced, never written through; what it pointed
//!   to is left as it was. A symlink planted at `renders` is removed and a real folder
//!   made; a name that would still lead out of DIR fails inside cap-std.
//! - Names are built from task ids that [`Suite::parse`](super::Suite::parse)
//!   restricted to `[A-Za-z0-9._-]`.
//! - The contact sheet is made outside DIR, in the app unit's private scratch folder;
//!   nothing in DIR is run or read by the app. The finished sheet comes back as bytes
//!   and is written into DIR like every other file.

use super::metrics::{HEADER, Status, SuiteReport, summary_row, totals_line};
use crate::app_unit::ContactSheets;
use crate::confined::Folder;
use std::io;
use std::path::{Path, PathBuf};

/// The folder below DIR that holds each task's framed picture.
const RENDERS: &str = "renders";
const SHEET: &str = "contact-sheet.png";
const SHEET_INDEX: &str = "contact-sheet.txt";

/// Why (part of) a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("the report does not serialise: {0}")]
    Serialise(#[from] serde_json::Error),
    #[error("contact sheet failed: {stderr}")]
    SheetFailed { stderr: String },
}

fn io_at(path: PathBuf) -> impl FnOnce(io::Error) -> ReportError {
    move |source| ReportError::Io { path, source }
}

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

/// Write `bytes` as `name` in `folder`, replacing (never following) whatever is there.
fn put(folder: &Folder, name: &str, bytes: &[u8]) -> Result<PathBuf, ReportError> {
    let shown = folder.shown(name);
    folder.write_private_atomic(name, bytes).map_err(io_at(shown.clone()))?;
    Ok(shown)
}

/// The real folder `name` below `folder`: a symlink planted there is removed (what it
/// pointed to is untouched) and a folder made in its place.
fn real_subfolder(folder: &Folder, name: &str) -> Result<Folder, ReportError> {
    let shown = folder.shown(name);
    if folder.symlink_metadata(name).is_ok_and(|m| m.file_type().is_symlink()) {
        folder.remove_file(name).map_err(io_at(shown.clone()))?;
    }
    folder.create_folder(name).map_err(io_at(shown.clone()))?;
    folder.open_folder(name).map_err(io_at(shown))
}

/// Write the report into `dir`; returns the files written.
pub fn write(dir: &Path, report: &SuiteReport, sheets: Option<&dyn ContactSheets>) -> Result<Vec<PathBuf>, ReportError> {
    std::fs::create_dir_all(dir).map_err(io_at(dir.to_path_buf()))?;
    let folder = Folder::open(dir).map_err(io_at(dir.to_path_buf()))?;
    let mut written = Vec::new();
    let json = serde_json::to_string_pretty(report)?;
    written.push(put(&folder, "report.json", crate::redact::redact(&json).as_bytes())?);
    written.push(put(&folder, "report.md", crate::redact::redact(&markdown(report)).as_bytes())?);
    let mut tiles = Vec::new();
    for (i, t) in report.tasks.iter().enumerate() {
        // A task with no picture (an error, or a scene that could not be pictured) still
        // gets its cell: a blank tile in its frame colour, so the sheet lists every task.
        let png = t.thumbnail.clone().unwrap_or_else(blank_tile);
        let Ok(bytes) = framed(&png, t.status).or_else(|_| framed(&blank_tile(), t.status)) else { continue };
        tiles.push((format!("{:03}-{}.png", i + 1, t.id), bytes));
    }
    if !tiles.is_empty() {
        let renders = real_subfolder(&folder, RENDERS)?;
        for (name, bytes) in &tiles {
            written.push(put(&renders, name, bytes)?);
        }
    }
    if let (Some(sheets), false) = (sheets, tiles.is_empty()) {
        let (sheet, index) = sheets.make(&tiles).map_err(|stderr| ReportError::SheetFailed { stderr })?;
        written.push(put(&folder, SHEET, &sheet)?);
        if let Some(index) = index {
            written.push(put(&folder, SHEET_INDEX, &index)?);
        }
    }
    Ok(written)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::eval::metrics::TaskReport;
    use std::os::unix::fs::symlink;

    fn two_tasks() -> SuiteReport {
        let mut passed = TaskReport::blank("cube", "add a cube", "trajectory");
        passed.status = Status::Passed;
        SuiteReport::new(vec![passed, TaskReport::blank("broken", "do the impossible", "trajectory")])
    }

    /// Every name the report writes (and the `renders` folder itself) planted as a
    /// symlink to a file or folder outside DIR: the report replaces the links, and
    /// what they pointed to keeps its content.
    #[test]
    fn symlinks_planted_in_the_report_folder_are_replaced_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("report");
        std::fs::create_dir(&dir).unwrap();
        let victim = tmp.path().join("victim.txt");
        std::fs::write(&victim, b"precious").unwrap();
        let victim_dir = tmp.path().join("victim-dir");
        std::fs::create_dir(&victim_dir).unwrap();
        for name in ["report.json", "report.md", SHEET, SHEET_INDEX, ".contact_sheet.py"] {
            symlink(&victim, dir.join(name)).unwrap();
        }
        symlink(&victim_dir, dir.join(RENDERS)).unwrap();

        let written = write(&dir, &two_tasks(), None).unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert_eq!(std::fs::read_dir(&victim_dir).unwrap().count(), 0, "nothing was written into the folder `renders` pointed to");
        let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
        assert!(md.contains("| broken | error |"), "{md}");
        assert!(!std::fs::symlink_metadata(dir.join("report.json")).unwrap().file_type().is_symlink());
        let json: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
        assert_eq!(json["totals"]["passed"], 1);
        assert!(std::fs::symlink_metadata(dir.join(RENDERS)).unwrap().is_dir());
        for tile in ["001-cube.png", "002-broken.png"] {
            assert!(std::fs::read(dir.join(RENDERS).join(tile)).unwrap().starts_with(b"\x89PNG"), "{tile}");
        }
        assert_eq!(written.len(), 4, "{written:?}");
    }

    #[test]
    fn a_report_folder_that_is_a_file_is_an_error_naming_it() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("report");
        std::fs::write(&dir, b"not a folder").unwrap();
        let e = write(&dir, &two_tasks(), None).unwrap_err();
        assert!(matches!(e, ReportError::Io { .. }) && e.to_string().contains("report"), "{e}");
        assert_eq!(std::fs::read(&dir).unwrap(), b"not a folder");
    }
}
