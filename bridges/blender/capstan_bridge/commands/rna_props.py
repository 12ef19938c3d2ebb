"""Setting RNA properties from agent-given values, checked against the live RNA.

Modifiers and constraints have hundreds of properties across their types; listing
them in schemas would go stale with every Blender release. So the schema takes
`properties: {identifier: value}` and this module checks each against the struct's
own RNA before setting it: an unknown or read-only identifier, an enum value that is
not an item, a number outside the hard range, or an array of the wrong length is an
`invalid_params` error naming the valid choices (unlike a silent skip). Object
pointers take an object name. File-path strings are refused here: a modifier must not
be turned into a way to read or write files (the settings commands take them, and
check them with the file-reference check after setting; see settings.py).

Enum items renamed between the tested Blender lines, and items only one line has, are
in the one version table, `rna_versions`.
"""

import bpy

from ..errors import CommandError
from . import rna_versions
from .common import get_object

PATH_SUBTYPES = frozenset({"FILE_PATH", "DIR_PATH", "FILE_NAME"})
MAX_LISTED = 60


def writable(struct):
    return sorted(p.identifier for p in struct.bl_rna.properties
                  if not p.is_readonly and p.identifier != "rna_type" and p.type != "COLLECTION")


def _refuse(struct, key, why):
    return CommandError("invalid_params", "%s.%s: %s" % (struct.bl_rna.identifier, key, why))


def _object_pointer(struct, prop, key, value):
    fixed = prop.fixed_type.identifier if prop.fixed_type else ""
    if fixed != "Object" or not isinstance(value, str):
        raise _refuse(struct, key, "only object pointers can be set, by object name")
    return get_object(value)


def _enum(struct, prop, key, value):
    items = [i.identifier for i in prop.enum_items]
    if prop.is_enum_flag and not isinstance(value, list):
        raise _refuse(struct, key, "takes a list of %s" % items)
    if not prop.is_enum_flag and not isinstance(value, str):
        raise _refuse(struct, key, "takes one of %s" % items)
    values = value if prop.is_enum_flag else [value]
    if not all(isinstance(v, str) for v in values):
        raise _refuse(struct, key, "takes item identifiers (strings) of %s" % items)
    owner = struct.bl_rna.identifier
    values = [rna_versions.enum_item(owner, key, v, items) for v in values]
    # A property whose items depend on the data (dynamic enums) lists none statically;
    # Blender checks those itself when the value is set.
    bad = [v for v in values if v not in items] if items else []
    if bad:
        raise _refuse(struct, key, "%r is not one of %s in Blender %s%s" % (
            bad[0], items, bpy.app.version_string, rna_versions.missing_item_note(owner, key, bad[0])))
    return set(values) if prop.is_enum_flag else values[0]


def check_value(struct, prop, key, value, pointer=_object_pointer, file_paths=False):
    """The Python value to set for the agent's `value`, checked against `prop`'s RNA.
    `pointer(struct, prop, key, value)` resolves pointer values; `file_paths`: whether
    strings with a file-path subtype are taken (the caller then checks them)."""
    kind = prop.type
    if kind == "POINTER":
        return pointer(struct, prop, key, value)
    if kind == "ENUM":
        return _enum(struct, prop, key, value)
    if kind == "STRING":
        if prop.subtype in PATH_SUBTYPES and not file_paths:
            raise _refuse(struct, key, "file paths cannot be set through this command")
        if not isinstance(value, str):
            raise _refuse(struct, key, "takes a string")
        if prop.length_max > 0 and len(value.encode("utf-8")) >= prop.length_max:
            raise _refuse(struct, key, "takes at most %d bytes" % (prop.length_max - 1))
        return value
    if kind not in ("BOOLEAN", "INT", "FLOAT"):
        raise _refuse(struct, key, "a %s property cannot be set" % kind.lower())
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


def settable(struct, key):
    """The RNA property `key` of `struct` that an agent may set, else invalid_params."""
    prop = struct.bl_rna.properties.get(key)
    if prop is None or key == "rna_type":
        note = rna_versions.missing_property_note(struct.bl_rna.identifier, key)
        raise _refuse(struct, key, "no such property in Blender %s%s; settable ones: %s" % (
            bpy.app.version_string, note, ", ".join(writable(struct)[:MAX_LISTED])))
    if prop.is_readonly:
        raise _refuse(struct, key, "read-only")
    return prop


def apply(struct, properties):
    """Check every property first, then set them all; returns what was set, read back."""
    checked = []
    for key, value in properties.items():
        prop = settable(struct, key)
        checked.append((key, check_value(struct, prop, key, value)))
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
