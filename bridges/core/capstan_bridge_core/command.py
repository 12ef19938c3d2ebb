"""One declaration per bridge command: `@command(...)` beside its handler.

The declaration is the only place a command's name (the handler's name), effect,
params schema, result schema, error codes and limits are written. Everything else
comes from it:

- the bridge's registry: `discover(app)` imports every module of the app's commands
  package (`App.commands_package`: `capstan_bridge.commands`, `capstan_freecad.commands`)
  and collects the declared handlers; nothing is listed by hand;
- the catalog the host embeds (`commands.json`) and the SDK's typed Rust client
  (crates capstan-blender and capstan-freecad, `sdk/<app>/src/commands/`), both written
  by `scripts/bridgegen.py --app <app>` from `catalog_document()`; the test command
  runs the generator with `--check`, so a declaration and the generated files cannot
  drift apart;
- `/ping` reports `catalog_sha256()` of the commands this bridge serves, so the host
  sees a bridge older or newer than itself.

Effects: `read` changes nothing (and reports no delta), `write` only writes files into
the session output folder, `mutate` changes document data (the bridge reports the delta
of what it touched), `destroy` removes data or rewrites it so that one inverse call
cannot restore it. Nothing here imports the app (bpy, FreeCAD).

`concurrent`: the command is answered on the request's own thread, beside whatever the
main thread is doing (a render that holds it for minutes). Only a command that reads the
bridge's own thread-safe state may say so (a render's progress): it never touches the
app's data, which only the main thread may read or change.
"""

import hashlib
import importlib
import json
import pkgutil

from . import errors, protocol, schema

EFFECTS = ("read", "write", "mutate", "destroy")

CATALOG_DOC = ("effect: read (no state change), write (writes files into the session output folder, changes no %(data)s), "
               "mutate (changes %(data)s; the answer carries the delta), destroy (removes or rewrites data). "
               "timeout_s: how long the host waits for the answer (default 30). max_result_bytes: the largest answer "
               "the host accepts (default 1 MiB). host_only: sent by capstan itself, never by a pack. "
               "concurrent: answered beside the main thread's work (reads the bridge's own state only).")

_DECLARED = {}


class Command:
    def __init__(self, name, handler, effect, summary, params, result, errors_, timeout_s, host_only, max_result_bytes, full_delta, concurrent=False):
        self.name = name
        self.handler = handler
        self.effect = effect
        self.summary = summary
        self.params = params
        self.result = result
        self.errors = tuple(errors_)
        self.timeout_s = timeout_s
        self.host_only = host_only
        self.max_result_bytes = max_result_bytes
        self.full_delta = full_delta
        self.concurrent = concurrent

    @property
    def mutates(self):
        """It changes document data (and answers with the delta); `write` only writes files."""
        return self.effect in ("mutate", "destroy")

    def result_schema(self):
        """The declared result, plus the delta every mutating command reports."""
        if not self.mutates:
            return self.result
        out = dict(self.result)
        out["properties"] = dict(out.get("properties", {}), delta=schema.ref("delta"))
        out["required"] = list(out.get("required", [])) + ["delta"]
        return out

    def document(self):
        doc = {
            "effect": self.effect,
            "summary": self.summary,
            "params": self.params,
            "result": self.result_schema(),
            "errors": sorted(self.errors),
        }
        if self.timeout_s is not None:
            doc["timeout_s"] = self.timeout_s
        if self.host_only:
            doc["host_only"] = True
        if self.max_result_bytes is not None:
            doc["max_result_bytes"] = self.max_result_bytes
        if self.full_delta:
            doc["full_delta"] = True
        if self.concurrent:
            doc["concurrent"] = True
        return doc


def command(effect, summary, params, result, errors=(), timeout_s=None, host_only=False, max_result_bytes=None, full_delta=False, concurrent=False):
    """Declare the decorated function `name(ctx, params) -> dict` as bridge command `name`.

    `full_delta`: the command cannot say what it touches (it runs a script, or loads a
    file), so its delta comes from a whole-scene snapshot before and after: O(scene),
    on purpose and only for such commands."""
    if effect not in EFFECTS:
        raise schema.SchemaError("effect must be one of %s" % (EFFECTS,))
    if not summary or len(summary) > 200:
        raise schema.SchemaError("a command needs a one-line summary of at most 200 characters")
    for code in errors:
        if code not in _errors_table():
            raise schema.SchemaError("error code %r is not in the app's error table (errors.py)" % code)
    if params.get("type") != "object" or result.get("type") != "object":
        raise schema.SchemaError("params and result must be object schemas")
    if concurrent and (effect != "read" or not host_only):
        raise schema.SchemaError("only a host-only read of the bridge's own state may be concurrent")

    def register(handler):
        name = handler.__name__
        if name in _DECLARED and _DECLARED[name].handler is not handler:
            raise schema.SchemaError("bridge command %r is declared twice" % name)
        _DECLARED[name] = Command(name, handler, effect, summary, params, result, errors, timeout_s, host_only, max_result_bytes, full_delta, concurrent)
        return handler

    return register


def _errors_table():
    return errors.CODES


def discover(app, without=()):
    """Every declared command of the app's commands package, by name (imports the
    command modules). `without` drops commands, to stand in for an older bridge in
    tests (`CAPSTAN_BRIDGE_WITHOUT_COMMANDS`)."""
    package = importlib.import_module(app.commands_package)

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module("%s.%s" % (package.__name__, info.name))
    return {name: spec for name, spec in sorted(_DECLARED.items()) if name not in set(without)}


def catalog_document(app, commands):
    validator = schema.Validator(schema.DEFINITIONS)
    for name, spec in commands.items():
        validator.check_keywords(spec.params, "%s/params" % name)
        validator.check_keywords(spec.result_schema(), "%s/result" % name)
    for name, definition in schema.DEFINITIONS.items():
        validator.check_keywords(definition, "$defs/%s" % name)
    return {
        "generated": "by scripts/bridgegen.py from the @command declarations in %s; do not edit" % app.declared_in,
        "protocol": protocol.PROTOCOL,
        "app": app.name,
        "doc": "The capstan-bridge/1 command catalog for %s. %s" % (app.display_name, CATALOG_DOC % {"data": app.data_noun}),
        "$defs": schema.DEFINITIONS,
        "error_codes": errors.CODES,
        "protocol_error_codes": sorted(errors.PROTOCOL_CODES),
        "commands": {name: spec.document() for name, spec in sorted(commands.items())},
    }


def catalog_text(app, commands):
    """The catalog exactly as `commands.json` holds it."""
    return json.dumps(catalog_document(app, commands), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def catalog_sha256(app, commands):
    return hashlib.sha256(catalog_text(app, commands).encode("utf-8")).hexdigest()


def bind(app):
    """`discover`, `catalog_document`, `catalog_text` and `catalog_sha256` for one app,
    as its `command.py` exports them (`app.App`)."""

    def discover_app(without=()):
        return discover(app, without)

    return (discover_app, lambda commands: catalog_document(app, commands),
            lambda commands: catalog_text(app, commands), lambda commands: catalog_sha256(app, commands))
