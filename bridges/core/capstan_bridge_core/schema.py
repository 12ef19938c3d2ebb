"""JSON Schemas of bridge commands: the helpers declarations are written with, the
shared definitions, and the validator the add-on checks requests with.

The schemas use a small subset of JSON Schema 2020-12 (`KEYWORDS`). The host validates
the same schemas with a full implementation; the subset keeps the two in agreement:

- the validator fails closed: a keyword outside the subset raises `SchemaError`, so a
  declaration cannot silently weaken validation here;
- `scripts/bridgegen.py` refuses to write a catalog that uses any other keyword, so the
  host never accepts a schema this validator cannot check;
- both sides run the shared vectors in `bridges/blender/schema_vectors.json` (a pytest
  here, a cargo test on the host), so "valid" means the same on both sides. Where the
  subset's natural Python reading differs from JSON Schema, JSON Schema wins: `1.0` is an
  integer, `true` is not a number, lengths count code points.

Nothing here imports bpy.
"""

import math
import re

KEYWORDS = frozenset({
    "type", "enum", "const", "required", "properties", "additionalProperties", "minProperties",
    "maxProperties", "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "$ref",
    "description", "title", "default", "oneOf", "anyOf", "allOf", "if", "then",
})

DEFINITIONS_PREFIX = "#/$defs/"


class SchemaError(Exception):
    """A declaration is malformed or uses a keyword outside the subset."""


# -- helpers for declarations ---------------------------------------------------------

def ref(name):
    return {"$ref": DEFINITIONS_PREFIX + name}


def obj(properties=None, required=(), description=None, additional=False, min_properties=None):
    """An object schema; unknown properties are refused unless `additional`."""
    schema = {"type": "object", "properties": dict(properties or {})}
    if required:
        schema["required"] = list(required)
        missing = [r for r in required if r not in schema["properties"]]
        if missing:
            raise SchemaError("required properties %s are not declared" % missing)
    if additional is False:
        schema["additionalProperties"] = False
    elif additional is not True:
        schema["additionalProperties"] = additional
    if min_properties is not None:
        schema["minProperties"] = min_properties
    return _described(schema, description)


def string(min_length=None, max_length=None, pattern=None, description=None):
    schema = {"type": "string"}
    if min_length is not None:
        schema["minLength"] = min_length
    if max_length is not None:
        schema["maxLength"] = max_length
    if pattern is not None:
        re.compile(pattern)
        schema["pattern"] = pattern
    return _described(schema, description)


def number(minimum=None, maximum=None, exclusive_minimum=None, description=None, integer=False):
    schema = {"type": "integer" if integer else "number"}
    for key, value in (("minimum", minimum), ("maximum", maximum), ("exclusiveMinimum", exclusive_minimum)):
        if value is not None:
            schema[key] = value
    return _described(schema, description)


def integer(minimum=None, maximum=None, description=None):
    return number(minimum, maximum, description=description, integer=True)


def boolean(description=None):
    return _described({"type": "boolean"}, description)


def enum(values, description=None):
    values = list(values)
    kinds = {type(v) for v in values}
    schema = {"type": "string", "enum": values} if kinds == {str} else {"enum": values}
    return _described(schema, description)


def array(items, min_items=None, max_items=None, description=None):
    schema = {"type": "array", "items": items}
    if min_items is not None:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    return _described(schema, description)


def nullable(schema):
    """`schema` or null (for result fields that may be absent in the scene)."""
    out = dict(schema)
    kind = out.get("type")
    if kind is None:
        raise SchemaError("nullable() needs a schema with a type")
    out["type"] = [kind, "null"] if isinstance(kind, str) else list(kind) + ["null"]
    return out


def one_of(*schemas, description=None):
    return _described({"oneOf": list(schemas)}, description)


def any_of(*schemas, description=None):
    """One or more of `schemas` (for alternatives that overlap, such as integer and number)."""
    return _described({"anyOf": list(schemas)}, description)


def needs_by_value(schema, field, rules):
    """Each value of the enum `field` needs the properties listed with it: `rules` maps a
    value to a tuple of names (`if {field: value} then {required: names}`, under
    `allOf`). Where `field` has a default, its rule holds when `field` is absent too.
    The SDK's `capstan_sdk::schema_rules::needs_by_value` writes the same shape."""
    default = schema["properties"][field].get("default")
    for value, needs in rules.items():
        missing = [n for n in needs if n not in schema["properties"]]
        if missing:
            raise SchemaError("rule for %s=%s names undeclared properties %s" % (field, value, missing))
        condition = {"properties": {field: {"const": value}}}
        if value != default:
            condition["required"] = [field]
        add_rule(schema, {"if": condition, "then": {"required": list(needs)}})
    return schema


def add_rule(schema, rule):
    """Any other rule between properties (a schema in the subset), under `allOf`."""
    schema.setdefault("allOf", []).append(rule)
    return schema


def require_any(schema, fields):
    """At least one of `fields` is given (`anyOf` of `required`, under `allOf`)."""
    return add_rule(schema, {"anyOf": [{"required": [f]} for f in fields]})


def any_value(description=None):
    """Any JSON value (only for result fields whose shape is Blender's, such as RNA values)."""
    return _described({}, description)


def _described(schema, description):
    if description:
        schema["description"] = description
    return schema


def vector(length, item=None):
    item = item or {"type": "number"}
    return {"type": "array", "items": item, "minItems": length, "maxItems": length}


# -- shared definitions ---------------------------------------------------------------
# Referenced as ref("name"). Names become Rust type names in the SDK's typed client.

NAME_MAX = 63

DEFINITIONS = {
    "vec3": dict(vector(3), description="[x, y, z]"),
    "positive_vec3": dict(vector(3, {"type": "number", "exclusiveMinimum": 0}), description="[x, y, z], each above 0"),
    "rgba": dict(vector(4, {"type": "number", "minimum": 0, "maximum": 1}), description="Linear [r, g, b, a] in 0..1"),
    "color3": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}, "minItems": 3, "maxItems": 4,
               "description": "Linear [r, g, b] (an alpha is ignored) in 0..1"},
    "object_name": string(1, NAME_MAX, description="Exact object name"),
    "datablock_name": string(1, NAME_MAX, description="Exact datablock name"),
    "delta": obj(
        {
            "added": array(string(), description="Objects that exist now and did not before"),
            "removed": array(string(), description="Objects that existed before and do not now"),
            "changed": array(string(), description="Objects that exist before and after and differ"),
            "fields": obj(additional=array(string()), description="For each changed object, which aspects changed"),
            "renamed": obj(additional=string(), description="New name -> old name of renamed objects"),
            "datablocks": obj(additional=obj({
                "added": array(string()), "removed": array(string()), "changed": array(string()),
            }), description="Materials, worlds, collections, ... added, removed or changed, by kind"),
            "settings": array(string(), description="Scene-level domains that changed: render, world, scene, ..."),
        },
        required=("added", "removed", "changed", "settings"),
        description="What a mutating command changed, computed by the bridge from what it touched",
    ),
}


# -- validation -----------------------------------------------------------------------

def _is_integer(v):
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    return isinstance(v, float) and math.isfinite(v) and v == int(v)


_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": _is_integer,
    # Finite only: NaN passes every minimum and maximum (comparisons with it are false).
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and (not isinstance(v, float) or math.isfinite(v)),
    "null": lambda v: v is None,
}


def _json_equal(a, b):
    """Equality as JSON Schema's `enum`/`const` define it (1 == 1.0, True != 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


class Validator:
    """Validates instances against schemas that may `$ref` the given definitions."""

    def __init__(self, definitions):
        self.definitions = definitions

    def errors(self, schema, value):
        """Every violation, as 'path: message' strings (empty when valid)."""
        out = []
        self._check(schema, value, "", out)
        return out

    def normalize(self, schema, value):
        """`value` with integral floats turned into ints wherever the schema says
        integer (JSON Schema counts 1.0 as an integer; Blender's int properties do not
        take floats). Call on valid values only."""
        if "$ref" in schema:
            value = self.normalize(self._definition(schema["$ref"]), value)
        kinds = schema.get("type")
        kinds = [kinds] if isinstance(kinds, str) else (kinds or [])
        if isinstance(value, float) and "integer" in kinds and "number" not in kinds and _is_integer(value):
            return int(value)
        if isinstance(value, dict):
            props = schema.get("properties", {})
            extra = schema.get("additionalProperties")
            return {k: self.normalize(props[k], v) if k in props else (self.normalize(extra, v) if isinstance(extra, dict) else v) for k, v in value.items()}
        if isinstance(value, list):
            prefix = schema.get("prefixItems", [])
            items = schema.get("items")
            return [self.normalize(prefix[i], v) if i < len(prefix) else (self.normalize(items, v) if isinstance(items, dict) else v) for i, v in enumerate(value)]
        return value

    def check_keywords(self, schema, where="schema"):
        """Raise SchemaError if any (nested) schema uses a keyword outside the subset."""
        if not isinstance(schema, dict):
            raise SchemaError("%s: a schema must be an object" % where)
        unknown = set(schema) - KEYWORDS
        if unknown:
            raise SchemaError("%s: keywords outside capstan's subset: %s" % (where, sorted(unknown)))
        if "$ref" in schema:
            self._definition(schema["$ref"])
        for name, sub in schema.get("properties", {}).items():
            self.check_keywords(sub, "%s/properties/%s" % (where, name))
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                self.check_keywords(schema[key], "%s/%s" % (where, key))
        for key in ("oneOf", "anyOf", "allOf", "prefixItems"):
            for i, sub in enumerate(schema.get(key, [])):
                self.check_keywords(sub, "%s/%s/%d" % (where, key, i))
        for key in ("if", "then"):
            if key in schema:
                self.check_keywords(schema[key], "%s/%s" % (where, key))

    def _definition(self, ref_text):
        if not isinstance(ref_text, str) or not ref_text.startswith(DEFINITIONS_PREFIX):
            raise SchemaError("unresolvable $ref %r" % (ref_text,))
        name = ref_text[len(DEFINITIONS_PREFIX):]
        if name not in self.definitions:
            raise SchemaError("unresolvable $ref %r" % ref_text)
        return self.definitions[name]

    def _check(self, schema, value, path, errors):
        if not isinstance(schema, dict):
            raise SchemaError("%s: a schema must be an object" % (path or "/"))
        unknown = set(schema) - KEYWORDS
        if unknown:
            raise SchemaError("unsupported schema keywords %s" % sorted(unknown))
        where = path or "/"
        if "$ref" in schema:
            # 2020-12: $ref applies beside the other keywords of the same schema.
            self._check(self._definition(schema["$ref"]), value, path, errors)
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(_TYPES[t](value) for t in types):
                errors.append("%s: expected %s" % (where, " or ".join(types)))
                return
        if "enum" in schema and not any(_json_equal(value, e) for e in schema["enum"]):
            errors.append("%s: %r is not one of %s" % (where, value, schema["enum"]))
        if "const" in schema and not _json_equal(value, schema["const"]):
            errors.append("%s: must be %r" % (where, schema["const"]))
        for key in ("oneOf", "anyOf"):
            if key in schema:
                matching = sum(1 for sub in schema[key] if not self.errors(sub, value))
                if (key == "oneOf" and matching != 1) or (key == "anyOf" and matching == 0):
                    errors.append("%s: matches %d of the %s alternatives" % (where, matching, key))
        for sub in schema.get("allOf", []):
            self._check(sub, value, path, errors)
        if "then" in schema and "if" in schema and not self.errors(schema["if"], value):
            self._check(schema["then"], value, path, errors)
        if isinstance(value, dict):
            self._check_object(schema, value, path, where, errors)
        if isinstance(value, list):
            self._check_array(schema, value, path, where, errors)
        if _TYPES["number"](value):
            if "minimum" in schema and value < schema["minimum"]:
                errors.append("%s: %r is less than %r" % (where, value, schema["minimum"]))
            if "maximum" in schema and value > schema["maximum"]:
                errors.append("%s: %r is more than %r" % (where, value, schema["maximum"]))
            if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
                errors.append("%s: %r must be more than %r" % (where, value, schema["exclusiveMinimum"]))
            if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
                errors.append("%s: %r must be less than %r" % (where, value, schema["exclusiveMaximum"]))
        if isinstance(value, str):
            if len(value) < schema.get("minLength", 0):
                errors.append("%s: shorter than %d characters" % (where, schema["minLength"]))
            if "maxLength" in schema and len(value) > schema["maxLength"]:
                errors.append("%s: longer than %d characters" % (where, schema["maxLength"]))
            if "pattern" in schema and not re.search(schema["pattern"], value):
                errors.append("%s: does not match %s" % (where, schema["pattern"]))

    def _check_object(self, schema, value, path, where, errors):
        for key in schema.get("required", []):
            if key not in value:
                errors.append("%s: %r is required" % (where, key))
        if len(value) < schema.get("minProperties", 0):
            errors.append("%s: needs at least %d properties" % (where, schema["minProperties"]))
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            errors.append("%s: allows at most %d properties" % (where, schema["maxProperties"]))
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                self._check(props[key], item, "%s/%s" % (path, key), errors)
            elif extra is False:
                errors.append("%s: unknown property %r" % (where, key))
            elif isinstance(extra, dict):
                self._check(extra, item, "%s/%s" % (path, key), errors)

    def _check_array(self, schema, value, path, where, errors):
        if len(value) < schema.get("minItems", 0):
            errors.append("%s: needs at least %d items" % (where, schema["minItems"]))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append("%s: allows at most %d items" % (where, schema["maxItems"]))
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            if i < len(prefix):
                self._check(prefix[i], item, "%s/%d" % (path, i), errors)
            elif isinstance(schema.get("items"), dict):
                self._check(schema["items"], item, "%s/%d" % (path, i), errors)
