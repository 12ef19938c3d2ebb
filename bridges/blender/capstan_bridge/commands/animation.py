"""Keyframes, across Blender's legacy and layered (4.4+) action APIs."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .common import OBJECT, get_object

VECTOR_PROPERTIES = ("location", "rotation_euler", "scale")


def fcurves_of(id_block):
    ad = id_block.animation_data
    if ad is None or ad.action is None:
        return []
    action = ad.action
    if hasattr(action, "fcurves"):
        return list(action.fcurves)
    from bpy_extras import anim_utils

    bag = anim_utils.action_get_channelbag_for_slot(action, ad.action_slot)
    return list(bag.fcurves) if bag is not None else []


def keyframes_of(obj, max_channels=64, max_keys=64):
    """Keyframes by property: [[frame, value], ...] per channel, capped, with totals."""
    out = {}
    for fc in fcurves_of(obj):
        out.setdefault(fc.data_path, {})[fc.array_index] = fc.keyframe_points
    rows = []
    for prop, channels in sorted(out.items())[:max_channels]:
        ordered = [channels[i] for i in sorted(channels)]
        rows.append({
            "property": prop,
            "channels": [[[round(k.co[0], 3), round(k.co[1], 5)] for k in list(points)[:max_keys]] for points in ordered],
            "keys_total": sum(len(points) for points in ordered),
        })
    return rows


@command(
    effect="mutate",
    summary="Set a transform or visibility property of an object and key it at a frame.",
    params=s.obj({
        "object": OBJECT,
        "property": s.enum(VECTOR_PROPERTIES + ("hide_viewport", "hide_render")),
        "frame": s.integer(-100000, 1000000),
        "value": s.one_of(s.ref("vec3"), s.boolean()),
    }, required=("object", "property", "frame")),
    result=s.obj({
        "object": s.string(), "property": s.string(), "frame": s.integer(), "frames": s.array(s.number()),
    }, required=("object", "property", "frame", "frames")),
    errors=("not_found", "invalid_params"),
)
def insert_keyframe(ctx, params):
    obj = ctx.delta.touch(get_object(params["object"]))
    prop = params["property"]
    if "value" in params:
        value = params["value"]
        if prop in VECTOR_PROPERTIES and not isinstance(value, list):
            raise CommandError("invalid_params", "%s takes [x, y, z]" % prop)
        if prop not in VECTOR_PROPERTIES and not isinstance(value, bool):
            raise CommandError("invalid_params", "%s takes true or false" % prop)
    had_action = obj.animation_data is not None and obj.animation_data.action is not None
    if had_action:
        ctx.delta.touch_datablock("actions", obj.animation_data.action)
    if "value" in params:
        setattr(obj, prop, params["value"])
    if not obj.keyframe_insert(data_path=prop, frame=params["frame"]):
        raise CommandError("blender_error", "Blender refused to key %s" % prop)
    if not had_action and obj.animation_data is not None and obj.animation_data.action is not None:
        ctx.delta.created_datablock("actions", obj.animation_data.action)
    frames = sorted({k.co[0] for fc in fcurves_of(obj) if fc.data_path == prop for k in fc.keyframe_points})
    return {"object": obj.name, "property": prop, "frame": params["frame"], "frames": frames}
