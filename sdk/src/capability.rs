//! Declaring one capability: key, routing metadata, a typed handler.

use crate::error::{PackError, PackResult};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

type Handler = Box<dyn Fn(&str) -> PackResult<String>>;

/// One capability of a pack. Build it with [`Capability::new`] and the builder methods.
pub struct Capability {
    pub(crate) key: &'static str,
    pub(crate) family: &'static str,
    pub(crate) summary: &'static str,
    pub(crate) description: &'static str,
    pub(crate) schema: fn() -> String,
    pub(crate) tags: &'static [&'static str],
    pub(crate) aliases: &'static [&'static str],
    pub(crate) examples: &'static [&'static str],
    pub(crate) mutates: bool,
    pub(crate) bridge_commands: &'static [&'static str],
    pub(crate) handler: Handler,
}

fn schema_of<A: JsonSchema>() -> String {
    serde_json::to_string(&schemars::schema_for!(A)).expect("a generated schema serialises")
}

impl Capability {
    /// `key` is canonical (`family.verb_noun`); `family` routes it. The argument type
    /// `A` gives the input schema (use `#[serde(deny_unknown_fields)]`), the handler's
    /// result is serialised as the call's JSON result.
    ///
    /// A new capability is read-only and may use no bridge command until told otherwise.
    pub fn new<A, R, F>(key: &'static str, family: &'static str, handler: F) -> Self
    where
        A: DeserializeOwned + JsonSchema + 'static,
        R: Serialize + 'static,
        F: Fn(A) -> PackResult<R> + 'static,
    {
        let handler: Handler = Box::new(move |json: &str| {
            let args: A = serde_json::from_str(json)
                .map_err(|e| PackError::InvalidArguments(e.to_string()))?;
            let result = handler(args)?;
            serde_json::to_string(&result)
                .map_err(|e| PackError::Failed(format!("result does not serialise: {e}")))
        });
        Capability {
            key,
            family,
            summary: "",
            description: "",
            schema: schema_of::<A>,
            tags: &[],
            aliases: &[],
            examples: &[],
            mutates: false,
            bridge_commands: &[],
            handler,
        }
    }

    pub fn summary(mut self, summary: &'static str) -> Self {
        self.summary = summary;
        self
    }
    pub fn description(mut self, description: &'static str) -> Self {
        self.description = description;
        self
    }
    pub fn tags(mut self, tags: &'static [&'static str]) -> Self {
        self.tags = tags;
        self
    }
    /// Legacy names (`blender_create_object`, `create_object`); resolved, never executed.
    pub fn aliases(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }
    /// Phrases the router should send here ("add a cube").
    pub fn examples(mut self, examples: &'static [&'static str]) -> Self {
        self.examples = examples;
        self
    }
    /// Declare that this capability changes application state.
    pub fn mutates(mut self) -> Self {
        self.mutates = true;
        self
    }
    /// The bridge commands this capability may call (each also declared in `pack.json`).
    pub fn bridge(mut self, commands: &'static [&'static str]) -> Self {
        self.bridge_commands = commands;
        self
    }

    pub fn key(&self) -> &'static str {
        self.key
    }

    /// Run the handler on JSON arguments, outside any host (for unit tests of a pack).
    pub fn run_json(&self, arguments_json: &str) -> PackResult<String> {
        (self.handler)(arguments_json)
    }

    /// The generated input schema (JSON text).
    pub fn input_schema(&self) -> String {
        (self.schema)()
    }
}
