"""Keyframes, across Blender's legacy and layered (4.4+) action APIs."""

from .common import get_object
from .errors import CommandError

VECTOR_PROPERTIES = ("location", "rotation_euler", "scale")


def fcurves_of(obj):
    ad = obj.animation_data
    if ad is None or ad.action is None:
        return []
    action = ad.action
    if hasattr(action, "fcurves"):
        return list(action.fcurves)
    from bpy_extras import anim_utils

    bag = anim_utils.action_get_channelbag_for_slot(action, ad.action_slot)
    return list(bag.fcurves) if bag is not None else []


def keyframes_of(obj):
    out = {}
    for fc in fcurves_of(obj):
        out.setdefault(fc.data_path, {})[fc.array_index] = [
            [round(k.co[0], 3), round(k.co[1], 5)] for k in fc.keyframe_points
        ]
    return [{"property": p, "channels": [c[i] for i in sorted(c)]} for p, c in sorted(out.items())]


def insert_keyframe(ctx, params):
    obj = get_object(params["object"])
    prop = params["property"]
    if "value" in params:
        value = params["value"]
        if prop in VECTOR_PROPERTIES and not isinstance(value, list):
            raise CommandError("invalid_params", "%s takes [x, y, z]" % prop)
        if prop not in VECTOR_PROPERTIES and not isinstance(value, bool):
            raise CommandError("invalid_params", "%s takes true or false" % prop)
        setattr(obj, prop, value)
    if not obj.keyframe_insert(data_path=prop, frame=params["frame"]):
        raise CommandError("blender_error", "Blender refused to key %s" % prop)
    frames = sorted({k.co[0] for fc in fcurves_of(obj) if fc.data_path == prop for k in fc.keyframe_points})
    return {"object": obj.name, "property": prop, "frame": params["frame"], "frames": frames}
