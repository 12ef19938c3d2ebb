//! FreeCAD as an app unit: what the generic host asks about FreeCAD (see
//! [`crate::app_unit`]).
//!
//! - The catalog is the bridge's `commands.json`, compiled in.
//! - capstan's own bridge publishes `$CAPSTAN_HOME/run/freecad/server.json` and serves
//!   `/bridge` (the liveness a `freecad` pack declares is that one).
//! - Process markers: a bridge started by hand under `freecadcmd` or a plain Python runs
//!   `run_bridge.py`, as Blender's does, so the shared marker tells "running but no
//!   bridge" from "not running".
//! - Host-only commands: `reset_document` is the reset (a fresh empty document). The
//!   host's undo step is *not* mapped: the host sends its undo-step command after every
//!   mutating capability call to *close* one undo step (Blender's `undo_push`), while the
//!   bridge's `undo_last` *undoes* the last command. Mapping it would revert every change
//!   a pack makes. The FreeCAD bridge already makes each mutating command one undo
//!   transaction by itself, so there is nothing for the host to close. No exec command.
//! - [`Freecad::start_headless`] finds FreeCAD (never installs it: it is the OS package
//!   manager's) and launches it confined (`launch.rs`, the reasoning in [`super`]).

use super::launch::{LaunchOptions, RunningFreecad, launch};
use super::locate::{self, FreecadInstall};
use crate::app_unit::{AppUnit, ContactSheets, HeadlessOptions, HostCommands, RunningApp, UserCommands};
use crate::bridge::client::Liveness;
use crate::bridge::endpoint::RuntimeFileSpec;
use crate::home::CapstanHome;
use std::path::PathBuf;

/// The FreeCAD bridge's command catalog, embedded at build time.
pub const CATALOG_JSON: &str = include_str!("../../../bridges/freecad/capstan_freecad/commands.json");

/// The server name FreeCAD packs declare.
pub const SERVER: &str = "freecad";

pub struct Freecad;

pub static FREECAD: Freecad = Freecad;

impl AppUnit for Freecad {
    fn server(&self) -> &'static str {
        SERVER
    }

    fn display_name(&self) -> &'static str {
        "FreeCAD"
    }

    fn catalog_json(&self) -> &'static str {
        CATALOG_JSON
    }

    fn default_liveness(&self, home: &CapstanHome) -> Liveness {
        Liveness { runtime_file: RuntimeFileSpec::at(home.run_dir().join(SERVER).join("server.json")).under_home(home.root()), endpoint_path: "/bridge".into() }
    }

    fn bridge_version(&self) -> Option<&'static str> {
        Some(super::bridge_files::version())
    }

    fn process_markers(&self) -> &'static [&'static str] {
        &["run_bridge.py"]
    }

    fn user_commands(&self) -> UserCommands {
        UserCommands {
            // FreeCAD comes from the OS package manager; capstan never runs sudo.
            provision: Some("sudo apt-get install freecad"),
            launch: Some("capstan freecad launch"),
            update_bridge: None,
        }
    }

    fn host_commands(&self) -> HostCommands {
        HostCommands { reset: Some("reset_document"), ..Default::default() }
    }

    fn start_headless(&self, home: &CapstanHome, options: &HeadlessOptions) -> Result<Box<dyn RunningApp>, String> {
        let install = locate::find(None).map_err(|e| e.to_string())?;
        eprintln!("capstan: FreeCAD {} ({})", install.version, install.path.display());
        let running = launch(home, &install, &LaunchOptions { private: options.private, cpus: options.cpus.clone(), disposable: true, ..Default::default() }).map_err(|e| e.to_string())?;
        Ok(Box::new(Headless { running }))
    }
}

/// A headless FreeCAD capstan started for itself.
pub struct Headless {
    pub running: RunningFreecad,
}

impl RunningApp for Headless {
    fn runtime_file(&self) -> PathBuf {
        self.running.runtime_file.clone()
    }

    fn describe(&self) -> String {
        describe(&self.running.install)
    }

    fn contact_sheets(&self) -> Option<Box<dyn ContactSheets>> {
        None
    }

    fn pid(&self) -> u32 {
        self.running.pid()
    }

    fn end_now(&mut self) {
        self.running.kill();
    }
}

/// "FreeCAD 0.20.2 (/usr/bin/freecadcmd)".
pub fn describe(install: &FreecadInstall) -> String {
    format!("FreeCAD {} ({})", install.version, install.path.display())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::catalog::{BridgeCatalog, CommandEffect};

    #[test]
    fn the_catalog_compiles_and_names_this_server() {
        let c = BridgeCatalog::parse(FREECAD.catalog_json()).unwrap();
        assert_eq!(c.app, SERVER);
        assert_eq!(c.protocol, 1);
        let reset = FREECAD.host_commands().reset.unwrap();
        assert!(c.command(reset).is_some_and(|spec| spec.host_only), "{reset} is a host-only command");
        assert!(c.command("undo_last").is_some_and(|spec| spec.host_only));
        assert_eq!(c.command("list_objects").unwrap().effect, CommandEffect::Read);
        assert!(c.command("create_primitive").unwrap().effect.mutates());
    }

    /// The host's undo step closes a step after each mutating call; `undo_last` would
    /// revert the call instead, so it must never be registered as the undo step.
    #[test]
    fn undo_last_is_not_the_hosts_undo_step() {
        let host = FREECAD.host_commands();
        assert_eq!(host.undo_step, None);
        assert!(host.exec.is_none(), "FreeCAD has no exec command");
    }

    #[test]
    fn the_default_record_is_capstans_own_bridge() {
        let home = CapstanHome::at("/srv/capstan");
        let live = FREECAD.default_liveness(&home);
        assert_eq!(live.runtime_file.path, PathBuf::from("/srv/capstan/run/freecad/server.json"));
        assert_eq!(live.endpoint_path, "/bridge");
    }

    #[test]
    fn it_is_registered_under_its_server_name() {
        let unit = crate::app_units::by_server(SERVER).expect("registered");
        assert_eq!(unit.display_name(), "FreeCAD");
        assert!(crate::app_units::UNIT_FOLDERS.contains(&SERVER));
    }
}
