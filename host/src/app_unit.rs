//! App units: everything the host knows about one application, registered under the
//! manifest server name its packs use (the list is [`crate::app_units`]).
//!
//! The contract between packs and the host is app-generic: a manifest names servers,
//! and the bridge protocol names its server. What is particular to one application
//! lives in its unit: the command catalog compiled into the host, where capstan's own
//! bridge publishes its runtime record, how to tell a foreign add-on on the port,
//! which host-only commands it offers (reset, undo step, Python exec), how a user
//! provisions and starts it, and how capstan starts a confined headless instance of it.
//! The generic host (mcp, runtime, sandbox, gate, store, router, planner, eval,
//! workflows) asks a unit and never names an application; `tests/app_neutral.rs` holds
//! it to that.
//!
//! Why a unit and not configuration: several of these are code (launching a confined
//! process, recognising another add-on's wire format), and the security reasoning of
//! each belongs beside it, in the unit's folder.

use crate::bridge::client::Liveness;
use crate::home::CapstanHome;
use std::path::PathBuf;

/// The commands a user runs for a state of the app gate (shown in `user_action`).
#[derive(Debug, Clone, Copy, Default)]
pub struct UserCommands {
    /// Installs a headless copy of the app (`None`: capstan cannot provision it).
    pub provision: Option<&'static str>,
    /// Starts the app with capstan's bridge, confined.
    pub launch: Option<&'static str>,
    /// Installs or updates capstan's bridge add-on inside the user's app.
    pub update_bridge: Option<&'static str>,
}

/// Bridge commands only the host sends (no pack may declare them; the gate refuses
/// them to packs because the catalog marks them `host_only`).
#[derive(Debug, Clone, Copy, Default)]
pub struct HostCommands {
    /// Puts the app back to its factory state between evaluation tasks.
    pub reset: Option<&'static str>,
    /// Closes one capability call's undo step, named after the capability.
    pub undo_step: Option<&'static str>,
    /// Runs a checked script (the expert surface's exec tool), when the app has one.
    pub exec: Option<ExecCommand>,
    /// Answers the progress of the long call running now (a render), beside it
    /// (`concurrent` in the catalog): what a long call's task reports while it runs.
    pub progress: Option<&'static str>,
    /// Saves the document where a relaunch of the instance opens it: taken before a
    /// long call that a cancel may end by restarting the app (`mcp/tasks.rs`).
    pub checkpoint: Option<&'static str>,
}

/// The app's script command and how the expert surface presents it.
#[derive(Debug, Clone, Copy)]
pub struct ExecCommand {
    pub command: &'static str,
    /// What the script may use, for the tool's description (the checker enforces it).
    pub script_rules: &'static str,
}

/// The app's typed client crate for Rust packs: published beside `capstan-sdk` with
/// the same version, and in a checkout at `<sdk>/<folder>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RustClient {
    pub crate_name: &'static str,
    pub folder: &'static str,
}

/// The files `capstan packs new` writes for a pack of this app, per language (path in
/// the pack folder, template); the scaffold adds the language's generic files (build
/// manifest, toolchain, ignore list).
#[derive(Debug, Clone, Copy)]
pub struct PackTemplates {
    pub rust: &'static [(&'static str, &'static str)],
    pub python: &'static [(&'static str, &'static str)],
    pub js: &'static [(&'static str, &'static str)],
}

/// Another program that may answer on a bridge port, recognised by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForeignPeer {
    /// A stable snake_case name, as errors report it.
    pub id: &'static str,
    pub description: &'static str,
}

/// How [`AppUnit::start_headless`] starts an instance.
#[derive(Debug, Clone, Default)]
pub struct HeadlessOptions {
    /// Keep it out of the session's published record (eval and batch workers leave a
    /// live session alone).
    pub private: bool,
    /// The CPUs it runs on (`None`: every CPU capstan may use); see
    /// [`crate::launched::tie_to_capstan`].
    pub cpus: Option<Vec<usize>>,
}

/// A confined instance capstan started (evaluation, demo); stopping it is dropping it.
pub trait RunningApp: Send {
    /// This instance's runtime record: a client pinned to it reaches this instance
    /// and never a live session's.
    fn runtime_file(&self) -> PathBuf;
    /// "Blender 5.2.4 (/path)": which installation this is, for logs and reports.
    fn describe(&self) -> String;
    /// The app's process (a child of the thread that started it).
    fn pid(&self) -> u32;
    /// What makes contact sheets with this installation after the instance is gone
    /// (`None` when the app cannot).
    fn contact_sheets(&self) -> Option<Box<dyn ContactSheets>>;
    /// End the instance at once, without the grace a stop gives: for an instance whose
    /// state is disposable (a batch worker's, once its results are on disk, or one that
    /// hung). Dropping it afterwards only cleans up its records and scratch folder.
    fn end_now(&mut self);
}

/// Makes one picture of many pictures with the app, in a confined private scratch folder.
pub trait ContactSheets: Send {
    /// `tiles` are PNGs by file name; returns the sheet and, when one was written, the
    /// index of its cells (one task per line).
    fn make(&self, tiles: &[(String, Vec<u8>)]) -> Result<(Vec<u8>, Option<Vec<u8>>), String>;
}

/// One application, as the host knows it.
pub trait AppUnit: Sync {
    /// The manifest server name (`servers.<name>`).
    fn server(&self) -> &'static str;
    /// How people write the app's name.
    fn display_name(&self) -> &'static str;
    /// The bridge command catalog compiled into the host (`commands.json`).
    fn catalog_json(&self) -> &'static str;
    /// The version of the bridge this binary carries for the app (embedded at build
    /// time), for `capstan --version`; `None` when capstan ships no bridge for it.
    fn bridge_version(&self) -> Option<&'static str> {
        None
    }
    /// Where capstan's own bridge for this app publishes its runtime record, and its
    /// endpoint path: used until a pack declares a `liveness`.
    fn default_liveness(&self, home: &CapstanHome) -> Liveness;
    /// Command-line markers of a process that is this app's bridge without the app's
    /// executable name (a headless runner script), for "running but no bridge".
    fn process_markers(&self) -> &'static [&'static str] {
        &[]
    }
    /// Recognise another add-on for this app from the first bytes it sent.
    fn foreign_peer(&self, _first_bytes: &[u8]) -> Option<ForeignPeer> {
        None
    }
    /// Probes that make this app's other add-ons answer in their own wire format
    /// (each carries an unknown command type, so none of them executes anything).
    fn peer_probes(&self) -> &'static [&'static [u8]] {
        &[]
    }
    /// The pack `capstan packs new` scaffolds for this app.
    fn pack_templates(&self) -> Option<PackTemplates> {
        None
    }
    /// The crate Rust packs for this app call its bridge through (`capstan packs new`).
    fn rust_client(&self) -> Option<RustClient> {
        None
    }
    /// The evaluation suite `capstan eval` runs for this app when given none.
    fn eval_suite(&self) -> Option<&'static str> {
        None
    }
    /// Words that name a kind of object by themselves ("camera" -> `CAMERA`), for the
    /// planner's reading of a goal.
    fn kind_words(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// The app's object types, as an expectation's `$added:TYPE` names them.
    fn object_types(&self) -> &'static [&'static str] {
        &[]
    }
    fn user_commands(&self) -> UserCommands {
        UserCommands::default()
    }
    fn host_commands(&self) -> HostCommands {
        HostCommands::default()
    }
    /// Start a confined headless instance for capstan's own use, provisioning the app
    /// if there is none.
    fn start_headless(&self, _home: &CapstanHome, _options: &HeadlessOptions) -> Result<Box<dyn RunningApp>, String> {
        Err(format!("capstan cannot start {} by itself", self.display_name()))
    }
}
