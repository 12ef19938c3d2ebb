//! Tool definitions: the five guided tools, and one expert tool per capability.

use crate::limits::tool_inputs::{MAX_FAMILY_CHARS, MAX_GOAL_CHARS, MAX_KEY_CHARS, MAX_QUERY_CHARS};
use crate::plugin::CapabilitySpec;
use rmcp::model::{Tool, ToolAnnotations};
use serde_json::{Map, Value, json};
use std::sync::Arc;

pub const SET_GOAL: &str = "router_set_goal";
pub const GET_STATUS: &str = "router_get_status";
pub const SEARCH: &str = "search_capabilities";
pub const GET_SCHEMA: &str = "get_capability_schema";
pub const EXECUTE: &str = "execute_capability";

/// A tool's input schema from a JSON object literal.
pub(super) fn schema(v: Value) -> Arc<Map<String, Value>> {
    match v {
        Value::Object(m) => Arc::new(m),
        _ => unreachable!("tool schemas are objects"),
    }
}

fn read_only() -> ToolAnnotations {
    ToolAnnotations::new().read_only(true).destructive(false)
}

/// The guided surface: exactly five tools, small on purpose.
pub fn guided() -> Vec<Tool> {
    let apps = crate::app_units::display_names();
    vec![
        Tool::new(
            SET_GOAL,
            format!("Start here: state what the user wants done in {apps}. Returns the routed capability family and first suggestions."),
            schema(json!({ "type": "object", "properties": { "goal": { "type": "string", "minLength": 1, "maxLength": MAX_GOAL_CHARS } }, "required": ["goal"], "additionalProperties": false })),
        )
        .with_annotations(read_only()),
        Tool::new(
            GET_STATUS,
            format!("The current goal and family, the last search, the last {max} executions with their scene deltas (execution_count counts all), and whether {apps} is available.", max = super::session::MAX_EXECUTIONS),
            schema(json!({ "type": "object", "properties": {}, "additionalProperties": false })),
        )
        .with_annotations(read_only()),
        Tool::new(
            SEARCH,
            format!("Search {apps} capabilities; returns ranked summaries (key, family, summary, mutates). Get a schema before executing."),
            schema(json!({ "type": "object", "properties": {
                "query": { "type": "string", "minLength": 1, "maxLength": MAX_QUERY_CHARS },
                "limit": { "type": "integer", "minimum": 1, "maximum": 50 },
                "family": { "type": "string", "maxLength": MAX_FAMILY_CHARS }
            }, "required": ["query"], "additionalProperties": false })),
        )
        .with_annotations(read_only()),
        Tool::new(
            GET_SCHEMA,
            "The argument schema, description and examples of one capability, by its canonical key from search.",
            schema(json!({ "type": "object", "properties": { "key": { "type": "string", "minLength": 1, "maxLength": MAX_KEY_CHARS } }, "required": ["key"], "additionalProperties": false })),
        )
        .with_annotations(read_only()),
        Tool::new(
            EXECUTE,
            "Run one capability by its exact canonical key with arguments matching its schema. Mutations report the scene delta.",
            schema(json!({ "type": "object", "properties": {
                "key": { "type": "string", "minLength": 1, "maxLength": MAX_KEY_CHARS },
                "arguments": { "type": "object" }
            }, "required": ["key"], "additionalProperties": false })),
        )
        .with_annotations(ToolAnnotations::new().read_only(false).destructive(true)),
    ]
}

/// The expert tool name of a capability key: `scene.create_object` -> `scene__create_object`
/// (tool names may not contain dots in several clients; keys are at most 63 characters,
/// so names fit the common 64-character limit).
pub fn expert_name(key: &str) -> String {
    key.replacen('.', "__", 1)
}

pub fn expert(spec: &CapabilitySpec) -> Tool {
    let mut description = spec.summary.clone();
    if !spec.description.is_empty() {
        description.push_str(". ");
        description.push_str(&spec.description);
    }
    let input = match &spec.input_schema {
        Value::Object(m) => Arc::new(m.clone()),
        _ => schema(json!({ "type": "object" })),
    };
    let mut tool = Tool::new(expert_name(&spec.key), description, input)
        .with_title(spec.key.clone())
        .with_annotations(ToolAnnotations::new().read_only(!spec.mutates && !spec.writes_files).destructive(spec.destructive));
    // Checked at load to be an object schema, and against every result at run time.
    if let Some(Value::Object(output)) = &spec.output_schema {
        tool.output_schema = Some(Arc::new(output.clone()));
    }
    tool
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guided_surface_is_five_small_tools() {
        let tools = guided();
        assert_eq!(tools.len(), 5);
        let size = serde_json::to_vec(&json!({ "tools": tools })).unwrap().len();
        assert!(size <= 4096, "guided tools/list is {size} bytes");
    }

    #[test]
    fn expert_names_are_stable_and_short() {
        assert_eq!(expert_name("scene.create_object"), "scene__create_object");
        assert!(expert_name(&format!("a.{}", "b".repeat(61))).len() <= 64);
    }
}
