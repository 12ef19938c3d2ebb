//! `capstan blender launch`: start Blender with the bridge, confined by the kernel
//! ([`crate::containment`]), and wait until it answers.
//!
//! Each launch is one instance with its own folder, port, output and temporary folder
//! (`CAPSTAN_HOME/instances/<id>/`). capstan binds the bridge's loopback socket, makes
//! the token and the exec key, hands both to Blender through inherited descriptors, and
//! writes the runtime record itself (the confined app cannot write under
//! `CAPSTAN_HOME`); a launch that is not `private` also publishes it at
//! `run/blender/server.json`, where `serve` and `call` look. The launch is done when
//! `/ping` with that token answers from *this* child's pid. Blender's own stdout and
//! stderr go to a log file under `CAPSTAN_HOME/logs`, never to capstan's stdout (which
//! may be an MCP channel).

use crate::launched::{self, Came, new_secret, secrets_pipe, tail, write_record};
use super::locate::{BlenderInstall, BlenderKind};
use super::{addon, process};
use crate::bridge::HttpBridgeClient;
use crate::containment::{self, Layers, instance::{self, Instance}};
use crate::home::{CapstanHome, HOME_ENV};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(120);
/// The environment variable the add-on takes execute_python's attestation key from.
pub const EXEC_KEY_ENV: &str = "CAPSTAN_BRIDGE_EXEC_KEY";

#[derive(Debug, Clone, Default)]
pub struct LaunchOptions {
    /// Run without a window (the default for capstan's own use).
    pub background: bool,
    /// A fixed port; default one the OS picks, or the first free one of
    /// `CAPSTAN_BRIDGE_PORTS`.
    pub port: Option<u16>,
    /// Do not publish the instance where clients look by default
    /// (`run/blender/server.json`): eval and batch workers leave a live session alone.
    pub private: bool,
    /// The launching process supervises the instance: it starts Blender again in the
    /// same instance when a restart is asked for ([`RunningBlender::restart_if_requested`],
    /// `containment/restart.rs`), so a long call can be cancelled. Said in the record.
    pub supervised: bool,
    /// In its own process group: a Ctrl-C at the terminal reaches capstan only, which
    /// decides what stops (a batch lets the items running finish). The parent-death
    /// signal still ends Blender with capstan.
    pub own_process_group: bool,
    /// The CPUs Blender runs on (`None`: all); a batch worker's share.
    pub cpus: Option<Vec<usize>>,
    /// Its state is disposable (eval, batch workers): when capstan dies, the kernel
    /// kills it at once rather than asking it to stop ([`crate::launched::OnParentDeath`]).
    pub disposable: bool,
}

/// The file a relaunch opens, inside the instance's private `tmp/` (written by the
/// bridge's `checkpoint_scene` before a long call a cancel may end).
pub const CHECKPOINT_ENV: &str = "CAPSTAN_BRIDGE_CHECKPOINT";

/// What starting Blender again in the same instance needs: the listening socket (a copy
/// kept by capstan for a supervised instance only, so the address stays the same and
/// calls queue while it restarts; an unsupervised instance's port closes with Blender),
/// the secrets, the program and its environment.
struct Respawn {
    install: BlenderInstall,
    script: PathBuf,
    options: LaunchOptions,
    env: Vec<(String, String)>,
    listener: Option<std::os::fd::OwnedFd>,
    token: String,
    exec_key: String,
    home: CapstanHome,
}

#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error("cannot prepare the add-on: {0}")]
    Addon(std::io::Error),
    #[error("cannot start {path}: {detail}")]
    Spawn { path: PathBuf, detail: String },
    #[error("Blender exited ({status}) before its bridge came up; its log ({log}) ends with:\n{tail}")]
    Exited { status: String, log: PathBuf, tail: String },
    #[error("the bridge did not come up within {0:?}")]
    Timeout(Duration),
    #[error("{0}")]
    Port(String),
    #[error("cannot confine Blender: {0}")]
    Containment(String),
}

/// A Blender capstan started; stopped (cleanly) when dropped.
pub struct RunningBlender {
    child: Child,
    pub port: u16,
    /// capstan's record of this instance (clients of this instance read it).
    pub runtime_file: PathBuf,
    /// Where the record was also published for the live session (None: private).
    pub published: Option<PathBuf>,
    /// The published record this launch replaced.
    replaced: Option<Vec<u8>>,
    pub log_file: PathBuf,
    pub ping: Value,
    /// The OS layers this Blender runs under.
    pub layers: Layers,
    pub instance: Instance,
    respawn: Respawn,
}

impl RunningBlender {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The supervisor's step, once Blender has exited: when a restart was asked for (a
    /// cancelled long call, `containment/restart.rs`), start Blender again in this
    /// instance (same socket, secrets and wall; the checkpoint opened before the bridge
    /// serves), rewrite the record with the new pid and clear the request. Ok(false):
    /// no restart was asked for, or Blender still runs.
    pub fn restart_if_requested(&mut self) -> Result<bool, LaunchError> {
        let dir = self.instance.dir.clone();
        if !self.options_supervised() || !containment::restart::pending(&dir) || !self.exited() {
            return Ok(false);
        }
        let outcome = self.respawn_and_wait();
        containment::restart::clear(&dir);
        outcome.map(|()| true)
    }

    fn options_supervised(&self) -> bool {
        self.respawn.options.supervised
    }

    fn respawn_and_wait(&mut self) -> Result<(), LaunchError> {
        let listener = self.respawn.listener.as_ref().ok_or_else(|| LaunchError::Port("no socket kept for a restart".into()))?.try_clone().map_err(LaunchError::Addon)?;
        let (child, layers) = spawn(&self.respawn, &self.instance, &self.log_file, listener)?;
        self.child = child;
        self.layers = layers;
        self.come_up()
    }

    /// Write the record for the current child, wait for its bridge, write it again with
    /// the version the bridge reports.
    fn come_up(&mut self) -> Result<(), LaunchError> {
        let record = |app_version: Option<&str>, pid: u32| {
            json!({
                "http": format!("http://127.0.0.1:{}", self.port),
                "token": self.respawn.token,
                "pid": pid,
                "protocol": 1,
                "app_version": app_version,
                "exec_key": self.respawn.exec_key,
                "containment": self.layers.to_json(),
                "instance": self.instance.id,
                // The process that restarts the app on request (this one), when it does.
                "supervisor": self.respawn.options.supervised.then(std::process::id),
            })
        };
        let pid = self.child.id();
        write_record(&self.runtime_file, self.published.as_deref(), &record(None, pid)).map_err(LaunchError::Addon)?;
        let client = HttpBridgeClient::for_runtime_file(&self.respawn.home, super::unit::SERVER, self.runtime_file.clone());
        match launched::wait_until_up(&mut self.child, &client, "blender", LAUNCH_TIMEOUT, |_| true) {
            Came::Up(ping) => {
                write_record(&self.runtime_file, self.published.as_deref(), &record(ping["app_version"].as_str(), pid)).map_err(LaunchError::Addon)?;
                self.ping = ping;
                Ok(())
            }
            Came::Exited(status) => Err(LaunchError::Exited { status: status.to_string(), log: self.log_file.clone(), tail: tail(&self.log_file) }),
            Came::TimedOut => Err(LaunchError::Timeout(LAUNCH_TIMEOUT)),
        }
    }

    /// Wait for Blender to exit on its own.
    pub fn wait(mut self) -> std::io::Result<std::process::ExitStatus> {
        self.child.wait()
    }

    /// The exit status, once the process has exited.
    pub fn try_status(&mut self) -> std::io::Result<Option<std::process::ExitStatus>> {
        self.child.try_wait()
    }

    /// Has the process exited?
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// SIGTERM, a grace period for the bridge to remove its runtime file, then kill.
    pub fn stop(&mut self) {
        process::stop(&mut self.child, Duration::from_secs(10));
    }

    /// Kill without grace: a disposable instance's end (a batch worker's), and tests'
    /// simulated crash.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for RunningBlender {
    fn drop(&mut self) {
        if !self.exited() {
            self.stop();
        }
        self.forget_records();
        self.instance.clean_up();
    }
}

impl RunningBlender {
    /// Remove the runtime records this launch wrote (a published one only while it still
    /// names this instance: a later session may have replaced it).
    fn forget_records(&self) {
        launched::forget_records(&self.runtime_file, self.published.as_deref(), self.replaced.as_deref(), &self.instance.id);
    }
}


pub fn launch(home: &CapstanHome, install: &BlenderInstall, options: &LaunchOptions) -> Result<RunningBlender, LaunchError> {
    launch_with_env(home, install, options, &[])
}

/// The descriptor numbers the app finds its handed-over listening socket and secrets on.
const LISTEN_FD: i32 = 3;
const SECRETS_FD: i32 = 4;

/// [`launch`] with extra environment for Blender (the add-on's switches, in tests).
pub fn launch_with_env(
    home: &CapstanHome,
    install: &BlenderInstall,
    options: &LaunchOptions,
    env: &[(&str, &str)],
) -> Result<RunningBlender, LaunchError> {
    let script = addon::materialize(&home.root().join("addon")).map_err(LaunchError::Addon)?;
    // The port first: a taken port leaves no instance folder behind.
    let listener = instance::listen(options.port).map_err(|e| LaunchError::Port(e.to_string()))?;
    let instance = Instance::create(home).map_err(LaunchError::Addon)?;
    let logs = home.root().join("logs");
    std::fs::create_dir_all(&logs).map_err(LaunchError::Addon)?;
    let log_file = logs.join(format!("blender-{}.log", instance.id));
    let published = (!options.private).then(|| home.run_dir().join("blender").join("server.json"));
    // The session this launch replaces as the published one, restored when this one
    // stops while that one still runs.
    let replaced = published.as_deref().and_then(|p| std::fs::read(p).ok());

    // capstan binds the bridge's socket and makes its secrets; the app gets both through
    // inherited descriptors (never its environment or command line).
    let port = listener.local_addr().map_err(LaunchError::Addon)?.port();
    let listener: std::os::fd::OwnedFd = listener.into();
    let respawn = Respawn {
        install: install.clone(),
        script,
        options: options.clone(),
        env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        listener: if options.supervised { Some(listener.try_clone().map_err(LaunchError::Addon)?) } else { None },
        token: new_secret().map_err(LaunchError::Addon)?,
        exec_key: new_secret().map_err(LaunchError::Addon)?,
        home: home.clone(),
    };
    let (child, layers) = spawn(&respawn, &instance, &log_file, listener)?;
    let mut running = RunningBlender { child, port, runtime_file: instance.runtime_file.clone(), published, replaced, log_file, ping: Value::Null, layers, instance, respawn };
    running.come_up()?;
    Ok(running)
}

/// Start Blender with the bridge in `instance`, confined, listening on `listener`; its
/// output appended to `log_file`.
fn spawn(respawn: &Respawn, instance: &Instance, log_file: &Path, listener: std::os::fd::OwnedFd) -> Result<(Child, Layers), LaunchError> {
    let (install, options) = (&respawn.install, &respawn.options);
    let log = std::fs::OpenOptions::new().create(true).append(true).open(log_file).map_err(LaunchError::Addon)?;
    let secrets = secrets_pipe(&json!({ "token": respawn.token, "exec_key": respawn.exec_key })).map_err(LaunchError::Addon)?;
    let mut cmd = Command::new(&install.path);
    #[cfg(unix)]
    if options.own_process_group {
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    }
    match install.kind {
        BlenderKind::Executable => {
            if options.background {
                cmd.arg("-b");
            }
            cmd.args(["--factory-startup", "--python-exit-code", "1", "--python"]).arg(&respawn.script).arg("--");
        }
        BlenderKind::PythonModule => {
            // -P: the script's folder is not put first on sys.path (run_bridge.py adds
            // the add-on's folder last).
            cmd.arg("-P").arg(&respawn.script);
        }
    }
    cmd.args(["--listen-fd", &LISTEN_FD.to_string(), "--secrets-fd", &SECRETS_FD.to_string(), "--no-runtime-file", "--output-dir"]).arg(&instance.output);
    cmd.envs(respawn.env.iter().map(|(k, v)| (k, v)));
    cmd.env_remove(EXEC_KEY_ENV)
        .env(HOME_ENV, respawn.home.root())
        .env("TMPDIR", &instance.tmp)
        .env("HOME", &instance.tmp)
        .env("XDG_CONFIG_HOME", instance.tmp.join("config"))
        .env("XDG_CACHE_HOME", instance.tmp.join("cache"))
        .env(CHECKPOINT_ENV, instance.tmp.join("checkpoint.blend"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(&instance.tmp)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(LaunchError::Addon)?)
        .stderr(log);
    launched::tie_to_capstan(&mut cmd, options.disposable, options.cpus.as_deref());
    // The read roots the add-on will use: the environment given for Blender, else capstan's.
    let roots = respawn.env.iter().find(|(k, _)| k == READ_ROOTS_ENV).map(|(_, v)| std::ffi::OsString::from(v)).or_else(|| std::env::var_os(READ_ROOTS_ENV)).unwrap_or_default();
    let handed = vec![(listener, LISTEN_FD), (secrets, SECRETS_FD)];
    let confinement = launched::confine(&mut cmd, || plan(install, &respawn.script, instance, options, &roots), handed, "start Blender with the add-on yourself (unconfined)").map_err(LaunchError::Containment)?;
    let layers = confinement.layers.clone();
    let child = cmd.spawn().map_err(|e| LaunchError::Spawn { path: install.path.clone(), detail: e.to_string() })?;
    drop(confinement); // closes capstan's copies of the handed descriptors (not the kept listener)
    Ok((child, layers))
}

/// Confine a Blender capstan runs for a one-off job with no bridge (eval's contact
/// sheet): the same wall as a launch, with `work` its only folder (read-write, its
/// `TMPDIR` and `HOME`). Keep the returned value until the process has been spawned.
#[cfg(target_os = "linux")]
pub fn confine_job(cmd: &mut Command, install: &BlenderInstall, work: &Path) -> Result<containment::Confinement, LaunchError> {
    let program = std::fs::canonicalize(&install.path).unwrap_or_else(|_| install.path.clone());
    let plan = containment::grants::Plan {
        installation: installation_dirs(install, &program),
        loader: containment::grants::elf_loader(&program),
        program,
        addon: work.to_path_buf(),
        read_roots: Vec::new(),
        output: work.to_path_buf(),
        tmp: work.to_path_buf(),
        desktop: None,
    };
    let confinement = containment::prepare(&plan, Vec::new()).map_err(|e| LaunchError::Containment(e.to_string()))?;
    confinement.apply(cmd);
    cmd.env("TMPDIR", work).env("HOME", work).env("PYTHONDONTWRITEBYTECODE", "1").env_remove(EXEC_KEY_ENV);
    Ok(confinement)
}

/// The file-system plan of one launch.
pub fn plan(install: &BlenderInstall, script: &Path, instance: &Instance, options: &LaunchOptions, read_roots_value: &std::ffi::OsStr) -> containment::grants::Plan {
    let program = std::fs::canonicalize(&install.path).unwrap_or_else(|_| install.path.clone());
    let loader = containment::grants::elf_loader(&program);
    containment::grants::Plan {
        installation: installation_dirs(install, &program),
        loader,
        program,
        addon: script.parent().map(Path::to_path_buf).unwrap_or_default(),
        read_roots: read_roots(read_roots_value),
        output: instance.output.clone(),
        tmp: instance.tmp.clone(),
        desktop: (!options.background).then(desktop),
    }
}

/// The folders of the app's installation: Blender's own folder, or the venv, its base
/// Python and wherever `bpy` lives.
fn installation_dirs(install: &BlenderInstall, program: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    match install.kind {
        BlenderKind::Executable => dirs.extend(program.parent().map(Path::to_path_buf)),
        BlenderKind::PythonModule => {
            let mut cmd = Command::new(&install.path);
            cmd.args(["-c", "import sys, importlib.util as u; s = u.find_spec('bpy'); print(sys.prefix); print(sys.base_prefix); print(s.submodule_search_locations[0] if s and s.submodule_search_locations else '')"]);
            if let Ok((true, out)) = process::output_within(cmd, Duration::from_secs(30)) {
                dirs.extend(out.lines().filter(|l| !l.trim().is_empty()).map(|l| PathBuf::from(l.trim())));
            }
            if let Some(venv) = install.path.parent().and_then(Path::parent) {
                dirs.push(venv.to_path_buf());
            }
            dirs.extend(program.parent().and_then(Path::parent).map(Path::to_path_buf));
        }
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for d in dirs.into_iter().filter_map(|d| std::fs::canonicalize(d).ok()) {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// The folders inputs come from, as the add-on reads `CAPSTAN_READ_ROOTS`.
const READ_ROOTS_ENV: &str = "CAPSTAN_READ_ROOTS";

/// `CAPSTAN_READ_ROOTS`'s value as the add-on reads it (absolute folders that exist).
fn read_roots(value: &std::ffi::OsStr) -> Vec<PathBuf> {
    std::env::split_paths(value).filter(|p| p.is_absolute()).filter_map(|p| std::fs::canonicalize(p).ok()).filter(|p| p.is_dir()).collect()
}

/// What a GUI Blender needs from the desktop session.
fn desktop() -> containment::grants::Desktop {
    let mut sockets = vec![PathBuf::from("/tmp/.X11-unix")];
    sockets.extend(std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from));
    let user_config = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config").join("blender"));
    containment::grants::Desktop {
        display_sockets: sockets.into_iter().filter(|p| p.is_dir()).collect(),
        user_config: user_config.filter(|p| p.is_dir()),
    }
}
