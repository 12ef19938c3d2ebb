"""Objects: create (data API and bmesh, never the add operators), modify, delete."""

import bpy

from ..core import schema as s
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


FILL_TYPES = ("NOTHING", "NGON", "TRIFAN")
EMPTY_DISPLAY_TYPES = ("PLAIN_AXES", "ARROWS", "SINGLE_ARROW", "CIRCLE", "CUBE", "SPHERE", "CONE")
AREA_SHAPES = ("SQUARE", "RECTANGLE", "DISK", "ELLIPSE")
METRES = dict(exclusive_minimum=0, maximum=100000)

PRIMITIVE = s.obj({
    "vertices": s.integer(3, 100000, description="cylinder, cone, circle"),
    "segments": s.integer(3, 100000, description="uv_sphere"),
    "rings": s.integer(3, 100000, description="uv_sphere"),
    "subdivisions": s.integer(1, 10, description="ico_sphere"),
    "x_subdivisions": s.integer(1, 100000, description="grid"),
    "y_subdivisions": s.integer(1, 100000, description="grid"),
    "radius": s.number(**METRES, description="uv_sphere, ico_sphere, cylinder, circle"),
    "radius1": s.number(0, 100000, description="cone: base radius"),
    "radius2": s.number(0, 100000, description="cone: tip radius"),
    "depth": s.number(**METRES, description="cylinder, cone"),
    "major_radius": s.number(0, 10000, description="torus"),
    "minor_radius": s.number(0, 10000, description="torus"),
    "major_segments": s.integer(3, 256, description="torus"),
    "minor_segments": s.integer(3, 256, description="torus"),
    "fill_type": s.enum(FILL_TYPES, description="cylinder, cone (ends), circle"),
}, description="The add operator's parameters; absent ones take the operator's defaults")
EMPTY = s.obj({
    "display_type": s.enum(EMPTY_DISPLAY_TYPES),
    "display_size": s.number(0.0001, 1000, description="Metres"),
})
LIGHT = s.obj({
    "shape": s.enum(AREA_SHAPES, description="light_area"),
    "size": s.number(0, 100000, description="light_area: edge (X) in metres; light_point, light_spot: radius in metres"),
    "size_y": s.number(0, 100000, description="light_area with shape RECTANGLE or ELLIPSE: Y edge in metres"),
    "spot_size": s.number(0.01745, 3.1416, description="light_spot: cone angle in radians"),
    "spot_blend": s.number(0, 1, description="light_spot: edge softness"),
})


def _refuse_foreign(kind, block, allowed, params):
    """A parameter the kind does not take is an error, never silently dropped."""
    foreign = sorted(set(params.get(block, {})) - set(allowed))
    if foreign:
        raise CommandError("invalid_params", "%s.%s does not apply to %s" % (block, foreign[0], kind))


LIGHT_OPTIONS = {"light_area": ("shape", "size", "size_y"), "light_point": ("size",),
                 "light_spot": ("size", "spot_size", "spot_blend"), "light_sun": ()}


def _light_data(kind, name, options):
    """The light datablock, checked before it is made (a refusal leaves no orphan)."""
    _refuse_foreign(kind, "light", LIGHT_OPTIONS[kind], {"light": options})
    if "size_y" in options and options.get("shape", "SQUARE") not in ("RECTANGLE", "ELLIPSE"):
        raise CommandError("invalid_params", "size_y is for area lights of shape RECTANGLE or ELLIPSE")
    data = bpy.data.lights.new(name, LIGHT_KINDS[kind])
    if "shape" in options:
        data.shape = options["shape"]
    if "size" in options:
        if kind == "light_area":
            data.size = options["size"]
        else:
            data.shadow_soft_size = options["size"]
    for key in ("size_y", "spot_size", "spot_blend"):
        if key in options:
            setattr(data, key, options[key])
    return data


@command(
    effect="mutate",
    summary="Add a primitive mesh, an empty, a camera or a light; size in metres, rotation in radians.",
    params=s.obj({
        "type": s.enum(KINDS, description="What to add"),
        "name": OBJECT,
        "size": s.number(exclusive_minimum=0, maximum=100000,
                         description="Overall size in metres: a primitive's defaults scaled to it, twice an empty's display size, a light's size (light.size)"),
        "location": VEC3,
        "rotation": VEC3,
        "scale": s.ref("positive_vec3"),
        "primitive": PRIMITIVE,
        "empty": EMPTY,
        "light": LIGHT,
    }, required=("type",)),
    result=s.obj(dict(SUMMARY["properties"], renamed_from=s.string()), required=SUMMARY["required"]),
    errors=("invalid_params",),
)
def create_object(ctx, params):
    kind = params["type"]
    size = params.get("size")
    name = params.get("name") or DEFAULT_NAMES.get(kind, kind.capitalize())
    for block, fits in (("primitive", kind in primitives.KINDS), ("empty", kind == "empty"), ("light", kind in LIGHT_KINDS)):
        if block in params and not fits:
            raise CommandError("invalid_params", "%s options do not apply to %s" % (block, kind))
    if size is not None and kind in ("camera", "light_sun"):
        raise CommandError("invalid_params", "size does not apply to %s" % kind)
    if kind in primitives.KINDS:
        given = params.get("primitive", {})
        _refuse_foreign(kind, "primitive", primitives.OPERATORS[kind][1], params)
        obj = bpy.data.objects.new(name, primitives.mesh(kind, None if size is None else float(size), name, given))
    elif kind == "empty":
        obj = bpy.data.objects.new(name, None)
        options = params.get("empty", {})
        defaults = bpy.ops.object.empty_add.get_rna_type().properties  # Blender's own, read not copied
        obj.empty_display_size = options.get("display_size", defaults["radius"].default if size is None else float(size) / 2.0)
        obj.empty_display_type = options.get("display_type", defaults["type"].default)
    elif kind == "camera":
        obj = bpy.data.objects.new(name, bpy.data.cameras.new(name))
    else:
        options = dict(params.get("light", {}))
        if size is not None:
            options.setdefault("size", float(size))
        obj = bpy.data.objects.new(name, _light_data(kind, name, options))
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
