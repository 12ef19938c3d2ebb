//! Bridge command catalogs: `bridges/<app>/capstan_bridge/commands.json`, generated
//! from the add-on's `@command` declarations by `scripts/bridgegen.py` and compiled
//! into the host, so that what the host permits and what the add-on implements come
//! from one source. The add-on reports the sha256 of the catalog it serves on `/ping`;
//! [`BridgeCatalog::sha256`] is this one's.
//!
//! Each command's params and result schemas are compiled once, with the catalog's
//! shared `$defs` injected so `$ref`s resolve locally. No remote `$ref` can be
//! resolved: the schema library is built without its HTTP and file resolvers.

use jsonschema::Validator;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// What running a command does to the application's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandEffect {
    Read,
    /// Writes files into the app's output folder and changes no scene data (an export,
    /// a saved copy): no delta, no undo step, allowed to a read-only capability; but
    /// not an answer to a question (the router's read intent leaves it out).
    Write,
    Mutate,
    Destroy,
}

impl CommandEffect {
    pub fn mutates(self) -> bool {
        matches!(self, CommandEffect::Mutate | CommandEffect::Destroy)
    }
}

pub struct CommandSpec {
    pub name: String,
    pub effect: CommandEffect,
    pub summary: String,
    pub params_schema: Value,
    /// The application error codes the command declares it may answer with.
    pub errors: Vec<String>,
    /// The largest answer the host accepts from this command.
    pub max_result_bytes: u64,
    /// How long the host waits for this command's answer.
    pub timeout: std::time::Duration,
    /// Only the host may send it (`execute_python`, after the checker): no pack may
    /// declare it, and the gate refuses it to every pack.
    pub host_only: bool,
    validator: Validator,
    result_validator: Validator,
}

impl CommandSpec {
    /// Every schema violation of `params`, as `path: message` lines.
    pub fn params_errors(&self, params: &Value) -> Vec<String> {
        // The common case, a valid document, is decided without building errors.
        if self.validator.is_valid(params) {
            return Vec::new();
        }
        self.validator
            .iter_errors(params)
            .map(|e| {
                let at = e.instance_path().to_string();
                if at.is_empty() { e.to_string() } else { format!("{at}: {e}") }
            })
            .collect()
    }

    /// Every way `result` departs from the command's declared result schema (at most 8).
    pub fn result_errors(&self, result: &Value) -> Vec<String> {
        if self.result_validator.is_valid(result) {
            return Vec::new();
        }
        self.result_validator
            .iter_errors(result)
            .take(8)
            .map(|e| {
                let at = e.instance_path().to_string();
                if at.is_empty() { e.to_string() } else { format!("{at}: {e}") }
            })
            .collect()
    }
}

/// The default answer ceiling of a command that declares none.
pub const DEFAULT_MAX_RESULT_BYTES: u64 = 1024 * 1024;

/// One application's catalog.
pub struct BridgeCatalog {
    pub app: String,
    pub protocol: u64,
    /// sha256 of the catalog text, as the add-on reports the catalog it serves.
    pub sha256: String,
    /// Every application error code with what it means.
    pub error_codes: BTreeMap<String, String>,
    commands: BTreeMap<String, CommandSpec>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("bridge catalog {app}: {reason}")]
pub struct CatalogError {
    pub app: String,
    pub reason: String,
}

impl BridgeCatalog {
    pub fn parse(text: &str) -> Result<Self, CatalogError> {
        let err = |app: &str, reason: String| CatalogError { app: app.to_string(), reason };
        let doc: Value = serde_json::from_str(text).map_err(|e| err("?", format!("not JSON: {e}")))?;
        let app = doc["app"].as_str().ok_or_else(|| err("?", "missing app".into()))?.to_string();
        let protocol = doc["protocol"].as_u64().ok_or_else(|| err(&app, "missing protocol".into()))?;
        let definitions = doc.get("$defs").cloned().unwrap_or(Value::Object(Map::new()));
        let error_codes: BTreeMap<String, String> = doc
            .get("error_codes")
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string())).collect())
            .unwrap_or_default();
        let Some(Value::Object(cmds)) = doc.get("commands") else {
            return Err(err(&app, "missing commands".into()));
        };
        let mut commands = BTreeMap::new();
        for (name, spec) in cmds {
            let effect = match spec["effect"].as_str() {
                Some("read") => CommandEffect::Read,
                Some("write") => CommandEffect::Write,
                Some("mutate") => CommandEffect::Mutate,
                Some("destroy") => CommandEffect::Destroy,
                other => return Err(err(&app, format!("{name}: effect {other:?} is not read/write/mutate/destroy"))),
            };
            let compile = |key: &str| -> Result<Validator, CatalogError> {
                let mut schema = spec.get(key).cloned().ok_or_else(|| err(&app, format!("{name}: no {key} schema")))?;
                if let Value::Object(map) = &mut schema {
                    map.insert("$defs".into(), definitions.clone());
                }
                jsonschema::draft202012::new(&schema).map_err(|e| err(&app, format!("{name}: {key} schema does not compile: {e}")))
            };
            let validator = compile("params")?;
            let result_validator = compile("result")?;
            let errors: Vec<String> = spec["errors"].as_array().map(|a| a.iter().filter_map(Value::as_str).map(String::from).collect()).unwrap_or_default();
            if let Some(unknown) = errors.iter().find(|c| !error_codes.contains_key(*c)) {
                return Err(err(&app, format!("{name}: error code {unknown:?} is not in the catalog's error_codes")));
            }
            commands.insert(
                name.clone(),
                CommandSpec {
                    name: name.clone(),
                    effect,
                    summary: spec["summary"].as_str().unwrap_or("").to_string(),
                    params_schema: spec["params"].clone(),
                    errors,
                    max_result_bytes: spec.get("max_result_bytes").and_then(Value::as_u64).unwrap_or(DEFAULT_MAX_RESULT_BYTES),
                    timeout: match spec.get("timeout_s") {
                        None => crate::limits::BRIDGE_DEFAULT_COMMAND_TIMEOUT,
                        Some(v) => match v.as_u64().filter(|s| (1..=3600).contains(s)) {
                            Some(secs) => std::time::Duration::from_secs(secs),
                            None => return Err(err(&app, format!("{name}: timeout_s must be 1..3600 seconds"))),
                        },
                    },
                    host_only: spec.get("host_only").and_then(Value::as_bool).unwrap_or(false),
                    validator,
                    result_validator,
                },
            );
        }
        let sha256 = crate::fsutil::sha256_hex(text.as_bytes());
        Ok(BridgeCatalog { app, protocol, sha256, error_codes, commands })
    }

    pub fn command(&self, name: &str) -> Option<&CommandSpec> {
        self.commands.get(name)
    }

    pub fn commands(&self) -> impl Iterator<Item = &CommandSpec> {
        self.commands.values()
    }
}

/// The catalogs this host knows, by manifest server name.
pub struct Catalogs {
    by_server: BTreeMap<String, BridgeCatalog>,
}

impl Catalogs {
    /// Every catalog compiled into this host: one per registered app unit.
    pub fn builtin() -> Result<Self, CatalogError> {
        let mut by_server = BTreeMap::new();
        for unit in crate::app_units::all() {
            by_server.insert(unit.server().to_string(), BridgeCatalog::parse(unit.catalog_json())?);
        }
        Ok(Catalogs { by_server })
    }

    /// These catalogs, each under the server its `app` names (tests, tools).
    pub fn of(catalogs: Vec<BridgeCatalog>) -> Self {
        Catalogs { by_server: catalogs.into_iter().map(|c| (c.app.clone(), c)).collect() }
    }

    pub fn for_server(&self, server: &str) -> Option<&BridgeCatalog> {
        self.by_server.get(server)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A small catalog in the shape `bridgegen.py` writes: shared `$defs`, three effects.
    const SAMPLE: &str = r##"{"app": "sculptor", "protocol": 1,
        "$defs": {"vec3": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}},
        "commands": {
            "list_things": {"effect": "read", "params": {"type": "object"}, "result": {}},
            "remove_thing": {"effect": "destroy", "params": {"type": "object"}, "result": {}},
            "make_thing": {"effect": "mutate", "result": {}, "params": {"type": "object", "additionalProperties": false, "required": ["kind"],
                "properties": {"kind": {"enum": ["cube", "ball"]}, "at": {"$ref": "#/$defs/vec3"}}}}
        }}"##;

    #[test]
    fn a_catalog_compiles_with_its_effects() {
        let c = BridgeCatalog::parse(SAMPLE).unwrap();
        assert_eq!((c.app.as_str(), c.protocol), ("sculptor", 1));
        assert_eq!(c.command("list_things").unwrap().effect, CommandEffect::Read);
        assert_eq!(c.command("remove_thing").unwrap().effect, CommandEffect::Destroy);
        assert!(c.command("make_thing").unwrap().effect.mutates());
        assert!(c.command("exec").is_none());
        assert_eq!(c.sha256, crate::fsutil::sha256_hex(SAMPLE.as_bytes()));
    }

    #[test]
    fn params_are_validated_with_shared_definitions() {
        let c = BridgeCatalog::parse(SAMPLE).unwrap();
        let make = c.command("make_thing").unwrap();
        assert!(make.params_errors(&json!({"kind": "cube", "at": [0, 0, 1]})).is_empty());
        let errs = make.params_errors(&json!({"kind": "teapot", "at": [0, 0], "x": 1}));
        assert!(errs.len() >= 3, "{errs:?}");
        assert!(errs.iter().any(|e| e.starts_with("/at")), "{errs:?}");
    }

    #[test]
    fn the_builtin_catalogs_are_the_registered_units() {
        let catalogs = Catalogs::builtin().unwrap();
        for unit in crate::app_units::all() {
            assert_eq!(catalogs.for_server(unit.server()).unwrap().app, unit.server());
        }
    }

    #[test]
    fn a_catalog_with_a_bad_effect_is_refused() {
        let e = BridgeCatalog::parse(r#"{"app":"x","protocol":1,"commands":{"a":{"effect":"maybe","params":{},"result":{}}}}"#)
            .err()
            .unwrap();
        assert!(e.reason.contains("effect"), "{e}");
    }
}
