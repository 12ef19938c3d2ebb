"""Helpers of the modeling commands (create, mesh ops, collections, generation).

No command is declared here. Angles on these commands' wire are degrees (as capstan's
capabilities take them); lengths are metres. Names of things these commands create
follow `SAFE_NAME` (letters, digits, `_`, `.`, `-`, space)."""

import math

import bmesh
import bpy

from .. import schema as s
from ..errors import CommandError, invalid_target
from .common import active_collection, get_object, rounded

SAFE_NAME = s.string(1, s.NAME_MAX, pattern=r"^[A-Za-z0-9_. -]+$", description="Name: letters, digits, _ . - and space")
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


def evaluated_counts(obj):
    depsgraph, ev = evaluated(obj)
    if obj.type != "MESH":
        mesh = ev.to_mesh()
        try:
            return mesh_counts(mesh)
        finally:
            ev.to_mesh_clear()
    return mesh_counts(ev.data)


def world_bounds(obj):
    """(min, max) corners of the evaluated object's world-space bounding box."""
    from mathutils import Vector

    evaluated(obj)
    corners = [obj.matrix_world @ Vector(c) for c in obj.bound_box]
    return ([min(c[i] for c in corners) for i in range(3)], [max(c[i] for c in corners) for i in range(3)])


def bounds_doc(obj):
    lo, hi = world_bounds(obj)
    return {"min": rounded(lo), "max": rounded(hi)}


def edit_bmesh(obj, fill):
    """Run `fill(bm)` on a bmesh of obj's mesh and write it back (only if it returns
    without raising, so a failed op leaves the mesh as it was)."""
    bm = bmesh.new()
    try:
        bm.from_mesh(obj.data)
        out = fill(bm)
        bm.normal_update()
        bm.to_mesh(obj.data)
    finally:
        bm.free()
    obj.data.update()
    return out


def refuse(message):
    return CommandError("invalid_params", message)


def limit(message):
    return CommandError("limit_exceeded", message)


def refresh():
    """Evaluate what the command changed, so bounds and dimensions read back fresh (an
    object's bounding box is refreshed by evaluation only). Costs what was tagged."""
    bpy.context.evaluated_depsgraph_get().update()
