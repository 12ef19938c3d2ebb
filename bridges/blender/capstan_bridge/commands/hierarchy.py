"""Parenting: set or clear an object's parent, in the modes of Blender's *Set Parent To*.

Modes (Blender's names): `object` and `keep_transform` keep the child where it is in the
world (its transform is re-expressed relative to the parent; Blender's inverse matrix stays
identity so the numbers read are the real local ones); `without_inverse` keeps the child's
local transform, so it moves with the parent's; `vertex` and `vertex_triangle` follow one
or three vertices of a mesh parent (`parent_type` VERTEX / VERTEX_3); `bone` follows a
named bone of an armature parent. The non-object modes keep the child in place, as
Blender's operator does. All through the data API (parent, parent_type, parent_vertices,
parent_bone, matrix_parent_inverse): no operator, no selection or mode change.
"""

import bpy
from mathutils import Matrix

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from .common import NAME_OR_NULL, OBJECT, get_object

MODES = ("object", "keep_transform", "without_inverse", "vertex", "vertex_triangle", "bone")
PARENT_TYPES = {"vertex": "VERTEX", "vertex_triangle": "VERTEX_3", "bone": "BONE"}


@command(
    effect="mutate",
    summary="Parent objects (or unparent with parent null) in a Set Parent To mode: object, keep_transform, "
            "without_inverse, vertex, vertex_triangle (a mesh's vertices) or bone (an armature's).",
    params=s.obj({
        "parent": NAME_OR_NULL,
        "children": s.array(OBJECT, 1, 256),
        "keep_transform": s.boolean(description="Keep world transforms (default true); false is mode without_inverse"),
        "mode": s.enum(MODES, description="Set Parent To mode (default object)"),
        "vertices": s.array(s.integer(0), 1, 3, description="Vertex indices of the parent's mesh: 1 for vertex, 3 for "
                                                              "vertex_triangle (default: the nearest to each child)"),
        "bone": s.string(1, 63, description="Bone of the armature parent (mode bone)"),
    }, required=("parent", "children")),
    result=s.obj({"parent": s.nullable(s.string()), "children": s.array(s.string()), "keep_transform": s.boolean(),
                  "mode": s.enum(MODES), "parent_type": s.string(),
                  "vertices": s.array(s.array(s.integer(0)), description="Per child, the vertex indices it follows")},
                 required=("parent", "children", "keep_transform")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def parent_objects(ctx, params):
    mode = params.get("mode", "object")
    keep = params.get("keep_transform", mode != "without_inverse")
    if "mode" in params and "keep_transform" in params and keep != (mode != "without_inverse"):
        raise CommandError("invalid_params", "keep_transform %s contradicts mode %s" % (str(keep).lower(), mode))
    if "mode" not in params and not keep:
        mode = "without_inverse"
    if "vertices" in params and mode not in ("vertex", "vertex_triangle"):
        raise CommandError("invalid_params", "vertices are given only with mode vertex or vertex_triangle")
    if ("bone" in params) != (mode == "bone"):
        raise CommandError("invalid_params", "mode bone needs a bone, and only it takes one")
    parent = get_object(params["parent"]) if params["parent"] is not None else None
    children = [get_object(n) for n in dict.fromkeys(params["children"])]
    if parent is None and mode not in ("object", "keep_transform", "without_inverse"):
        raise CommandError("invalid_params", "mode %s needs a parent" % mode)
    if parent is not None:
        ancestors = set()
        p = parent
        while p is not None:
            ancestors.add(p)
            p = p.parent
        loops = [c.name for c in children if c in ancestors]
        if loops:
            raise invalid_target("parenting %s to %s would make a cycle" % (", ".join(loops), parent.name))
    _check_parent_takes(parent, mode, params)
    # World matrices of originals are refreshed by evaluation; evaluate what earlier
    # commands tagged (cost: what changed, not the scene).
    bpy.context.view_layer.update()
    followed = []
    worlds = {child: child.matrix_world.copy() for child in children}
    for child in children:
        ctx.delta.touch(child)
        child.parent = parent
        child.parent_type = PARENT_TYPES.get(mode, "OBJECT") if parent is not None else "OBJECT"
        if mode in ("vertex", "vertex_triangle"):
            indices = list(params.get("vertices") or _nearest_vertices(parent, worlds[child].translation, 1 if mode == "vertex" else 3))
            child.parent_vertices = (indices + [0, 0, 0])[:3]
            followed.append(indices)
        elif mode == "bone":
            child.parent_bone = params["bone"]
        child.matrix_parent_inverse = Matrix.Identity(4)
    if keep:
        # The parent matrix of a vertex or bone parent is known only to the evaluated
        # scene (the world setter on the original would need the parent's evaluated mesh):
        # read it off the evaluated child, then solve the local transform through it.
        bpy.context.view_layer.update()
        depsgraph = bpy.context.evaluated_depsgraph_get()
        for child in children:
            evaluated = child.evaluated_get(depsgraph)
            local = child.matrix_parent_inverse @ child.matrix_basis
            parent_matrix = evaluated.matrix_world @ local.inverted_safe()
            child.matrix_basis = (parent_matrix @ child.matrix_parent_inverse).inverted_safe() @ worlds[child]
    out = {"parent": parent.name if parent else None, "children": [c.name for c in children], "keep_transform": keep,
           "mode": mode, "parent_type": children[0].parent_type}
    if followed:
        out["vertices"] = followed
    return out


def _check_parent_takes(parent, mode, params):
    """Refuse a mode the parent cannot take, before anything changes."""
    if mode in ("vertex", "vertex_triangle"):
        if parent.type != "MESH":
            raise invalid_target("a %s parent needs a mesh; %s is a %s" % (mode, parent.name, parent.type))
        count = len(parent.data.vertices)
        need = 1 if mode == "vertex" else 3
        given = params.get("vertices")
        if given is not None and len(given) != need:
            raise CommandError("invalid_params", "mode %s takes %d vertex indices, not %d" % (mode, need, len(given)))
        if count < need:
            raise invalid_target("%s has %d vertices; mode %s needs %d" % (parent.name, count, mode, need))
        if given is not None:
            missing = [i for i in given if i >= count]
            if missing:
                raise CommandError("not_found", "%s has no vertex %s (it has %d)" % (parent.name, missing[0], count))
            if len(set(given)) != len(given):
                raise CommandError("invalid_params", "the three vertices of a vertex_triangle parent are distinct")
    elif mode == "bone":
        if parent.type != "ARMATURE":
            raise invalid_target("a bone parent needs an armature; %s is a %s" % (parent.name, parent.type))
        if parent.data.bones.get(params["bone"]) is None:
            raise CommandError("not_found", "armature %s has no bone %r" % (parent.name, params["bone"]))


def _nearest_vertices(parent, point, count):
    """Indices of the `count` vertices of the parent's mesh nearest to `point` (world)."""
    mw = parent.matrix_world
    verts = parent.data.vertices
    return sorted(range(len(verts)), key=lambda i: ((mw @ verts[i].co - point).length_squared, i))[:count]
