"""Generate the bridge catalog and the typed Rust client (capstan-blender) from the add-on's declarations.

    $BLENDER_PYTHON scripts/bridgegen.py          # write the generated files
    $BLENDER_PYTHON scripts/bridgegen.py --check  # fail if they are stale (the test command runs this)

Run it with a Python that can `import bpy` (`capstan blender provision` prints one): the
declarations live beside their handlers (`@command` in
bridges/blender/capstan_bridge/commands/*.py), which import bpy.

Writes:
- bridges/blender/capstan_bridge/commands.json: the catalog the host embeds to gate
  what packs send (and hashes, to notice an add-on older or newer than itself);
- sdk/blender/src/commands/ (crate capstan-blender): one type per command
  (`CreateObject`, with its params and result structs) and a function per command
  (`create_object(&params)`), so that a misspelt command name or a wrong params field
  does not compile; one module per domain (the add-on module that declares the
  command: `commands/uv.py` gives `uv.rs`), `shared.rs` for the catalog's `$defs`, and
  `mod.rs` with SERVER, CATALOG_SHA256, COMMANDS and the error codes. Host-only
  commands are not in it: packs may never send them.
"""

import argparse
import json
import keyword
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bridges", "blender"))

from capstan_bridge import command, errors, protocol, schema  # noqa: E402

CATALOG = os.path.join(ROOT, "bridges", "blender", "capstan_bridge", "commands.json")
RUST_DIR = os.path.join(ROOT, "sdk", "blender", "src", "commands")

RUST_KEYWORDS = {"type", "match", "ref", "loop", "move", "box", "mod", "use", "fn", "impl", "self", "super", "crate",
                 "static", "const", "enum", "struct", "trait", "where", "async", "await", "dyn", "in", "for", "if",
                 "else", "while", "return", "break", "continue", "true", "false", "let", "mut", "pub", "unsafe",
                 "extern", "as", "override", "final", "virtual", "abstract", "yield", "try", "macro", "priv", "do"}


def pascal(text):
    return "".join(part[:1].upper() + part[1:].lower() for part in re.split(r"[^A-Za-z0-9]+", text) if part)


def field_name(name):
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if ident in RUST_KEYWORDS:
        return "r#" + ident
    return ident


def doc(text, indent=""):
    if not text:
        return ""
    return "".join("%s/// %s\n" % (indent, line) if line else "%s///\n" % indent for line in text.splitlines())


class RustGen:
    def __init__(self):
        self.items = []       # generated type definitions, in order
        self.names = set()

    def add(self, name, text):
        if name in self.names:
            raise SystemExit("bridgegen: two generated types are called %s; rename a field" % name)
        self.names.add(name)
        self.items.append(text)

    # -- types ----------------------------------------------------------------------

    def type_of(self, sch, name, kind):
        """The Rust type of schema `sch`; `name` is used for types it must define.
        `kind` is "params" (strict, serialised) or "result" (lenient, deserialised)."""
        if "$ref" in sch:
            return definition_type(sch["$ref"][len(schema.DEFINITIONS_PREFIX):])
        if "oneOf" in sch or "anyOf" in sch:
            return self.union(sch.get("oneOf") or sch.get("anyOf"), name, kind, sch.get("description"))
        types = sch.get("type")
        if isinstance(types, list):
            rest = [t for t in types if t != "null"]
            if len(rest) == 1 and "null" in types:
                inner = dict(sch, type=rest[0])
                return "Option<%s>" % self.type_of(inner, name, kind)
            return "serde_json::Value"
        if "enum" in sch:
            if types == "string" or all(isinstance(v, str) for v in sch["enum"]):
                return self.string_enum(sch["enum"], name, sch.get("description"))
            return "serde_json::Value"
        if types == "string":
            return "String"
        if types == "integer":
            return "i64"
        if types == "number":
            return "f64"
        if types == "boolean":
            return "bool"
        if types == "array":
            item = self.type_of(sch.get("items", {}), name + "Item", kind)
            if sch.get("minItems") is not None and sch.get("minItems") == sch.get("maxItems"):
                return "[%s; %d]" % (item, sch["minItems"])
            return "Vec<%s>" % item
        if types == "object":
            props = sch.get("properties", {})
            extra = sch.get("additionalProperties", True)
            if not props and isinstance(extra, dict):
                return "std::collections::BTreeMap<String, %s>" % self.type_of(extra, name + "Value", kind)
            if not props and extra is not False:
                return "serde_json::Map<String, serde_json::Value>"
            self.struct(sch, name, kind)
            return name
        return "serde_json::Value"

    def string_enum(self, values, name, description):
        variants = []
        for v in values:
            ident = pascal(v) or "Empty"
            if ident[0].isdigit():
                ident = "V" + ident
            variants.append("    #[serde(rename = %s)]\n    %s,\n" % (json.dumps(v), ident))
        text = doc(description) + "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]\npub enum %s {\n%s}\n" % (name, "".join(variants))
        self.add(name, text)
        return name

    def union(self, alternatives, name, kind, description):
        variants = []
        for i, alt in enumerate(alternatives):
            label = alt.get("$ref", "").rsplit("/", 1)[-1] or alt.get("type") or "Variant%d" % i
            ident = pascal(label if isinstance(label, str) else "Variant%d" % i)
            variants.append("    %s(%s),\n" % (ident, self.type_of(alt, name + ident, kind)))
        text = doc(description) + "#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]\n#[serde(untagged)]\npub enum %s {\n%s}\n" % (name, "".join(variants))
        self.add(name, text)
        return name

    def struct(self, sch, name, kind, own_schema=None):
        required = set(sch.get("required", []))
        fields = []
        all_optional = True
        for prop, sub in sch.get("properties", {}).items():
            rust = self.type_of(sub, name + pascal(prop), kind)
            attrs = []
            if prop not in required:
                if not rust.startswith("Option<"):
                    rust = "Option<%s>" % rust
                attrs.append("#[serde(default, skip_serializing_if = \"Option::is_none\")]")
            else:
                all_optional = False
            fields.append(doc(sub.get("description"), "    ") + "".join("    %s\n" % a for a in attrs) +
                          "    pub %s: %s,\n" % (field_name(prop), rust))
        derives = ["Debug", "Clone", "PartialEq", "Serialize", "Deserialize"]
        if own_schema is None:
            derives.append("JsonSchema")
        if all_optional:
            derives.insert(1, "Default")
        serde = "#[serde(deny_unknown_fields)]\n" if kind == "params" and sch.get("additionalProperties") is False else ""
        text = doc(sch.get("description")) + "#[derive(%s)]\n%spub struct %s {\n%s}\n" % (", ".join(derives), serde, name, "".join(fields))
        if own_schema is not None:
            # The exact schema of the catalog (ranges, lengths, patterns included), so a
            # capability that takes these params as its arguments validates them the
            # way the bridge will.
            text += (
                "\nimpl JsonSchema for %(n)s {\n"
                "    fn schema_name() -> std::borrow::Cow<'static, str> {\n        %(q)s.into()\n    }\n\n"
                "    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {\n"
                "        serde_json::from_str(%(s)s).expect(\"the catalog's schema is JSON\")\n    }\n}\n"
            ) % {"n": name, "q": json.dumps(name), "s": raw_string(json.dumps(own_schema, sort_keys=True))}
        self.add(name, text)


def raw_string(text):
    hashes = "#"
    while ('"' + hashes) in text:
        hashes += "#"
    return 'r%s"%s"%s' % (hashes, text, hashes)


def inline_refs(sch):
    """`sch` with every `$ref` replaced by its definition (a self-contained schema)."""
    if isinstance(sch, dict):
        if "$ref" in sch:
            target = schema.DEFINITIONS[sch["$ref"][len(schema.DEFINITIONS_PREFIX):]]
            merged = dict(inline_refs(target))
            merged.update({k: inline_refs(v) for k, v in sch.items() if k != "$ref"})
            return merged
        return {k: inline_refs(v) for k, v in sch.items()}
    if isinstance(sch, list):
        return [inline_refs(v) for v in sch]
    return sch


def definition_type(name):
    return pascal(name)


def definitions(gen):
    for name, sch in schema.DEFINITIONS.items():
        rust_name = definition_type(name)
        if sch.get("type") == "object":
            gen.struct(sch, rust_name, "result")
        else:
            rust = gen.type_of(sch, rust_name + "Inner", "params")
            gen.add(rust_name, doc(sch.get("description")) + "pub type %s = %s;\n" % (rust_name, rust))


def error_codes():
    lines = []
    for code in sorted(errors.CODES):
        lines.append(doc(errors.CODES[code], "    ") + "    #[serde(rename = %s)]\n    %s,\n" % (json.dumps(code), pascal(code)))
    names = "".join("            AppErrorCode::%s => %s,\n" % (pascal(c), json.dumps(c)) for c in sorted(errors.CODES))
    return (
        "/// Every error code the bridge answers with (`capstan_bridge/errors.py`).\n"
        "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]\n"
        "pub enum AppErrorCode {\n%s"
        "    /// A code this SDK does not know (an add-on newer than the SDK).\n    #[serde(other)]\n    Unknown,\n}\n\n"
        "impl AppErrorCode {\n    /// The code as the bridge spells it.\n    pub fn as_str(self) -> &'static str {\n        match self {\n%s"
        "            AppErrorCode::Unknown => \"unknown\",\n        }\n    }\n\n"
        "    /// Parse a code; unknown codes are `Unknown`.\n    pub fn parse(code: &str) -> Self {\n"
        "        serde_json::from_value(serde_json::Value::String(code.to_string())).unwrap_or(AppErrorCode::Unknown)\n    }\n}\n\n"
        "impl capstan_sdk::AppCode for AppErrorCode {\n    fn as_str(&self) -> &str {\n        AppErrorCode::as_str(*self)\n    }\n\n"
        "    fn parse(code: &str) -> Self {\n        AppErrorCode::parse(code)\n    }\n}\n"
    ) % ("".join(lines), names)


GENERATED_NOTE = (
    "GENERATED by scripts/bridgegen.py from the\n"
    "//! add-on's `@command` declarations (bridges/blender/capstan_bridge/commands/); do not\n"
    "//! edit. Run `$BLENDER_PYTHON scripts/bridgegen.py` after changing a declaration.\n"
)

PRELUDE = (
    "use capstan_sdk::BridgeError;\nuse capstan_sdk::bridge::{Command, Effect};\nuse schemars::JsonSchema;\n"
    "use serde::{Deserialize, Serialize};\n"
)


def domain_of(spec):
    """The command's domain: the add-on module that declares it (`commands/uv.py`: `uv`)."""
    return spec.handler.__module__.rsplit(".", 1)[-1]


def used_names(text, names):
    """The shared types `text` names; an enum variant of the same name (an item `RGBA`
    gives a variant `Rgba`) is not a use."""
    text = re.sub(r"(?m)^\s+[A-Za-z0-9_]+,\s*$", "", text)
    return sorted(n for n in names if re.search(r"\b%s\b" % re.escape(n), text))


def rust_client(commands, sha):
    """The typed client as files: `mod.rs` (server, catalog hash, command table, error
    codes, the domains), `shared.rs` (the catalog's `$defs`), one module per domain."""
    gen = RustGen()
    definitions(gen)
    shared_items, shared_names = gen.items, sorted(gen.names)
    domains = {}          # domain -> (blocks, type items)
    table = []
    effects = {"read": "Effect::Read", "write": "Effect::Write", "mutate": "Effect::Mutate", "destroy": "Effect::Destroy"}
    for name, spec in sorted(commands.items()):
        if spec.host_only:
            continue
        blocks, items = domains.setdefault(domain_of(spec), ([], []))
        gen.items = items
        type_name = pascal(name)
        params = type_name + "Params"
        gen.struct(spec.params, params, "params", own_schema=inline_refs(spec.params))
        result = gen.type_of(spec.result_schema(), type_name + "Result", "result")
        errs = ", ".join("AppErrorCode::%s" % pascal(c) for c in sorted(spec.errors))
        blocks.append(
            doc(spec.summary) +
            "#[derive(Debug, Clone, Copy, PartialEq, Eq)]\npub struct %(t)s;\n\n"
            "impl Command for %(t)s {\n"
            "    const SERVER: &'static str = SERVER;\n"
            "    const NAME: &'static str = %(n)s;\n"
            "    const EFFECT: Effect = %(e)s;\n"
            "    type AppCode = AppErrorCode;\n"
            "    const ERRORS: &'static [AppErrorCode] = &[%(errs)s];\n"
            "    type Params = %(p)s;\n"
            "    type Result = %(r)s;\n"
            "}\n\n"
            "%(d)s"
            "pub fn %(f)s(params: &%(p)s) -> Result<%(r)s, BridgeError> {\n"
            "    capstan_sdk::bridge::send::<%(t)s>(params)\n"
            "}\n" % {"t": type_name, "n": json.dumps(name), "e": effects[spec.effect], "errs": errs, "p": params,
                     "r": result, "f": field_name(name), "d": doc(spec.summary)}
        )
        table.append("    (%s, %s),\n" % (json.dumps(name), effects[spec.effect]))
    files = {}
    for domain, (blocks, items) in sorted(domains.items()):
        body = "\n".join(blocks) + "\n// Types of params and results.\n\n" + "\n".join(items)
        shared = used_names(body, shared_names)
        files[domain + ".rs"] = (
            "//! The `%s` commands (`commands/%s.py` in the add-on). %s\n"
            "#![allow(clippy::large_enum_variant, clippy::derive_partial_eq_without_eq)]\n\n"
            "use super::{AppErrorCode, SERVER};\n%s%s\n"
        ) % (domain, domain, GENERATED_NOTE, "use super::shared::{%s};\n" % ", ".join(shared) if len(shared) > 1 else
             "use super::shared::%s;\n" % shared[0] if shared else "", PRELUDE) + body
    files["shared.rs"] = (
        "//! Types the catalog defines once (`$defs`) and many commands use. %s\n"
        "#![allow(clippy::large_enum_variant, clippy::derive_partial_eq_without_eq)]\n\n"
        "use schemars::JsonSchema;\nuse serde::{Deserialize, Serialize};\n\n"
    ) % GENERATED_NOTE + "\n".join(shared_items)
    modules = "".join("mod %s;\n" % d for d in sorted(domains))
    exports = "".join("pub use %s::*;\n" % d for d in sorted(domains))
    files["mod.rs"] = (
        "//! The Blender bridge's commands, typed: one module per domain of the add-on\n"
        "//! (`commands/<domain>.py`), all re-exported here. %s\n"
        "use capstan_sdk::bridge::Effect;\nuse serde::{Deserialize, Serialize};\n\n"
        "mod shared;\n%s\npub use shared::*;\n%s\n"
        "/// The server these commands belong to, as a manifest's `servers` names it.\n"
        "pub const SERVER: &str = %s;\n\n"
        "/// sha256 of the catalog (`commands.json`) these types were generated from.\n"
        "pub const CATALOG_SHA256: &str = %s;\n\n"
        "/// Every command a pack may send, with its effect.\n"
        "pub const COMMANDS: &[(&str, Effect)] = &[\n%s];\n\n"
    ) % (GENERATED_NOTE, modules, exports, json.dumps(protocol.APP), json.dumps(sha), "".join(table)) + error_codes()
    return {os.path.join(RUST_DIR, name): text for name, text in files.items()}


def outputs():
    commands = command.discover()
    text = command.catalog_text(commands)
    out = {CATALOG: text}
    out.update(rust_client(commands, command.catalog_sha256(commands)))
    return out


def main(argv):
    parser = argparse.ArgumentParser(prog="bridgegen.py")
    parser.add_argument("--check", action="store_true", help="fail if a generated file is stale")
    args = parser.parse_args(argv)
    stale = []
    generated = outputs()
    # A module of a domain that no longer has commands is stale too: removed on write.
    leftovers = sorted(os.path.join(RUST_DIR, f) for f in (os.listdir(RUST_DIR) if os.path.isdir(RUST_DIR) else ())
                       if f.endswith(".rs") and os.path.join(RUST_DIR, f) not in generated)
    for path in leftovers:
        if args.check:
            stale.append(os.path.relpath(path, ROOT) + " (no longer generated)")
        else:
            os.remove(path)
            print("bridgegen: removed %s" % os.path.relpath(path, ROOT), file=sys.stderr)
    for path, text in generated.items():
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if current == text:
            continue
        if args.check:
            stale.append(os.path.relpath(path, ROOT))
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("bridgegen: wrote %s" % os.path.relpath(path, ROOT), file=sys.stderr)
    if stale:
        print("bridgegen: stale generated files: %s\n  regenerate with: $BLENDER_PYTHON scripts/bridgegen.py "
              "(capstan blender provision prints a BLENDER_PYTHON)" % ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
