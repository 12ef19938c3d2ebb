//! Builds the official capability packs (`capability-packs/*`) for `wasm32-wasip2`,
//! seals their manifests with the component's sha256, and embeds them in the host, so
//! a user never builds wasm by hand.
//!
//! The packs are built by a nested `cargo rustc --crate-type cdylib` in a target
//! directory of their own (`<target>/capstan-packs`): the outer cargo holds the lock on
//! its own build directory, and the pack profile (size-tuned, LTO) differs anyway.
//! Convention: a pack folder's name is its crate name.

use sha2::{Digest, Sha256};
use std::env;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "build/wasm_target.rs"]
mod wasm_target;
use wasm_target::WASM_TARGET;
const PACK_PROFILE: &str = "pack";
/// The checker is tuned for speed (workspace Cargo.toml, `[profile.checker]`).
const CHECKER_PROFILE: &str = "checker";

/// Environment a build script inherits that must not leak into the nested build.
fn is_outer_build_var(key: &str) -> bool {
    const KEEP: &[&str] = &["CARGO_HOME", "CARGO_MAKEFLAGS", "CARGO_NET_OFFLINE", "CARGO_TERM_COLOR"];
    if KEEP.contains(&key) || key.starts_with("CARGO_REGISTRIES_") || key.starts_with("CARGO_HTTP_") {
        return false;
    }
    key.starts_with("CARGO_")
        || matches!(key, "RUSTFLAGS" | "TARGET" | "HOST" | "OUT_DIR" | "OPT_LEVEL" | "PROFILE" | "DEBUG" | "NUM_JOBS" | "RUSTDOC" | "RUSTC_LINKER")
}

fn pack_target_dir(out_dir: &Path) -> PathBuf {
    // OUT_DIR is <target>[/<triple>]/<profile>/build/<pkg>-<hash>/out
    let build = out_dir.ancestors().find(|p| p.file_name().is_some_and(|n| n == "build")).expect("OUT_DIR has a build/ ancestor");
    build.parent().and_then(Path::parent).expect("a target directory above the profile").join("capstan-packs")
}

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let workspace = manifest_dir.parent().unwrap().to_path_buf();
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    let packs_root = workspace.join("capability-packs");
    for watched in ["capability-packs", "sdk", "wit", "Cargo.lock", "bridges/blender/capstan_bridge/commands.json"] {
        println!("cargo:rerun-if-changed={}", workspace.join(watched).display());
    }

    let mut packs: Vec<PathBuf> = std::fs::read_dir(&packs_root)
        .expect("capability-packs/ exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("pack.json").is_file() && p.join("Cargo.toml").is_file())
        .collect();
    packs.sort();

    // Fuzzing builds (nightly, sanitizers) have no wasm32-wasip2 standard library to
    // build packs with, and the parsers they exercise do not need them.
    println!("cargo:rerun-if-env-changed=CAPSTAN_SKIP_OFFICIAL_PACKS");
    let skipping = env::var("CAPSTAN_SKIP_OFFICIAL_PACKS").is_ok_and(|v| v == "1");
    if skipping {
        println!("cargo:warning=CAPSTAN_SKIP_OFFICIAL_PACKS=1: this build embeds no official packs");
        packs.clear();
    }
    let target_dir = pack_target_dir(&out_dir);
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Builds that skip the packs (fuzzing) build nothing for wasm here.
    if !skipping {
        ensure_wasm_target();
    }
    let mut generated = String::from("pub static OFFICIAL_PACKS: &[OfficialPack] = &[\n");
    for pack in &packs {
        let crate_name = pack.file_name().unwrap().to_str().unwrap().to_string();
        build_pack(&cargo, &workspace, &target_dir, &crate_name);
        let wasm = target_dir.join(WASM_TARGET).join(PACK_PROFILE).join(format!("{}.wasm", crate_name.replace('-', "_")));
        let bytes = std::fs::read(&wasm).unwrap_or_else(|e| panic!("built {crate_name} but cannot read {}: {e}", wasm.display()));
        let sha = hex::encode(Sha256::digest(&bytes));

        let source = std::fs::read_to_string(pack.join("pack.json")).unwrap();
        let mut manifest: serde_json::Value = serde_json::from_str(&source)
            .unwrap_or_else(|e| panic!("{}/pack.json is not JSON: {e}", pack.display()));
        let component = manifest["component"].as_str().expect("pack.json names its component").to_string();
        manifest["sha256"] = serde_json::Value::String(sha);
        let name = manifest["name"].as_str().expect("pack.json has a name").to_string();

        let sealed_dir = out_dir.join("official").join(&name);
        std::fs::create_dir_all(&sealed_dir).unwrap();
        std::fs::write(sealed_dir.join(&component), &bytes).unwrap();
        std::fs::write(sealed_dir.join("pack.json"), serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
        writeln!(
            generated,
            "    OfficialPack {{ name: {name:?}, manifest: include_str!({:?}), component: include_bytes!({:?}) }},",
            sealed_dir.join("pack.json"),
            sealed_dir.join(&component)
        )
        .unwrap();
    }
    generated.push_str("];\n");
    std::fs::write(out_dir.join("official_packs.rs"), generated).unwrap();
    embed_checker(&cargo, &workspace, &target_dir, &out_dir);
    // Tests that need a real Blender are ignored (not passed) when none is configured.
    println!("cargo::rustc-check-cfg=cfg(capstan_blender)");
    println!("cargo:rerun-if-env-changed=CAPSTAN_TEST_BLENDER");
    if env::var_os("CAPSTAN_TEST_BLENDER").is_some_and(|v| !v.is_empty()) {
        println!("cargo:rustc-cfg=capstan_blender");
    }
    embed_bridges(&workspace.join("bridges"), &out_dir);
    embed_workflows(&manifest_dir.join("workflows"), &out_dir);
}

/// The entries of `folder` that `keep` takes, sorted by path; the build reruns when
/// the folder changes (an entry added or removed).
fn watched_entries(folder: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut out: Vec<PathBuf> = std::fs::read_dir(folder).unwrap().filter_map(Result::ok).map(|e| e.path()).filter(|p| keep(p)).collect();
    out.sort();
    out
}

/// Every official workflow (`host/workflows/*.json`), in file-name order, as the slice
/// expression `src/workflow/mod.rs` includes: `&[(file name, text), ...]`.
fn embed_workflows(folder: &Path, out_dir: &Path) {
    let mut generated = String::from("&[\n");
    for f in watched_entries(folder, |p| p.is_file() && p.extension().is_some_and(|x| x == "json")) {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        writeln!(generated, "    ({name:?}, include_str!({f:?})),").unwrap();
    }
    generated.push_str("]\n");
    std::fs::write(out_dir.join("official_workflows.rs"), generated).unwrap();
}

/// Every application's bridge: each folder of `bridges/` holding a `run_bridge.py` is
/// embedded as `OUT_DIR/bridge_files_<folder>.rs` defining `BRIDGE_FILES`, which that
/// app's unit includes. No app is named here, so adding one is a folder in `bridges/`
/// and its unit (`scripts/app_unit_diff.py` shows it).
fn embed_bridges(bridges: &Path, out_dir: &Path) {
    // An app's bridge is a folder with its entry point; the shared core and anything
    // else (a cache, a stray folder) is not one.
    for app in watched_entries(bridges, |p| p.is_dir() && p.join("run_bridge.py").is_file()) {
        let name = app.file_name().unwrap().to_string_lossy().to_string();
        embed_bridge(&app, out_dir, &format!("bridge_files_{name}.rs"), "BRIDGE_FILES");
    }
}

/// The Python safety checker component (`capability-packs/python-safety`, world
/// `code-checker`) and its default policy. Builds that skip the official packs
/// (fuzzing) may name a prebuilt component in `CAPSTAN_CHECKER_WASM`; without one
/// they embed none and the checker answers that it is missing.
fn embed_checker(cargo: &str, workspace: &Path, target_dir: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-env-changed=CAPSTAN_CHECKER_WASM");
    let skip = env::var("CAPSTAN_SKIP_OFFICIAL_PACKS").is_ok_and(|v| v == "1");
    let wasm = match env::var_os("CAPSTAN_CHECKER_WASM") {
        Some(path) => Some(PathBuf::from(path)),
        None if skip => None,
        None => {
            build_component(cargo, workspace, target_dir, "python-safety", CHECKER_PROFILE);
            Some(target_dir.join(WASM_TARGET).join(CHECKER_PROFILE).join("python_safety.wasm"))
        }
    };
    let component = match wasm {
        Some(path) => {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read the checker component {}: {e}", path.display()));
            let copy = out_dir.join("python_safety.wasm");
            std::fs::write(&copy, bytes).unwrap();
            format!("include_bytes!({copy:?})")
        }
        None => "&[]".to_string(),
    };
    let policy = workspace.join("capability-packs").join("python-safety").join("policy.json");
    let generated = format!("pub static CHECKER_COMPONENT: &[u8] = {component};\npub static DEFAULT_POLICY: &str = include_str!({policy:?});\n");
    std::fs::write(out_dir.join("checker.rs"), generated).unwrap();
}

/// A bridge's files (the Blender add-on, the FreeCAD bridge), embedded so the app
/// units' launch and install commands work from the binary alone (paths relative to
/// `bridges/<app>/`, as `const_name` in `OUT_DIR/file_name`). The shared bridge core is
/// each package's `core` (a symlink to `bridges/core/capstan_bridge_core`): the walk
/// follows it, so its files are embedded as `<package>/core/...` and covered by the
/// materialised folder's digest (`src/bridge_code.rs`).
fn embed_bridge(root: &Path, out_dir: &Path, file_name: &str, const_name: &str) {
    println!("cargo:rerun-if-changed={}", root.display());
    if let Some(bridges) = root.parent() {
        println!("cargo:rerun-if-changed={}", bridges.join("core").display());
    }
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if path.is_dir() {
                if name != "__pycache__" && name != "tests" && !name.starts_with('.') {
                    stack.push(path);
                }
            } else if name == "core" {
                // A checkout without symbolic links (git's core.symlinks off) leaves the
                // link to the shared bridge core as a small text file: a bridge built
                // from it could not start, so the build stops here and says why.
                panic!("{} is not the link to bridges/core/capstan_bridge_core (is git's core.symlinks off?); the bridge needs its shared core", path.display());
            } else if name.ends_with(".py") || name.ends_with(".json") || name.ends_with(".toml") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(
        files.iter().any(|f| f.ends_with("core/__init__.py")),
        "{}: no core/__init__.py embedded; the bridge needs its shared core (bridges/core)",
        root.display()
    );
    let mut generated = format!("pub static {const_name}: &[(&str, &[u8])] = &[\n");
    for f in files {
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        writeln!(generated, "    ({rel:?}, include_bytes!({f:?})),").unwrap();
    }
    generated.push_str("];\n");
    std::fs::write(out_dir.join(file_name), generated).unwrap();
}

/// The packs need the wasm32-wasip2 standard library; add it through rustup when the
/// toolchain lacks it (see `build/wasm_target.rs`).
fn ensure_wasm_target() {
    println!("cargo:rerun-if-changed=build/wasm_target.rs");
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let output = Command::new(&rustc).args(["--print", "sysroot"]).output().unwrap_or_else(|e| panic!("cannot run {rustc}: {e}"));
    let sysroot = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    let rustup = wasm_target::find_on_path("rustup", env::var_os("PATH").as_deref());
    let toolchain = env::var("RUSTUP_TOOLCHAIN").ok();
    match wasm_target::ensure_target(&sysroot, WASM_TARGET, rustup.as_deref(), toolchain.as_deref()) {
        Ok(wasm_target::TargetStatus::Present) => {}
        Ok(wasm_target::TargetStatus::Installed) => {
            println!("cargo:warning=added the {WASM_TARGET} target to this toolchain (rustup target add {WASM_TARGET}); capability packs build for it");
        }
        Err(message) => panic!("{message}"),
    }
}

fn build_pack(cargo: &str, workspace: &Path, target_dir: &Path, crate_name: &str) {
    build_component(cargo, workspace, target_dir, crate_name, PACK_PROFILE);
}

fn build_component(cargo: &str, workspace: &Path, target_dir: &Path, crate_name: &str, profile: &str) {
    let mut cmd = Command::new(cargo);
    cmd.current_dir(workspace)
        .args(["rustc", "--quiet", "--lib", "-p", crate_name])
        .args(["--profile", profile, "--target", WASM_TARGET, "--crate-type", "cdylib"])
        .arg("--target-dir")
        .arg(target_dir);
    for (key, _) in env::vars_os() {
        if let Some(k) = key.to_str()
            && is_outer_build_var(k) {
                cmd.env_remove(k);
            }
    }
    let output = cmd.output().unwrap_or_else(|e| panic!("cannot run {cargo} to build pack {crate_name}: {e}"));
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if stderr.contains("may not be installed") || stderr.contains("can't find crate for `core`") {
            format!("\n\nThe {WASM_TARGET} target is missing: run `rustup target add {WASM_TARGET}`.")
        } else {
            String::new()
        };
        panic!("building capability pack {crate_name} for {WASM_TARGET} failed:\n{stderr}{hint}");
    }
}
