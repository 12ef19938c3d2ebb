"""Reading and setting any setting the UI exposes, by RNA path on a named target.

`read_settings` answers each value with its RNA facts (type, enum items, range,
default), so an agent sees what this Blender allows; a path ending in `*` lists every
property of that struct. `set_settings` sets several paths in one call (one undo step):
each value is checked against the live RNA (`rna_props.check_value`) just before it is
set, in order (a file format decides which colour depths exist), and the first refusal
restores everything set before it.

Pointer properties take another datablock by name, looked up in the `bpy.data`
collection of the pointer's type. Strings with a file-path subtype are set and then
judged by the containment check (`file_refs` + `file_refs_check.problems`, the one
scanner): a new reference outside the read roots or the output folder, or a path the
scanner does not see and so cannot judge, restores every value and is refused with the
reference named. Properties driven by a driver are refused (the driver would overwrite
them); nothing is evaluated as Python.
"""

import bpy

from .. import file_refs, file_refs_check
from ..core import schema as s
from ..command import command
from ..errors import CommandError, not_found
from . import rna_props, rna_versions
from .rna_paths import KINDS, resolve_path, resolve_target

MAX_PATHS = 64
MAX_LISTED = 400
MAX_ITEMS = 64

TARGET = s.obj({
    "kind": s.enum(KINDS),
    "name": s.string(1, 63, description="The object (object, its data, rigid body), datablock, view layer or constraint/modifier name"),
    "object": s.string(1, 63, description="constraint, modifier: the object that has it"),
}, required=("kind",), description="What the paths start from")
PATH = s.string(1, 256, description='Dotted RNA identifiers from the target (render.image_settings.file_format), ["key"] for a custom property, * to list')
VALUE = s.any_value(description="A number, boolean, string, enum item (list for flags), array, or a datablock name for pointers")

FACTS = s.obj({
    "type": s.string(), "subtype": s.string(), "read_only": s.boolean(), "array_length": s.integer(0),
    "description": s.string(), "enum_items": s.array(s.string(), max_items=MAX_ITEMS), "enum_flag": s.boolean(),
    "min": s.nullable(s.number()), "max": s.nullable(s.number()), "soft_min": s.nullable(s.number()),
    "soft_max": s.nullable(s.number()), "default": s.any_value(), "fixed_type": s.string(),
}, required=("type", "read_only"))
VALUE_ROW = s.obj({"path": s.string(), "value": s.any_value(), "facts": FACTS}, required=("path", "value", "facts"))


def _number(v):
    return None if v is None or v != v or abs(v) > 1e30 else round(float(v), 6)


def facts(prop):
    out = {"type": prop.type, "subtype": prop.subtype, "read_only": prop.is_readonly,
           "array_length": getattr(prop, "array_length", 0), "description": prop.description}
    if prop.type in ("INT", "FLOAT"):
        out.update(min=_number(prop.hard_min), max=_number(prop.hard_max),
                   soft_min=_number(prop.soft_min), soft_max=_number(prop.soft_max))
    if prop.type in ("INT", "FLOAT", "BOOLEAN"):
        default = list(prop.default_array) if out["array_length"] else prop.default
        out["default"] = rna_props.read(default)
    if prop.type == "STRING":
        out["default"] = prop.default
    if prop.type == "ENUM":
        out["enum_items"] = [i.identifier for i in prop.enum_items][:MAX_ITEMS]
        out["enum_flag"] = prop.is_enum_flag
        out["default"] = sorted(prop.default_flag) if prop.is_enum_flag else prop.default
    if prop.type in ("POINTER", "COLLECTION") and prop.fixed_type is not None:
        out["fixed_type"] = prop.fixed_type.identifier
    return out


def _is_id(prop):
    cls = getattr(bpy.types, prop.fixed_type.identifier, None) if prop.fixed_type is not None else None
    return isinstance(cls, type) and issubclass(cls, bpy.types.ID)


def _value(struct, prop):
    if prop.type == "COLLECTION" or (prop.type == "POINTER" and not _is_id(prop)):
        return None  # a group of settings: read `path.*` (never read here: see rna_paths.unstored_group)
    if struct is None:  # inside a group that holds nothing yet: its default
        return facts(prop).get("default")
    return rna_props.read(getattr(struct, prop.identifier))


def _custom_facts(value):
    kind = {bool: "BOOLEAN", int: "INT", float: "FLOAT", str: "STRING"}.get(type(value), "ARRAY")
    return {"type": kind, "read_only": False, "description": "custom property"}


def _read_one(target, path):
    r = resolve_path(target, path, reading=True)
    if r.custom is not None:
        if r.custom not in r.struct.keys():
            raise not_found("custom property on %s" % target.label, r.custom)
        value = rna_props.read(r.struct[r.custom])
        return [{"path": path, "value": value, "facts": _custom_facts(r.struct[r.custom])}]
    if r.listing:
        prefix = path[:-1]
        props = [p for p in r.rna.properties if p.identifier != "rna_type"][:MAX_LISTED]
        return [{"path": prefix + p.identifier, "value": _value(r.struct, p), "facts": facts(p)} for p in props]
    return [{"path": path, "value": _value(r.struct, r.prop), "facts": facts(r.prop)}]


@command(
    effect="read",
    summary="Read settings by RNA path on a target: each value with its type, enum items, range and default; path.* lists a struct.",
    params=s.obj({"target": TARGET, "read": s.array(PATH, 1, MAX_PATHS)}, required=("target", "read")),
    result=s.obj({"target": s.string(), "version": s.string(), "values": s.array(VALUE_ROW, max_items=MAX_LISTED * 4)},
                 required=("target", "version", "values")),
    errors=("not_found", "invalid_target", "invalid_params"),
    max_result_bytes=4 * 1024 * 1024,
)
def read_settings(ctx, params):
    target = resolve_target(params["target"])
    rows = []
    for path in params["read"]:
        rows.extend(_read_one(target, path))
    return {"target": target.label, "version": bpy.app.version_string, "values": rows[:MAX_LISTED * 4]}


# -- setting ------------------------------------------------------------------------------

def _datablock(struct, prop, key, value):
    """A pointer value: a datablock name, looked up in the collection of the pointer's type
    (null clears it, where the property may be empty)."""
    fixed = prop.fixed_type.identifier if prop.fixed_type else ""
    cls = getattr(bpy.types, fixed, None)
    if not (isinstance(cls, type) and issubclass(cls, bpy.types.ID)):
        raise rna_props._refuse(struct, key, "is a group of settings; set its properties (%s.<name>)" % key)
    if value is None:
        if prop.is_never_none:
            raise rna_props._refuse(struct, key, "cannot be empty")
        return None
    if not isinstance(value, str):
        raise rna_props._refuse(struct, key, "takes the name of a %s" % fixed)
    for coll in file_refs_check.id_collections(bpy.data):
        items = getattr(bpy.data, coll)
        block = items.get(value)
        if block is not None and isinstance(block, cls):
            return block
    raise not_found(fixed, value)


def _driven(target, struct, key):
    ad = getattr(target.owner, "animation_data", None)
    if ad is None or not ad.drivers:
        return False
    try:
        full = struct.path_from_id(key)
    except (ValueError, TypeError):
        return False
    return any(d.data_path == full for d in ad.drivers)


def _custom_value(path, value):
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list) and 0 < len(value) <= 32 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return value
    raise CommandError("invalid_params", "path %r: a custom property takes a number, boolean, string or a list of numbers" % path)


def _file_check(ctx, target, set_paths):
    """Refuse (with every value restored by the caller) a path the check refuses or cannot see."""
    owner = target.owner
    render_scene = owner if isinstance(owner, bpy.types.Scene) else None
    refs = file_refs.file_references(owners={owner.session_uid})
    values = {value for _, value in set_paths if value}
    found = [(r, p) for r, p in file_refs_check.problems(refs, ctx.output_dir, render_scene=render_scene) if r.path in values]
    if found:
        return file_refs_check.refusal(target.label, [file_refs_check.describe(r, p) for r, p in found],
                                       "Nothing was set.")
    seen = {r.path for r in refs}
    for path, value in set_paths:
        if value and value not in seen:
            return CommandError("invalid_params", "path %r: capstan's file-reference check does not see %r there, so "
                                                  "it cannot judge it; nothing was set" % (path, value))
    return None


@command(
    effect="mutate",
    summary="Set several settings by RNA path on one target in one undo step, each checked against this Blender's RNA; lists each change.",
    params=s.obj({
        "target": TARGET,
        "settings": s.array(s.obj({"path": PATH, "value": VALUE}, required=("path", "value")), 1, MAX_PATHS),
    }, required=("target", "settings")),
    result=s.obj({
        "target": s.string(),
        "changes": s.array(s.obj({"path": s.string(), "before": s.any_value(), "after": s.any_value()},
                                 required=("path", "before", "after")), max_items=MAX_PATHS),
    }, required=("target", "changes")),
    errors=("not_found", "invalid_target", "invalid_params", "outside_file_references"),
)
def set_settings(ctx, params):
    target = resolve_target(params["target"])
    target.touch(ctx.delta)
    undo, changes, file_paths = [], [], []
    try:
        for index, item in enumerate(params["settings"]):
            path, value = item["path"], item["value"]
            if index:  # a setting may change the target's RNA type (a light's type): look it up again
                target = resolve_target(params["target"])
            r = resolve_path(target, path)
            if r.listing:
                raise CommandError("invalid_params", "path %r: * lists properties; it cannot be set" % path)
            if r.custom is not None:
                before = r.struct.get(r.custom)
                undo.append((r.struct, r.custom, before, True))
                r.struct[r.custom] = _custom_value(path, value)
                changes.append({"path": path, "before": rna_props.read(before), "after": rna_props.read(r.struct[r.custom])})
                continue
            prop = rna_props.settable(r.struct, r.key)
            if getattr(prop, "is_hidden", False):
                raise rna_props._refuse(r.struct, r.key, "hidden from the UI")
            if _driven(target, r.struct, r.key):
                raise rna_props._refuse(r.struct, r.key, "driven by a driver; drivers are not set through settings")
            checked = rna_props.check_value(r.struct, prop, r.key, value, pointer=_datablock, file_paths=True)
            before_raw = getattr(r.struct, r.key)
            before = rna_props.read(before_raw)
            if prop.type in ("INT", "FLOAT", "BOOLEAN") and getattr(prop, "is_array", False):
                before_raw = list(before_raw)
            elif prop.type == "ENUM" and prop.is_enum_flag:
                before_raw = set(before_raw)
            _prerequisite(r.struct, r.key, checked, undo)
            try:
                setattr(r.struct, r.key, checked)
            except (TypeError, ValueError, AttributeError, RuntimeError) as e:
                raise rna_props._refuse(r.struct, r.key, str(e))
            undo.append((r.struct, r.key, before_raw, False))
            after = getattr(r.struct, r.key)
            if not _took(checked, after):
                raise rna_props._refuse(r.struct, r.key, "Blender did not take %r: it reads back %r (it depends on other "
                                        "settings or on the data; nothing was set)" % (value, rna_props.read(after)))
            if prop.type == "STRING" and prop.subtype in rna_props.PATH_SUBTYPES:
                file_paths.append((path, checked))
            changes.append({"path": path, "before": before, "after": rna_props.read(getattr(r.struct, r.key))})
        if file_paths:
            refused = _file_check(ctx, target, file_paths)
            if refused is not None:
                raise refused
    except Exception:
        _restore(undo)
        raise
    return {"target": target.label, "changes": changes}


def _took(wanted, got):
    """Whether the property reads back what was set (floats to float32 precision)."""
    if isinstance(wanted, float) or (isinstance(wanted, int) and isinstance(got, float)):
        return isinstance(got, (int, float)) and abs(got - wanted) <= 1e-5 * max(1.0, abs(wanted))
    if isinstance(wanted, list):
        got = list(got)
        return len(got) == len(wanted) and all(_took(w, g) for w, g in zip(wanted, got))
    if isinstance(wanted, set):
        return set(got) == wanted
    if isinstance(wanted, bpy.types.ID) or wanted is None:
        return got == wanted
    return wanted == got


def _prerequisite(struct, key, value, undo):
    """Set what this Blender needs before `value` (5.x: the media type of a file format)."""
    need = rna_versions.prerequisite(struct.bl_rna.identifier, key, value)
    if need is None or need[0] not in struct.bl_rna.properties:
        return
    other, wanted = need
    before = getattr(struct, other)
    if before != wanted:
        setattr(struct, other, wanted)
        undo.append((struct, other, before, False))


def _restore(undo):
    for struct, key, before, custom in reversed(undo):
        try:
            if custom:
                if before is None:
                    del struct[key]
                else:
                    struct[key] = before
            else:
                setattr(struct, key, before)
        except (TypeError, ValueError, AttributeError, RuntimeError, KeyError):
            pass  # best effort: the value Blender refuses back was never changed
