"""Selection: select objects by name, glob, type, material, collection, modifier type or
evaluated polygon count; replace, extend or deselect; set the active object.

Headless Blender has no viewport, so this uses the view layer directly
(`Object.select_set`, `view_layer.objects.active`), never `bpy.ops`. The filters that
are given all apply (an object must pass every one); what they match is then selected
(`replace`: and everything else deselected; `extend`: added to the selection) or
deselected (`deselect`). Without a filter, only `active` changes. The active object is
also selected, as a click in the viewport does. Objects outside the view layer (in an
excluded collection) cannot be selected and are never matched.

The delta reports the change as the settings domain `selection` (`delta/selection.py`).
"""

import fnmatch

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .common import get_object
from .inspect import OBJECT_TYPES, selection_summary

FILTERS = ("names", "pattern", "type", "material", "collection", "modifier", "polycount")
MODES = ("replace", "extend", "deselect")
MAX_LISTED = 500
ROOT = "Scene Collection"


def _modifier_types():
    return {item.identifier for item in bpy.types.Modifier.bl_rna.properties["type"].enum_items}


def _polygons(obj, depsgraph):
    """The evaluated mesh's polygon count (modifiers applied), None for other types."""
    if obj.type != "MESH":
        return None
    return len(obj.evaluated_get(depsgraph).data.polygons)


def synced_layer():
    """The view layer, its object list brought up to date: iterating `view_layer.objects`
    does not resync it (objects linked since are missing), reading `active` does."""
    layer = bpy.context.view_layer
    layer.objects.active
    return layer


def _matching(params):
    layer_objects = synced_layer().objects
    candidates = list(layer_objects)
    if "names" in params:
        wanted = []
        for name in dict.fromkeys(params["names"]):
            obj = get_object(name)
            if obj.name not in layer_objects:
                raise invalid_target("%s is not in the view layer (its collection is excluded), so it cannot be selected" % name)
            wanted.append(obj)
        candidates = [o for o in candidates if o in set(wanted)]
    if "pattern" in params:
        candidates = [o for o in candidates if fnmatch.fnmatchcase(o.name, params["pattern"])]
    if "type" in params:
        candidates = [o for o in candidates if o.type == params["type"]]
    if "material" in params:
        mat = bpy.data.materials.get(params["material"])
        if mat is None:
            raise not_found("material", params["material"])
        candidates = [o for o in candidates if any(slot.material == mat for slot in o.material_slots)]
    if "collection" in params:
        name = params["collection"]
        coll = bpy.context.scene.collection if name == ROOT else bpy.data.collections.get(name)
        if coll is None:
            raise not_found("collection", name)
        members = set(coll.all_objects)
        candidates = [o for o in candidates if o in members]
    if "modifier" in params:
        kind = params["modifier"].upper()
        if kind not in _modifier_types():
            raise CommandError("invalid_params", "%r is not a modifier type of this Blender (%s); use one like SUBSURF, ARRAY, BEVEL"
                               % (params["modifier"], bpy.app.version_string))
        candidates = [o for o in candidates if any(m.type == kind for m in o.modifiers)]
    polygons = {}
    if "polycount" in params:
        low, high = params["polycount"].get("min", 0), params["polycount"].get("max")
        if high is not None and high < low:
            raise CommandError("invalid_params", "polycount min %d is above max %d" % (low, high))
        depsgraph = bpy.context.evaluated_depsgraph_get()
        kept = []
        for o in candidates:
            count = _polygons(o, depsgraph)
            if count is not None and count >= low and (high is None or count <= high):
                polygons[o.name] = count
                kept.append(o)
        candidates = kept
    return candidates, polygons


@command(
    effect="mutate",
    summary="Select objects by names, glob, type, material, collection, modifier type or polygon count; replace, extend "
            "or deselect; set the active object.",
    params=s.obj({
        "names": s.array(s.string(1, 255), 1, 1024, description="Exactly these objects"),
        "pattern": s.string(1, 256, description="Objects whose name matches this glob (* ? [abc])"),
        "type": s.enum(OBJECT_TYPES, description="Objects of this type"),
        "material": s.string(1, 255, description="Objects with this material in a slot"),
        "collection": s.string(1, 255, description="Objects in this collection or its children (\"%s\": every object of the scene)" % ROOT),
        "modifier": s.string(1, 64, pattern=r"^[A-Za-z_]+$", description="Objects with a modifier of this type (SUBSURF, ARRAY, BEVEL, ...)"),
        "polycount": s.obj({
            "min": s.integer(0, description="At least this many polygons"),
            "max": s.integer(0, description="At most this many polygons"),
        }, min_properties=1, description="Meshes whose evaluated polygon count (modifiers applied) is in this range"),
        "mode": s.enum(MODES, description="replace (default): select only the matches; extend: add them; deselect: remove them"),
        "active": s.string(1, 255, description="Make this object the active one (it is also selected)"),
    }, min_properties=1),
    result=s.obj({
        "matched": s.array(s.string(), max_items=MAX_LISTED, description="What the filters matched (sorted)"),
        "matched_total": s.integer(0),
        "selected": s.array(s.string(), max_items=MAX_LISTED, description="The selection afterwards (sorted)"),
        "selected_total": s.integer(0),
        "active": s.nullable(s.string()),
        "mode": s.string(),
        "polygons": s.obj(additional=s.integer(0), description="Evaluated polygon count of each match, when polycount was given"),
    }, required=("matched", "matched_total", "selected", "selected_total", "active", "mode")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def select_objects(ctx, params):
    mode = params.get("mode", "replace")
    filtered = any(k in params for k in FILTERS)
    if not filtered and "active" not in params:
        raise CommandError("invalid_params", "nothing to select: give a filter (%s) or active" % ", ".join(FILTERS))
    layer = synced_layer()
    active = None
    if "active" in params:
        active = get_object(params["active"])
        if active.name not in layer.objects:
            raise invalid_target("%s is not in the view layer (its collection is excluded), so it cannot be active" % active.name)
    matched, polygons = _matching(params) if filtered else ([], {})
    ctx.delta.touch_selection()
    if filtered:
        if mode == "replace":
            keep = set(matched)
            for o in [o for o in layer.objects.selected if o is not None]:
                if o not in keep:
                    o.select_set(False)
        for o in matched:
            o.select_set(mode != "deselect")
    if active is not None:
        active.select_set(True)
        layer.objects.active = active
    names = sorted(o.name for o in matched)
    out = {"matched": names[:MAX_LISTED], "matched_total": len(names), "mode": mode}
    out.update(selection_summary())
    if "polycount" in params:
        out["polygons"] = {n: polygons[n] for n in names[:MAX_LISTED]}
    return out
