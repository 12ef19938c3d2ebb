//! Which containment layers hold for a running app, as `doctor`, the launch banner and
//! the gate on `execute_python` see them.
//!
//! The OS layers (Landlock, seccomp, dropped privileges) are recorded by the capstan
//! that launched the app, in its own runtime record (the app cannot write there); an
//! app whose runtime file says nothing about them was started by hand and is reported
//! unconfined. The early layers (the checker in the host, the runtime guard in the
//! add-on) each have a test switch that turns them off; a switch that is set is
//! reported loudly, never silently.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The OS layers of one launched app.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layers {
    /// The Landlock ABI enforced (0: none).
    pub landlock_abi: i32,
    pub seccomp: bool,
    /// Capabilities dropped, securebits locked, `no_new_privs`, hard resource limits.
    pub privileges_dropped: bool,
}

impl Layers {
    pub fn confined(landlock_abi: i32, seccomp: bool) -> Layers {
        Layers { landlock_abi, seccomp, privileges_dropped: seccomp }
    }

    /// Nothing: an app started by hand, or on a system without the layers.
    pub fn unconfined() -> Layers {
        Layers { landlock_abi: 0, seccomp: false, privileges_dropped: false }
    }

    /// Is the whole OS wall up (Landlock with file system, TCP and scopes, and seccomp)?
    pub fn os_layer_complete(&self) -> bool {
        self.landlock_on() && self.seccomp && self.privileges_dropped
    }

    #[cfg(target_os = "linux")]
    fn landlock_on(&self) -> bool {
        self.landlock_abi >= super::ruleset::FULL_ABI
    }
    #[cfg(not(target_os = "linux"))]
    fn landlock_on(&self) -> bool {
        false
    }

    /// What is missing, in words (empty when complete).
    pub fn missing(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.landlock_abi == 0 {
            out.push("Landlock is off (the kernel lacks it, or this is not Linux)".to_string());
        } else if !self.landlock_on() {
            out.push(format!("Landlock ABI {} lacks TCP or scope rules (ABI 6 needed)", self.landlock_abi));
        }
        if !self.seccomp {
            out.push("the seccomp filter is off".to_string());
        }
        if !self.privileges_dropped {
            out.push("privileges are not dropped".to_string());
        }
        out
    }

    /// The record kept in capstan's runtime file.
    pub fn to_json(&self) -> Value {
        json!({ "landlock_abi": self.landlock_abi, "seccomp": self.seccomp, "privileges_dropped": self.privileges_dropped })
    }

    /// Read back from a runtime file (None: the file says nothing, an app started by hand).
    pub fn from_runtime(doc: &Value) -> Option<Layers> {
        serde_json::from_value(doc.get("containment")?.clone()).ok()
    }
}

/// What the operator switched off for tests, from capstan's own environment (the
/// checker) and the app's answer to `/ping` (the guard).
pub fn early_layers(ping: Option<&Value>) -> Value {
    let checker_off = crate::mcp::python_exec::checker_bypassed_for_tests();
    let guard = ping.and_then(|p| p.pointer("/layers/guard")).and_then(Value::as_bool);
    json!({
        "checker": if checker_off { "off (CAPSTAN_TEST_UNCHECKED_PYTHON=1)" } else { "on" },
        "guard": match guard { Some(true) => "on", Some(false) => "off (CAPSTAN_TEST_UNGUARDED=1)", None => "unknown (the app did not say)" },
    })
}

/// Each layer for the running app, on or off, as `doctor --json` reports it:
/// `landlock` (with the ABI enforced), `seccomp`, `privileges`, `checker`, `guard`, and
/// what this kernel offers. `layers`: the app's record (None: started by hand, or no app
/// is running: `running` says which).
pub fn report(running: bool, layers: Option<&Layers>, ping: Option<&Value>) -> Value {
    let early = early_layers(ping);
    let (launched, l) = match layers {
        Some(l) => (true, l.clone()),
        None => (false, Layers::unconfined()),
    };
    let kernel_abi = kernel_abi();
    json!({
        "app_running": running,
        "launched_by_capstan": launched,
        "landlock": { "on": running && l.landlock_abi > 0, "abi": l.landlock_abi, "kernel_abi": kernel_abi },
        "seccomp": { "on": running && l.seccomp },
        "privileges_dropped": { "on": running && l.privileges_dropped },
        "checker": { "on": early["checker"] == "on", "detail": early["checker"] },
        "guard": { "on": early["guard"] == "on", "detail": early["guard"] },
        "os_layer_complete": running && l.os_layer_complete(),
        "missing": if running { json!(l.missing()) } else { json!(["the app is not running"]) },
        "execute_python": if !running { "the app is not running" } else if l.os_layer_complete() { "allowed (when CAPSTAN_ALLOW_EXEC=1)" } else if std::env::var(super::ALLOW_UNCONFINED_EXEC_ENV).is_ok_and(|v| v == "1") { "allowed without the OS layer (CAPSTAN_ALLOW_UNCONFINED_EXEC=1)" } else { "refused: the OS layer is not complete" },
    })
}

/// The lines `blender launch` prints about containment: each layer, and a loud line for
/// every test switch that turns a layer off.
pub fn banner(layers: &Layers, ping: &Value) -> Vec<String> {
    let mut out = vec![format!(
        "containment: Landlock {}, seccomp {}, privileges {}",
        if layers.landlock_abi > 0 { format!("on (ABI {})", layers.landlock_abi) } else { "OFF".to_string() },
        if layers.seccomp { "on" } else { "OFF" },
        if layers.privileges_dropped { "dropped" } else { "NOT dropped" },
    )];
    for missing in layers.missing() {
        out.push(format!("WARNING: {missing}; execute_python is refused unless {}=1", super::ALLOW_UNCONFINED_EXEC_ENV));
    }
    let early = early_layers(Some(ping));
    for layer in ["checker", "guard"] {
        if let Some(detail) = early[layer].as_str().filter(|d| d.starts_with("off")) {
            out.push(format!("WARNING: the {layer} is {detail}: a test switch; never set it in production"));
        }
    }
    out
}

/// The Landlock ABI this kernel offers (what a launch would enforce).
pub fn kernel_abi() -> i32 {
    #[cfg(target_os = "linux")]
    {
        if super::landlock_disabled_for_tests() { 0 } else { super::ruleset::abi() }
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_only_with_every_os_layer() {
        assert!(Layers::confined(7, true).os_layer_complete());
        assert!(!Layers::confined(5, true).os_layer_complete());
        assert!(!Layers::confined(0, true).os_layer_complete());
        assert!(!Layers::unconfined().os_layer_complete());
        assert_eq!(Layers::unconfined().missing().len(), 3);
        assert!(Layers::confined(7, true).missing().is_empty());
    }

    #[test]
    fn the_record_round_trips_and_a_hand_started_app_has_none() {
        let l = Layers::confined(7, true);
        let doc = json!({ "containment": l.to_json() });
        assert_eq!(Layers::from_runtime(&doc), Some(l));
        assert_eq!(Layers::from_runtime(&json!({ "http": "x" })), None);
    }
}
