"""Animation beyond single keys: clearing keys, the frame range, interpolation and
extrapolation of fcurves, shape keys, and following a path. F-curves are reached
through `animation.fcurves_of`, which knows Blender 4.4+'s layered actions."""

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .animation import fcurves_of
from .common import OBJECT, VEC3, get_object, scene

INTERPOLATIONS = ("CONSTANT", "LINEAR", "BEZIER", "SINE", "QUAD", "CUBIC", "EXPO", "CIRC", "BACK", "BOUNCE", "ELASTIC")
EASINGS = ("AUTO", "EASE_IN", "EASE_OUT", "EASE_IN_OUT")
HANDLES = ("AUTO", "AUTO_CLAMPED", "VECTOR", "ALIGNED", "FREE")
DATA_PATH = s.string(1, 256, pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\[\"[A-Za-z0-9_. -]{1,63}\"\]\.[A-Za-z_][A-Za-z0-9_]*)?$",
                     description="An F-curve's data path: location, rotation_euler, scale, or constraints[\"Name\"].influence ...")
FRAME = s.integer(-100000, 1000000)


def _action(obj):
    ad = obj.animation_data
    return ad.action if ad is not None else None


def _matching(obj, data_path, index=-1):
    curves = [fc for fc in fcurves_of(obj) if data_path in (None, fc.data_path) and index in (-1, fc.array_index)]
    if not curves:
        what = "%s[%d]" % (data_path, index) if data_path and index >= 0 else (data_path or "any property")
        raise not_found("animation of %s on" % what, obj.name)
    return curves


def _remove_fcurve(obj, fc):
    action = obj.animation_data.action
    if hasattr(action, "fcurves"):
        action.fcurves.remove(fc)
        return
    from bpy_extras import anim_utils

    anim_utils.action_get_channelbag_for_slot(action, obj.animation_data.action_slot).fcurves.remove(fc)


@command(
    effect="destroy",
    summary="Remove an object's keyframes: every F-curve, or those of one data path; the action is unassigned when none are left.",
    params=s.obj({"object": OBJECT, "data_path": DATA_PATH}, required=("object",)),
    result=s.obj({
        "object": s.string(),
        "removed": s.array(s.obj({"data_path": s.string(), "index": s.integer(), "keys": s.integer(0)},
                                 required=("data_path", "index", "keys"))),
        "remaining_fcurves": s.integer(0), "action_unassigned": s.boolean(),
    }, required=("object", "removed", "remaining_fcurves", "action_unassigned")),
    errors=("not_found",),
)
def clear_keyframes(ctx, params):
    obj = get_object(params["object"])
    curves = _matching(obj, params.get("data_path"))
    ctx.delta.touch(obj)
    action = _action(obj)
    ctx.delta.touch_datablock("actions", action)
    removed = [{"data_path": fc.data_path, "index": fc.array_index, "keys": len(fc.keyframe_points)} for fc in curves]
    for fc in curves:
        _remove_fcurve(obj, fc)
    remaining = len(fcurves_of(obj))
    if remaining == 0:
        obj.animation_data.action = None
    return {"object": obj.name, "removed": removed, "remaining_fcurves": remaining, "action_unassigned": remaining == 0}


def touch_animated(ctx):
    """Before a frame change: every object whose values animation writes (its own
    action, its data's shape keys, a pose, constraints or drivers) may change."""
    for obj in bpy.data.objects:
        keys = getattr(obj.data, "shape_keys", None) if obj.data is not None else None
        if obj.animation_data is not None or (keys is not None and keys.animation_data is not None):
            ctx.delta.touch(obj)


def set_frame(ctx, frame):
    touch_animated(ctx)
    scene().frame_set(frame)


@command(
    effect="mutate",
    summary="Set the scene's frame range, frame rate and current frame.",
    params=s.obj({
        "frame_start": s.integer(0, 1048574), "frame_end": s.integer(0, 1048574),
        "fps": s.integer(1, 240), "frame_current": s.integer(-1048574, 1048574),
    }, min_properties=1),
    result=s.obj({"frame_start": s.integer(), "frame_end": s.integer(), "fps": s.number(), "frame_current": s.integer()},
                 required=("frame_start", "frame_end", "fps", "frame_current")),
    errors=("invalid_params",),
)
def set_frame_range(ctx, params):
    sc = scene()
    start = params.get("frame_start", sc.frame_start)
    end = params.get("frame_end", sc.frame_end)
    if end < start:
        raise CommandError("invalid_params", "frame_end (%d) is before frame_start (%d)" % (end, start))
    ctx.delta.touch_settings("scene")
    if "fps" in params:
        ctx.delta.touch_settings("render")
        sc.render.fps = params["fps"]
        sc.render.fps_base = 1.0
    # Set the end first when moving the range up, so start never passes end on the way.
    if start > sc.frame_end:
        sc.frame_end, sc.frame_start = end, start
    else:
        sc.frame_start, sc.frame_end = start, end
    if "frame_current" in params:
        set_frame(ctx, params["frame_current"])
    return {"frame_start": sc.frame_start, "frame_end": sc.frame_end, "fps": sc.render.fps / sc.render.fps_base,
            "frame_current": sc.frame_current}


@command(
    effect="mutate",
    summary="Set interpolation, easing, handle type and extrapolation on an object's F-curves (all, one data path, or one channel).",
    params=s.obj({
        "object": OBJECT, "data_path": DATA_PATH, "index": s.integer(-1, 3, description="Channel (-1: all, the default)"),
        "interpolation": s.enum(INTERPOLATIONS), "easing": s.enum(EASINGS), "handle_type": s.enum(HANDLES),
        "extrapolation": s.enum(("CONSTANT", "LINEAR", "CYCLIC"), description="CYCLIC adds a Cycles F-curve modifier"),
    }, required=("object",)),
    result=s.obj({"object": s.string(), "fcurves": s.integer(0), "keyframes": s.integer(0),
                  "data_paths": s.array(s.string())}, required=("object", "fcurves", "keyframes", "data_paths")),
    errors=("not_found", "invalid_params"),
)
def set_interpolation(ctx, params):
    if not any(k in params for k in ("interpolation", "easing", "handle_type", "extrapolation")):
        raise CommandError("invalid_params", "give interpolation, easing, handle_type or extrapolation")
    obj = get_object(params["object"])
    curves = _matching(obj, params.get("data_path"), params.get("index", -1))
    ctx.delta.touch(obj)
    keys = 0
    for fc in curves:
        for k in fc.keyframe_points:
            keys += 1
            if "interpolation" in params:
                k.interpolation = params["interpolation"]
            if "easing" in params:
                k.easing = params["easing"]
            if "handle_type" in params:
                k.handle_left_type = k.handle_right_type = params["handle_type"]
        extrapolation = params.get("extrapolation")
        if extrapolation is not None:
            cycles = [m for m in fc.modifiers if m.type == "CYCLES"]
            if extrapolation == "CYCLIC":
                if not cycles:
                    fc.modifiers.new("CYCLES")
            else:
                for m in cycles:
                    fc.modifiers.remove(m)
                fc.extrapolation = extrapolation
        fc.update()
    return {"object": obj.name, "fcurves": len(curves), "keyframes": keys, "data_paths": sorted({fc.data_path for fc in curves})}


SHAPE_KEY = s.obj({"name": s.string(), "value": s.number(), "mute": s.boolean(), "relative_to": s.string()},
                  required=("name", "value", "mute", "relative_to"))


def _shape_keys(obj):
    if obj.type not in ("MESH", "CURVE", "SURFACE", "LATTICE"):
        raise invalid_target("%s is a %s, which has no shape keys" % (obj.name, obj.type))
    return obj.data.shape_keys


def _describe_keys(obj, keys):
    blocks = list(keys.key_blocks) if keys is not None else []
    return {"object": obj.name, "keys": [{"name": k.name, "value": round(k.value, 5), "mute": k.mute,
                                           "relative_to": k.relative_key.name} for k in blocks[:64]],
            "total": len(blocks)}


SHAPE_KEYS_RESULT = s.obj({"object": s.string(), "keys": s.array(SHAPE_KEY, max_items=64), "total": s.integer(0)},
                          required=("object", "keys", "total"))


@command(
    effect="read",
    summary="The shape keys of a mesh, curve or lattice, with their values.",
    params=s.obj({"object": OBJECT}, required=("object",)),
    result=SHAPE_KEYS_RESULT,
    errors=("not_found", "invalid_target"),
)
def list_shape_keys(ctx, params):
    obj = get_object(params["object"])
    return _describe_keys(obj, _shape_keys(obj))


@command(
    effect="mutate",
    summary="Shape keys: add the basis, add a key (optionally moving vertices by an offset), set a key's value, or key its value at a frame.",
    params=s.obj({
        "object": OBJECT, "action": s.enum(("add_basis", "add", "set_value", "keyframe")),
        "name": s.string(1, 63), "value": s.number(0, 1), "frame": FRAME,
        "vertices": s.array(s.integer(0), 1, 65536, description="add: vertex indices to move (default all)"),
        "offset": dict(VEC3, description="add: how far the vertices move in the key, object space metres"),
    }, required=("object", "action")),
    result=s.obj(dict(SHAPE_KEYS_RESULT["properties"], key=s.string()), required=("object", "keys", "total", "key")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def shape_keys(ctx, params):
    obj = get_object(params["object"])
    keys = _shape_keys(obj)
    action = params["action"]
    name = params.get("name")
    if action in ("set_value", "keyframe", "add") and not name:
        raise CommandError("invalid_params", "%s needs the key's name" % action)
    if action in ("set_value", "keyframe"):
        block = keys.key_blocks.get(name) if keys is not None else None
        if block is None:
            raise not_found("shape key", name)
        if action == "set_value" and "value" not in params:
            raise CommandError("invalid_params", "set_value needs a value")
        if action == "keyframe" and "frame" not in params:
            raise CommandError("invalid_params", "keyframe needs a frame")
    if "offset" in params and action != "add":
        raise CommandError("invalid_params", "offset is for add")
    vertices = params.get("vertices")
    if vertices is not None and obj.type == "MESH" and max(vertices) >= len(obj.data.vertices):
        raise CommandError("invalid_params", "vertex index %d is out of range (%d vertices)" % (max(vertices), len(obj.data.vertices)))
    ctx.delta.touch_data_users(obj)
    if action == "add_basis":
        if keys is not None:
            raise CommandError("invalid_params", "%s already has a basis (%s)" % (obj.name, keys.reference_key.name))
        block = obj.shape_key_add(name=name or "Basis", from_mix=False)
    elif action == "add":
        if keys is None:
            obj.shape_key_add(name="Basis", from_mix=False)
        block = obj.shape_key_add(name=name, from_mix=False)
        offset = params.get("offset")
        if offset is not None:
            for i in (vertices if vertices is not None else range(len(block.data))):
                block.data[i].co = block.data[i].co + Vector(offset)
        if "value" in params:
            block.value = params["value"]
    elif action == "set_value":
        block.value = params["value"]
    else:
        key = obj.data.shape_keys
        had = key.animation_data is not None and key.animation_data.action is not None
        if had:
            ctx.delta.touch_datablock("actions", key.animation_data.action)
        if "value" in params:
            block.value = params["value"]
        block.keyframe_insert("value", frame=params["frame"])
        if not had:
            ctx.delta.created_datablock("actions", key.animation_data.action)
    out = _describe_keys(obj, obj.data.shape_keys)
    out["key"] = block.name
    return out


@command(
    effect="mutate",
    summary="Move an object along a curve over a frame range: a Follow Path constraint whose offset is keyed linearly 0 to 1.",
    params=s.obj({
        "object": OBJECT, "curve": OBJECT, "frames": s.integer(1, 100000), "start_frame": FRAME,
        "follow_curve": s.boolean(description="Turn the object along the curve (default false)"),
        "forward_axis": s.enum(("FORWARD_X", "FORWARD_Y", "FORWARD_Z", "TRACK_NEGATIVE_X", "TRACK_NEGATIVE_Y", "TRACK_NEGATIVE_Z")),
    }, required=("object", "curve", "frames")),
    result=s.obj({"object": s.string(), "curve": s.string(), "constraint": s.string(), "frame_start": s.integer(),
                  "frame_end": s.integer()}, required=("object", "curve", "constraint", "frame_start", "frame_end")),
    errors=("not_found", "invalid_target"),
)
def follow_path(ctx, params):
    obj, curve = get_object(params["object"]), get_object(params["curve"])
    if curve.type != "CURVE":
        raise invalid_target("%s is a %s, not a curve" % (curve.name, curve.type))
    if curve == obj:
        raise invalid_target("an object cannot follow itself")
    ctx.delta.touch(obj)
    had = _action(obj) is not None
    if had:
        ctx.delta.touch_datablock("actions", _action(obj))
    if not curve.data.use_path:
        ctx.delta.touch_data_users(curve)
        curve.data.use_path = True
    c = obj.constraints.new("FOLLOW_PATH")
    c.target = curve
    c.use_fixed_location = True
    c.use_curve_follow = bool(params.get("follow_curve", False))
    if "forward_axis" in params:
        c.forward_axis = params["forward_axis"]
    start = params.get("start_frame", scene().frame_start)
    end = start + params["frames"]
    path = 'constraints["%s"].offset_factor' % c.name
    for frame, value in ((start, 0.0), (end, 1.0)):
        c.offset_factor = value
        obj.keyframe_insert(data_path=path, frame=frame)
    for fc in fcurves_of(obj):
        if fc.data_path == path:
            for k in fc.keyframe_points:
                k.interpolation = "LINEAR"
    if not had:
        ctx.delta.created_datablock("actions", _action(obj))
    return {"object": obj.name, "curve": curve.name, "constraint": c.name, "frame_start": start, "frame_end": end}
