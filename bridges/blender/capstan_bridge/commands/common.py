"""Helpers shared by the commands (main thread only)."""

import bpy
from mathutils import Vector

from .errors import CommandError, not_found


def rounded(values, digits=5):
    return [round(float(v), digits) for v in values]


def scene():
    return bpy.context.scene


def get_object(name):
    obj = bpy.data.objects.get(name)
    if obj is None:
        raise not_found("object", name)
    return obj


def link(obj):
    scene().collection.objects.link(obj)


def aim(obj, target):
    """Point the object's -Z axis (lights, cameras) at a world-space point."""
    direction = Vector(target) - obj.location
    if direction.length < 1e-9:
        raise CommandError("invalid_params", "look_at is the object's own location")
    obj.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()


def assign(target, params, attributes):
    """Set target.<attr> = params[key] for every (key, attr) whose key is present."""
    for key, attr in attributes:
        if key in params:
            setattr(target, attr, params[key])


def place(obj, params):
    """Location, rotation, scale and aim, for whichever of them params has."""
    assign(obj, params, (("location", "location"), ("rotation", "rotation_euler"), ("scale", "scale")))
    if "look_at" in params:
        aim(obj, params["look_at"])


def uses_legacy_node_toggle():
    """Blender < 5.0 needs `use_nodes = True`; 5.0 deprecates the toggle (always on)."""
    return bpy.app.version < (5, 0, 0)
