"""Collections: list the tree, create, move objects or collections, link, unlink, delete.

The scene's root collection is named by `ROOT` ("Scene Collection") in these params.
Deleting a collection keeps its objects and child collections: whatever would be left
in no collection is relinked to the deleted one's parent."""

import re

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .common import OBJECT, get_object, scene
from .modeling_util import SAFE_NAME

ROOT = "Scene Collection"
MAX_LISTED = 200
MAX_OBJECTS_LISTED = 64
COLLECTION = s.string(1, s.NAME_MAX, description="Collection name (\"%s\" is the scene's root)" % ROOT)


def _get(name):
    if name == ROOT:
        return scene().collection
    coll = bpy.data.collections.get(name)
    if coll is None:
        raise not_found("collection", name)
    return coll


def _parents(coll):
    """Collections (the root included) that hold `coll` as a child, in this scene."""
    root = scene().collection
    out = [root] if coll.name in root.children else []
    return out + [c for c in bpy.data.collections if coll.name in c.children]


def _touch_collection(ctx, coll):
    if coll == scene().collection:
        ctx.delta.touch_settings("scene")
    else:
        ctx.delta.touch_datablock("collections", coll)


def _descendants(coll):
    out, todo = set(), [coll]
    while todo:
        c = todo.pop()
        for child in c.children:
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


@command(
    effect="read",
    summary="The scene's collection tree: each collection's parent, children, object count and first objects.",
    params=s.obj({}),
    result=s.obj({
        "collections": s.array(s.obj({
            "name": s.string(), "parent": s.nullable(s.string()), "children": s.array(s.string()),
            "objects": s.array(s.string(), max_items=MAX_OBJECTS_LISTED), "objects_total": s.integer(0),
        }, required=("name", "parent", "children", "objects", "objects_total")), max_items=MAX_LISTED),
        "total": s.integer(0),
    }, required=("collections", "total")),
    errors=(),
)
def list_collections(ctx, params):
    out = []
    todo = [(scene().collection, None)]
    seen = set()
    while todo and len(out) < MAX_LISTED:
        coll, parent = todo.pop(0)
        if coll.name in seen:
            continue
        seen.add(coll.name)
        objects = sorted(o.name for o in coll.objects)
        out.append({"name": ROOT if coll == scene().collection else coll.name, "parent": parent,
                    "children": [c.name for c in coll.children], "objects": objects[:MAX_OBJECTS_LISTED],
                    "objects_total": len(objects)})
        todo.extend((c, out[-1]["name"]) for c in coll.children)
    return {"collections": out, "total": len(bpy.data.collections) + 1}


@command(
    effect="mutate",
    summary="Create a collection (optionally moving objects into it), move objects or a collection, or link/unlink objects.",
    params=s.obj({
        "action": s.enum(("create", "move", "link", "unlink")),
        "name": COLLECTION,
        "parent": COLLECTION,
        "objects": s.array(OBJECT, 1, 256),
    }, required=("action", "name")),
    result=s.obj({"action": s.string(), "collection": s.string(), "parent": s.nullable(s.string()),
                  "objects": s.array(s.string()), "created": s.boolean()},
                 required=("action", "collection", "parent", "objects", "created")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def manage_collection(ctx, params):
    action, name = params["action"], params["name"]
    objects = [get_object(n) for n in dict.fromkeys(params.get("objects", []))]
    parent = _get(params["parent"]) if "parent" in params else None
    created = False
    if action == "create":
        if name == ROOT or not re.match(SAFE_NAME["pattern"], name):
            raise CommandError("invalid_params", "%r is not a name a new collection can take" % name)
        coll = bpy.data.collections.get(name)
        parent = parent or scene().collection
        if coll is None:
            coll = bpy.data.collections.new(name)
            _touch_collection(ctx, parent)
            parent.children.link(coll)
            ctx.delta.created_datablock("collections", coll)
            created = True
        elif coll not in set(parent.children):
            raise invalid_target("collection %s exists elsewhere; use move to put it under %s" % (name, parent.name))
        _move(ctx, objects, coll)
    else:
        coll = _get(name)
        if action == "move" and not objects:
            if parent is None:
                raise CommandError("invalid_params", "move needs objects (to move into %s) or a parent (to move %s under)" % (name, name))
            if coll == scene().collection or parent == coll or parent in _descendants(coll):
                raise invalid_target("%s cannot go under %s" % (name, params["parent"]))
            for old in _parents(coll):
                _touch_collection(ctx, old)
                old.children.unlink(coll)
            _touch_collection(ctx, parent)
            parent.children.link(coll)
        elif not objects:
            raise CommandError("invalid_params", "%s needs objects" % action)
        elif parent is not None:
            raise CommandError("invalid_params", "parent is for create, or for move without objects")
        elif action == "move":
            _move(ctx, objects, coll)
        elif action == "link":
            for obj in objects:
                if obj.name not in coll.objects:
                    ctx.delta.touch(obj)
                    coll.objects.link(obj)
        else:
            stranded = [o.name for o in objects if o.name in coll.objects and len(o.users_collection) == 1]
            if stranded:
                raise invalid_target("unlinking would leave %s in no collection; move them instead" % ", ".join(stranded))
            for obj in objects:
                if obj.name in coll.objects:
                    ctx.delta.touch(obj)
                    coll.objects.unlink(obj)
    parents = _parents(coll) if coll != scene().collection else []
    return {"action": action, "collection": name, "parent": (ROOT if parents[0] == scene().collection else parents[0].name) if parents else None,
            "objects": [o.name for o in objects], "created": created}


def _move(ctx, objects, coll):
    for obj in objects:
        if list(obj.users_collection) == [coll]:
            continue
        ctx.delta.touch(obj)
        for old in list(obj.users_collection):
            if old != coll:
                old.objects.unlink(obj)
        if obj.name not in coll.objects:
            coll.objects.link(obj)


# Not "destroy": nothing but the (empty, once emptied) container goes, every object and
# child collection is kept, and one create + move restores it; CATALOG.md marks
# object.collection's delete non-destructive for that reason.
@command(
    effect="mutate",
    summary="Delete a collection, keeping its objects and child collections (what would be left in none goes to its parent).",
    params=s.obj({"name": COLLECTION}, required=("name",)),
    result=s.obj({"deleted": s.string(), "relinked_objects": s.array(s.string()), "relinked_collections": s.array(s.string()),
                  "to": s.string()}, required=("deleted", "relinked_objects", "relinked_collections", "to")),
    errors=("not_found", "invalid_target"),
)
def delete_collection(ctx, params):
    coll = _get(params["name"])
    if coll == scene().collection:
        raise invalid_target("the scene's root collection cannot be deleted")
    parents = _parents(coll)
    heir = parents[0] if parents else scene().collection
    _touch_collection(ctx, heir)
    for p in parents:
        _touch_collection(ctx, p)
    objects = list(coll.objects)
    relinked = []
    for obj in objects:
        ctx.delta.touch(obj)
        if len(obj.users_collection) == 1:
            heir.objects.link(obj)
            relinked.append(obj.name)
    children = []
    for child in list(coll.children):
        ctx.delta.touch_datablock("collections", child)
        if len(_parents(child)) == 1:
            heir.children.link(child)
            children.append(child.name)
    name = coll.name
    ctx.delta.removing_datablock("collections", coll)
    bpy.data.collections.remove(coll)
    return {"deleted": name, "relinked_objects": sorted(relinked), "relinked_collections": children,
            "to": ROOT if heir == scene().collection else heir.name}
