//! `capstan blender install-addon`: install (or update) the add-on as an extension in
//! the user's Blender (4.5 LTS or newer: the oldest line capstan supports and tests), and
//! enable it.
//!
//! Blender itself says where its user extensions live
//! (`bpy.utils.user_resource('EXTENSIONS', path='user_default')`), so the path is right
//! on every OS and for every configuration. The package is staged beside its target
//! and swapped in, so an interrupted install never leaves half an add-on.

use super::addon;
use super::locate::{BlenderInstall, BlenderKind};
use super::process::output_within;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

const BLENDER_TIMEOUT: Duration = Duration::from_secs(120);
pub const EXTENSION_MODULE: &str = "bl_ext.user_default.capstan_bridge";

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("Blender {found} is older than 4.5 LTS, the oldest Blender capstan supports (it is tested on 4.5 LTS and 5.2 LTS); install one of those, or `capstan blender provision` for a headless one")]
    TooOld { found: String },
    #[error("asking Blender failed: {0}")]
    Blender(String),
    #[error("writing the add-on failed: {0}")]
    Io(#[from] std::io::Error),
}

fn run_python(install: &BlenderInstall, code: &str) -> Result<String, InstallError> {
    let mut cmd = Command::new(&install.path);
    match install.kind {
        BlenderKind::Executable => {
            cmd.args(["-b", "--python-exit-code", "1", "--python-expr", code]);
        }
        BlenderKind::PythonModule => {
            cmd.args(["-c", code]);
        }
    }
    let (ok, out) = output_within(cmd, BLENDER_TIMEOUT).map_err(|e| InstallError::Blender(e.to_string()))?;
    if ok { Ok(out) } else { Err(InstallError::Blender(out.lines().rev().take(10).collect::<Vec<_>>().join("\n"))) }
}

/// The oldest Blender capstan supports: 4.5 LTS.
pub const MIN_BLENDER: (u32, u32) = (4, 5);

fn supported(version: &str) -> bool {
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= MIN_BLENDER
}

/// Install and (unless `enable` is false) enable; returns the installed folder.
pub fn install(install: &BlenderInstall, enable: bool) -> Result<PathBuf, InstallError> {
    if !supported(&install.version) {
        return Err(InstallError::TooOld { found: install.version.clone() });
    }
    let out = run_python(install, "import bpy; print('CAPSTAN_EXT=' + bpy.utils.user_resource('EXTENSIONS', path='user_default', create=True))")?;
    let repo = out
        .lines()
        .find_map(|l| l.strip_prefix("CAPSTAN_EXT="))
        .map(|p| PathBuf::from(p.trim()))
        .ok_or_else(|| InstallError::Blender("Blender did not report its extensions folder".into()))?;
    std::fs::create_dir_all(&repo)?;
    let target = repo.join("capstan_bridge");
    let staging = tempfile::Builder::new().prefix(".capstan_bridge-").tempdir_in(&repo)?;
    addon::materialize_package(staging.path())?;
    let old = repo.join(".capstan_bridge-old");
    let _ = std::fs::remove_dir_all(&old);
    if target.exists() {
        std::fs::rename(&target, &old)?;
    }
    std::fs::rename(staging.keep(), &target)?;
    let _ = std::fs::remove_dir_all(&old);
    if enable {
        run_python(
            install,
            &format!(
                "import bpy; bpy.ops.extensions.repo_refresh_all() if hasattr(bpy.ops.extensions, 'repo_refresh_all') else None; \
                 bpy.ops.preferences.addon_enable(module='{EXTENSION_MODULE}'); bpy.ops.wm.save_userpref()"
            ),
        )?;
    }
    Ok(target)
}

#[cfg(test)]
mod tests {
    #[test]
    fn blender_4_5_lts_is_the_oldest_supported() {
        assert!(super::supported("4.5.0"));
        assert!(super::supported("4.5.15"));
        assert!(super::supported("5.2.4"));
        assert!(super::supported("4.10"));
        assert!(!super::supported("4.2.9"));
        assert!(!super::supported("4.4.3"));
        assert!(!super::supported("3.4.1"));
    }
}
