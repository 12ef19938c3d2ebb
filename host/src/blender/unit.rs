//! Blender as an app unit: what the generic host asks about Blender (see
//! [`crate::app_unit`]).
//!
//! - The catalog is the add-on's `commands.json`, compiled in.
//! - capstan's own bridge publishes `$CAPSTAN_HOME/run/blender/server.json` and serves
//!   `/bridge`; a headless Blender started from Python (`bpy`) runs `run_bridge.py`,
//!   which is how "running but no bridge" is told from "not running".
//! - Two other Blender MCP add-ons default to the same port with their own wire
//!   formats: the community `blender-mcp` (raw JSON, answers `{"status": ...}`) and
//!   Blender Lab's (NUL-terminated JSON). The probes carry an unknown command type, so
//!   neither executes anything because of them.
//! - Host-only commands: `reset_scene` (evaluation), `undo_push` (one call, one undo
//!   step) and `execute_python` (the expert surface, after the checker).
//! - [`Blender::start_headless`] finds (or provisions) a Blender and launches it
//!   confined (`launch.rs`, `crate::containment`).

use super::launch::{LaunchOptions, RunningBlender, launch};
use super::line::BlenderLine;
use super::locate::{self, BlenderInstall, LocateError};
use crate::app_unit::{AppUnit, ContactSheets, ExecCommand, ForeignPeer, HeadlessOptions, HostCommands, RunningApp, RustClient, UserCommands};
use crate::bridge::client::Liveness;
use crate::bridge::endpoint::RuntimeFileSpec;
use crate::home::CapstanHome;
use std::path::PathBuf;

/// The Blender add-on's command catalog, embedded at build time.
pub const CATALOG_JSON: &str = include_str!("../../../bridges/blender/capstan_bridge/commands.json");

/// The server name Blender packs declare.
pub const SERVER: &str = "blender";

pub struct Blender;

pub static BLENDER: Blender = Blender;

const COMMUNITY_MCP: ForeignPeer =
    ForeignPeer { id: "community_blender_mcp", description: "the community blender-mcp add-on (raw JSON socket), not the capstan bridge" };
const BLENDER_LAB: ForeignPeer = ForeignPeer { id: "blender_lab", description: "Blender Lab's MCP add-on (NUL-terminated JSON), not the capstan bridge" };

impl AppUnit for Blender {
    fn server(&self) -> &'static str {
        SERVER
    }

    fn display_name(&self) -> &'static str {
        "Blender"
    }

    fn catalog_json(&self) -> &'static str {
        CATALOG_JSON
    }

    fn bridge_version(&self) -> Option<&'static str> {
        Some(super::addon::version())
    }

    fn default_liveness(&self, home: &CapstanHome) -> Liveness {
        Liveness { runtime_file: RuntimeFileSpec::at(home.run_dir().join(SERVER).join("server.json")).under_home(home.root()), endpoint_path: "/bridge".into() }
    }

    fn process_markers(&self) -> &'static [&'static str] {
        &["run_bridge.py"]
    }

    fn foreign_peer(&self, first_bytes: &[u8]) -> Option<ForeignPeer> {
        let text = String::from_utf8_lossy(first_bytes);
        let trimmed = text.trim_start();
        if first_bytes.contains(&0) && trimmed.starts_with('{') {
            return Some(BLENDER_LAB);
        }
        match serde_json::from_str::<serde_json::Value>(trimmed.trim_end()) {
            Ok(serde_json::Value::Object(map)) if map.contains_key("status") => Some(COMMUNITY_MCP),
            _ => None,
        }
    }

    fn peer_probes(&self) -> &'static [&'static [u8]] {
        &[br#"{"type":"capstan_identify_probe","params":{}}"#, b"{\"type\":\"capstan_identify_probe\"}\0"]
    }

    fn pack_templates(&self) -> Option<crate::app_unit::PackTemplates> {
        Some(super::pack_templates::TEMPLATES)
    }

    fn rust_client(&self) -> Option<RustClient> {
        Some(RustClient { crate_name: "capstan-blender", folder: "blender" })
    }

    fn eval_suite(&self) -> Option<&'static str> {
        Some(include_str!("../../eval/suite.json"))
    }

    fn kind_words(&self) -> &'static [(&'static str, &'static str)] {
        &[("camera", "CAMERA"), ("light", "LIGHT"), ("lamp", "LIGHT"), ("sun", "LIGHT"), ("armature", "ARMATURE"), ("curve", "CURVE"), ("path", "CURVE")]
    }

    fn object_types(&self) -> &'static [&'static str] {
        &[
            "MESH", "CURVE", "SURFACE", "META", "FONT", "CURVES", "POINTCLOUD", "VOLUME", "GREASEPENCIL", "ARMATURE", "LATTICE", "EMPTY", "LIGHT",
            "LIGHT_PROBE", "CAMERA", "SPEAKER",
        ]
    }

    fn user_commands(&self) -> UserCommands {
        UserCommands {
            provision: Some("capstan blender provision"),
            launch: Some("capstan blender launch --background"),
            update_bridge: Some("capstan blender install-addon"),
        }
    }

    fn host_commands(&self) -> HostCommands {
        HostCommands {
            reset: Some("reset_scene"),
            undo_step: Some("undo_push"),
            exec: Some(ExecCommand {
                command: "execute_python",
                script_rules: "imports of bpy, bmesh, mathutils and pure helpers only; no files, eval/exec, dunders, handlers or wm operators",
            }),
            progress: Some("render_progress"),
            checkpoint: Some("checkpoint_scene"),
        }
    }

    fn start_headless(&self, home: &CapstanHome, options: &HeadlessOptions) -> Result<Box<dyn RunningApp>, String> {
        // Provision only when there is no Blender at all; a named one that is not
        // Blender (`$CAPSTAN_BLENDER`) is an error, not a reason to download another.
        let install = match locate::find(home, None) {
            Ok(found) => found,
            Err(e @ LocateError::NotBlender { .. }) => return Err(e.to_string()),
            Err(LocateError::NotFound) => {
                eprintln!("capstan: no Blender found; provisioning a headless one");
                let python = super::provision::provision(home, BlenderLine::DEFAULT).map_err(|e| e.to_string())?;
                locate::probe(&python).map_err(|e| e.to_string())?
            }
        };
        eprintln!("capstan: Blender {} ({})", install.version, install.path.display());
        let running = launch(home, &install, &LaunchOptions { background: true, private: options.private, own_process_group: true, cpus: options.cpus.clone(), disposable: true, ..Default::default() }).map_err(|e| e.to_string())?;
        Ok(Box::new(Headless { running, install }))
    }
}

/// A headless Blender capstan started for itself.
struct Headless {
    running: RunningBlender,
    install: BlenderInstall,
}

impl RunningApp for Headless {
    fn runtime_file(&self) -> PathBuf {
        self.running.runtime_file.clone()
    }

    fn describe(&self) -> String {
        format!("Blender {} ({})", self.install.version, self.install.path.display())
    }

    fn contact_sheets(&self) -> Option<Box<dyn ContactSheets>> {
        Some(Box::new(super::contact_sheet::Sheets { install: self.install.clone() }))
    }

    fn pid(&self) -> u32 {
        self.running.pid()
    }

    fn end_now(&mut self) {
        self.running.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::catalog::BridgeCatalog;

    #[test]
    fn the_catalog_compiles_and_names_this_server() {
        let c = BridgeCatalog::parse(BLENDER.catalog_json()).unwrap();
        assert_eq!(c.app, SERVER);
        let host = BLENDER.host_commands();
        for name in [host.reset.unwrap(), host.undo_step.unwrap(), host.exec.unwrap().command] {
            assert!(c.command(name).is_some_and(|spec| spec.host_only), "{name} is a host-only command of the catalog");
        }
    }

    #[test]
    fn blender_commands_have_their_effects_and_shared_definitions() {
        use crate::bridge::catalog::CommandEffect;
        use serde_json::json;
        let c = BridgeCatalog::parse(CATALOG_JSON).unwrap();
        assert_eq!(c.protocol, 1);
        assert_eq!(c.command("get_scene_info").unwrap().effect, CommandEffect::Read);
        assert_eq!(c.command("delete_object").unwrap().effect, CommandEffect::Destroy);
        assert!(c.command("create_object").unwrap().effect.mutates());
        let create = c.command("create_object").unwrap();
        assert!(create.params_errors(&json!({"type": "cube", "location": [0, 0, 1]})).is_empty());
        assert!(create.params_errors(&json!({"type": "teapot", "location": [0, 0], "x": 1})).len() >= 3);
        assert!(!c.command("set_material").unwrap().params_errors(&json!({"object": "C", "base_color": [2, 0, 0, 1]})).is_empty());
    }

    /// The Blender client is published with the SDK, at the SDK's contract version.
    #[test]
    fn the_rust_client_is_the_sdk_folder_crate_of_the_sdk_version() {
        let client = BLENDER.rust_client().unwrap();
        let manifest = include_str!("../../../sdk/blender/Cargo.toml");
        assert!(manifest.lines().any(|l| l == format!("name = \"{}\"", client.crate_name)), "{manifest}");
        let version = crate::scaffold::SDK_VERSION;
        assert!(manifest.contains(&format!("\nversion = \"{version}.0\"\n")), "sdk/{}/Cargo.toml is not version {version}.0", client.folder);
    }

    #[test]
    fn other_blender_add_ons_are_told_apart() {
        assert_eq!(BLENDER.foreign_peer(br#"{"status":"error","message":"Unknown command type"}"#), Some(COMMUNITY_MCP));
        assert_eq!(BLENDER.foreign_peer(b"{\"type\":\"error\",\"message\":\"x\"}\0"), Some(BLENDER_LAB));
        assert_eq!(BLENDER.foreign_peer(b"HTTP/1.0 404 Not Found\r\n\r\n"), None);
        assert_eq!(BLENDER.foreign_peer(b""), None);
        assert_eq!(BLENDER.foreign_peer(b"SSH-2.0-OpenSSH"), None);
    }

    #[test]
    fn the_default_record_is_capstans_own_bridge() {
        let home = CapstanHome::at("/srv/capstan");
        let live = BLENDER.default_liveness(&home);
        assert_eq!(live.runtime_file.path, PathBuf::from("/srv/capstan/run/blender/server.json"));
        assert_eq!(live.endpoint_path, "/bridge");
    }
}
