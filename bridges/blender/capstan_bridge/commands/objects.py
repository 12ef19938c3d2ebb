"""Objects: create (data API and bmesh, never the add operators), modify, delete."""

import bpy

from .. import schema as s
from ..command import command
from ..errors import CommandError, not_found
from . import primitives
from .common import OBJECT, VEC3, claim_name, get_object, link, place, scene
from .inspect import SUMMARY, summary

LIGHT_KINDS = {"light_point": "POINT", "light_sun": "SUN", "light_spot": "SPOT", "light_area": "AREA"}
KINDS = primitives.KINDS + ("empty", "camera") + tuple(LIGHT_KINDS)
# The names Blender's own add operators give.
DEFAULT_NAMES = {"uv_sphere": "Sphere", "ico_sphere": "Icosphere", "monkey": "Suzanne", "light_point": "Point",
                 "light_sun": "Sun", "light_spot": "Spot", "light_area": "Area"}


@command(
    effect="mutate",
    summary="Add a primitive mesh, an empty, a camera or a light; size in metres, rotation in radians.",
    params=s.obj({
        "type": s.enum(KINDS, description="What to add"),
        "name": OBJECT,
        "size": s.number(exclusive_minimum=0, maximum=100000, description="Overall size in metres (default 2)"),
        "location": VEC3,
        "rotation": VEC3,
        "scale": s.ref("positive_vec3"),
    }, required=("type",)),
    result=s.obj(dict(SUMMARY["properties"], renamed_from=s.string()), required=SUMMARY["required"]),
    errors=(),
)
def create_object(ctx, params):
    kind = params["type"]
    size = float(params.get("size", 2.0))
    name = params.get("name") or DEFAULT_NAMES.get(kind, kind.capitalize())
    if kind in primitives.KINDS:
        obj = bpy.data.objects.new(name, primitives.mesh(kind, size, name))
    elif kind == "empty":
        obj = bpy.data.objects.new(name, None)
        obj.empty_display_size = size / 2.0
    elif kind == "camera":
        obj = bpy.data.objects.new(name, bpy.data.cameras.new(name))
    else:
        obj = bpy.data.objects.new(name, bpy.data.lights.new(name, LIGHT_KINDS[kind]))
    collection = link(obj)
    ctx.delta.created(obj)
    out = {}
    claim_name(obj, params.get("name"), out)
    place(obj, params)
    out.update(summary(obj, [collection.name]))
    return out


@command(
    effect="mutate",
    summary="Move, rotate (radians), scale, rename, show or hide one object; only the given fields change.",
    params=s.obj({
        "name": OBJECT,
        "new_name": OBJECT,
        "location": VEC3,
        "rotation": VEC3,
        "scale": s.ref("positive_vec3"),
        "visible": s.boolean(),
    }, required=("name",), min_properties=2),
    result=SUMMARY,
    errors=("not_found",),
)
def modify_object(ctx, params):
    obj = ctx.delta.touch(get_object(params["name"]))
    if "new_name" in params:
        for child in obj.children:  # their parent aspect names the parent
            ctx.delta.touch(child)
        obj.name = params["new_name"]
    place(obj, params)
    if "visible" in params:
        obj.hide_viewport = not params["visible"]
        obj.hide_render = not params["visible"]
    return summary(obj)


@command(
    effect="destroy",
    summary="Delete objects by name; objects that reference them (children, constraint and modifier targets) are reported changed.",
    params=s.obj({
        "name": OBJECT,
        "names": s.array(OBJECT, 1, 256),
    }, min_properties=1),
    result=s.obj({"deleted": s.array(s.string()), "not_found": s.array(s.string())}, required=("deleted", "not_found")),
    errors=("not_found", "invalid_params"),
)
def delete_object(ctx, params):
    if "name" in params and "names" in params:
        raise CommandError("invalid_params", "give name or names, not both")
    names = params.get("names") or [params["name"]]
    targets = [bpy.data.objects[n] for n in dict.fromkeys(names) if n in bpy.data.objects]
    missing = [n for n in dict.fromkeys(names) if n not in bpy.data.objects]
    if not targets:
        raise not_found("object", missing[0] if len(missing) == 1 else missing)
    doomed = set(targets)
    # Whoever points at a doomed object changes when it goes: children lose their
    # parent, constraints and modifiers their target. user_map finds them in one pass.
    for users in bpy.data.user_map(subset=doomed, value_types={"OBJECT"}).values():
        for user in users:
            if isinstance(user, bpy.types.Object) and user not in doomed:
                ctx.delta.touch(user)
    if scene().camera in doomed:
        ctx.delta.touch_settings("scene")
    deleted = []
    # An object's own data (its mesh, light, camera...) goes with it when nothing else
    # uses it: left behind it would be an orphan that a long session piles up (it is
    # only dropped on save). Shared data stays. One batch removal: Blender walks every
    # datablock once per removal call, so per-object removal costs objects x scene.
    doomed_data = {obj.data for obj in targets if obj.data is not None and obj.data.users == 1 and not obj.data.use_fake_user}
    for obj in targets:
        deleted.append(obj.name)
        ctx.delta.removing(obj)
    bpy.data.batch_remove(list(targets) + list(doomed_data))
    return {"deleted": deleted, "not_found": missing}
