"""Helpers shared by the commands (main thread only), and the schemas commands reuse."""

import bpy
from mathutils import Vector

from ..core import schema as s
from ..errors import CommandError, not_found

# Schemas several commands use.
OBJECT = s.ref("object_name")
VEC3 = s.ref("vec3")
NAME_OR_NULL = s.nullable(s.string(1, s.NAME_MAX))


def rounded(values, digits=5):
    return [round(float(v), digits) for v in values]


def scene():
    return bpy.context.scene


def get_object(name):
    obj = bpy.data.objects.get(name)
    if obj is None:
        raise not_found("object", name)
    return obj


def active_collection():
    """Where new objects go: the active collection, as Blender's own add operators do.
    `context.collection` names it without going through the view layer, whose
    `active_layer_collection` resyncs the layer (a cost that grows with the scene)."""
    return bpy.context.collection or scene().collection


def link(obj):
    """Link `obj` into the active collection; returns that collection."""
    collection = active_collection()
    collection.objects.link(obj)
    return collection


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


# Socket names Blender 5.0 changed: in the one version table (rna_versions).
from .rna_versions import RENAMED_SOCKETS  # noqa: E402


def socket_names(ref):
    """The names to try for socket `ref`: itself, then its other version's name."""
    return (ref, RENAMED_SOCKETS[ref]) if ref in RENAMED_SOCKETS else (ref,)


def claim_name(obj, requested, out):
    """Give `obj` (and its data) the requested name; note in `out` when Blender picked
    another because the name is taken."""
    if requested:
        # Renaming checks the name against every object: only when it differs.
        if obj.name != requested:
            obj.name = requested
        if obj.data is not None and obj.data.users == 1 and obj.data.name != requested:
            obj.data.name = requested
        if obj.name != requested:
            out["renamed_from"] = requested
    return out
