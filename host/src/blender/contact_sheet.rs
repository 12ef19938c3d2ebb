//! Contact sheets made with Blender's Python (`scripts/contact_sheet.py`), for
//! `capstan eval --report`.
//!
//! Security reasoning: the sheet is made in a private temporary folder (owner-only,
//! created fresh by `tempfile`): the script (the workspace's own, built into capstan),
//! the tiles it reads and the sheet it writes all live there, Blender runs with that
//! folder as its working directory, and the same kernel wall as every Blender capstan
//! starts lets it write nowhere else. Nothing in the report folder is run or read by
//! Blender; the finished sheet is read back (bounded) and the report writes it.

use super::launch::confine_job;
use super::locate::{BlenderInstall, BlenderKind};
use crate::app_unit::ContactSheets;
use crate::confined::Folder;
use crate::limits::{EVAL_CONTACT_SHEET_INDEX_MAX_BYTES, EVAL_CONTACT_SHEET_MAX_BYTES};

const CONTACT_SHEET: &str = include_str!("../../../scripts/contact_sheet.py");
const SHEET_SCRIPT: &str = "contact_sheet.py";
const SHEET: &str = "contact-sheet.png";
const SHEET_INDEX: &str = "contact-sheet.txt";

/// Makes sheets with one Blender installation.
pub struct Sheets {
    pub install: BlenderInstall,
}

impl ContactSheets for Sheets {
    fn make(&self, tiles: &[(String, Vec<u8>)]) -> Result<(Vec<u8>, Option<Vec<u8>>), String> {
        let install = &self.install;
        let scratch = tempfile::Builder::new().prefix("capstan-contact-sheet-").tempdir().map_err(|e| format!("a scratch folder: {e}"))?;
        let work = Folder::open(scratch.path()).map_err(|e| format!("{}: {e}", scratch.path().display()))?;
        let new_file = |name: &str, bytes: &[u8]| work.write_new(name, bytes).map_err(|e| format!("{}: {e}", work.shown(name).display()));
        new_file(SHEET_SCRIPT, CONTACT_SHEET.as_bytes())?;
        for (name, bytes) in tiles {
            new_file(name, bytes)?;
        }
        let mut cmd = std::process::Command::new(&install.path);
        if install.kind == BlenderKind::Executable {
            cmd.args(["-b", "--factory-startup", "--python"]).arg(scratch.path().join(SHEET_SCRIPT)).arg("--");
        } else {
            cmd.arg(scratch.path().join(SHEET_SCRIPT));
        }
        cmd.arg(scratch.path().join(SHEET)).args(tiles.iter().map(|(name, _)| scratch.path().join(name)));
        #[cfg(target_os = "linux")]
        let _confinement = confine_job(&mut cmd, install, scratch.path()).map_err(|e| e.to_string())?;
        let output = cmd
            .current_dir(scratch.path())
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("Blender ({}) did not start: {e}", install.path.display()))?;
        let sheet = work.read(SHEET, EVAL_CONTACT_SHEET_MAX_BYTES);
        let sheet = match (output.status.success(), sheet) {
            (true, Ok(sheet)) => sheet,
            (_, sheet) => {
                let mut stderr: String = String::from_utf8_lossy(&output.stderr).chars().take(2000).collect();
                if let Err(e) = sheet {
                    stderr = format!("{stderr} ({}: {e})", work.shown(SHEET).display());
                }
                return Err(crate::control_chars::escape(&stderr).into_owned());
            }
        };
        let index = work
            .exists(SHEET_INDEX)
            .then(|| work.read(SHEET_INDEX, EVAL_CONTACT_SHEET_INDEX_MAX_BYTES))
            .transpose()
            .map_err(|e| format!("{}: {e}", work.shown(SHEET_INDEX).display()))?;
        Ok((sheet, index))
    }
}
