//! `capstan freecad launch|locate`.
//!
//! `launch` keeps one confined headless FreeCAD running (published at
//! `run/freecad/server.json`, where `serve` and `call` look) until Ctrl-C or SIGTERM;
//! `locate` says which FreeCAD capstan would start, or what to install. Neither ever
//! installs FreeCAD: that is the OS package manager's (`sudo apt-get install freecad`).

use super::launch::{LaunchOptions, launch};
use super::locate;
use crate::app_units::blender::process::stop_on_signals;
use crate::cli::CliError;
use crate::home::CapstanHome;
use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum FreecadCommand {
    /// Start a headless FreeCAD with the bridge, confined, wait until it answers, and
    /// keep it running until Ctrl-C (or SIGTERM), then stop it cleanly.
    Launch {
        /// Headless (always: capstan runs `freecadcmd`; accepted for symmetry with
        /// `capstan blender launch --background`).
        #[arg(long)]
        background: bool,
        /// Listen on this port instead of one the OS picks (or `CAPSTAN_BRIDGE_PORTS`).
        #[arg(long)]
        port: Option<u16>,
        /// A `freecadcmd` (default: `$CAPSTAN_FREECAD`, then `freecadcmd` on PATH).
        #[arg(long)]
        freecad: Option<PathBuf>,
    },
    /// Which FreeCAD capstan would start, and its version; exit 1 with what to do when
    /// there is none (or it is older than 0.20).
    Locate {
        #[arg(long)]
        freecad: Option<PathBuf>,
        /// One JSON object on stdout.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: FreecadCommand) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    match command {
        FreecadCommand::Locate { freecad, json } => match locate::find(freecad.as_deref()) {
            Ok(found) => {
                if json {
                    println!("{}", serde_json::json!({ "found": true, "path": found.path, "version": found.version, "min_version": locate::MIN_VERSION }));
                } else {
                    println!("{}", super::unit::describe(&found));
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                if json {
                    println!("{}", serde_json::json!({ "found": false, "detail": e.to_string(), "min_version": locate::MIN_VERSION, "user_action": locate::INSTALL_HINT }));
                } else {
                    eprintln!("capstan: {e}");
                }
                Ok(ExitCode::from(1))
            }
        },
        FreecadCommand::Launch { background: _, port, freecad } => {
            let found = locate::find(freecad.as_deref()).map_err(|e| CliError::Usage(e.to_string()))?;
            eprintln!("capstan: starting {}", super::unit::describe(&found));
            let stop = stop_on_signals();
            let mut running = launch(&home, &found, &LaunchOptions { port, private: false, bridge_output_dir: None, cpus: None, disposable: false }).map_err(|e| CliError::Usage(e.to_string()))?;
            println!("FreeCAD {} is up: bridge on 127.0.0.1:{} (pid {})", found.version, running.port, running.pid());
            println!("runtime file: {}", running.published.as_ref().unwrap_or(&running.runtime_file).display());
            println!("output folder: {}", running.ping["output_dir"].as_str().unwrap_or("?"));
            println!("log: {}", running.log_file.display());
            for line in crate::containment::layers::banner(&running.layers, &running.ping) {
                println!("{line}");
            }
            println!("Press Ctrl-C to stop.");
            let status = loop {
                if let Some(status) = running.try_status().map_err(|e| CliError::Usage(e.to_string()))? {
                    break Some(status);
                }
                if stop.load(std::sync::atomic::Ordering::SeqCst) {
                    eprintln!("capstan: stopping FreeCAD");
                    break None;
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            };
            drop(running); // stops the process group and removes the records
            match status {
                Some(status) => {
                    eprintln!("capstan: FreeCAD exited ({status})");
                    Ok(if status.success() { ExitCode::SUCCESS } else { ExitCode::from(1) })
                }
                None => Ok(ExitCode::SUCCESS),
            }
        }
    }
}
