"""Helpers of the modeling commands (create, mesh ops, collections, generation).

No command is declared here. Angles on these commands' wire are degrees (as capstan's
capabilities take them); lengths are metres. Names of things these commands create
follow `SAFE_NAME` (letters, digits, `_`, `.`, `-`, space)."""

import math

import bpy

from ..core import schema as s
from ..errors import CommandError, invalid_target
from .common import active_collection, get_object

SAFE_NAME = s.string(1, s.NAME_MAX, pattern=r"^[A-Za-z0-9_. -]+$", description="Name: letters, digits, _ . - and space")
# The name a command gives the object it makes (an agent reads "new" and does not fill it
# with an object the request only mentions, as in "text above the cube").
NEW_OBJECT_NAME = dict(SAFE_NAME, description="Name for the new object: letters, digits, _ . - and space")
DEGREES = s.number(-36000, 36000, description="Degrees")
ROTATION_DEG = s.array(DEGREES, 3, 3, description="[x, y, z] Euler XYZ in degrees")
COUNTS = s.obj({"vertices": s.integer(0), "edges": s.integer(0), "faces": s.integer(0)},
               required=("vertices", "edges", "faces"))


def radians(values):
    return [math.radians(float(v)) for v in values]


def new_object(name, data, params, collections=None):
    """A new object named `name` (Blender suffixes a taken name) linked into the active
    collection (or `collections`), placed by params' location and rotation (degrees)."""
    obj = bpy.data.objects.new(name, data)
    targets = collections or [active_collection()]
    for coll in targets:
        coll.objects.link(obj)
    if "location" in params:
        obj.location = params["location"]
    if "rotation" in params:
        obj.rotation_euler = radians(params["rotation"])
    return obj


def mesh_counts(mesh):
    return {"vertices": len(mesh.vertices), "edges": len(mesh.edges), "faces": len(mesh.polygons)}


def get_mesh_object(name, single_user=True):
    """The mesh object `name`; refuses other types and (with single_user) shared data,
    whose change would show on every user, as Blender's own apply operators do."""
    obj = get_object(name)
    if obj.type != "MESH":
        raise invalid_target("%s is a %s, not a mesh" % (obj.name, obj.type))
    if single_user and obj.data.users > 1:
        raise invalid_target("%s shares its mesh with %d other objects; make it single-user first (object.duplicate without linked)"
                             % (obj.name, obj.data.users - 1))
    if single_user and obj.data.shape_keys is not None:
        raise invalid_target("%s has shape keys; this rewrites geometry and would lose them" % obj.name)
    return obj


def evaluated(obj):
    """(depsgraph, evaluated object), evaluating what changed since the last update."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    depsgraph.update()
    return depsgraph, obj.evaluated_get(depsgraph)


def refuse(message):
    return CommandError("invalid_params", message)


def limit(message):
    return CommandError("limit_exceeded", message)


def refresh():
    """Evaluate what the command changed, so bounds and dimensions read back fresh (an
    object's bounding box is refreshed by evaluation only). Costs what was tagged."""
    bpy.context.evaluated_depsgraph_get().update()
