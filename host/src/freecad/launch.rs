//! `capstan freecad launch`, and the confined headless FreeCAD capstan starts for itself:
//! `freecadcmd <bridge>/run_bridge.py -- --listen-fd 3 --secrets-fd 4 --no-runtime-file
//! --output-dir <instance>/output`, inside the kernel's wall (the reasoning is in the
//! module doc of [`super`]).
//!
//! Each launch is one instance ([`crate::containment::instance`]): capstan binds the
//! loopback port, makes the token, hands both over through inherited descriptors, and
//! writes the runtime record itself; a launch that is not `private` also publishes it at
//! `run/freecad/server.json`, where `serve` and `call` look. The launch is done when
//! `/ping` with that token answers `"app": "freecad"` from *this* child's pid.

use crate::launched::{self, Came, new_secret, secrets_pipe, tail, write_record};
use super::locate::FreecadInstall;
use crate::bridge::HttpBridgeClient;
use crate::containment::{self, Layers, instance::{self, Instance}};
use crate::home::{CapstanHome, HOME_ENV};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(120);
/// How long FreeCAD has to stop on SIGTERM before its process group is killed.
const STOP_GRACE: Duration = Duration::from_secs(10);
/// The descriptor numbers the bridge finds its listening socket and secrets on.
const LISTEN_FD: i32 = 3;
const SECRETS_FD: i32 = 4;
/// The folders inputs come from, as the bridge reads them.
const READ_ROOTS_ENV: &str = "CAPSTAN_READ_ROOTS";

#[derive(Debug, Clone, Default)]
pub struct LaunchOptions {
    /// A fixed port; default one the OS picks, or the first free one of
    /// `CAPSTAN_BRIDGE_PORTS`.
    pub port: Option<u16>,
    /// Do not publish the instance at `run/freecad/server.json` (capstan's own use:
    /// tests, conformance, eval leave a live session alone).
    pub private: bool,
    /// The folder the bridge is told to write into; default the instance's `output/`.
    /// The grants do not follow it: only tests set it, to a folder outside the grants, to
    /// show that the kernel refuses a write the bridge itself allows.
    pub bridge_output_dir: Option<PathBuf>,
    /// The CPUs FreeCAD runs on (`None`: all); a batch worker's share.
    pub cpus: Option<Vec<usize>>,
    /// Its state is disposable (eval, batch workers): when capstan dies, the kernel
    /// kills it at once rather than asking it to stop ([`crate::launched::OnParentDeath`]).
    pub disposable: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error("cannot prepare the instance: {0}")]
    Io(#[from] std::io::Error),
    #[error("cannot start {path}: {detail}")]
    Spawn { path: PathBuf, detail: String },
    #[error("FreeCAD exited ({status}) before its bridge came up; its log ({log}) ends with:\n{tail}")]
    Exited { status: String, log: PathBuf, tail: String },
    #[error("the FreeCAD bridge did not come up within {0:?}; its log is {1}")]
    Timeout(Duration, PathBuf),
    #[error("{0}")]
    Port(String),
    #[error("cannot confine FreeCAD: {0}")]
    Containment(String),
}

/// A FreeCAD capstan started; stopped (its whole process group) when dropped.
pub struct RunningFreecad {
    child: Child,
    pub port: u16,
    /// capstan's record of this instance (clients of this instance read it).
    pub runtime_file: PathBuf,
    /// Where the record was also published for the live session (None: private).
    pub published: Option<PathBuf>,
    /// The published record this launch replaced (restored when that app still runs).
    replaced: Option<Vec<u8>>,
    pub log_file: PathBuf,
    pub ping: Value,
    pub layers: Layers,
    pub instance: Instance,
    pub install: FreecadInstall,
}

impl RunningFreecad {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The exit status, once the process has exited.
    pub fn try_status(&mut self) -> std::io::Result<Option<std::process::ExitStatus>> {
        self.child.try_wait()
    }

    /// SIGTERM to the process group, a grace period, then SIGKILL to the group. The
    /// group is signalled only while its leader (FreeCAD) is not reaped, so its id cannot
    /// name a group that reused the pid; the seccomp filter refuses new processes, so
    /// FreeCAD is normally the group's only member anyway.
    pub fn stop(&mut self) {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        launched::stop(&mut self.child, STOP_GRACE, |child| signal_group(child.id(), libc::SIGTERM), |child| signal_group(child.id(), libc::SIGKILL));
    }

    /// SIGKILL to the process group, without grace (same guard as [`RunningFreecad::stop`]).
    pub fn kill(&mut self) {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        signal_group(self.child.id(), libc::SIGKILL);
        let _ = self.child.wait();
    }

    /// Remove the runtime records this launch wrote (a published one only while it still
    /// names this instance: a later session may have replaced it).
    fn forget_records(&self) {
        launched::forget_records(&self.runtime_file, self.published.as_deref(), self.replaced.as_deref(), &self.instance.id);
    }
}

impl Drop for RunningFreecad {
    fn drop(&mut self) {
        self.stop();
        self.forget_records();
        self.instance.clean_up();
    }
}

fn signal_group(pid: u32, signal: libc::c_int) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: signalling the process group our own child leads (it was made the
        // group's leader at spawn, so the group id is its pid).
        unsafe {
            libc::killpg(pid, signal);
        }
    }
}

/// The private `HOME` of an instance (inside its `tmp/`).
pub fn private_home(instance: &Instance) -> PathBuf {
    instance.tmp.join("home")
}

/// Start FreeCAD with the bridge, confined, and wait until it answers.
pub fn launch(home: &CapstanHome, install: &FreecadInstall, options: &LaunchOptions) -> Result<RunningFreecad, LaunchError> {
    launch_with_env(home, install, options, &[])
}

/// [`launch`] with extra environment for FreeCAD (the bridge's switches, in tests).
pub fn launch_with_env(home: &CapstanHome, install: &FreecadInstall, options: &LaunchOptions, env: &[(&str, &str)]) -> Result<RunningFreecad, LaunchError> {
    let server = super::unit::SERVER;
    let script = super::bridge_files::materialize(&home.root().join("bridges").join(server))?;
    // The port first: a taken port leaves no instance folder behind.
    let listener = instance::listen(options.port).map_err(|e| LaunchError::Port(e.to_string()))?;
    let port = listener.local_addr()?.port();
    let instance = Instance::create(home)?;
    let private_home = private_home(&instance);
    crate::fsutil::create_private_dir(&private_home)?;
    let logs = home.root().join("logs");
    std::fs::create_dir_all(&logs)?;
    let log_file = logs.join(format!("{server}-{}.log", instance.id));
    let log = std::fs::File::create(&log_file)?;
    let published = (!options.private).then(|| home.run_dir().join(server).join("server.json"));
    let replaced = published.as_deref().and_then(|p| std::fs::read(p).ok());

    let token = new_secret()?;
    let secrets = secrets_pipe(&json!({ "token": token }))?;
    let program = std::fs::canonicalize(&install.path).unwrap_or_else(|_| install.path.clone());
    let bridge_output = options.bridge_output_dir.clone().unwrap_or_else(|| instance.output.clone());

    let mut cmd = Command::new(&program);
    cmd.arg(&script)
        .arg("--")
        .args(["--listen-fd", &LISTEN_FD.to_string(), "--secrets-fd", &SECRETS_FD.to_string(), "--no-runtime-file", "--output-dir"])
        .arg(&bridge_output);
    cmd.envs(env.iter().copied());
    cmd.env(HOME_ENV, home.root())
        .env("HOME", &private_home)
        .env("XDG_CONFIG_HOME", private_home.join(".config"))
        .env("XDG_CACHE_HOME", private_home.join(".cache"))
        .env("XDG_DATA_HOME", private_home.join(".local/share"))
        .env("TMPDIR", &instance.tmp)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(&instance.tmp)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    launched::tie_to_capstan(&mut cmd, options.disposable, options.cpus.as_deref());
    let roots = env.iter().find(|(k, _)| *k == READ_ROOTS_ENV).map(|(_, v)| std::ffi::OsString::from(v)).or_else(|| std::env::var_os(READ_ROOTS_ENV)).unwrap_or_default();
    let handed = vec![(listener.into(), LISTEN_FD), (secrets, SECRETS_FD)];
    let confinement = launched::confine(&mut cmd, || plan(install, &program, &script, &instance, &roots), handed, "start the FreeCAD bridge yourself (unconfined)").map_err(LaunchError::Containment)?;
    let layers = confinement.layers.clone();
    let child = cmd.spawn().map_err(|e| LaunchError::Spawn { path: program.clone(), detail: e.to_string() })?;
    drop(confinement); // closes capstan's copies of the handed descriptors
    let mut running = RunningFreecad {
        child,
        port,
        runtime_file: instance.runtime_file.clone(),
        published: published.clone(),
        replaced,
        log_file: log_file.clone(),
        ping: Value::Null,
        layers: layers.clone(),
        instance,
        install: install.clone(),
    };

    let (pid, instance_id) = (running.child.id(), running.instance.id.clone());
    let record = |app_version: Option<&str>| {
        json!({
            "http": format!("http://127.0.0.1:{port}"),
            "token": token,
            "pid": pid,
            "protocol": 1,
            "app_version": app_version,
            "containment": layers.to_json(),
            "instance": instance_id,
        })
    };
    write_record(&running.runtime_file, published.as_deref(), &record(None))?;
    let client = HttpBridgeClient::for_runtime_file(home, server, running.runtime_file.clone());
    match launched::wait_until_up(&mut running.child, &client, server, LAUNCH_TIMEOUT, |ping| ping["app"] == server) {
        Came::Up(ping) => {
            write_record(&running.runtime_file, published.as_deref(), &record(ping["app_version"].as_str()))?;
            running.ping = ping;
            Ok(running)
        }
        Came::Exited(status) => Err(LaunchError::Exited { status: status.to_string(), log: log_file.clone(), tail: tail(&log_file) }),
        Came::TimedOut => Err(LaunchError::Timeout(LAUNCH_TIMEOUT, log_file)),
    }
}

/// The file-system plan of one launch: FreeCAD's code folders read-only, the bridge
/// folder read-only, the read roots read-only, `output/` and `tmp/` (which holds the
/// private `HOME`) read-write.
pub fn plan(install: &FreecadInstall, program: &Path, script: &Path, instance: &Instance, read_roots_value: &std::ffi::OsStr) -> containment::grants::Plan {
    containment::grants::Plan {
        program: program.to_path_buf(),
        loader: containment::grants::elf_loader(program),
        installation: installation_dirs(install, program),
        addon: script.parent().map(Path::to_path_buf).unwrap_or_default(),
        read_roots: std::env::split_paths(read_roots_value).filter(|p| p.is_absolute()).filter_map(|p| std::fs::canonicalize(p).ok()).filter(|p| p.is_dir()).collect(),
        output: instance.output.clone(),
        tmp: instance.tmp.clone(),
        desktop: None,
    }
}

/// The user database FreeCAD reads at start: FreeCAD 0.20 takes the user's home from
/// `getpwuid` (not `$HOME`) and dies at start without it (see [`super`]).
pub const USER_DATABASE: &str = "/etc/passwd";

/// FreeCAD's installation: the folder above its `bin/` (Debian: `/usr/lib/freecad`),
/// the folders FreeCAD reported reading code from (its resources and its Python), and
/// the user database it reads at start ([`USER_DATABASE`]).
fn installation_dirs(install: &FreecadInstall, program: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let above_bin = program.parent().filter(|d| d.file_name().is_some_and(|n| n == "bin")).and_then(Path::parent).map(Path::to_path_buf);
    let user_database = Some(PathBuf::from(USER_DATABASE)).filter(|p| p.is_file());
    for dir in above_bin.into_iter().chain(install.read_dirs.iter().cloned()).chain(user_database) {
        if !out.contains(&dir) && dir != Path::new("/") {
            out.push(dir);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_writes_only_output_and_tmp_and_reads_freecads_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let home = CapstanHome::at(tmp.path());
        let instance = Instance::create(&home).unwrap();
        let install = FreecadInstall { path: "/usr/bin/freecadcmd".into(), version: "0.20.2".into(), read_dirs: vec!["/usr/share/freecad".into(), "/usr/lib/python3.11".into()] };
        let program = Path::new("/usr/lib/freecad/bin/freecadcmd-python3");
        let script = tmp.path().join("bridges/freecad/bridge-x/run_bridge.py");
        let plan = plan(&install, program, &script, &instance, std::ffi::OsStr::new(""));
        let mut expected = vec![PathBuf::from("/usr/lib/freecad"), PathBuf::from("/usr/share/freecad"), PathBuf::from("/usr/lib/python3.11")];
        expected.extend(Some(PathBuf::from(USER_DATABASE)).filter(|p| p.is_file()));
        assert_eq!(plan.installation, expected);
        assert!(plan.installation.iter().all(|p| !p.starts_with("/etc") || p == Path::new(USER_DATABASE)), "no other file of /etc: {:?}", plan.installation);
        assert_eq!(plan.addon, tmp.path().join("bridges/freecad/bridge-x"));
        assert!(plan.desktop.is_none());
        let grants = containment::grants::grants(&plan);
        let writable: Vec<_> = grants.iter().filter(|g| g.access == containment::grants::Access::ReadWrite).map(|g| g.path.clone()).collect();
        assert_eq!(writable, vec![instance.output.clone(), instance.tmp.clone()]);
        assert!(private_home(&instance).starts_with(&instance.tmp), "the private HOME is inside the writable tmp folder");
        assert!(grants.iter().all(|g| g.path != instance.dir && g.path != home.root()), "the instance folder (the record with the token) is not granted");
        let exec: Vec<_> = grants.iter().filter(|g| g.access == containment::grants::Access::Execute).map(|g| g.path.clone()).collect();
        assert_eq!(exec[0], program);
        assert!(exec.len() <= 2, "the program and its loader only: {exec:?}");
    }
}
