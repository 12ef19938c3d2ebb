//! Does this machine meet a server's `requires`? The install gate and `doctor` ask
//! this of the declared locations; at runtime, live evidence (a bridge that answers
//! and reports a new enough version) outranks it (DESIGN.md section 7).

use super::expand::Vars;
use super::{DottedVersion, command_version, pe_version, plist_version, presence};
use crate::availability::{Availability, State};
use crate::home::CapstanHome;
use crate::limits;
use crate::manifest::{Platform, ServerDecl, VersionSource};
use std::path::PathBuf;

/// What the declared locations say about a server's app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppCheck {
    /// The manifest requires nothing of the app.
    NotRequired,
    Satisfied { path: PathBuf, version: Option<DottedVersion> },
    Unsatisfied(Availability),
}

/// Check `decl`'s requirement on `platform` (None: an OS capstan does not know).
pub fn check(server: &str, decl: &ServerDecl, platform: Option<Platform>, home: &CapstanHome, vars: &dyn Vars) -> AppCheck {
    let requires = &decl.requires;
    if !requires.app && requires.min_version.is_none() {
        return AppCheck::NotRequired;
    }
    let required = requires.min_version.as_ref().map(|v| v.to_string());
    let fail = |state, detail: String, found: Option<String>| AppCheck::Unsatisfied(Availability::new(server, state, detail).with_versions(found, required.clone()));
    let Some(app) = &decl.app else {
        return fail(State::MissingApp, "the manifest requires the app but does not say where it is".into(), None);
    };
    let Some(block) = platform.and_then(|p| app.get(&p)) else {
        let os = platform.map(Platform::key).unwrap_or(std::env::consts::OS);
        return fail(State::UnsupportedOs, format!("the pack declares no {os} install of the app"), None);
    };
    let present = presence::find_all(block, home, vars);
    let Some(first) = present.first() else {
        return fail(State::MissingApp, format!("not found at {}", block.locations.join(", ")), None);
    };
    let Some(min) = &requires.min_version else {
        return AppCheck::Satisfied { path: first.clone(), version: None };
    };
    // Any present install that qualifies wins; otherwise report the newest one found.
    let mut newest: Option<(DottedVersion, &PathBuf)> = None;
    let mut unreadable = Vec::new();
    for path in &present {
        match read_version(&block.version, path) {
            Ok(found) if &found >= min => return AppCheck::Satisfied { path: path.clone(), version: Some(found) },
            Ok(found) => {
                if newest.as_ref().is_none_or(|(v, _)| &found > v) {
                    newest = Some((found, path));
                }
            }
            Err(why) => unreadable.push(format!("{}: {why}", path.display())),
        }
    }
    match newest {
        Some((found, path)) => fail(State::VersionTooOld, format!("{} is version {found}; the pack needs {min} or newer", path.display()), Some(found.to_string())),
        None => fail(State::VersionUnreadable, unreadable.join("; "), None),
    }
}

fn read_version(source: &VersionSource, path: &std::path::Path) -> Result<DottedVersion, String> {
    match source {
        VersionSource::Command { args } => command_version::read(path, args, limits::APP_VERSION_COMMAND_TIMEOUT).map_err(|e| e.to_string()),
        VersionSource::Plist => plist_version::read(path).map_err(|e| e.to_string()),
        VersionSource::PeResource => pe_version::read(path).map_err(|e| e.to_string()),
        VersionSource::UninstallRegistry { display_name_prefix } => registry_version(display_name_prefix, path),
        VersionSource::None => Err("the manifest gives no way to read the version".into()),
    }
}

#[cfg(windows)]
fn registry_version(prefix: &str, exe: &std::path::Path) -> Result<DottedVersion, String> {
    let entries = super::registry_read::uninstall_entries();
    super::registry_match::for_install(&entries, prefix, exe)
        .map(|(v, _)| v)
        .ok_or_else(|| format!("no uninstall entry named \"{prefix}...\" with a dotted DisplayVersion"))
}

/// The manifest parser allows `uninstall_registry` only in a win32 block, and only
/// the running OS's block is checked, so this is reached only by a manifest built in
/// code for another OS.
#[cfg(not(windows))]
fn registry_version(_prefix: &str, _exe: &std::path::Path) -> Result<DottedVersion, String> {
    Err("the Windows uninstall registry exists only on Windows".into())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::manifest::{AppBlock, Presence, Requires};
    use std::collections::BTreeMap;
    use std::os::unix::fs::PermissionsExt;

    struct NoVars;
    impl Vars for NoVars {
        fn var(&self, _: &str) -> Option<String> {
            None
        }
    }

    /// A fake app folder: an executable that prints `Sculptor <version>`.
    fn fake_sculptor(dir: &std::path::Path, version: &str) -> String {
        let path = dir.join(format!("sculptor-{version}"));
        std::fs::write(&path, format!("#!/bin/sh\necho 'Sculptor {version}'\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.display().to_string()
    }

    fn decl(locations: Vec<String>, min: Option<&str>) -> ServerDecl {
        let block = AppBlock { presence: Presence::Executable, locations, version: VersionSource::Command { args: vec!["--version".into()] } };
        ServerDecl {
            commands: vec!["get_scene_info".into()],
            app: Some(BTreeMap::from([(Platform::Linux, block)])),
            requires: Requires { app: true, min_version: min.map(|m| DottedVersion::parse(m).unwrap()), interactive_session: false },
            liveness: None,
        }
    }

    fn state(c: AppCheck) -> String {
        match c {
            AppCheck::Unsatisfied(a) => serde_json::to_value(&a).unwrap()["state"].as_str().unwrap().to_string(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn each_way_to_fail_has_its_state() {
        let dir = tempfile::tempdir().unwrap();
        let home = CapstanHome::at(dir.path());
        let old = fake_sculptor(dir.path(), "3.4.1");
        let new = fake_sculptor(dir.path(), "5.0.1");
        let missing = dir.path().join("nope").display().to_string();

        assert_eq!(state(check("sculptor", &decl(vec![missing.clone()], Some("4.2")), Some(Platform::Linux), &home, &NoVars)), "missing_app");
        assert_eq!(state(check("sculptor", &decl(vec![old.clone()], Some("4.2")), Some(Platform::Linux), &home, &NoVars)), "version_too_old");
        assert_eq!(state(check("sculptor", &decl(vec![new.clone()], Some("4.2")), Some(Platform::Darwin), &home, &NoVars)), "unsupported_os");
        match check("sculptor", &decl(vec![missing, old.clone(), new.clone()], Some("4.2")), Some(Platform::Linux), &home, &NoVars) {
            AppCheck::Satisfied { path, version } => {
                assert_eq!(path.display().to_string(), new);
                assert_eq!(version.unwrap().as_str(), "5.0.1");
            }
            other => panic!("{other:?}"),
        }
        let mut none = decl(vec![new], None);
        none.requires.app = false;
        assert_eq!(check("sculptor", &none, Some(Platform::Linux), &home, &NoVars), AppCheck::NotRequired);
    }

    #[test]
    fn a_too_old_app_names_both_versions() {
        let dir = tempfile::tempdir().unwrap();
        let old = fake_sculptor(dir.path(), "4.1.1");
        let AppCheck::Unsatisfied(a) = check("sculptor", &decl(vec![old], Some("4.2")), Some(Platform::Linux), &CapstanHome::at(dir.path()), &NoVars) else {
            panic!()
        };
        assert_eq!((a.app.version.as_deref(), a.app.required.as_deref()), (Some("4.1.1"), Some("4.2")));
        assert!(a.detail.contains("4.2 or newer"), "{}", a.detail);
    }
}
