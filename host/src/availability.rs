//! Availability states: why a declared server cannot be used right now, what the user
//! can do about it, and whether retrying can help. Never a bare "not connected".

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    MissingApp,
    VersionTooOld,
    AppNotRunning,
    EndpointUnavailable,
    NoInteractiveSession,
    UnsupportedOs,
    /// More precise than `endpoint_unavailable`: another add-on holds the bridge port.
    PortTakenByOtherAddon,
    /// More precise than `version_too_old`: the app is there, but its version could not
    /// be read, so `min_version` cannot be confirmed.
    VersionUnreadable,
    /// More precise than `endpoint_unavailable`: the runtime file, its folder or
    /// `CAPSTAN_HOME` is owned by another user, so it is not believed.
    RuntimeFileNotOwned,
    /// More precise than `endpoint_unavailable`: the runtime file, its folder or
    /// `CAPSTAN_HOME` is writable by other users, so it is not believed.
    RuntimeFileWritableByOthers,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Retry {
    AfterUserAction,
    NeverHere,
}

impl State {
    const ALL: [State; 10] = [
        State::MissingApp,
        State::VersionTooOld,
        State::AppNotRunning,
        State::EndpointUnavailable,
        State::NoInteractiveSession,
        State::UnsupportedOs,
        State::PortTakenByOtherAddon,
        State::VersionUnreadable,
        State::RuntimeFileNotOwned,
        State::RuntimeFileWritableByOthers,
    ];

    /// The stable snake_case name (as serialised).
    pub fn name(self) -> &'static str {
        match self {
            State::MissingApp => "missing_app",
            State::VersionTooOld => "version_too_old",
            State::AppNotRunning => "app_not_running",
            State::EndpointUnavailable => "endpoint_unavailable",
            State::NoInteractiveSession => "no_interactive_session",
            State::UnsupportedOs => "unsupported_os",
            State::PortTakenByOtherAddon => "port_taken_by_other_addon",
            State::VersionUnreadable => "version_unreadable",
            State::RuntimeFileNotOwned => "runtime_file_not_owned",
            State::RuntimeFileWritableByOthers => "runtime_file_writable_by_others",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        State::ALL.into_iter().find(|state| state.name() == s)
    }

    pub fn retry(self) -> Retry {
        match self {
            State::NoInteractiveSession | State::UnsupportedOs => Retry::NeverHere,
            _ => Retry::AfterUserAction,
        }
    }

    /// What the user does about this state of `server`'s app; the app unit, when there
    /// is one, names the commands that provision, start or update its bridge.
    pub fn user_action(self, server: &str) -> String {
        let app = crate::app_units::display_name(server);
        let commands = crate::app_units::by_server(server).map(|u| u.user_commands()).unwrap_or_default();
        let launch = commands.launch.map(|c| format!(" (or `{c}`)")).unwrap_or_default();
        match self {
            State::MissingApp => match commands.provision {
                Some(c) => format!("Install {app}, then install or enable the pack (`{c}` installs a headless {app})."),
                None => format!("Install {app}, then install or enable the pack."),
            },
            State::VersionTooOld => format!("Update {app} to the required version."),
            State::AppNotRunning => match commands.launch {
                Some(c) => format!("Start {app} with the capstan bridge (`{c}`) and let the bridge come up."),
                None => format!("Start {app} with the capstan bridge and let the bridge come up."),
            },
            State::EndpointUnavailable => format!("Restart the capstan bridge from inside {app}{launch}."),
            State::NoInteractiveSession => "Run capstan in a desktop session, not in a headless service.".to_string(),
            State::UnsupportedOs => format!("This pack does not support this operating system; use {app} on a supported one."),
            State::VersionUnreadable => format!("Check that {app} runs from the location the pack names (the detail says where and why its version could not be read), or update it."),
            State::PortTakenByOtherAddon => format!("Another {app} add-on is serving on the bridge port: stop its server, or let the capstan bridge take the next free port and restart it."),
            State::RuntimeFileNotOwned => format!("Use a CAPSTAN_HOME that belongs to you (the detail names the path and its owner), then restart the capstan bridge from inside {app}."),
            State::RuntimeFileWritableByOthers => format!("Remove the write permission of other users from the path the detail names (`chmod go-w PATH`), or use a private CAPSTAN_HOME, then restart the capstan bridge from inside {app}."),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppInfo {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<String>,
}

/// The structured state of an unavailable server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Availability {
    pub server: String,
    pub state: State,
    pub app: AppInfo,
    pub detail: String,
    pub user_action: String,
    pub retry: Retry,
}

impl Availability {
    /// With the app's found and required versions, when they are known.
    pub fn with_versions(mut self, found: Option<String>, required: Option<String>) -> Self {
        self.app.version = found;
        self.app.required = required;
        self
    }

    pub fn new(server: &str, state: State, detail: String) -> Self {
        let name = crate::app_units::display_name(server);
        Availability {
            server: server.to_string(),
            state,
            user_action: state.user_action(server),
            retry: state.retry(),
            app: AppInfo { name, version: None, required: None },
            detail: crate::redact::redact(&detail).into_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_serialised_form() {
        for state in State::ALL {
            assert_eq!(serde_json::to_value(state).unwrap(), state.name());
            assert_eq!(State::parse(state.name()), Some(state));
        }
    }

    #[test]
    fn states_carry_actions_and_retry_policies() {
        for unit in crate::app_units::all() {
            let a = Availability::new(unit.server(), State::AppNotRunning, "pid 7 is gone".into());
            assert_eq!(a.retry, Retry::AfterUserAction);
            if let Some(launch) = unit.user_commands().launch {
                assert!(a.user_action.contains(launch), "{}", a.user_action);
            }
            let v = serde_json::to_value(&a).unwrap();
            assert_eq!(v["state"], "app_not_running");
            assert_eq!(v["app"]["name"], unit.display_name());
        }
        // An app no unit knows: its server name, and no command capstan cannot run.
        let a = Availability::new("sculptor", State::MissingApp, "not found".into());
        assert_eq!((a.app.name.as_str(), a.user_action.as_str()), ("sculptor", "Install sculptor, then install or enable the pack."));
        assert_eq!(State::NoInteractiveSession.retry(), Retry::NeverHere);
        assert_eq!(State::UnsupportedOs.retry(), Retry::NeverHere);
        for s in ["missing_app", "version_too_old", "app_not_running", "endpoint_unavailable", "no_interactive_session"] {
            assert!(State::parse(s).is_some(), "{s}");
        }
    }
}
