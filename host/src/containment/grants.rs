//! What a confined app may reach in the file system: one function, [`grants`], turns an
//! instance's [`Plan`] into the list of paths and rights the Landlock ruleset allows.
//! Everything not listed is denied by the kernel (read, write, execute, create, remove,
//! rename, truncate, device ioctl), whatever Python, Blender's C code or a `.blend` asks.
//!
//! Security reasoning, grant by grant:
//! - **Execute** only the launched program and its ELF loader: a script that writes an
//!   executable (it cannot: nothing writable is executable) or finds one (`/usr/bin/sh`)
//!   cannot start it. Shared libraries are mapped, not executed: they need read only.
//! - **Read-only**: the app's installation (Blender, or the venv with `bpy` and the base
//!   Python it was made from), the add-on (so nothing can be planted in it), the read
//!   roots the user configured, and the system files the loader, fonts, locale and time
//!   zone need (`/usr`, `/lib*`, a few files of `/etc`, `/dev/{null,zero,random,urandom}`,
//!   the CPU and memory counts under `/proc` and `/sys`). Not `/etc` whole, not `/home`,
//!   not `/root`, not `/tmp`, not `CAPSTAN_HOME` outside the instance's own folders.
//! - **Read-write**: the instance's output folder and its private temporary folder,
//!   without the rights to create device nodes (`MAKE_CHAR`, `MAKE_BLOCK`) or to send
//!   device ioctls.
//! - `/proc/<own pid>` is added in the child itself (its pid is known only after fork),
//!   so the app reads its own status and never another process's.
//! - GUI only: the display's socket folder, the GPU's device nodes (with ioctl: a GPU
//!   driver needs it) and the user's Blender configuration, read-only.

use std::path::{Path, PathBuf};

/// What a grant allows beneath its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    /// Read files, list folders.
    Read,
    /// Read and execute one file (the program, the loader).
    Execute,
    /// Read, write, create and remove files and folders (no device nodes, no ioctl).
    ReadWrite,
    /// Read and write device nodes, with ioctl (a GPU in GUI mode; `/dev/null`).
    Device,
}

/// One path and what may be done beneath it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub path: PathBuf,
    pub access: Access,
    /// Why the app needs it (listed by `doctor`, the README and the tests).
    pub why: &'static str,
}

/// What the desktop session of a GUI app needs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Desktop {
    /// Folders holding the display's sockets (`/tmp/.X11-unix`, `$XDG_RUNTIME_DIR`).
    pub display_sockets: Vec<PathBuf>,
    /// The user's Blender configuration (`~/.config/blender`), read-only.
    pub user_config: Option<PathBuf>,
}

/// One launch's file-system needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The program that is executed (symlinks resolved).
    pub program: PathBuf,
    /// The ELF loader the program names (symlinks resolved), when it has one.
    pub loader: Option<PathBuf>,
    /// The app's installation: Blender's folder, or the venv and its base Python.
    pub installation: Vec<PathBuf>,
    /// The add-on's folder.
    pub addon: PathBuf,
    /// Folders inputs may be read from (`CAPSTAN_READ_ROOTS`).
    pub read_roots: Vec<PathBuf>,
    /// The instance's output folder.
    pub output: PathBuf,
    /// The instance's private temporary folder (`TMPDIR`, `HOME`).
    pub tmp: PathBuf,
    /// GUI mode: what a desktop session needs; None headless.
    pub desktop: Option<Desktop>,
}

/// System paths every app process needs to start: the loader's libraries and cache,
/// fonts, locale, time zone, random numbers, CPU and memory counts.
const SYSTEM_READ: &[(&str, &str)] = &[
    ("/usr", "shared libraries, fonts, locale and time zone data"),
    ("/lib", "shared libraries"),
    ("/lib64", "the ELF loader's folder"),
    ("/lib32", "shared libraries"),
    ("/etc/ld.so.cache", "the loader's library cache"),
    ("/etc/ld.so.conf", "the loader's configuration"),
    ("/etc/ld.so.conf.d", "the loader's configuration"),
    ("/etc/fonts", "fontconfig's configuration"),
    ("/etc/localtime", "the time zone"),
    ("/etc/locale.alias", "locale names"),
    ("/dev/zero", "zero pages"),
    ("/dev/random", "random numbers"),
    ("/dev/urandom", "random numbers"),
    ("/proc/cpuinfo", "the CPU count and features"),
    ("/proc/meminfo", "the memory size"),
    ("/proc/stat", "CPU counts"),
    ("/sys/devices/system/cpu", "online CPUs"),
];

/// The paths and rights the app may use; every path that exists is listed once with
/// its strongest right (missing system paths are left out, missing instance folders are
/// not: they are created before the launch).
pub fn grants(plan: &Plan) -> Vec<Grant> {
    let mut out: Vec<Grant> = Vec::new();
    let mut add = |path: &Path, access: Access, why: &'static str| {
        if let Some(existing) = out.iter_mut().find(|g| g.path == path) {
            existing.access = existing.access.max(access);
        } else {
            out.push(Grant { path: path.to_path_buf(), access, why });
        }
    };
    for (path, why) in SYSTEM_READ {
        let path = Path::new(path);
        if path.exists() {
            add(path, Access::Read, why);
        }
    }
    add(Path::new("/dev/null"), Access::Device, "discarded output");
    for dir in &plan.installation {
        add(dir, Access::Read, "the app's installation");
    }
    add(&plan.addon, Access::Read, "the capstan add-on (read-only: nothing can be planted in it)");
    for root in &plan.read_roots {
        add(root, Access::Read, "a configured read root");
    }
    add(&plan.program, Access::Execute, "the launched program");
    if let Some(loader) = &plan.loader {
        add(loader, Access::Execute, "the program's ELF loader");
    }
    add(&plan.output, Access::ReadWrite, "the instance's output folder");
    add(&plan.tmp, Access::ReadWrite, "the instance's private temporary folder");
    if let Some(desktop) = &plan.desktop {
        for dir in &desktop.display_sockets {
            add(dir, Access::ReadWrite, "the display's sockets");
        }
        if Path::new("/dev/dri").exists() {
            add(Path::new("/dev/dri"), Access::Device, "the GPU");
        }
        if let Some(config) = &desktop.user_config {
            add(config, Access::Read, "the user's configuration of the app");
        }
    }
    out
}

/// The ELF interpreter `program` names (`PT_INTERP`), symlinks resolved; None for a
/// static program or one that cannot be read.
pub fn elf_loader(program: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(program).ok()?.take(64 * 1024).read_to_end(&mut head).ok()?;
    if head.len() < 64 || &head[..4] != b"\x7fELF" || head[4] != 2 {
        return None; // not a 64-bit ELF
    }
    let u16_at = |o: usize| u16::from_le_bytes([head[o], head[o + 1]]) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(head[o..o + 8].try_into().unwrap_or([0; 8])) as usize;
    let (phoff, phentsize, phnum) = (u64_at(32), u16_at(54), u16_at(56));
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        if ph + 56 > head.len() {
            return None;
        }
        if u32::from_le_bytes(head[ph..ph + 4].try_into().ok()?) == 3 {
            let (offset, size) = (u64_at(ph + 8), u64_at(ph + 32));
            let name = head.get(offset..offset + size)?;
            let name = std::str::from_utf8(name.strip_suffix(b"\0").unwrap_or(name)).ok()?;
            return std::fs::canonicalize(name).ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(tmp: &Path) -> Plan {
        Plan {
            program: tmp.join("venv/bin/python3.13"),
            loader: Some(PathBuf::from("/lib64/ld-linux-x86-64.so.2")),
            installation: vec![tmp.join("venv"), tmp.join("base")],
            addon: tmp.join("home/addon/1"),
            read_roots: vec![tmp.join("inputs")],
            output: tmp.join("home/instances/a/output"),
            tmp: tmp.join("home/instances/a/tmp"),
            desktop: None,
        }
    }

    fn access_of(grants: &[Grant], path: &Path) -> Option<Access> {
        grants.iter().find(|g| g.path == path).map(|g| g.access)
    }

    #[test]
    fn only_the_output_and_tmp_folders_are_writable() {
        let root = Path::new("/x");
        let g = grants(&plan(root));
        let writable: Vec<_> = g.iter().filter(|g| g.access == Access::ReadWrite).map(|g| g.path.clone()).collect();
        assert_eq!(writable, vec![root.join("home/instances/a/output"), root.join("home/instances/a/tmp")]);
        let devices: Vec<_> = g.iter().filter(|g| g.access == Access::Device).map(|g| g.path.clone()).collect();
        assert_eq!(devices, vec![PathBuf::from("/dev/null")], "headless: no device but /dev/null");
    }

    #[test]
    fn only_the_program_and_its_loader_are_executable() {
        let root = Path::new("/x");
        let g = grants(&plan(root));
        let exec: Vec<_> = g.iter().filter(|g| g.access == Access::Execute).map(|g| g.path.clone()).collect();
        assert_eq!(exec, vec![root.join("venv/bin/python3.13"), PathBuf::from("/lib64/ld-linux-x86-64.so.2")]);
    }

    #[test]
    fn the_addon_installation_and_read_roots_are_read_only() {
        let root = Path::new("/x");
        let g = grants(&plan(root));
        for p in ["home/addon/1", "venv", "base", "inputs"] {
            assert_eq!(access_of(&g, &root.join(p)), Some(Access::Read), "{p}");
        }
    }

    #[test]
    fn capstan_home_etc_home_and_tmp_are_not_granted() {
        let root = Path::new("/x");
        let g = grants(&plan(root));
        for p in [root.join("home"), root.join("home/instances"), root.join("home/instances/a"), PathBuf::from("/etc"), PathBuf::from("/tmp"), PathBuf::from("/root"), PathBuf::from("/home"), PathBuf::from("/proc"), PathBuf::from("/")] {
            assert!(g.iter().all(|grant| grant.path != p), "{} must not be granted", p.display());
        }
        assert!(g.iter().all(|grant| !grant.path.starts_with("/etc/passwd")));
    }

    #[test]
    fn a_path_listed_twice_keeps_its_strongest_right() {
        let root = Path::new("/x");
        let mut p = plan(root);
        p.read_roots.push(p.output.clone());
        let g = grants(&p);
        assert_eq!(g.iter().filter(|grant| grant.path == p.output).count(), 1);
        assert_eq!(access_of(&g, &p.output), Some(Access::ReadWrite));
    }

    #[test]
    fn a_desktop_adds_display_sockets_and_config_read_only() {
        let root = Path::new("/x");
        let mut p = plan(root);
        p.desktop = Some(Desktop { display_sockets: vec![PathBuf::from("/tmp/.X11-unix")], user_config: Some(root.join("cfg/sculptor")) });
        let g = grants(&p);
        assert_eq!(access_of(&g, Path::new("/tmp/.X11-unix")), Some(Access::ReadWrite));
        assert_eq!(access_of(&g, &root.join("cfg/sculptor")), Some(Access::Read));
    }

    #[test]
    fn the_loader_of_this_test_binary_is_found() {
        let exe = std::env::current_exe().unwrap();
        let loader = elf_loader(&exe).expect("a dynamically linked test binary names its loader");
        assert!(loader.is_absolute() && loader.exists(), "{}", loader.display());
        assert_eq!(elf_loader(Path::new("/nonexistent")), None);
    }
}
