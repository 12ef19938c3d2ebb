"""Object-level operations: duplicating objects and their custom (ID) properties."""

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .common import OBJECT, VEC3, get_object, rounded
from .modeling_util import SAFE_NAME, refresh

MAX_COPIES = 100
PROPERTY_KEY = s.string(1, 63, pattern=r"^[A-Za-z][A-Za-z0-9_]*$", description="Property identifier (letters, digits, _; not starting with _)")
INT = s.integer(-2**31, 2**31 - 1)
NUMBER = s.number(-1e30, 1e30)
VALUE = s.any_of(
    INT, NUMBER, s.boolean(), s.string(0, 1024), s.array(s.any_of(INT, NUMBER), 1, 32),
    description="An integer (stays an int), a number (a float), a boolean, a string, or a vector (a list of numbers)")
SUBTYPES = ("NONE", "PIXEL", "UNSIGNED", "PERCENTAGE", "FACTOR", "ANGLE", "TIME", "TIME_ABSOLUTE", "DISTANCE",
            "DISTANCE_CAMERA", "POWER", "TEMPERATURE", "COLOR", "TRANSLATION", "DIRECTION", "VELOCITY", "ACCELERATION",
            "EULER", "QUATERNION", "AXISANGLE", "XYZ", "COLOR_GAMMA", "FILE_PATH", "DIR_PATH", "FILE_NAME")
UI_KEYS = ("min", "max", "soft_min", "soft_max", "subtype", "description")
UI = s.obj({
    "min": s.number(), "max": s.number(), "soft_min": s.number(), "soft_max": s.number(),
    "subtype": s.string(), "description": s.string(),
}, additional=True, description="The property's UI data (Blender's id_properties_ui) for numbers and strings")


@command(
    effect="mutate",
    summary="Duplicate an object (full copy, or linked sharing its data) one or more times, each copy offset from the last.",
    params=s.obj({
        "name": OBJECT,
        "new_name": SAFE_NAME,
        "linked": s.boolean(description="Share the data (mesh, curve...) with the original (default false: copy it)"),
        "offset": s.ref("vec3"),
        "count": s.integer(1, MAX_COPIES, description="How many copies (default 1)"),
    }, required=("name",)),
    result=s.obj({
        "source": s.string(), "linked": s.boolean(),
        "copies": s.array(s.obj({"name": s.string(), "location": VEC3, "data": s.nullable(s.string())},
                                required=("name", "location", "data")), 1, MAX_COPIES),
    }, required=("source", "linked", "copies")),
    errors=("not_found",),
)
def duplicate_object(ctx, params):
    src = get_object(params["name"])
    linked = params.get("linked", False)
    offset = Vector(params.get("offset", (0.0, 0.0, 0.0)))
    collections = list(src.users_collection) or [bpy.context.scene.collection]
    copies = []
    for i in range(1, params.get("count", 1) + 1):
        obj = src.copy()
        if not linked and src.data is not None:
            obj.data = src.data.copy()
        if "new_name" in params:
            obj.name = params["new_name"]  # Blender suffixes (.001, ...) a taken name
        if obj.data is not None and not linked and obj.data.users == 1:
            obj.data.name = obj.name
        for coll in collections:
            coll.objects.link(obj)
        obj.location = src.location + offset * i
        ctx.delta.created(obj)
        copies.append({"name": obj.name, "location": rounded(obj.location), "data": obj.data.name if obj.data else None})
    refresh()
    return {"source": src.name, "linked": linked, "copies": copies}


def _plain(value):
    if isinstance(value, (bool, int, float, str)):
        return value
    try:
        return [_plain(v) for v in value]
    except TypeError:
        return repr(value)[:256]


def _kind(value):
    """The type Blender stores a value as: int, float, bool, string, vector or other."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if hasattr(value, "typecode") or hasattr(value, "to_list"):
        return "vector"
    return "other"


def _ui_of(obj, key):
    """The UI data Blender keeps for a number or string property (None for other types)."""
    if _kind(obj[key]) not in ("int", "float", "string", "vector"):
        return None
    try:
        data = obj.id_properties_ui(key).as_dict()
    except TypeError:
        return None
    return {k: _plain(v) for k, v in data.items() if k in UI_KEYS}


def _store(obj, key, value):
    """Store `value` with its JSON type: ints stay ints, a list of numbers becomes a
    vector (ints if every item is an int, floats otherwise)."""
    if isinstance(value, list):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            obj[key] = [int(v) for v in value]
        else:
            obj[key] = [float(v) for v in value]
    else:
        obj[key] = value


def _apply_ui(obj, key, params):
    ui = {k: params[k] for k in UI_KEYS if k in params}
    if not ui:
        return
    kind = _kind(obj[key])
    if kind in ("bool", "other"):
        raise CommandError("invalid_params", "%s is a %s property: min, max, soft limits and subtype apply to numbers "
                           "and strings" % (key, kind) if set(ui) - {"description"} else
                           "%s is a %s property and keeps no tooltip in this Blender" % (key, kind))
    if kind == "string" and set(ui) & {"min", "max", "soft_min", "soft_max"}:
        raise CommandError("invalid_params", "%s is a string: it takes no min, max or soft limits" % key)
    if kind == "int":
        for bound in ("min", "max", "soft_min", "soft_max"):
            if bound in ui:
                if ui[bound] != int(ui[bound]):
                    raise CommandError("invalid_params", "%s is an int property: %s %s is not a whole number" % (key, bound, ui[bound]))
                ui[bound] = int(ui[bound])
    try:
        obj.id_properties_ui(key).update(**ui)
    except (TypeError, ValueError) as e:
        raise CommandError("invalid_params", "%s (a %s property) does not take %s: %s" % (key, kind, ui, e))


@command(
    effect="mutate",
    summary="Get, set or delete an object's custom property, keeping its type (int, float, bool, string, vector), "
            "with UI data (min, max, soft limits, subtype, description).",
    params=s.obj({
        "object": OBJECT,
        "key": PROPERTY_KEY,
        "action": s.enum(("get", "set", "delete")),
        "value": VALUE,
        "min": s.number(-1e30, 1e30, description="Hard minimum (numbers)"),
        "max": s.number(-1e30, 1e30, description="Hard maximum (numbers)"),
        "soft_min": s.number(-1e30, 1e30, description="Soft minimum, the UI slider's (numbers)"),
        "soft_max": s.number(-1e30, 1e30, description="Soft maximum, the UI slider's (numbers)"),
        "subtype": s.enum(SUBTYPES, description="How Blender shows it (FACTOR, ANGLE, DISTANCE, COLOR...; FILE_PATH... for strings)"),
        "description": s.string(0, 512, description="The tooltip"),
    }, required=("object", "key", "action")),
    result=s.obj({
        "object": s.string(), "key": s.string(), "action": s.string(), "exists": s.boolean(),
        "value": s.any_value(description="The value now (absent when the property does not exist)"),
        "type": s.enum(("int", "float", "bool", "string", "vector", "other"), description="The type Blender stores it as"),
        "ui": UI,
        "previous": s.any_value(description="The value before a set or delete"),
    }, required=("object", "key", "action", "exists")),
    errors=("not_found", "invalid_params"),
)
def set_custom_property(ctx, params):
    obj = get_object(params["object"])
    key, action = params["key"], params["action"]
    ui = [k for k in UI_KEYS if k in params]
    if action != "set" and ("value" in params or ui):
        raise CommandError("invalid_params", "a value and UI data are given with action set only")
    if action == "set" and "value" not in params and not ui:
        raise CommandError("invalid_params", "action set needs a value or UI data (min, max, soft_min, soft_max, subtype, description)")
    for low, high in (("min", "max"), ("soft_min", "soft_max")):
        if low in params and high in params and params[low] > params[high]:
            raise CommandError("invalid_params", "%s %s is above %s %s" % (low, params[low], high, params[high]))
    out = {"object": obj.name, "key": key, "action": action}
    had = key in obj.keys()
    if had:
        out["previous"] = _plain(obj[key])
    if action == "set":
        if "value" not in params and not had:
            raise CommandError("not_found", "%s has no custom property %r to give UI data; set a value first" % (obj.name, key))
        ctx.delta.touch(obj)
        previous = _plain(obj[key]) if had else None
        if "value" in params:
            _store(obj, key, params["value"])
        try:
            _apply_ui(obj, key, params)
        except CommandError:
            # Nothing is half-done: the value goes back to what it was.
            if previous is None:
                del obj[key]
            else:
                _store(obj, key, previous)
            raise
    elif action == "delete":
        if not had:
            raise CommandError("not_found", "%s has no custom property %r" % (obj.name, key))
        ctx.delta.touch(obj)
        del obj[key]
    out["exists"] = key in obj.keys()
    if out["exists"]:
        out["value"] = _plain(obj[key])
        out["type"] = _kind(obj[key])
        ui_data = _ui_of(obj, key)
        if ui_data is not None:
            out["ui"] = ui_data
    if action == "get" and "previous" in out:
        del out["previous"]
    return out
