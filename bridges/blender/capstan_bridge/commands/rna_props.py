"""Setting RNA properties from agent-given values, checked against the live RNA.

Modifiers and constraints have hundreds of properties across their types; listing
them in schemas would go stale with every Blender release. So the schema takes
`properties: {identifier: value}` and this module checks each against the struct's
own RNA before setting it: an unknown or read-only identifier, an enum value that is
not an item, a number outside the hard range, or an array of the wrong length is an
`invalid_params` error naming the valid choices (unlike a silent skip). Object
pointers take an object name. File-path strings are refused: a modifier must not be
turned into a way to read or write files.
"""

import bpy

from ..errors import CommandError
from .common import get_object

PATH_SUBTYPES = frozenset({"FILE_PATH", "DIR_PATH", "FILE_NAME"})
# Enum items Blender 5.0 renamed, per (struct, property): an item given in either tested
# line's words (4.5 LTS or 5.2 LTS) sets the same choice in both.
RENAMED_ENUM_ITEMS = {
    ("BooleanModifier", "solver"): {"FLOAT": "FAST", "FAST": "FLOAT"},
}


def writable(struct):
    return sorted(p.identifier for p in struct.bl_rna.properties
                  if not p.is_readonly and p.identifier != "rna_type" and p.type != "COLLECTION")


def _refuse(struct, key, why):
    return CommandError("invalid_params", "%s.%s: %s" % (struct.bl_rna.identifier, key, why))


def _value(struct, prop, key, value):
    kind = prop.type
    if kind == "POINTER":
        fixed = prop.fixed_type.identifier if prop.fixed_type else ""
        if fixed != "Object" or not isinstance(value, str):
            raise _refuse(struct, key, "only object pointers can be set, by object name")
        return get_object(value)
    if kind == "ENUM":
        items = [i.identifier for i in prop.enum_items]
        values = value if prop.is_enum_flag and isinstance(value, list) else [value]
        if prop.is_enum_flag != isinstance(value, list) and prop.is_enum_flag:
            raise _refuse(struct, key, "takes a list of %s" % items)
        renamed = RENAMED_ENUM_ITEMS.get((struct.bl_rna.identifier, key), {})
        values = [renamed.get(v, v) if isinstance(v, str) and v not in items else v for v in values]
        value = values if prop.is_enum_flag else values[0]
        bad = [v for v in values if v not in items]
        if bad:
            raise _refuse(struct, key, "%r is not one of %s" % (bad[0], items))
        return set(values) if prop.is_enum_flag else value
    if kind == "STRING":
        if prop.subtype in PATH_SUBTYPES:
            raise _refuse(struct, key, "file paths cannot be set through capstan")
        if not isinstance(value, str):
            raise _refuse(struct, key, "takes a string")
        return value
    length = prop.array_length if getattr(prop, "is_array", False) else 0
    values = value if isinstance(value, list) else [value]
    if length and len(values) != length:
        raise _refuse(struct, key, "takes %d values" % length)
    if not length and isinstance(value, list):
        raise _refuse(struct, key, "takes one value")
    out = []
    for v in values:
        if kind == "BOOLEAN":
            if not isinstance(v, bool):
                raise _refuse(struct, key, "takes true or false")
        else:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise _refuse(struct, key, "takes a number")
            if kind == "INT":
                if v != int(v):
                    raise _refuse(struct, key, "takes an integer")
                v = int(v)
            if v < prop.hard_min or v > prop.hard_max:
                raise _refuse(struct, key, "%r is outside %r..%r" % (v, prop.hard_min, prop.hard_max))
        out.append(v)
    return out if length else out[0]


def apply(struct, properties):
    """Check every property first, then set them all; returns what was set, read back."""
    checked = []
    for key, value in properties.items():
        prop = struct.bl_rna.properties.get(key)
        if prop is None or key == "rna_type":
            raise _refuse(struct, key, "no such property; settable ones: %s" % ", ".join(writable(struct)[:60]))
        if prop.is_readonly:
            raise _refuse(struct, key, "read-only")
        checked.append((key, _value(struct, prop, key, value)))
    for key, value in checked:
        try:
            setattr(struct, key, value)
        except (TypeError, ValueError, AttributeError) as e:
            raise _refuse(struct, key, str(e))
    return {key: read(getattr(struct, key)) for key, _ in checked}


def read(value):
    if isinstance(value, bpy.types.ID):
        return value.name
    if isinstance(value, float):
        return round(value, 5)
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, set):
        return sorted(value)
    try:
        return [read(v) for v in value]
    except TypeError:
        return repr(value)
