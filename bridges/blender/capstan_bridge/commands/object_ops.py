"""Object-level operations: duplicating objects and their custom (ID) properties."""

import bpy
from mathutils import Vector

from .. import schema as s
from ..command import command
from ..errors import CommandError
from .common import OBJECT, VEC3, get_object, rounded
from .modeling_util import SAFE_NAME, refresh

MAX_COPIES = 100
PROPERTY_KEY = s.string(1, 63, pattern=r"^[A-Za-z][A-Za-z0-9_]*$", description="Property identifier (letters, digits, _; not starting with _)")
SCALAR = s.one_of(s.number(), s.boolean(), s.string(0, 1024), description="A number, boolean or string")


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


@command(
    effect="mutate",
    summary="Get, set or delete one custom (ID) property of an object: action get reads it, set writes a scalar, delete removes it.",
    params=s.obj({
        "object": OBJECT,
        "key": PROPERTY_KEY,
        "action": s.enum(("get", "set", "delete")),
        "value": SCALAR,
    }, required=("object", "key", "action")),
    result=s.obj({
        "object": s.string(), "key": s.string(), "action": s.string(), "exists": s.boolean(),
        "value": s.any_value(description="The value now (absent when the property does not exist)"),
        "previous": s.any_value(description="The value before a set or delete"),
    }, required=("object", "key", "action", "exists")),
    errors=("not_found", "invalid_params"),
)
def set_custom_property(ctx, params):
    obj = get_object(params["object"])
    key, action = params["key"], params["action"]
    if (action == "set") != ("value" in params):
        raise CommandError("invalid_params", "a value is given with action set, and only then")
    out = {"object": obj.name, "key": key, "action": action}
    had = key in obj.keys()
    if had:
        out["previous"] = _plain(obj[key])
    if action == "set":
        ctx.delta.touch(obj)
        obj[key] = params["value"]
    elif action == "delete":
        if not had:
            raise CommandError("not_found", "%s has no custom property %r" % (obj.name, key))
        ctx.delta.touch(obj)
        del obj[key]
    out["exists"] = key in obj.keys()
    if out["exists"]:
        out["value"] = _plain(obj[key])
    if action == "get" and "previous" in out:
        del out["previous"]
    return out
