//! Making sure the `wasm32-wasip2` standard library is installed before the official
//! packs are built, so the README's first command works on a fresh machine.
//!
//! `rust-toolchain.toml` names the target, but rustup only installs a toolchain's
//! targets when it installs the toolchain itself: on a machine whose stable toolchain
//! was already there, the target is missing and the nested pack build fails. So the
//! build script looks for the target's standard library in the sysroot and, when it
//! is missing and rustup is on `PATH`, runs `rustup target add` for the toolchain in
//! use. Without rustup (a distro toolchain) it stops with the package to install.
//!
//! Shared between `host/build.rs` and the host's tests (`#[path]`), which run it
//! against a stand-in `rustup` and a stand-in sysroot.

use std::path::{Path, PathBuf};
use std::process::Command;

pub const WASM_TARGET: &str = "wasm32-wasip2";

/// What happened.
#[derive(Debug, PartialEq, Eq)]
pub enum TargetStatus {
    /// The target's standard library was already installed.
    Present,
    /// `rustup target add` installed it just now.
    Installed,
}

/// Whether `sysroot` holds the standard library for `target`.
pub fn target_installed(sysroot: &Path, target: &str) -> bool {
    sysroot.join("lib").join("rustlib").join(target).join("lib").is_dir()
}

/// The first executable called `name` on `path` (a `PATH`-style list).
pub fn find_on_path(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    let path = path?;
    std::env::split_paths(path).map(|dir| dir.join(name)).find(|candidate| candidate.is_file())
}

/// Make sure `target` is installed in `sysroot`, adding it with `rustup` when missing.
/// `toolchain` is the toolchain rustup selected for this build (`RUSTUP_TOOLCHAIN`).
pub fn ensure_target(sysroot: &Path, target: &str, rustup: Option<&Path>, toolchain: Option<&str>) -> Result<TargetStatus, String> {
    if target_installed(sysroot, target) {
        return Ok(TargetStatus::Present);
    }
    let Some(rustup) = rustup else {
        return Err(format!(
            "the {target} standard library is not installed in {} and rustup is not on PATH to add it: \
             install it for this toolchain (with rustup: `rustup target add {target}`; from a distribution, its rust-std package for {target})",
            sysroot.display()
        ));
    };
    let mut cmd = Command::new(rustup);
    cmd.args(["target", "add", target]);
    if let Some(toolchain) = toolchain.filter(|t| !t.is_empty()) {
        cmd.args(["--toolchain", toolchain]);
    }
    let output = cmd.output().map_err(|e| format!("cannot run {} to add the {target} target: {e}", rustup.display()))?;
    if !output.status.success() {
        return Err(format!(
            "`rustup target add {target}` failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    if !target_installed(sysroot, target) {
        return Err(format!(
            "`rustup target add {target}` succeeded, but {} still has no {target} standard library (is rustup managing this toolchain?)",
            sysroot.display()
        ));
    }
    Ok(TargetStatus::Installed)
}
