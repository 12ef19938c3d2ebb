//! The app gate: whether a capability's application is there to take the call.
//!
//! Admitted means: the server the capability talks to is available (live evidence
//! first, `availability.rs`), and its running bridge serves every command the
//! capability may send. A bridge older than this host (version skew) would fail
//! mid-call with `unknown_command`; the gate refuses before anything runs instead, and
//! the surfaces hide those capabilities. The refusal is the body every surface
//! answers (`APP_UNAVAILABLE` with the state object), so all refuse alike.
//!
//! Cost, and why the skew is not read afresh per call (issue 30): working out the skew
//! re-reads the runtime file, takes the bridge's whole command list from its last
//! `/ping` and checks every capability's commands against it, about 35 µs per call
//! against a real add-on's ping (`--bench execute`, `3c_skew_worked_out_afresh`). The
//! gate now works out, per server, what its bridge lacks once per availability probe
//! of that server ([`AvailabilityCache::stamped`]: at most once per
//! `limits::AVAILABILITY_TTL`, and afresh after any invalidation, such as a call that
//! found the app gone) and every admission within that probe's life reuses it. An
//! admission probes only the server its capability talks to: a call to one app never
//! pays for another app's checks. This is the same freshness the availability answer
//! itself has always had, and it moves no security check: the skew gate is a courtesy
//! that refuses before anything runs instead of mid-call, not a boundary. What bounds
//! a pack is the bridge gate, which still checks every bridge call (declared, effect,
//! params against the catalog, budget), and the bridge client, which still re-reads
//! the runtime file at every call (so a replaced bridge never receives a request meant
//! for its predecessor). A bridge replaced by an older add-on inside the TTL fails the
//! call with the add-on's `unknown_command`, as it would without the gate, and that
//! answer (whether or not the pack then fails) makes the call path forget the cached
//! availability (`sandbox::state::lacked_a_command`), so the next admission probes
//! afresh. (An add-on whose ping lists no commands cannot be checked ahead: each call
//! of a capability it lacks then costs the next call a fresh probe.) [`AppGate::skew`]
//! (what search, the goal's hidden lines and the expert tool list hide) reads the same
//! per-probe answer: they hide the capabilities admission refuses for skew in that
//! probe's life (two callers working one probe's answer out while the bridge changes
//! may see two answers; the first stored is kept). `execute_python`, not a capability,
//! is admitted by [`AppGate::admit_command`], which reads the command list of the
//! bridge's last ping for its current token.

use super::availability::{AvailabilityCache, ServerPolicy, ServerStatus};
use crate::bridge::HttpBridgeClient;
use crate::report::ErrorCode;
use crate::runtime::Runtime;
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The app gate of one runtime: its packs' servers, their availability, and which
/// server and bridge commands each capability needs (decided once at start-up).
pub struct AppGate {
    pub client: Arc<HttpBridgeClient>,
    pub availability: AvailabilityCache,
    server_by_key: HashMap<String, String>,
    commands_by_key: HashMap<String, Vec<String>>,
    /// A workflow's distinct step keys: it is admitted, hidden and skewed as its steps.
    steps_by_workflow: HashMap<String, Vec<String>>,
    /// Per server: the commands its running bridge lacks, worked out from one
    /// availability probe, and that probe's stamp.
    lacking_of_probe: Mutex<HashMap<String, Lacking>>,
}

/// The commands one server's running bridge lacks, and the stamp of the probe they were
/// worked out from.
type Lacking = (Instant, Arc<Vec<String>>);

/// Version skew between this host and the running bridges.
pub struct Skew {
    /// server -> commands its running bridge lacks.
    pub missing: HashMap<String, Vec<String>>,
    /// Capabilities hidden because they need one of those.
    pub keys: BTreeSet<String>,
}

impl AppGate {
    pub fn new(runtime: &Runtime, client: Arc<HttpBridgeClient>, home: &crate::home::CapstanHome) -> Self {
        let mut server_by_key = HashMap::new();
        let mut commands_by_key = HashMap::new();
        // A pack capability talks to the server of its bridge commands (one per pack
        // today); a workflow talks to its steps' servers, each its own, so it is
        // admitted, hidden and refused as its steps are (a workflow across two apps
        // needs both).
        // A capability that sends no bridge command needs no app: it is always admitted.
        for (pack, cap) in runtime.capabilities() {
            let Some(server) = cap.bridge_commands.first().and_then(|c| pack.manifest.server_of(c)) else { continue };
            server_by_key.insert(cap.key.clone(), server.to_string());
            commands_by_key.insert(cap.key.clone(), cap.bridge_commands.clone());
        }
        let mut steps_by_workflow = HashMap::new();
        for w in runtime.workflows() {
            let mut steps: Vec<String> = Vec::new();
            // A handover step talks to apps some capability step also talks to (checked
            // when the workflow loads), so the capability steps cover its admission.
            for key in w.steps.iter().filter_map(|s| s.capability()) {
                if !steps.iter().any(|k| k == key) {
                    steps.push(key.to_string());
                }
            }
            steps_by_workflow.insert(w.spec.key.clone(), steps);
        }
        let availability = AvailabilityCache::new(ServerPolicy::from_packs(runtime.packs()), home.clone());
        AppGate { client, availability, server_by_key, commands_by_key, steps_by_workflow, lacking_of_probe: Mutex::new(HashMap::new()) }
    }

    /// The server a pack capability talks to (None for a workflow: see [`AppGate::servers_of`]).
    pub fn server_of(&self, key: &str) -> Option<&str> {
        self.server_by_key.get(key).map(String::as_str)
    }

    /// Every server a capability or workflow talks to.
    pub fn servers_of(&self, key: &str) -> Vec<&str> {
        match self.steps_by_workflow.get(key) {
            Some(steps) => {
                let mut servers: Vec<&str> = steps.iter().filter_map(|s| self.server_of(s)).collect();
                servers.sort_unstable();
                servers.dedup();
                servers
            }
            None => self.server_of(key).into_iter().collect(),
        }
    }

    pub fn status(&self, server: &str) -> Option<ServerStatus> {
        self.availability.status(&self.client, server)
    }

    pub fn unavailable_servers(&self) -> Vec<(String, ServerStatus)> {
        self.availability.all(&self.client).into_iter().filter(|(_, s)| !s.is_available()).collect()
    }

    pub fn hidden_server_names(&self) -> Vec<String> {
        self.unavailable_servers().into_iter().map(|(s, _)| s).collect()
    }

    /// What the running bridges lack: per available server the commands its bridge does
    /// not serve, and the capabilities that need them; worked out once per availability
    /// probe, as admission works it out (module doc).
    pub fn skew(&self) -> Skew {
        let lacking = self.availability.all_stamped(&self.client).into_iter().map(|(server, at, status)| {
            let lacking = self.lacking_at(&server, at, &status);
            (server, lacking)
        });
        self.skew_of(lacking)
    }

    /// [`Self::skew`] worked out afresh from the bridges' last pings, as each probe
    /// works it out (what `--bench execute` keeps an eye on: a probe pays it every
    /// `AVAILABILITY_TTL` and after every forget).
    pub fn skew_worked_out_afresh(&self) -> Skew {
        let lacking = self.availability.all(&self.client).into_iter().map(|(server, status)| {
            let lacking = Arc::new(self.lacking(&server, &status));
            (server, lacking)
        });
        self.skew_of(lacking)
    }

    /// The commands `server`'s bridge lacks, for its availability answer probed at
    /// `at`, worked out once per probe (see the module doc).
    ///
    /// The shared lock is held only to look up and to store: working the list out may
    /// read the runtime file and ping the bridge, and no other server's admission or
    /// search may wait for that. Two callers that miss at once both work it out (the same
    /// answer, unless the bridge changed in between); the first entry stored for the
    /// newest probe is kept.
    fn lacking_at(&self, server: &str, at: Instant, status: &ServerStatus) -> Arc<Vec<String>> {
        let cached = || self.lacking_of_probe.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((stamp, lacking)) = cached().get(server)
            && *stamp == at
        {
            return lacking.clone();
        }
        let lacking = Arc::new(self.lacking(server, status));
        keep_newest(&mut cached(), server, at, &lacking);
        lacking
    }

    /// The commands some capability on `server` may send that its running bridge does
    /// not serve (sorted; empty when the server is unavailable or its bridge does not
    /// list its commands).
    fn lacking(&self, server: &str, status: &ServerStatus) -> Vec<String> {
        if !status.is_available() {
            return Vec::new();
        }
        let Some(live) = self.client.live_identity(server) else { return Vec::new() };
        let Some(served) = live.get("commands").and_then(Value::as_array) else { return Vec::new() };
        let served: std::collections::HashSet<&str> = served.iter().filter_map(Value::as_str).collect();
        let mut lacking: Vec<String> = self
            .commands_by_key
            .iter()
            .filter(|(key, _)| self.server_of(key) == Some(server))
            .flat_map(|(_, cmds)| cmds.iter().filter(|c| !served.contains(c.as_str())).cloned())
            .collect();
        lacking.sort();
        lacking.dedup();
        lacking
    }

    fn skew_of(&self, lacking: impl Iterator<Item = (String, Arc<Vec<String>>)>) -> Skew {
        let missing: HashMap<String, Vec<String>> =
            lacking.filter(|(_, lacking)| !lacking.is_empty()).map(|(server, lacking)| (server, lacking.to_vec())).collect();
        let mut keys: BTreeSet<String> = self
            .commands_by_key
            .iter()
            .filter(|(key, cmds)| self.server_of(key).and_then(|s| missing.get(s)).is_some_and(|m: &Vec<String>| cmds.iter().any(|c| m.contains(c))))
            .map(|(k, _)| k.clone())
            .collect();
        let workflows: Vec<String> = self.steps_by_workflow.iter().filter(|(_, steps)| steps.iter().any(|s| keys.contains(s))).map(|(w, _)| w.clone()).collect();
        keys.extend(workflows);
        Skew { missing, keys }
    }

    /// The gate for one capability, after its arguments were checked. The error is the
    /// body `execute_capability` answers.
    pub fn admit(&self, key: &str) -> Result<(), Value> {
        if let Some(steps) = self.steps_by_workflow.get(key) {
            return steps.iter().try_for_each(|step| self.admit(step));
        }
        // A capability that sends no bridge command needs no app.
        let Some(server) = self.server_of(key) else { return Ok(()) };
        let Some((probed, status)) = self.availability.stamped(&self.client, server) else { return Ok(()) };
        if let ServerStatus::Unavailable(state) = &status {
            return Err(json!({ "code": ErrorCode::AppUnavailable, "message": format!("{key} needs {server}, which is unavailable ({})", state.detail), "availability": state }));
        }
        let missing = self.lacking_at(server, probed, &status);
        if self.commands_by_key.get(key).is_some_and(|cmds| cmds.iter().any(|c| missing.contains(c))) {
            return Err(json!({
                "code": ErrorCode::AppUnavailable,
                "message": format!("{key} needs bridge commands the running {server} add-on lacks ({}); update the add-on{} and restart {server}", missing.join(", "), update_hint(server)),
                "availability": { "server": server, "state": "addon_outdated", "missing_commands": *missing, "retry": "after_user_action" },
            }));
        }
        Ok(())
    }

    /// The gate for one bridge command the host sends itself (`execute_python`'s exec
    /// command), by the same rules as a capability: the server must be available and its
    /// running bridge must serve the command. `what` names the caller in the message.
    pub fn admit_command(&self, what: &str, server: &str, command: &str) -> Result<(), Value> {
        if let Some(ServerStatus::Unavailable(state)) = self.status(server) {
            return Err(json!({ "code": ErrorCode::AppUnavailable, "message": format!("{what} needs {server}, which is unavailable ({})", state.detail), "availability": state }));
        }
        let served = self.client.live_identity(server).and_then(|live| live.get("commands").and_then(Value::as_array).map(|c| c.iter().any(|c| c == command)));
        if served == Some(false) {
            return Err(json!({
                "code": ErrorCode::AppUnavailable,
                "message": format!("{what} needs the bridge command {command}, which the running {server} add-on lacks; update the add-on{} and restart {server}", update_hint(server)),
                "availability": { "server": server, "state": "addon_outdated", "missing_commands": [command], "retry": "after_user_action" },
            }));
        }
        Ok(())
    }
}

/// Store `lacking`, worked out for `server`'s probe of `at`, unless an entry for that
/// probe or a newer one is there already: a caller that worked out an older probe's list
/// (it read the cache before a forget and a new probe) never overwrites a newer list, and
/// of two callers that worked out the same probe the first one's list stays.
fn keep_newest(cache: &mut HashMap<String, Lacking>, server: &str, at: Instant, lacking: &Arc<Vec<String>>) {
    if cache.get(server).is_none_or(|(stamp, _)| *stamp < at) {
        cache.insert(server.to_string(), (at, lacking.clone()));
    }
}

/// " (`capstan ... install-addon`)": how the user updates `server`'s bridge, when its unit says.
pub fn update_hint(server: &str) -> String {
    crate::app_units::by_server(server).and_then(|u| u.user_commands().update_bridge).map(|c| format!(" (`{c}`)")).unwrap_or_default()
}

impl super::Admission for AppGate {
    fn admit(&self, key: &str) -> Result<(), Value> {
        AppGate::admit(self, key)
    }

    fn forget_availability(&self) {
        self.availability.invalidate();
    }

    fn server_available(&self, server: &str) -> Option<bool> {
        self.availability.invalidate();
        self.status(server).map(|s| s.is_available())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn list(commands: &[&str]) -> Arc<Vec<String>> {
        Arc::new(commands.iter().map(|c| c.to_string()).collect())
    }

    #[test]
    fn a_list_from_an_older_probe_never_replaces_a_newer_one() {
        let (older, newer) = (Instant::now(), Instant::now() + Duration::from_millis(5));
        let mut cache = HashMap::new();
        keep_newest(&mut cache, "app-a", newer, &list(&["command_x"]));
        keep_newest(&mut cache, "app-a", older, &list(&[]));
        assert_eq!(cache["app-a"], (newer, list(&["command_x"])), "the older probe's list was dropped");
        // The same probe worked out twice: the first list stored stays.
        keep_newest(&mut cache, "app-a", newer, &list(&["command_y"]));
        assert_eq!(*cache["app-a"].1, vec!["command_x".to_string()]);
        // A newer probe replaces it; another server has its own entry.
        let newest = newer + Duration::from_millis(5);
        keep_newest(&mut cache, "app-a", newest, &list(&[]));
        keep_newest(&mut cache, "app-b", older, &list(&["command_z"]));
        assert_eq!(cache["app-a"], (newest, list(&[])));
        assert_eq!(*cache["app-b"].1, vec!["command_z".to_string()]);
    }
}
