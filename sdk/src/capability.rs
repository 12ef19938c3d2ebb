//! Declaring one capability: key, routing metadata, a typed handler, the commands it
//! uses and its conformance cases. Usually written by `#[capability(...)]`.

use crate::bridge::{Command, Effect};
use crate::conformance::Case;
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
    pub(crate) output_schema: Option<fn() -> String>,
    pub(crate) tags: &'static [&'static str],
    pub(crate) aliases: &'static [&'static str],
    pub(crate) examples: &'static [&'static str],
    pub(crate) mutates: bool,
    pub(crate) destructive: bool,
    pub(crate) bridge_commands: Vec<&'static str>,
    pub(crate) cases: Cases,
    pub(crate) handler: Handler,
}

/// A capability's conformance cases: given as a list, or built on first read. A pack
/// builds every capability on every call (each call is a fresh instance), and only
/// `describe` and tests read the cases, so building them eagerly cost every call
/// (issue 30: most of a `scene.info` call's guest time).
pub(crate) enum Cases {
    Given(Vec<Case>),
    Built { build: fn() -> Vec<Case>, built: std::cell::OnceCell<Vec<Case>> },
}

fn schema_of<A: JsonSchema>() -> String {
    serde_json::to_string(&schemars::schema_for!(A)).expect("a generated schema serialises")
}

impl Capability {
    /// `key` is canonical (`namespace.verb_noun`); `family` routes it. The argument
    /// type `A` gives the input schema (use `#[serde(deny_unknown_fields)]`), the
    /// handler's result is serialised as the call's JSON result.
    ///
    /// A new capability is read-only and uses no bridge command until told otherwise.
    pub fn new<A, R, F>(key: &'static str, family: &'static str, handler: F) -> Self
    where
        A: DeserializeOwned + JsonSchema + 'static,
        R: Serialize + 'static,
        F: Fn(A) -> PackResult<R> + 'static,
    {
        let handler: Handler = Box::new(move |json: &str| {
            let args: A = serde_json::from_str(json).map_err(|e| PackError::InvalidArguments(e.to_string()))?;
            let result = handler(args)?;
            serde_json::to_string(&result).map_err(|e| PackError::Failed(format!("result does not serialise: {e}")))
        });
        Capability {
            key,
            family,
            summary: "",
            description: "",
            schema: schema_of::<A>,
            output_schema: None,
            tags: &[],
            aliases: &[],
            examples: &[],
            mutates: false,
            destructive: false,
            bridge_commands: Vec::new(),
            cases: Cases::Given(Vec::new()),
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
    /// Legacy names (`app_create_object`, `create_object`); resolved, never executed.
    pub fn aliases(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }
    /// Phrases the router should send here ("add a cube").
    pub fn examples(mut self, examples: &'static [&'static str]) -> Self {
        self.examples = examples;
        self
    }

    /// The capability sends command `C`. Its effect decides the rest: a mutating
    /// command makes the capability mutating, a destroying one destructive.
    pub fn uses<C: Command>(mut self) -> Self {
        if !self.bridge_commands.contains(&C::NAME) {
            self.bridge_commands.push(C::NAME);
        }
        self.mutates |= C::EFFECT.mutates();
        self.destructive |= C::EFFECT == Effect::Destroy;
        self
    }

    /// Say more than the commands do: this capability destroys data (it applies a
    /// modifier, say, through a command that only mutates).
    pub fn destructive(mut self) -> Self {
        self.destructive = true;
        self.mutates = true;
        self
    }

    /// Declare commands by name, unchecked. Only for apps without a generated client
    /// and for capstan's own tests of the host's gate; packs use [`Capability::uses`].
    #[doc(hidden)]
    pub fn declare_commands_unchecked(mut self, commands: &[&'static str], mutates: bool) -> Self {
        self.bridge_commands.extend_from_slice(commands);
        self.mutates |= mutates;
        self
    }

    /// Declare the shape of a successful result: `R`'s JSON Schema (it must describe an
    /// object, as MCP's `outputSchema` must). The host checks every result against it and
    /// shows it to MCP clients as the tool's `outputSchema`; usually the handler's own
    /// result type, written `output = R` in `#[capability(...)]`, which also checks that
    /// the handler returns `PackResult<R>`; a handler that returns something else does
    /// not compile:
    ///
    /// ```compile_fail
    /// use capstan_sdk::prelude::*;
    /// #[derive(Deserialize, JsonSchema)]
    /// struct Args {}
    /// #[derive(Serialize, JsonSchema)]
    /// struct Promised { n: u32 }
    /// /// Promise one shape, return any JSON.
    /// #[capability(key = "demo.liar", family = "inspect", output = Promised)]
    /// fn liar(_: Args) -> PackResult<Value> { Ok(json!({ "n": "many" })) }
    /// ```
    pub fn output<R: JsonSchema>(mut self) -> Self {
        self.output_schema = Some(schema_of::<R>);
        self
    }

    /// Conformance cases: arguments and what must be true afterwards, run by the
    /// host's conformance suite against the real application.
    pub fn cases(mut self, cases: Vec<Case>) -> Self {
        self.cases = Cases::Given(cases);
        self
    }

    /// [`Capability::cases`], built only when read (`describe`, tests): what
    /// `#[capability(cases = f)]` writes, so a call that runs the capability never
    /// builds them.
    pub fn cases_from(mut self, cases: fn() -> Vec<Case>) -> Self {
        self.cases = Cases::Built { build: cases, built: std::cell::OnceCell::new() };
        self
    }

    pub fn key(&self) -> &'static str {
        self.key
    }
    pub fn family(&self) -> &'static str {
        self.family
    }
    pub fn summary_text(&self) -> &'static str {
        self.summary
    }
    pub fn mutates_state(&self) -> bool {
        self.mutates
    }
    pub fn is_destructive(&self) -> bool {
        self.destructive
    }
    pub fn bridge_commands(&self) -> &[&'static str] {
        &self.bridge_commands
    }
    pub fn conformance_cases(&self) -> &[Case] {
        match &self.cases {
            Cases::Given(cases) => cases,
            Cases::Built { build, built } => built.get_or_init(*build),
        }
    }

    /// Run the handler on JSON arguments, outside any host (for unit tests of a pack;
    /// bridge calls go to the thread's [`crate::testing::MockBridge`]).
    pub fn run_json(&self, arguments_json: &str) -> PackResult<String> {
        (self.handler)(arguments_json)
    }

    /// The generated input schema (JSON text).
    pub fn input_schema(&self) -> String {
        (self.schema)()
    }

    /// The declared output schema (JSON text), if any.
    pub fn output_schema(&self) -> Option<String> {
        self.output_schema.map(|f| f())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static BUILT: AtomicUsize = AtomicUsize::new(0);

    fn cases() -> Vec<Case> {
        BUILT.fetch_add(1, Ordering::SeqCst);
        vec![Case::new("one"), Case::new("two")]
    }

    /// A pack builds every capability in every call's fresh instance: the cases, which
    /// only `describe` and tests read, are built when first read and once.
    #[test]
    fn cases_are_built_only_when_read() {
        let cap = Capability::new("t.x", "inspect", |_: serde_json::Value| Ok(1)).cases_from(cases);
        assert_eq!(cap.run_json("{}").unwrap(), "1");
        assert_eq!(BUILT.load(Ordering::SeqCst), 0, "running the capability built its cases");
        assert_eq!(cap.conformance_cases().len(), 2);
        assert_eq!(cap.conformance_cases().len(), 2);
        assert_eq!(BUILT.load(Ordering::SeqCst), 1);
        let eager = Capability::new("t.y", "inspect", |_: serde_json::Value| Ok(1)).cases(vec![Case::new("three")]);
        assert_eq!(eager.conformance_cases().len(), 1);
    }
}
