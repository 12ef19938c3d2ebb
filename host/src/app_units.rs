//! The registration list: the one place that names the app units this host carries.
//! Adding an application is a folder beside `blender/` and a line in each list below;
//! no generic host file changes (`tests/app_neutral.rs` exempts only this file and the
//! folders in [`UNIT_FOLDERS`]).

use crate::app_unit::AppUnit;

#[path = "blender/mod.rs"]
pub mod blender;
#[path = "freecad/mod.rs"]
pub mod freecad;

/// The folders under `host/src` that hold app units.
pub const UNIT_FOLDERS: &[&str] = &["blender", "freecad"];

/// Every registered unit, in the order tools and reports list them; the first is the
/// one `capstan eval` starts when a suite names no app.
pub fn all() -> &'static [&'static dyn AppUnit] {
    static UNITS: &[&dyn AppUnit] = &[&blender::unit::BLENDER, &freecad::unit::FREECAD];
    UNITS
}

/// The unit behind a manifest server name.
pub fn by_server(server: &str) -> Option<&'static dyn AppUnit> {
    all().iter().copied().find(|u| u.server() == server)
}

/// How people write the app's name behind `server` (the server name when no unit
/// knows it: a third-party pack's own application).
pub fn display_name(server: &str) -> String {
    by_server(server).map(|u| u.display_name().to_string()).unwrap_or_else(|| server.to_string())
}

/// The registered apps' names for prose ("A and B").
pub fn display_names() -> String {
    let names: Vec<&str> = all().iter().map(|u| u.display_name()).collect();
    match names.split_last() {
        None => "the connected applications".to_string(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The app `capstan packs new` scaffolds a pack for: the first registered unit with
/// pack templates.
pub fn scaffold_unit() -> Option<&'static dyn AppUnit> {
    all().iter().copied().find(|u| u.pack_templates().is_some())
}

/// The app client crate a scaffolded Rust pack depends on (the scaffolded app's).
pub fn scaffold_client() -> Option<crate::app_unit::RustClient> {
    scaffold_unit().and_then(|u| u.rust_client())
}

/// `capstan --version`: this binary's version and the bridge each unit carries
/// ("capstan 0.1.0 (Blender add-on 0.4.0)"), so an installed wheel says what it holds.
pub fn version_line() -> &'static str {
    static LINE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let bridges: Vec<String> = all().iter().filter_map(|u| u.bridge_version().map(|v| format!("{} bridge {v}", u.display_name()))).collect();
        if bridges.is_empty() { env!("CARGO_PKG_VERSION").to_string() } else { format!("{} ({})", env!("CARGO_PKG_VERSION"), bridges.join(", ")) }
    });
    &LINE
}

/// The command line's one-line description.
pub fn about() -> String {
    format!("Drive {} from MCP clients through sandboxed capability packs", display_names())
}

/// The subcommands the units add to `capstan` (flattened into the top level).
#[derive(clap::Subcommand)]
pub enum AppCommand {
    /// Find, provision, launch Blender; install the add-on.
    Blender {
        #[command(subcommand)]
        command: blender::cli::BlenderCommand,
    },
    /// The whole chain in one command: a headless Blender, `capstan serve`, a guided
    /// session through a real MCP client, a rendered product shot.
    Demo(blender::demo::DemoArgs),
    /// Find and launch a headless FreeCAD with the bridge (FreeCAD itself comes from
    /// the OS package manager).
    Freecad {
        #[command(subcommand)]
        command: freecad::cli::FreecadCommand,
    },
}

impl AppCommand {
    pub fn run(self) -> Result<std::process::ExitCode, crate::cli::CliError> {
        match self {
            AppCommand::Blender { command } => blender::cli::run(command),
            AppCommand::Demo(args) => blender::demo::run(args),
            AppCommand::Freecad { command } => freecad::cli::run(command),
        }
    }
}
