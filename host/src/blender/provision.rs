//! `capstan blender provision`: a headless Blender for capstan's own use — PyPI's
//! `bpy` (Blender as a Python module) in a venv under `CAPSTAN_HOME`.
//!
//! `bpy` wheels exist for exactly one CPython minor version per Blender release;
//! the pinned release below needs Python 3.11. pip's own progress is shown on stderr.

use super::process::output_within;
use crate::home::CapstanHome;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The Blender release capstan provisions (the newest `bpy` for CPython 3.11).
pub const BPY_VERSION: &str = "5.0.1";
pub const PYTHON_MINOR: &str = "3.11";

#[derive(Debug, thiserror::Error)]
pub enum ProvisionError {
    #[error("Python {PYTHON_MINOR} is needed to install bpy {BPY_VERSION} and none was found (tried python{PYTHON_MINOR} and python3 on PATH; set CAPSTAN_PYTHON to one)")]
    NoPython,
    #[error("{step} failed: {detail}")]
    Step { step: String, detail: String },
}

pub fn venv_dir(home: &CapstanHome) -> PathBuf {
    home.root().join("blender").join(format!("bpy-{BPY_VERSION}"))
}

pub fn venv_python(home: &CapstanHome) -> PathBuf {
    let venv = venv_dir(home);
    if cfg!(windows) { venv.join("Scripts").join("python.exe") } else { venv.join("bin").join("python") }
}

fn is_python_311(path: &Path) -> bool {
    let mut cmd = Command::new(path);
    cmd.arg("--version");
    matches!(output_within(cmd, Duration::from_secs(20)), Ok((true, out)) if out.trim().starts_with(&format!("Python {PYTHON_MINOR}.")))
}

fn find_python() -> Option<PathBuf> {
    let explicit = std::env::var_os("CAPSTAN_PYTHON").map(PathBuf::from);
    let names = [format!("python{PYTHON_MINOR}"), "python3".into(), "python".into()];
    explicit.into_iter().chain(names.iter().map(PathBuf::from)).find(|p| is_python_311(p))
}

fn imports_bpy(python: &Path) -> bool {
    let mut cmd = Command::new(python);
    cmd.args(["-c", &format!("import bpy, sys; sys.exit(0 if bpy.app.version_string == '{BPY_VERSION}' else 3)")]);
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

/// Make sure a venv with `bpy` exists; returns its Python. Idempotent: a complete
/// venv is reused as is.
pub fn provision(home: &CapstanHome) -> Result<PathBuf, ProvisionError> {
    let python = venv_python(home);
    if python.is_file() && imports_bpy(&python) {
        write_version_probe(home)?;
        return Ok(python);
    }
    let base = find_python().ok_or(ProvisionError::NoPython)?;
    let venv = venv_dir(home);
    eprintln!("capstan: creating {} with {}", venv.display(), base.display());
    run("creating the venv", Command::new(&base).arg("-m").arg("venv").arg("--clear").arg(&venv))?;
    eprintln!("capstan: installing bpy {BPY_VERSION} (about 375 MB; pip shows progress)");
    run(
        "installing bpy",
        Command::new(&python).args(["-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "on"]).arg(format!("bpy=={BPY_VERSION}")),
    )?;
    if !imports_bpy(&python) {
        return Err(ProvisionError::Step { step: "checking the install".into(), detail: "bpy does not import".into() });
    }
    write_version_probe(home)?;
    Ok(python)
}

/// `<venv>/bin/blender`: answers `--version` like Blender does ("Blender 5.0.1"), so the
/// provisioned Blender is found and version-checked like any other install through the
/// location blender-core's manifest declares. It does nothing else: Blender is started
/// with `capstan blender launch`.
pub fn version_probe(home: &CapstanHome) -> PathBuf {
    venv_dir(home).join("bin").join("blender")
}

pub fn write_version_probe(home: &CapstanHome) -> Result<(), ProvisionError> {
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
    let path = version_probe(home);
    let step = |e: std::io::Error| ProvisionError::Step { step: "writing bin/blender".into(), detail: e.to_string() };
    std::fs::write(&path, script).map_err(step)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).map_err(step)?;
    }
    Ok(())
}
