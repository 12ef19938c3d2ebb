//! `capstan blender launch`: start Blender with the bridge and wait until it answers.
//!
//! Blender's own stdout and stderr go to a log file under `CAPSTAN_HOME/logs`, never
//! to capstan's stdout (which may be an MCP channel). The launch is done when the
//! runtime file names *this* child's pid and `/ping` answers as a capstan bridge.
//! The child gets `CAPSTAN_HOME`, so both sides agree on the runtime file's path.

use super::locate::{BlenderInstall, BlenderKind};
use super::{addon, process};
use crate::bridge::HttpBridgeClient;
use crate::bridge::endpoint;
use crate::home::{CapstanHome, HOME_ENV};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(120);
/// The environment variable the add-on takes execute_python's attestation key from.
pub const EXEC_KEY_ENV: &str = "CAPSTAN_BRIDGE_EXEC_KEY";

/// 32 random bytes as hex, registered with the redactor before it goes anywhere.
fn new_exec_key() -> std::io::Result<String> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| std::io::Error::other(e.to_string()))?;
    let key = hex::encode(key);
    crate::redact::register(&key);
    Ok(key)
}

#[derive(Debug, Clone, Default)]
pub struct LaunchOptions {
    /// Run without a window (the default for capstan's own use).
    pub background: bool,
    /// A fixed port; default the first free one of 9876..9885.
    pub port: Option<u16>,
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
}

/// A Blender capstan started; stopped (cleanly) when dropped.
pub struct RunningBlender {
    child: Child,
    pub port: u16,
    pub runtime_file: PathBuf,
    pub log_file: PathBuf,
    pub ping: Value,
}

impl RunningBlender {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Wait for Blender to exit on its own.
    pub fn wait(mut self) -> std::io::Result<std::process::ExitStatus> {
        self.child.wait()
    }

    /// Has the process exited?
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// SIGTERM, a grace period for the bridge to remove its runtime file, then kill.
    pub fn stop(&mut self) {
        process::stop(&mut self.child, Duration::from_secs(10));
    }

    /// Kill without grace (tests use this to simulate a crash).
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
    }
}

fn tail(path: &PathBuf) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().rev().take(15).collect();
    crate::redact::redact(&lines.into_iter().rev().collect::<Vec<_>>().join("\n")).into_owned()
}

pub fn launch(home: &CapstanHome, install: &BlenderInstall, options: &LaunchOptions) -> Result<RunningBlender, LaunchError> {
    launch_with_env(home, install, options, &[])
}

/// [`launch`] with extra environment for Blender (the add-on's switches, in tests).
pub fn launch_with_env(
    home: &CapstanHome,
    install: &BlenderInstall,
    options: &LaunchOptions,
    env: &[(&str, &str)],
) -> Result<RunningBlender, LaunchError> {
    let addon_dir = home.root().join("addon").join(addon::version());
    let script = addon::materialize(&addon_dir).map_err(LaunchError::Addon)?;
    let logs = home.root().join("logs");
    std::fs::create_dir_all(&logs).map_err(LaunchError::Addon)?;
    let log_file = logs.join(format!("blender-{}.log", std::process::id()));
    let log = std::fs::File::create(&log_file).map_err(LaunchError::Addon)?;
    let runtime_file = home.run_dir().join("blender").join("server.json");

    let mut cmd = Command::new(&install.path);
    match install.kind {
        BlenderKind::Executable => {
            if options.background {
                cmd.arg("-b");
            }
            cmd.args(["--factory-startup", "--python-exit-code", "1", "--python"]).arg(&script).arg("--");
        }
        BlenderKind::PythonModule => {
            cmd.arg(&script);
        }
    }
    if let Some(port) = options.port {
        cmd.arg("--port").arg(port.to_string());
    }
    cmd.arg("--runtime-file").arg(&runtime_file);
    cmd.envs(env.iter().copied());
    // execute_python's attestation key, handed over in the environment (the add-on takes
    // it out at once and publishes it in its runtime file, which is checked below).
    let exec_key = new_exec_key().map_err(LaunchError::Addon)?;
    cmd.env(EXEC_KEY_ENV, &exec_key).env(HOME_ENV, home.root())
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(LaunchError::Addon)?)
        .stderr(log);
    process::die_with_parent(&mut cmd);
    let child = cmd.spawn().map_err(|e| LaunchError::Spawn { path: install.path.clone(), detail: e.to_string() })?;
    let mut running = RunningBlender { child, port: 0, runtime_file: runtime_file.clone(), log_file: log_file.clone(), ping: Value::Null };

    let client = HttpBridgeClient::for_home(home);
    let spec = endpoint::RuntimeFileSpec::at(runtime_file).under_home(home.root());
    let deadline = Instant::now() + LAUNCH_TIMEOUT;
    loop {
        if let Ok(Some(status)) = running.child.try_wait() {
            return Err(LaunchError::Exited { status: status.to_string(), log: log_file.clone(), tail: tail(&log_file) });
        }
        if let Ok(ep) = endpoint::read(&spec)
            && ep.pid == running.child.id()
            && ep.exec_key.as_ref().is_some_and(|k| k.expose() == exec_key)
                && let Ok(ping) = client.ping("blender") {
                    running.port = ep.addr.port();
                    running.ping = ping;
                    return Ok(running);
                }
        if Instant::now() >= deadline {
            return Err(LaunchError::Timeout(LAUNCH_TIMEOUT));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
