//! Glue between the exported WIT functions and the declared families and capabilities.
//! Used by [`crate::export_pack!`]; not part of the public API.

use crate::bindings::capstan::pack::types as wit;
use crate::capability::Capability;
use crate::error::PackError;
use crate::family::Family;

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

pub fn describe(families: &[Family], capabilities: &[Capability]) -> wit::PackDescription {
    wit::PackDescription {
        families: families
            .iter()
            .map(|f| wit::Family {
                name: f.name.to_string(),
                summary: f.summary.to_string(),
                cues: f.cues.iter().map(|(weight, phrases)| wit::Cue { weight: *weight, phrases: strings(phrases) }).collect(),
            })
            .collect(),
        capabilities: capabilities
            .iter()
            .map(|c| wit::Capability {
                key: c.key.to_string(),
                family: c.family.to_string(),
                summary: c.summary.to_string(),
                description: c.description.to_string(),
                input_schema: (c.schema)(),
                output_schema: c.output_schema.map(|f| f()),
                tags: strings(c.tags),
                aliases: strings(c.aliases),
                examples: strings(c.examples),
                mutates: c.mutates,
                destructive: c.destructive,
                bridge_commands: strings(&c.bridge_commands),
                conformance: c.conformance_cases().iter().map(|case| case.to_json()).collect(),
            })
            .collect(),
    }
}

pub fn execute(capabilities: &[Capability], key: &str, arguments_json: &str) -> Result<String, wit::PackError> {
    let capability = capabilities
        .iter()
        .find(|c| c.key == key)
        .ok_or_else(|| PackError::UnknownCapability(key.to_string()))?;
    capability.run_json(arguments_json).map_err(Into::into)
}
