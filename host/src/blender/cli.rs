//! `capstan blender launch|provision|install-addon`.

use super::launch::{LaunchOptions, launch};
use super::line::BlenderLine;
use super::{install, locate, provision};
use crate::cli::CliError;
use crate::home::CapstanHome;
use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BlenderCommand {
    /// Start Blender with the bridge, wait until it answers, and keep it running until
    /// Ctrl-C (or SIGTERM), then stop it cleanly.
    Launch {
        /// No window (the usual choice on servers and for agents).
        #[arg(long)]
        background: bool,
        /// Listen on this port instead of the first free one of 9876..9885.
        #[arg(long)]
        port: Option<u16>,
        /// A Blender executable, or a Python that can `import bpy`.
        #[arg(long)]
        blender: Option<PathBuf>,
    },
    /// Install a headless Blender for capstan (PyPI bpy in a venv under CAPSTAN_HOME) and
    /// print its Python. 5.2 LTS by default.
    Provision {
        /// The LTS line: 4.5 (bpy 4.5.15, Python 3.11) or 5.2 (bpy 5.2.4, Python 3.13).
        #[arg(long = "version", value_name = "LINE", default_value_t = BlenderLine::DEFAULT)]
        line: BlenderLine,
    },
    /// Install or update the add-on in a Blender 4.5 LTS or newer and enable it.
    InstallAddon {
        #[arg(long)]
        blender: Option<PathBuf>,
        /// Copy the files but leave enabling to the user.
        #[arg(long)]
        no_enable: bool,
    },
}

pub fn run(command: BlenderCommand) -> Result<ExitCode, CliError> {
    let home = CapstanHome::from_env()?;
    match command {
        BlenderCommand::Launch { background, port, blender } => {
            let found = locate::find(&home, blender.as_deref()).map_err(|e| CliError::Usage(e.to_string()))?;
            let kind = match found.kind {
                locate::BlenderKind::Executable => "executable",
                locate::BlenderKind::PythonModule => "bpy module",
            };
            eprintln!("capstan: starting Blender {} ({kind}, {})", found.version, found.path.display());
            // This process stays to supervise: a cancelled long call restarts Blender here.
            let options = LaunchOptions { background: background || found.kind == locate::BlenderKind::PythonModule, port, private: false, supervised: true, own_process_group: false, cpus: None, disposable: false };
            let stop = super::process::stop_on_signals();
            let mut running = launch(&home, &found, &options).map_err(|e| CliError::Usage(e.to_string()))?;
            println!("Blender {} is up: bridge on 127.0.0.1:{} (pid {})", found.version, running.port, running.pid());
            println!("runtime file: {}", running.runtime_file.display());
            println!("output folder: {}", running.ping["output_dir"].as_str().unwrap_or("?"));
            println!("log: {}", running.log_file.display());
            for line in crate::containment::layers::banner(&running.layers, &running.ping) {
                println!("{line}");
            }
            println!("Press Ctrl-C to stop.");
            // Until Blender exits or capstan is asked to stop; either way the records are
            // removed (RunningBlender's drop) before capstan exits.
            let status = loop {
                if let Some(status) = running.try_status().map_err(|e| CliError::Usage(e.to_string()))? {
                    match running.restart_if_requested() {
                        Ok(true) => {
                            eprintln!("capstan: a long call was cancelled; Blender is up again (pid {}) with the scene from before it", running.pid());
                            continue;
                        }
                        Ok(false) => break Some(status),
                        Err(e) => {
                            eprintln!("capstan: Blender could not be started again after a cancel: {e}");
                            break Some(status);
                        }
                    }
                }
                if stop.load(std::sync::atomic::Ordering::SeqCst) {
                    eprintln!("capstan: stopping Blender");
                    running.stop();
                    break None;
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            };
            drop(running);
            match status {
                Some(status) => {
                    eprintln!("capstan: Blender exited ({status})");
                    Ok(if status.success() { ExitCode::SUCCESS } else { ExitCode::from(1) })
                }
                None => Ok(ExitCode::SUCCESS),
            }
        }
        BlenderCommand::Provision { line } => {
            let python = provision::provision(&home, line).map_err(|e| CliError::Usage(e.to_string()))?;
            println!("{}", python.display());
            eprintln!("capstan: Blender {} ({line}) is ready; `capstan blender launch --background` starts it", line.bpy_version());
            Ok(ExitCode::SUCCESS)
        }
        BlenderCommand::InstallAddon { blender, no_enable } => {
            let found = locate::find(&home, blender.as_deref()).map_err(|e| CliError::Usage(e.to_string()))?;
            let dir = install::install(&found, !no_enable).map_err(|e| CliError::Usage(e.to_string()))?;
            println!("{}", dir.display());
            if no_enable {
                eprintln!("capstan: installed; enable \"capstan bridge\" in Preferences > Add-ons");
            } else {
                eprintln!("capstan: installed and enabled in Blender {}; it starts with Blender", found.version);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
