//! Which declared servers are usable right now, cached briefly.
//!
//! Live evidence decides first: a server is available when its runtime file names a
//! live process, `/ping` answers as a capstan bridge, and the version it reports meets
//! the manifest's `min_version`. Only when the bridge cannot be reached do the
//! declared install locations speak (`missing_app`, `version_too_old`), and a process
//! scan tells `app_not_running` from `endpoint_unavailable`. The live answer is cached
//! for a second (a burst of searches pings once; a Blender that just came up is seen
//! at once); the install check, which may run `blender --version`, for longer.

use crate::apps::DottedVersion;
use crate::apps::requirement::{self, AppCheck};
use crate::availability::{Availability, State};
use crate::bridge::{BridgeFailure, HttpBridgeClient};
use crate::home::CapstanHome;
use crate::manifest::{Platform, ServerDecl};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const TTL: Duration = crate::limits::AVAILABILITY_TTL;

#[derive(Debug, Clone)]
pub enum ServerStatus {
    Available { app_version: Option<String> },
    Unavailable(Availability),
}

impl ServerStatus {
    pub fn is_available(&self) -> bool {
        matches!(self, ServerStatus::Available { .. })
    }

    pub fn to_json(&self, server: &str) -> Value {
        match self {
            ServerStatus::Available { app_version } => json!({ "server": server, "state": "available", "app": { "name": crate::app_units::display_name(server), "version": app_version } }),
            ServerStatus::Unavailable(a) => json!(a),
        }
    }
}

/// What the packs declare about one server (the first pack that declares `requires` wins).
pub struct ServerPolicy {
    pub name: String,
    pub decl: Option<ServerDecl>,
}

impl ServerPolicy {
    /// One policy per declared server, sorted by name: the first pack that says
    /// something about the app (`app` or `requires`) speaks for it.
    pub fn from_packs(packs: &[crate::plugin::LoadedPack]) -> Vec<ServerPolicy> {
        let mut servers: Vec<ServerPolicy> = Vec::new();
        for (name, decl) in packs.iter().flat_map(|p| p.manifest.servers.iter()) {
            let says_something = decl.app.is_some() || decl.requires != Default::default();
            match servers.iter_mut().find(|s| &s.name == name) {
                Some(existing) if existing.decl.is_none() && says_something => existing.decl = Some(decl.clone()),
                Some(_) => {}
                None => servers.push(ServerPolicy { name: name.clone(), decl: says_something.then(|| decl.clone()) }),
            }
        }
        servers.sort_by(|a, b| a.name.cmp(&b.name));
        servers
    }
}

pub struct AvailabilityCache {
    servers: Vec<ServerPolicy>,
    home: CapstanHome,
    /// How long a probe's answer holds (`limits::AVAILABILITY_TTL`).
    ttl: Duration,
    /// One per server, in the order of `servers`, each behind its own locks: probing one
    /// app (a `/ping`, a version command, a process scan) never holds up a call to another.
    slots: Vec<Slot>,
}

#[derive(Default)]
struct Slot {
    /// The server's last status and when it was probed.
    status: Mutex<Option<(Instant, ServerStatus)>>,
    /// The app's last install check and when it ran.
    install: Mutex<Option<(Instant, AppCheck)>>,
}

impl AvailabilityCache {
    pub fn new(servers: Vec<ServerPolicy>, home: CapstanHome) -> Self {
        let slots = servers.iter().map(|_| Slot::default()).collect();
        AvailabilityCache { servers, home, slots, ttl: TTL }
    }

    /// Hold each probe's answer for `ttl` instead of `limits::AVAILABILITY_TTL`: for
    /// tests that must know which probe answers, whatever the machine's speed.
    #[doc(hidden)]
    pub fn hold_probes_for(&mut self, ttl: Duration) {
        self.ttl = ttl;
    }

    fn slot(&self, server: &str) -> Option<(&ServerPolicy, &Slot)> {
        self.servers.iter().zip(&self.slots).find(|(policy, _)| policy.name == server)
    }

    /// Every declared server with its status.
    pub fn all(&self, client: &HttpBridgeClient) -> Vec<(String, ServerStatus)> {
        self.all_stamped(client).into_iter().map(|(name, _, status)| (name, status)).collect()
    }

    /// Every declared server's status with its probe's stamp ([`Self::stamped`]).
    pub fn all_stamped(&self, client: &HttpBridgeClient) -> Vec<(String, Instant, ServerStatus)> {
        self.servers.iter().filter_map(|s| self.stamped(client, &s.name).map(|(at, status)| (s.name.clone(), at, status))).collect()
    }

    /// One declared server's status, with when it was probed: answers with the same
    /// stamp come from the same probe (what was derived from one, such as the add-on
    /// skew, holds for every answer with its stamp). Only that server is probed, under
    /// its own lock: a call asks about the app it needs, so a call to one app never waits
    /// on another app's probe (which may run that app's version command).
    pub fn stamped(&self, client: &HttpBridgeClient, server: &str) -> Option<(Instant, ServerStatus)> {
        let (policy, slot) = self.slot(server)?;
        let mut cached = slot.status.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((at, status)) = cached.as_ref()
            && at.elapsed() < self.ttl
        {
            return Some((*at, status.clone()));
        }
        let status = self.probe(client, policy);
        let at = Instant::now();
        *cached = Some((at, status.clone()));
        Some((at, status))
    }

    pub fn policies(&self) -> &[ServerPolicy] {
        &self.servers
    }

    pub fn status(&self, client: &HttpBridgeClient, server: &str) -> Option<ServerStatus> {
        self.stamped(client, server).map(|(_, status)| status)
    }

    /// Forget the cached answers (after a call failed on an unavailable server).
    pub fn invalidate(&self) {
        for slot in &self.slots {
            *slot.status.lock().unwrap_or_else(|p| p.into_inner()) = None;
        }
    }

    fn probe(&self, client: &HttpBridgeClient, policy: &ServerPolicy) -> ServerStatus {
        let server = policy.name.as_str();
        let min_version = policy.decl.as_ref().and_then(|d| d.requires.min_version.as_ref());
        if policy.decl.as_ref().is_some_and(|d| d.requires.interactive_session)
            && let Err(detail) = crate::apps::session::interactive()
        {
            return ServerStatus::Unavailable(Availability::new(server, State::NoInteractiveSession, detail));
        }
        let mut missing_file = false;
        let unavailable = match client.ping(server) {
            Ok(ping) => {
                let reported = ping.get("app_version").and_then(Value::as_str).map(String::from);
                let too_old = match (min_version, reported.as_deref().and_then(|v| DottedVersion::parse(v).ok())) {
                    (Some(min), Some(found)) if &found < min => Some(found),
                    _ => None,
                };
                let Some(found) = too_old else { return ServerStatus::Available { app_version: reported } };
                let detail = format!("the running app reports version {found}; the pack needs {} or newer", min_version.map(|m| m.to_string()).unwrap_or_default());
                return ServerStatus::Unavailable(
                    Availability::new(server, State::VersionTooOld, detail).with_versions(Some(found.to_string()), min_version.map(|m| m.to_string())),
                );
            }
            Err(BridgeFailure::Unavailable { state, detail, runtime_file_missing, .. }) => {
                missing_file = runtime_file_missing;
                Availability::new(server, State::parse(&state).unwrap_or(State::EndpointUnavailable), detail)
            }
            Err(BridgeFailure::Transport { reason, detail }) if reason == "wrong_peer" => {
                return ServerStatus::Unavailable(Availability::new(server, State::PortTakenByOtherAddon, detail));
            }
            Err(other) => Availability::new(server, State::EndpointUnavailable, other.to_string()),
        };
        // A runtime file that exists but cannot be trusted is the finding itself, whatever
        // the install locations say: someone else's or a writable file names a bridge.
        if matches!(unavailable.state, State::RuntimeFileNotOwned | State::RuntimeFileWritableByOthers) {
            return ServerStatus::Unavailable(unavailable);
        }
        // The bridge cannot be reached. Is the app installed at all, new enough?
        if let AppCheck::Unsatisfied(install) = self.install_check(policy) {
            return ServerStatus::Unavailable(install);
        }
        if !missing_file {
            return ServerStatus::Unavailable(unavailable);
        }
        ServerStatus::Unavailable(self.refine_missing_file(policy, unavailable))
    }

    /// A missing runtime file means "not running" unless the app is seen running, and
    /// then its bridge is what is missing.
    fn refine_missing_file(&self, policy: &ServerPolicy, unavailable: Availability) -> Availability {
        let names = executable_names(policy);
        let markers: &[&str] = crate::app_units::by_server(&policy.name).map_or(&[], |u| u.process_markers());
        match crate::apps::process::any_running(&names, markers, self.home.root()) {
            Some(false) => Availability::new(&policy.name, State::AppNotRunning, format!("no {} process is running ({})", crate::app_units::display_name(&policy.name), unavailable.detail)),
            Some(true) => Availability::new(
                &policy.name,
                State::EndpointUnavailable,
                format!("{} is running, but its bridge published no runtime file ({})", crate::app_units::display_name(&policy.name), unavailable.detail),
            ),
            None => unavailable,
        }
    }

    pub fn install_check(&self, policy: &ServerPolicy) -> AppCheck {
        let Some(decl) = &policy.decl else { return AppCheck::NotRequired };
        let run = || requirement::check(&policy.name, decl, Platform::current(), &self.home, &crate::apps::expand::Env);
        let Some((_, slot)) = self.slot(&policy.name) else { return run() };
        let mut installed = slot.install.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((at, check)) = installed.as_ref()
            && at.elapsed() < crate::limits::APP_INSTALL_CHECK_TTL
        {
            return check.clone();
        }
        let check = run();
        *installed = Some((Instant::now(), check.clone()));
        check
    }
}

/// The executable names the app's declared locations end in, on this OS (plus the
/// server name itself, which is how most apps are called).
fn executable_names(policy: &ServerPolicy) -> Vec<String> {
    let mut names = vec![policy.name.clone()];
    let block = policy.decl.as_ref().and_then(|d| d.app.as_ref()).and_then(|app| Platform::current().and_then(|p| app.get(&p)));
    for location in block.map(|b| b.locations.as_slice()).unwrap_or_default() {
        if let Some(name) = location.rsplit(['/', '\\']).next().filter(|n| !n.is_empty() && !names.iter().any(|x| x == n)) {
            names.push(name.to_string());
        }
    }
    names
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    /// Two servers, neither running: `counted`'s app is a script whose version command
    /// counts its runs in `runs`.
    fn two_servers(dir: &Path) -> (AvailabilityCache, HttpBridgeClient, std::path::PathBuf) {
        let runs = dir.join("runs");
        let app = dir.join("countedapp");
        std::fs::write(&app, format!("#!/bin/sh\necho run >> {}\necho 1.0\n", runs.display())).unwrap();
        std::fs::set_permissions(&app, std::fs::Permissions::from_mode(0o755)).unwrap();
        let servers = json!({
            "counted": { "commands": ["a"], "requires": { "app": true, "min_version": "0.5" },
                "app": { "linux": { "location": [app.to_str().unwrap()], "presence": "executable", "version": { "kind": "command", "args": [] } } } },
            "other": { "commands": ["b"] }
        });
        let mut errors = crate::manifest::ManifestErrors::default();
        let decls = crate::manifest::servers::parse_servers(&servers, "servers", &mut errors);
        assert!(errors.0.is_empty(), "{errors:?}");
        let policies = decls.into_iter().map(|(name, decl)| ServerPolicy { name, decl: Some(decl) }).collect();
        let home = CapstanHome::at(dir.join("home"));
        (AvailabilityCache::new(policies, home.clone()), HttpBridgeClient::for_home(&home), runs)
    }

    fn runs(path: &Path) -> usize {
        std::fs::read_to_string(path).map(|t| t.lines().count()).unwrap_or(0)
    }

    #[test]
    fn asking_about_one_server_probes_that_server_only() {
        let tmp = tempfile::tempdir().unwrap();
        let (cache, client, counted) = two_servers(tmp.path());
        let (other_at, other) = cache.stamped(&client, "other").unwrap();
        assert!(!other.is_available());
        assert_eq!(runs(&counted), 0, "asking about `other` ran the other app's version command");
        let (at, _) = cache.stamped(&client, "counted").unwrap();
        assert_eq!(runs(&counted), 1);
        assert_eq!(cache.stamped(&client, "counted").unwrap().0, at, "within the TTL the same probe answers");
        assert_eq!(cache.stamped(&client, "other").unwrap().0, other_at, "probing one server leaves the other's answer alone");
        assert_eq!(runs(&counted), 1, "the install check is cached longer still");
        assert!(cache.stamped(&client, "undeclared").is_none());
    }

    #[test]
    fn invalidating_forgets_every_answer_but_not_the_install_checks() {
        let tmp = tempfile::tempdir().unwrap();
        let (cache, client, counted) = two_servers(tmp.path());
        let (at, _) = cache.stamped(&client, "counted").unwrap();
        cache.invalidate();
        assert_ne!(cache.stamped(&client, "counted").unwrap().0, at, "probed afresh");
        assert_eq!(runs(&counted), 1, "the install check is kept for its own TTL");
    }
}
