//! A well-formed component for `capstan:pack@0.9.0`: the host must refuse it at load
//! with a message naming both versions, not trap or fail to link obscurely.

wit_bindgen::generate!({ path: "wit", world: "capability-pack" });

use exports::capstan::pack::pack::Guest;
use capstan::pack::types::{Capability, PackError};

struct Future;

impl Guest for Future {
    fn describe() -> Vec<Capability> {
        vec![Capability {
            key: "future.info".into(),
            family: "inspect".into(),
            summary: "from the future".into(),
            description: String::new(),
            input_schema: r#"{"type":"object"}"#.into(),
            tags: vec![],
            aliases: vec![],
            examples: vec![],
            mutates: false,
            bridge_commands: vec![],
        }]
    }
    fn execute(_key: String, _arguments_json: String) -> Result<String, PackError> {
        Ok("{}".into())
    }
}

export!(Future);
