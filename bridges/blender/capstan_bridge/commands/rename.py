"""Rename any datablock: an object, material, collection, mesh, curve, image, node
group, action, world, or camera or light data.

Blender's own name rules apply, read from the running Blender rather than assumed:
- the longest name is `ID.name`'s RNA `length_max` less its terminating byte (63 bytes
  in 4.5, 255 in 5.x). A longer name is refused with `invalid_params` naming the limit
  and the version, never silently truncated: an agent that asked for a name gets it or
  learns why not;
- a name another datablock of the same kind has gets Blender's `.001` suffix; the answer
  says the name the datablock actually got (`name`) and `clashed: true`.

The delta: a rename changes everything that names the datablock (fingerprints record
references by name), so every user Blender knows (`bpy.data.user_map`) is touched
before the rename, following users that the delta does not track (a mesh using a
material) up to the objects that use them.
"""

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from ..delta import fingerprint

# kind -> the bpy.data collection it lives in.
KINDS = {
    "object": "objects",
    "material": "materials",
    "collection": "collections",
    "mesh": "meshes",
    "curve": "curves",
    "image": "images",
    "node_group": "node_groups",
    "action": "actions",
    "world": "worlds",
    "camera": "cameras",
    "light": "lights",
}
# The delta's datablock kinds, by the ID type of a datablock (other types are followed
# to their users).
_TRACKED = {bpy.types.Material: "materials", bpy.types.World: "worlds", bpy.types.Collection: "collections",
            bpy.types.Image: "images", bpy.types.Action: "actions", bpy.types.NodeTree: "node_groups"}


def max_name_bytes():
    """The longest datablock name this Blender keeps, in UTF-8 bytes."""
    return bpy.types.ID.bl_rna.properties["name"].length_max - 1


def _touch_users(ctx, block):
    """Touch everything whose fingerprint names `block`, before it is renamed."""
    seen, todo = set(), [block]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if isinstance(current, bpy.types.Object):
            ctx.delta.touch(current)
            if current != block:  # objects that use this object do not name the renamed block
                continue
        if isinstance(current, bpy.types.Scene):
            for domain in fingerprint.SETTINGS:
                ctx.delta.touch_settings(domain)
            continue
        kind = next((k for t, k in _TRACKED.items() if isinstance(current, t)), None)
        if kind is not None and getattr(bpy.data, kind).get(current.name) == current:
            ctx.delta.touch_datablock(kind, current)
        users = bpy.data.user_map(subset={current}).get(current, ())
        todo.extend(u for u in users if u not in seen)
    if isinstance(block, bpy.types.Collection):  # its objects' collections aspect names it
        for obj in block.objects:
            ctx.delta.touch(obj)


@command(
    effect="mutate",
    summary="Rename an object, material, collection, mesh, curve, image, node group, action, world, camera or light data "
            "by Blender's name rules; answers the name it got.",
    params=s.obj({
        "kind": s.enum(tuple(KINDS), description="What kind of datablock"),
        "name": s.string(1, 255, description="Its exact current name"),
        "new_name": s.string(1, 255, description="The name to give it (at most 63 bytes in Blender 4.5, 255 in 5.x)"),
    }, required=("kind", "name", "new_name")),
    result=s.obj({
        "kind": s.string(),
        "previous": s.string(),
        "requested": s.string(),
        "name": s.string(description="The name it has now"),
        "clashed": s.boolean(description="Another datablock had the name, so Blender added a suffix"),
        "max_name_bytes": s.integer(1),
    }, required=("kind", "previous", "requested", "name", "clashed", "max_name_bytes")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def rename_datablock(ctx, params):
    kind, requested = params["kind"], params["new_name"]
    collection = getattr(bpy.data, KINDS[kind])
    block = collection.get(params["name"])
    if block is None:
        raise not_found(kind.replace("_", " "), params["name"])
    limit = max_name_bytes()
    size = len(requested.encode("utf-8"))
    if size > limit:
        raise CommandError("invalid_params", "new_name is %d bytes; Blender %s keeps at most %d bytes in a name"
                           % (size, bpy.app.version_string, limit))
    if requested.strip() == "" or any(ord(c) < 32 for c in requested):
        raise CommandError("invalid_params", "new_name must have a visible character and no control characters")
    if block.library is not None:
        raise invalid_target("%s %s is linked from a library and cannot be renamed here" % (kind, block.name))
    previous = block.name
    if previous != requested:
        _touch_users(ctx, block)
        if kind == "object":
            for child in block.children:  # their parent aspect names the parent
                ctx.delta.touch(child)
        block.name = requested
    return {"kind": kind, "previous": previous, "requested": requested, "name": block.name,
            "clashed": block.name != requested, "max_name_bytes": limit}
