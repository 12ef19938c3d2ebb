//! The build script's wasm32-wasip2 check (`host/build/wasm_target.rs`), run against a
//! stand-in sysroot and a stand-in `rustup` on a private PATH: a fresh machine whose
//! toolchain lacks the target gets it added; one without rustup gets a clear message.

#[path = "../build/wasm_target.rs"]
mod wasm_target;

use std::path::Path;
use wasm_target::{TargetStatus, WASM_TARGET, ensure_target, find_on_path};

#[cfg(unix)]
fn stand_in_rustup(dir: &Path, sysroot: &Path, exit: i32) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let log = dir.join("rustup.log");
    let script = format!(
        "#!/bin/sh\necho \"$@\" >> '{log}'\nif [ {exit} -ne 0 ]; then echo 'error: no network' >&2; exit {exit}; fi\nmkdir -p '{lib}'\n",
        log = log.display(),
        lib = sysroot.join("lib/rustlib").join(WASM_TARGET).join("lib").display(),
    );
    let path = dir.join("rustup");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[cfg(unix)]
#[test]
fn a_missing_target_is_added_through_rustup_for_the_toolchain_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let sysroot = dir.path().join("sysroot");
    std::fs::create_dir_all(sysroot.join("lib/rustlib/x86_64-unknown-linux-gnu/lib")).unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    stand_in_rustup(&bin, &sysroot, 0);
    let rustup = find_on_path("rustup", Some(bin.as_os_str())).expect("the stand-in is on the PATH");

    let status = ensure_target(&sysroot, WASM_TARGET, Some(&rustup), Some("stable-x86_64-unknown-linux-gnu")).unwrap();
    assert_eq!(status, TargetStatus::Installed);
    let log = std::fs::read_to_string(bin.join("rustup.log")).unwrap();
    assert_eq!(log.trim(), "target add wasm32-wasip2 --toolchain stable-x86_64-unknown-linux-gnu");

    // Installed now: nothing runs the second time.
    assert_eq!(ensure_target(&sysroot, WASM_TARGET, Some(&rustup), None).unwrap(), TargetStatus::Present);
    assert_eq!(std::fs::read_to_string(bin.join("rustup.log")).unwrap().lines().count(), 1);
}

#[cfg(unix)]
#[test]
fn a_failing_rustup_and_a_missing_rustup_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let sysroot = dir.path().join("sysroot");
    std::fs::create_dir_all(&sysroot).unwrap();
    let rustup = stand_in_rustup(dir.path(), &sysroot, 1);
    let e = ensure_target(&sysroot, WASM_TARGET, Some(&rustup), None).unwrap_err();
    assert!(e.contains("rustup target add wasm32-wasip2") && e.contains("no network"), "{e}");

    let e = ensure_target(&sysroot, WASM_TARGET, None, None).unwrap_err();
    assert!(e.contains("rustup is not on PATH") && e.contains("rust-std"), "{e}");
    assert_eq!(find_on_path("rustup", Some(std::ffi::OsStr::new(""))), None);
}

#[test]
fn the_toolchain_building_these_tests_has_the_target() {
    // The build script ran before this test could compile, so the real sysroot has it.
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = std::process::Command::new(rustc).args(["--print", "sysroot"]).output().unwrap();
    let sysroot = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    assert!(wasm_target::target_installed(&sysroot, WASM_TARGET), "{}", sysroot.display());
}
