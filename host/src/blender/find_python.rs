//! Finding the CPython a Blender line's `bpy` wheels need (3.11 for 4.5 LTS, 3.13 for
//! 5.2 LTS), to create the provisioned venv with.
//!
//! Order, first match wins: `CAPSTAN_PYTHON`; `python3.X` on `PATH`; pyenv (its
//! `versions/3.X.*` folders under `PYENV_ROOT` or `~/.pyenv`, newest first, then
//! `pyenv prefix 3.X`); then `uv python find 3.X` when uv is on `PATH`. Every candidate
//! is asked what it is; one of another minor version, or a free-threaded build (no
//! `bpy` wheels exist for those), is passed over and named in the error when nothing
//! fits. Nothing is installed here: the error says how to get the Python.

use super::process::output_within;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub const PYTHON_ENV: &str = "CAPSTAN_PYTHON";
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);
/// Prints `3.11 gil` (or `3.13 nogil` for a free-threaded build).
const IDENTIFY: &str = "import sys, sysconfig; print('%d.%d' % sys.version_info[:2], 'nogil' if sysconfig.get_config_var('Py_GIL_DISABLED') else 'gil')";

/// Where a candidate interpreter came from (said in messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonSource {
    CapstanPython,
    Path,
    Pyenv,
    Uv,
}

impl fmt::Display for PythonSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PythonSource::CapstanPython => PYTHON_ENV,
            PythonSource::Path => "PATH",
            PythonSource::Pyenv => "pyenv",
            PythonSource::Uv => "uv",
        })
    }
}

/// What an interpreter says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PythonIdentity {
    /// `major.minor`, e.g. `3.11`.
    pub minor: String,
    pub free_threaded: bool,
}

/// The outside world the search reads, so the order can be tested without installing
/// interpreters: environment variables, and running a program for its output.
pub trait PythonWorld {
    fn var(&self, name: &str) -> Option<OsString>;
    /// What `python` is, or None when it does not run as a Python.
    fn identify(&self, python: &Path) -> Option<PythonIdentity>;
    /// The output of `program args...` when it succeeds.
    fn output(&self, program: &Path, args: &[&str]) -> Option<String>;
}

/// The real machine.
pub struct ThisMachine;

impl PythonWorld for ThisMachine {
    fn var(&self, name: &str) -> Option<OsString> {
        std::env::var_os(name)
    }

    fn identify(&self, python: &Path) -> Option<PythonIdentity> {
        let mut cmd = Command::new(python);
        cmd.args(["-c", IDENTIFY]);
        match output_within(cmd, PROBE_TIMEOUT) {
            Ok((true, out)) => parse_identity(&out),
            _ => None,
        }
    }

    fn output(&self, program: &Path, args: &[&str]) -> Option<String> {
        let mut cmd = Command::new(program);
        cmd.args(args);
        match output_within(cmd, PROBE_TIMEOUT) {
            Ok((true, out)) => Some(out),
            _ => None,
        }
    }
}

fn parse_identity(out: &str) -> Option<PythonIdentity> {
    out.lines().find_map(|line| {
        let (minor, build) = line.trim().split_once(' ')?;
        let valid = minor.split('.').count() == 2 && minor.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        match build {
            "gil" | "nogil" if valid => Some(PythonIdentity { minor: minor.to_string(), free_threaded: build == "nogil" }),
            _ => None,
        }
    })
}

/// The interpreter found, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundPython {
    pub path: PathBuf,
    pub source: PythonSource,
}

/// A candidate that was looked at and passed over, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    pub path: PathBuf,
    pub source: PythonSource,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Python {minor} is needed and none was found (looked at ${PYTHON_ENV}, python{minor} on PATH, pyenv and uv{rejected}). Get it with `pyenv install {minor}`, `uv python install {minor}`, or your system's packages (`apt install python{minor} python{minor}-venv`), or set {PYTHON_ENV} to a Python {minor}",
    rejected = describe_rejected(.rejected)
)]
pub struct NoPython {
    pub minor: String,
    pub rejected: Vec<Rejected>,
}

fn describe_rejected(rejected: &[Rejected]) -> String {
    if rejected.is_empty() {
        return String::new();
    }
    let list: Vec<String> = rejected.iter().map(|r| format!("{} from {}: {}", r.path.display(), r.source, r.reason)).collect();
    format!("; passed over: {}", list.join("; "))
}

fn exe(name: &str) -> String {
    if cfg!(windows) { format!("{name}.exe") } else { name.to_string() }
}

fn path_dirs(world: &dyn PythonWorld) -> Vec<PathBuf> {
    world.var("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default()
}

fn on_path(world: &dyn PythonWorld, name: &str) -> Option<PathBuf> {
    path_dirs(world).into_iter().map(|d| d.join(exe(name))).find(|p| p.is_file())
}

fn python_in(prefix: &Path) -> PathBuf {
    if cfg!(windows) { prefix.join("python.exe") } else { prefix.join("bin").join("python") }
}

/// `3.11.9` sorts after `3.11.10`'s predecessors numerically, not as text.
fn patch_key(name: &str) -> Vec<u64> {
    name.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

fn pyenv_root(world: &dyn PythonWorld) -> Option<PathBuf> {
    world
        .var("PYENV_ROOT")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| world.var("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".pyenv")))
}

/// `<root>/versions/3.X` and `3.X.N` (never `3.Xt`, free-threaded), newest first.
fn pyenv_versions(root: &Path, minor: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root.join("versions")) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n == minor || n.strip_prefix(minor).and_then(|rest| rest.strip_prefix('.')).is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
        .collect();
    names.sort_by_key(|n| std::cmp::Reverse(patch_key(n)));
    names.into_iter().map(|n| python_in(&root.join("versions").join(n))).collect()
}

fn first_existing_line(out: &str) -> Option<PathBuf> {
    out.lines().map(str::trim).filter(|l| !l.is_empty()).map(PathBuf::from).find(|p| p.exists())
}

/// The candidates of one source, in order. Later sources are only computed when the
/// earlier ones had no fit (running pyenv or uv costs a process each).
fn candidates(world: &dyn PythonWorld, source: PythonSource, minor: &str) -> Vec<PathBuf> {
    match source {
        PythonSource::CapstanPython => world.var(PYTHON_ENV).filter(|v| !v.is_empty()).map(PathBuf::from).into_iter().collect(),
        PythonSource::Path => on_path(world, &format!("python{minor}")).into_iter().collect(),
        PythonSource::Pyenv => {
            let mut out = pyenv_root(world).map(|root| pyenv_versions(&root, minor)).unwrap_or_default();
            let pyenv = on_path(world, "pyenv").or_else(|| pyenv_root(world).map(|r| r.join("bin").join(exe("pyenv"))).filter(|p| p.is_file()));
            if let Some(prefix) = pyenv.and_then(|p| world.output(&p, &["prefix", minor])).and_then(|o| first_existing_line(&o)) {
                out.push(python_in(&prefix));
            }
            out
        }
        PythonSource::Uv => on_path(world, "uv")
            .and_then(|uv| world.output(&uv, &["python", "find", minor]))
            .and_then(|o| first_existing_line(&o))
            .into_iter()
            .collect(),
    }
}

/// The first interpreter of CPython `minor` (`3.11`), searched in the module's order.
pub fn find_python(world: &dyn PythonWorld, minor: &str) -> Result<FoundPython, NoPython> {
    let mut rejected = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for source in [PythonSource::CapstanPython, PythonSource::Path, PythonSource::Pyenv, PythonSource::Uv] {
        for path in candidates(world, source, minor) {
            if !seen.insert(path.clone()) {
                continue;
            }
            let reason = match world.identify(&path) {
                Some(id) if id.minor == minor && !id.free_threaded => return Ok(FoundPython { path, source }),
                Some(id) if id.minor == minor => format!("a free-threaded Python {minor}, which bpy has no wheels for"),
                Some(id) => format!("Python {}", id.minor),
                None => "does not run as a Python".to_string(),
            };
            rejected.push(Rejected { path, source, reason });
        }
    }
    Err(NoPython { minor: minor.to_string(), rejected })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::sync::Mutex;

    /// A machine with given variables, interpreters (path -> `3.11 gil`) and command
    /// outputs; it records which programs ran.
    #[derive(Default)]
    struct FakeWorld {
        vars: HashMap<String, OsString>,
        pythons: HashMap<PathBuf, &'static str>,
        outputs: HashMap<(PathBuf, String), String>,
        ran: Mutex<Vec<String>>,
    }

    impl PythonWorld for FakeWorld {
        fn var(&self, name: &str) -> Option<OsString> {
            self.vars.get(name).cloned()
        }
        fn identify(&self, python: &Path) -> Option<PythonIdentity> {
            self.ran.lock().unwrap().push(format!("identify {}", python.display()));
            self.pythons.get(python).and_then(|out| parse_identity(out))
        }
        fn output(&self, program: &Path, args: &[&str]) -> Option<String> {
            self.ran.lock().unwrap().push(format!("{} {}", program.display(), args.join(" ")));
            self.outputs.get(&(program.to_path_buf(), args.join(" "))).cloned()
        }
    }

    /// A folder tree: PATH dirs, a pyenv root with versions, a uv install.
    struct Machine {
        dir: tempfile::TempDir,
        world: FakeWorld,
    }

    impl Machine {
        fn new() -> Machine {
            let dir = tempfile::tempdir().unwrap();
            let mut world = FakeWorld::default();
            world.vars.insert("HOME".into(), dir.path().join("home").into());
            let path = std::env::join_paths([dir.path().join("bin"), dir.path().join("usr-bin")]).unwrap();
            world.vars.insert("PATH".into(), path);
            Machine { dir, world }
        }
        fn file(&self, rel: &str) -> PathBuf {
            let p = self.dir.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "").unwrap();
            p
        }
        fn python(&mut self, rel: &str, says: &'static str) -> PathBuf {
            let p = self.file(rel);
            self.world.pythons.insert(p.clone(), says);
            p
        }
        fn find(&self, minor: &str) -> Result<FoundPython, NoPython> {
            find_python(&self.world, minor)
        }
    }

    #[test]
    fn identity_is_read_from_the_probe_output() {
        assert_eq!(parse_identity("3.11 gil\n"), Some(PythonIdentity { minor: "3.11".into(), free_threaded: false }));
        assert_eq!(parse_identity("warning: x\n3.13 nogil"), Some(PythonIdentity { minor: "3.13".into(), free_threaded: true }));
        for bad in ["", "Python 3.11.7", "3.11", "3 gil", "3.x gil", "3.11 maybe"] {
            assert_eq!(parse_identity(bad), None, "{bad}");
        }
    }

    #[test]
    fn capstan_python_comes_first() {
        let mut m = Machine::new();
        let chosen = m.python("custom/py", "3.13 gil");
        m.python("bin/python3.13", "3.13 gil");
        m.world.vars.insert(PYTHON_ENV.into(), chosen.clone().into());
        assert_eq!(m.find("3.13").unwrap(), FoundPython { path: chosen, source: PythonSource::CapstanPython });
    }

    #[test]
    fn a_capstan_python_of_another_version_is_passed_over_and_named() {
        let mut m = Machine::new();
        let wrong = m.python("custom/py", "3.11 gil");
        let right = m.python("usr-bin/python3.13", "3.13 gil");
        m.world.vars.insert(PYTHON_ENV.into(), wrong.clone().into());
        assert_eq!(m.find("3.13").unwrap(), FoundPython { path: right, source: PythonSource::Path });
        m.world.pythons.clear();
        let err = m.find("3.13").unwrap_err();
        assert_eq!(err.rejected[0], Rejected { path: wrong, source: PythonSource::CapstanPython, reason: "does not run as a Python".into() });
    }

    #[test]
    fn path_comes_before_pyenv_and_uv() {
        let mut m = Machine::new();
        let on_path = m.python("bin/python3.11", "3.11 gil");
        m.python("home/.pyenv/versions/3.11.7/bin/python", "3.11 gil");
        let uv = m.file("bin/uv");
        m.world.outputs.insert((uv, "python find 3.11".into()), on_path.display().to_string());
        assert_eq!(m.find("3.11").unwrap(), FoundPython { path: on_path, source: PythonSource::Path });
        assert!(!m.world.ran.lock().unwrap().iter().any(|r| r.contains("python find")), "uv is not asked once PATH answered");
    }

    #[test]
    fn a_path_shim_of_another_version_falls_through_to_pyenv_newest_first() {
        let mut m = Machine::new();
        // A pyenv shim that runs whichever version is active: it says 3.11.
        m.python("bin/python3.13", "3.11 gil");
        m.python("home/.pyenv/versions/3.13.0/bin/python", "3.13 gil");
        let newest = m.python("home/.pyenv/versions/3.13.10/bin/python", "3.13 gil");
        m.python("home/.pyenv/versions/3.13.9/bin/python", "3.13 gil");
        m.python("home/.pyenv/versions/3.13t/bin/python", "3.13 nogil");
        m.python("home/.pyenv/versions/3.130/bin/python", "3.13 gil");
        assert_eq!(m.find("3.13").unwrap(), FoundPython { path: newest, source: PythonSource::Pyenv });
    }

    #[test]
    fn pyenv_root_is_honoured_and_pyenv_prefix_is_asked() {
        let mut m = Machine::new();
        m.world.vars.insert("PYENV_ROOT".into(), m.dir.path().join("elsewhere").into());
        // Under ~/.pyenv, but PYENV_ROOT points elsewhere: not looked at.
        m.python("home/.pyenv/versions/3.11.7/bin/python", "3.11 gil");
        let pyenv = m.file("elsewhere/bin/pyenv");
        let prefix = m.dir.path().join("elsewhere/pythons/3.11-custom");
        let python = m.python("elsewhere/pythons/3.11-custom/bin/python", "3.11 gil");
        m.world.outputs.insert((pyenv, "prefix 3.11".into()), format!("{}\n", prefix.display()));
        let found = m.find("3.11").unwrap();
        assert_eq!(found, FoundPython { path: python, source: PythonSource::Pyenv });
    }

    #[test]
    fn uv_is_the_last_resort() {
        let mut m = Machine::new();
        let uv = m.file("usr-bin/uv");
        let managed = m.python("uv-data/cpython-3.13.5/bin/python3.13", "3.13 gil");
        m.world.outputs.insert((uv, "python find 3.13".into()), format!("{}\n", managed.display()));
        assert_eq!(m.find("3.13").unwrap(), FoundPython { path: managed, source: PythonSource::Uv });
        let ran = m.world.ran.lock().unwrap();
        assert!(ran.last().unwrap().starts_with("identify "), "{ran:?}");
        assert!(ran.iter().any(|r| r.ends_with("uv python find 3.13")), "{ran:?}");
    }

    #[test]
    fn nothing_fitting_names_the_python_needed_and_how_to_get_it() {
        let mut m = Machine::new();
        let shim = m.python("bin/python3.11", "3.13 gil");
        m.python("home/.pyenv/versions/3.11t/bin/python", "3.11 nogil");
        let free = m.python("home/.pyenv/versions/3.11.9/bin/python", "3.11 nogil");
        let err = m.find("3.11").unwrap_err();
        assert_eq!(err.minor, "3.11");
        assert_eq!(
            err.rejected,
            vec![
                Rejected { path: shim.clone(), source: PythonSource::Path, reason: "Python 3.13".into() },
                Rejected { path: free.clone(), source: PythonSource::Pyenv, reason: "a free-threaded Python 3.11, which bpy has no wheels for".into() },
            ]
        );
        let text = err.to_string();
        for needed in ["Python 3.11 is needed", "pyenv install 3.11", "uv python install 3.11", "apt install python3.11 python3.11-venv", "CAPSTAN_PYTHON"] {
            assert!(text.contains(needed), "{needed}: {text}");
        }
        assert!(text.contains(&shim.display().to_string()), "{text}");
    }

    #[test]
    fn an_empty_machine_still_says_what_to_install() {
        let m = Machine::new();
        let err = m.find("3.13").unwrap_err();
        assert!(err.rejected.is_empty());
        assert!(err.to_string().starts_with("Python 3.13 is needed and none was found (looked at $CAPSTAN_PYTHON, python3.13 on PATH, pyenv and uv)"), "{err}");
    }
}
