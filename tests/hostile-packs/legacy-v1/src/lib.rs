//! A pack built against the frozen `capstan:pack@0.1.0`, as packs were before 0.2.0:
//! the host must keep loading and running it unchanged (families implied, no
//! conformance cases, an application's error code folded into the message).

wit_bindgen::generate!({ path: "../../../wit/pack@0.1.0", world: "capability-pack" });

use capstan::pack::bridge;
use capstan::pack::types::{Capability, PackError};
use exports::capstan::pack::pack::Guest;

struct Legacy;

fn capability(key: &str, command: &str) -> Capability {
    Capability {
        key: key.into(),
        family: "inspect".into(),
        summary: format!("0.1.0 pack: {command}"),
        description: String::new(),
        input_schema: r#"{"type":"object","properties":{"name":{"type":"string"}},"additionalProperties":false}"#.into(),
        tags: vec!["legacy".into()],
        aliases: vec![],
        examples: vec![],
        mutates: false,
        bridge_commands: vec![command.into()],
    }
}

impl Guest for Legacy {
    fn describe() -> Vec<Capability> {
        vec![capability("legacy.scene_info", "get_scene_info"), capability("legacy.object_info", "get_object_info")]
    }

    fn execute(key: String, arguments_json: String) -> Result<String, PackError> {
        let command = match key.as_str() {
            "legacy.scene_info" => "get_scene_info",
            "legacy.object_info" => "get_object_info",
            other => return Err(PackError::UnknownCapability(other.into())),
        };
        bridge::call(command, &arguments_json).map_err(PackError::Bridge)
    }
}

export!(Legacy);
