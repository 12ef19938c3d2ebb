"""Parenting: set or clear an object's parent, keeping world transforms by default."""

import bpy
from mathutils import Matrix

from .. import schema as s
from ..command import command
from ..errors import invalid_target
from .common import NAME_OR_NULL, OBJECT, get_object


@command(
    effect="mutate",
    summary="Parent objects to another (or unparent them with parent null), keeping where they are in the world unless keep_transform is false.",
    params=s.obj({
        "parent": NAME_OR_NULL,
        "children": s.array(OBJECT, 1, 256),
        "keep_transform": s.boolean(description="Keep world transforms (default true)"),
    }, required=("parent", "children")),
    result=s.obj({"parent": s.nullable(s.string()), "children": s.array(s.string()), "keep_transform": s.boolean()},
                 required=("parent", "children", "keep_transform")),
    errors=("not_found", "invalid_target"),
)
def parent_objects(ctx, params):
    parent = get_object(params["parent"]) if params["parent"] is not None else None
    children = [get_object(n) for n in dict.fromkeys(params["children"])]
    if parent is not None:
        ancestors = set()
        p = parent
        while p is not None:
            ancestors.add(p)
            p = p.parent
        loops = [c.name for c in children if c in ancestors]
        if loops:
            raise invalid_target("parenting %s to %s would make a cycle" % (", ".join(loops), parent.name))
    keep = params.get("keep_transform", True)
    if keep:
        # World matrices of originals are refreshed by evaluation; evaluate what
        # earlier commands tagged (cost: what changed, not the scene).
        bpy.context.view_layer.update()
    for child in children:
        ctx.delta.touch(child)
        world = child.matrix_world.copy()
        child.parent = parent
        child.matrix_parent_inverse = Matrix.Identity(4)
        if keep:
            child.matrix_world = world
    return {"parent": parent.name if parent else None, "children": [c.name for c in children], "keep_transform": keep}
