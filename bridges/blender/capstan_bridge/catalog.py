"""The bridge command catalog (commands.json beside this file) and a validator for
the JSON Schema subset it uses.

The validator fails closed: a schema keyword it does not know raises, so a catalog
that grows a keyword cannot silently weaken validation here. The host validates with
a full JSON Schema implementation; both read the same file.
"""

import json
import os
import re

CATALOG_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "commands.json")

_KNOWN = {
    "type", "enum", "required", "properties", "additionalProperties", "minProperties",
    "items", "minItems", "maxItems", "minimum", "maximum", "exclusiveMinimum",
    "minLength", "maxLength", "pattern", "$ref", "description",
}

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


class SchemaError(Exception):
    """The catalog itself is malformed or uses an unsupported keyword."""


class Catalog:
    def __init__(self, doc):
        self.protocol = doc["protocol"]
        self.app = doc["app"]
        self.definitions = doc.get("definitions", {})
        self.commands = doc["commands"]

    @classmethod
    def load(cls, path=CATALOG_PATH):
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f))

    def effect(self, command):
        return self.commands[command]["effect"]

    def validate(self, command, params):
        """Every schema violation of `params` for `command`, as 'path: message' strings."""
        errors = []
        self._check(self.commands[command]["params"], params, "", errors)
        return errors

    def _resolve(self, schema):
        ref = schema.get("$ref")
        if ref is None:
            return schema
        prefix = "#/definitions/"
        if not ref.startswith(prefix) or ref[len(prefix):] not in self.definitions:
            raise SchemaError("unresolvable $ref %r" % ref)
        merged = dict(self._resolve(self.definitions[ref[len(prefix):]]))
        merged.update({k: v for k, v in schema.items() if k != "$ref"})
        return merged

    def _check(self, schema, value, path, errors):
        schema = self._resolve(schema)
        unknown = set(schema) - _KNOWN
        if unknown:
            raise SchemaError("unsupported schema keywords %s" % sorted(unknown))
        where = path or "/"
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(_TYPES[t](value) for t in types):
                errors.append("%s: expected %s" % (where, " or ".join(types)))
                return
        if "enum" in schema and value not in schema["enum"]:
            errors.append("%s: %r is not one of %s" % (where, value, schema["enum"]))
        if isinstance(value, dict):
            for key in schema.get("required", []):
                if key not in value:
                    errors.append("%s: %r is required" % (where, key))
            if len(value) < schema.get("minProperties", 0):
                errors.append("%s: needs at least %d properties" % (where, schema["minProperties"]))
            props = schema.get("properties", {})
            for key, item in value.items():
                if key in props:
                    self._check(props[key], item, "%s/%s" % (path, key), errors)
                elif schema.get("additionalProperties", True) is False:
                    errors.append("%s: unknown property %r" % (where, key))
        if isinstance(value, list):
            if len(value) < schema.get("minItems", 0):
                errors.append("%s: needs at least %d items" % (where, schema["minItems"]))
            if "maxItems" in schema and len(value) > schema["maxItems"]:
                errors.append("%s: allows at most %d items" % (where, schema["maxItems"]))
            if "items" in schema:
                for i, item in enumerate(value):
                    self._check(schema["items"], item, "%s/%d" % (path, i), errors)
        if _TYPES["number"](value):
            if "minimum" in schema and value < schema["minimum"]:
                errors.append("%s: %r is less than %r" % (where, value, schema["minimum"]))
            if "maximum" in schema and value > schema["maximum"]:
                errors.append("%s: %r is more than %r" % (where, value, schema["maximum"]))
            if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
                errors.append("%s: %r must be more than %r" % (where, value, schema["exclusiveMinimum"]))
        if isinstance(value, str):
            if len(value) < schema.get("minLength", 0):
                errors.append("%s: shorter than %d characters" % (where, schema["minLength"]))
            if "maxLength" in schema and len(value) > schema["maxLength"]:
                errors.append("%s: longer than %d characters" % (where, schema["maxLength"]))
            if "pattern" in schema and not re.search(schema["pattern"], value):
                errors.append("%s: does not match %s" % (where, schema["pattern"]))
