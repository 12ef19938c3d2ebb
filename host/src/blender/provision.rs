//! `capstan blender provision [--version 4.5|5.2]`: a headless Blender for capstan's own
//! use — PyPI's `bpy` (Blender as a Python module) of one LTS line, pinned, in a venv at
//! `<CAPSTAN_HOME>/blender/bpy-<version>`. 5.2 LTS by default.
//!
//! `bpy` wheels exist for exactly one CPython minor version per Blender release, so the
//! line names the Python it needs (`line.rs`), found by `find_python.rs`. pip's own
//! progress is shown on stderr; stdout stays clean for the venv's Python path.

use super::find_python::{NoPython, ThisMachine, find_python};
use super::line::BlenderLine;
use super::process::output_within;
use crate::home::CapstanHome;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum ProvisionError {
    #[error("bpy {bpy} (Blender {line}) cannot be installed: {source}")]
    NoPython {
        line: BlenderLine,
        bpy: &'static str,
        #[source]
        source: NoPython,
    },
    #[error("{step} failed: {detail}")]
    Step { step: String, detail: String },
}

pub fn venv_dir(home: &CapstanHome, line: BlenderLine) -> PathBuf {
    home.root().join("blender").join(format!("bpy-{}", line.bpy_version()))
}

pub fn venv_python(home: &CapstanHome, line: BlenderLine) -> PathBuf {
    let venv = venv_dir(home, line);
    if cfg!(windows) { venv.join("Scripts").join("python.exe") } else { venv.join("bin").join("python") }
}

/// Does `python` import the line's pinned `bpy`? (`bpy.app.version` is the number;
/// `version_string` carries a suffix such as " LTS".)
fn imports_bpy(python: &Path, line: BlenderLine) -> bool {
    let mut cmd = Command::new(python);
    let check = format!("import bpy, sys; sys.exit(0 if '.'.join(map(str, bpy.app.version)) == '{}' else 3)", line.bpy_version());
    cmd.args(["-c", &check]);
    matches!(output_within(cmd, Duration::from_secs(120)), Ok((true, _)))
}

fn run(step: &str, cmd: &mut Command) -> Result<(), ProvisionError> {
    // pip's progress goes to our stderr; our stdout stays clean.
    let status = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::from(std::io::stderr()))
        .stderr(Stdio::inherit())
        .status()
        .map_err(|e| ProvisionError::Step { step: step.into(), detail: e.to_string() })?;
    if status.success() {
        Ok(())
    } else {
        Err(ProvisionError::Step { step: step.into(), detail: format!("exited with {status}") })
    }
}

/// The line's venv Python when it is complete (it imports the pinned `bpy`).
pub fn provisioned(home: &CapstanHome, line: BlenderLine) -> Option<PathBuf> {
    let python = venv_python(home, line);
    (python.is_file() && imports_bpy(&python, line)).then_some(python)
}

/// Make sure a venv with the line's `bpy` exists; returns its Python. Idempotent: a
/// complete venv is reused as is (no Python is looked for then).
pub fn provision(home: &CapstanHome, line: BlenderLine) -> Result<PathBuf, ProvisionError> {
    if let Some(python) = provisioned(home, line) {
        write_version_probe(home, line)?;
        return Ok(python);
    }
    let python = venv_python(home, line);
    let base = find_python(&ThisMachine, line.python_minor())
        .map_err(|source| ProvisionError::NoPython { line, bpy: line.bpy_version(), source })?;
    let venv = venv_dir(home, line);
    eprintln!("capstan: creating {} with {} (Python {}, found through {})", venv.display(), base.path.display(), line.python_minor(), base.source);
    run("creating the venv", Command::new(&base.path).arg("-m").arg("venv").arg("--clear").arg(&venv))?;
    eprintln!("capstan: installing bpy {} (Blender {line}; about 400 MB; pip shows progress)", line.bpy_version());
    run(
        "installing bpy",
        Command::new(&python)
            .args(["-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "on"])
            .arg(format!("bpy=={}", line.bpy_version())),
    )?;
    if !imports_bpy(&python, line) {
        return Err(ProvisionError::Step { step: "checking the install".into(), detail: "bpy does not import".into() });
    }
    write_version_probe(home, line)?;
    Ok(python)
}

/// `<venv>/bin/blender`: answers `--version` like Blender does ("Blender 5.2.4"), so the
/// provisioned Blender is found and version-checked like any other install through the
/// locations the packs' manifests declare. It does nothing else: Blender is started
/// with `capstan blender launch`.
pub fn version_probe(home: &CapstanHome, line: BlenderLine) -> PathBuf {
    venv_dir(home, line).join("bin").join("blender")
}

pub fn write_version_probe(home: &CapstanHome, line: BlenderLine) -> Result<(), ProvisionError> {
    if cfg!(windows) {
        return Ok(());
    }
    let script = "#!/bin/sh\n\
# capstan's headless Blender: PyPI bpy in this venv. Answers --version like Blender;\n\
# start it with `capstan blender launch --background`.\n\
case \"$1\" in\n\
  --version|-v) exec \"$(dirname \"$0\")/python\" -c \"import bpy; print('Blender ' + bpy.app.version_string)\" ;;\n\
  *) echo \"this is capstan's headless Blender (bpy): start it with capstan blender launch --background\" >&2; exit 2 ;;\n\
esac\n";
    let path = version_probe(home, line);
    let step = |e: std::io::Error| ProvisionError::Step { step: "writing bin/blender".into(), detail: e.to_string() };
    std::fs::write(&path, script).map_err(step)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).map_err(step)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_has_its_own_venv() {
        let home = CapstanHome::at(Path::new("/h"));
        assert_eq!(venv_dir(&home, BlenderLine::Lts52), Path::new("/h/blender/bpy-5.2.4"));
        assert_eq!(venv_dir(&home, BlenderLine::Lts45), Path::new("/h/blender/bpy-4.5.15"));
        #[cfg(unix)]
        assert_eq!(version_probe(&home, BlenderLine::Lts45), Path::new("/h/blender/bpy-4.5.15/bin/blender"));
    }
}
