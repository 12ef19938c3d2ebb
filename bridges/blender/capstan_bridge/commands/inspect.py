"""Reading the scene: a bounded summary with paging and filters, and one object.

Every answer is bounded whatever the scene holds: the scene summary lists at most
`limit` objects (default 20, at most 200) and 50 collections; one object's lists
(modifiers, constraints, materials, children, keyframes) are capped with their totals
reported, so an agent never receives an unbounded answer.
"""

import array
import fnmatch

import bpy

from ..core import schema as s
from ..command import command
from .animation import keyframes_of
from .common import OBJECT, get_object, rounded, scene

OBJECT_TYPES = ("MESH", "CURVE", "SURFACE", "META", "FONT", "CURVES", "POINTCLOUD", "VOLUME", "GREASEPENCIL",
                "ARMATURE", "LATTICE", "EMPTY", "LIGHT", "LIGHT_PROBE", "CAMERA", "SPEAKER")
DEFAULT_LIMIT = 20
MAX_LIMIT = 200
MAX_COLLECTIONS = 50
MAX_LISTED = 64
MAX_KEYS_PER_CHANNEL = 64
MAX_SELECTED_LISTED = 200

SUMMARY = s.obj({
    "name": s.string(),
    "type": s.string(),
    "location": s.ref("vec3"),
    "rotation": s.ref("vec3"),
    "scale": s.ref("vec3"),
    "visible": s.boolean(),
    "parent": s.nullable(s.string()),
    "collections": s.array(s.string()),
    "materials": s.array(s.string()),
}, required=("name", "type", "location", "rotation", "scale", "visible", "parent", "collections", "materials"),
   description="location in metres (world), rotation in radians (XYZ Euler, as Blender stores it; inputs take degrees), scale as factors")

PAGE = s.obj({
    "offset": s.integer(0), "limit": s.integer(1), "total": s.integer(0),
    "next_offset": s.nullable(s.integer(0)),
}, required=("offset", "limit", "total", "next_offset"))


def summary(obj, collections=None):
    """One object's summary. `collections`: its collections when the caller knows them
    (`users_collection` walks every collection, a cost that grows with the scene)."""
    data = obj.data
    mats = [m.name for m in getattr(data, "materials", []) if m is not None] if data is not None else []
    return {
        "name": obj.name,
        "type": obj.type,
        "location": rounded(obj.location),
        "rotation": rounded(obj.rotation_euler),
        "scale": rounded(obj.scale),
        "visible": not (obj.hide_viewport or obj.hide_render),
        "parent": obj.parent.name if obj.parent else None,
        "collections": (collections if collections is not None else [c.name for c in obj.users_collection])[:8],
        "materials": mats[:8],
    }


def page(total, offset, limit):
    nxt = offset + limit
    return {"offset": offset, "limit": limit, "total": total, "next_offset": nxt if nxt < total else None}


@command(
    effect="read",
    summary="The scene at a glance: counts by type, collections, frame range, render engine, and one page of objects (filter by type, collection or name pattern).",
    params=s.obj({
        "offset": s.integer(0, 1_000_000, description="First matching object to list"),
        "limit": s.integer(1, MAX_LIMIT, description="Objects per page (default %d)" % DEFAULT_LIMIT),
        "type": s.enum(OBJECT_TYPES, description="Only objects of this type"),
        "collection": s.string(1, s.NAME_MAX, description="Only objects in this collection"),
        "name": s.string(1, 64, description="Only objects whose name matches this pattern (* and ? wildcards)"),
    }),
    result=s.obj({
        "scene": s.string(),
        "frame": s.obj({"start": s.integer(), "end": s.integer(), "current": s.integer()}, required=("start", "end", "current")),
        "render": s.obj({
            "engine": s.string(), "resolution": s.array(s.integer(), 2, 2), "percentage": s.integer(), "transparent": s.boolean(),
        }, required=("engine", "resolution", "percentage", "transparent")),
        "camera": s.nullable(s.string()),
        "world": s.nullable(s.string()),
        "counts": s.obj(additional=s.integer(0), description="Objects in the scene by type"),
        "object_count": s.integer(0),
        "collections": s.array(s.obj({"name": s.string(), "objects": s.integer(0), "children": s.integer(0)},
                                     required=("name", "objects", "children")), max_items=MAX_COLLECTIONS),
        "collections_total": s.integer(0),
        "objects": s.array(SUMMARY, max_items=MAX_LIMIT),
        "page": PAGE,
        "filter": s.obj(additional=s.string()),
        "selected": s.array(s.string(), max_items=MAX_SELECTED_LISTED, description="The selected objects (sorted)"),
        "selected_total": s.integer(0),
        "active": s.nullable(s.string(description="The active object")),
    }, required=("scene", "frame", "render", "camera", "world", "counts", "object_count", "collections",
                 "collections_total", "objects", "page", "filter", "selected", "selected_total", "active")),
    errors=("not_found",),
    max_result_bytes=256 * 1024,
)
def get_scene_info(ctx, params):
    sc = scene()
    counts = {}
    for obj in sc.objects:
        counts[obj.type] = counts.get(obj.type, 0) + 1
    candidates = sc.objects
    if "collection" in params:
        coll = bpy.data.collections.get(params["collection"])
        if coll is None:
            if params["collection"] != sc.collection.name:
                from ..errors import not_found
                raise not_found("collection", params["collection"])
            coll = sc.collection
        candidates = coll.all_objects
    kind, pattern = params.get("type"), params.get("name")
    matching = [o for o in candidates
                if (kind is None or o.type == kind) and (pattern is None or fnmatch.fnmatchcase(o.name, pattern))]
    offset, limit = params.get("offset", 0), params.get("limit", DEFAULT_LIMIT)
    collections = list(bpy.data.collections)
    return {
        "scene": sc.name,
        "frame": {"start": sc.frame_start, "end": sc.frame_end, "current": sc.frame_current},
        "render": {
            "engine": sc.render.engine,
            "resolution": [sc.render.resolution_x, sc.render.resolution_y],
            "percentage": sc.render.resolution_percentage,
            "transparent": sc.render.film_transparent,
        },
        "camera": sc.camera.name if sc.camera else None,
        "world": sc.world.name if sc.world else None,
        "counts": counts,
        "object_count": len(sc.objects),
        "collections": [{"name": c.name, "objects": len(c.objects), "children": len(c.children)} for c in collections[:MAX_COLLECTIONS]],
        "collections_total": len(collections),
        "objects": [summary(o) for o in matching[offset:offset + limit]],
        "page": page(len(matching), offset, limit),
        "filter": {k: params[k] for k in ("type", "collection", "name") if k in params},
        **selection_summary(),
    }


def selection_summary():
    """The view layer's selected objects (sorted, capped) and the active object."""
    layer = bpy.context.view_layer
    active = layer.objects.active  # first: reading it brings the layer's object list up to date
    names = sorted(o.name for o in layer.objects.selected if o is not None)
    return {"selected": names[:MAX_SELECTED_LISTED], "selected_total": len(names), "active": active.name if active else None}


def _material_info(mat):
    info = {"name": mat.name}
    tree = getattr(mat, "node_tree", None)
    for node in (tree.nodes if tree else []):
        if node.type == "BSDF_PRINCIPLED":
            for key, socket in (("base_color", "Base Color"), ("metallic", "Metallic"), ("roughness", "Roughness")):
                if socket in node.inputs:
                    v = node.inputs[socket].default_value
                    info[key] = rounded(v) if hasattr(v, "__len__") else round(float(v), 5)
            for socket in ("Emission Color", "Emission"):
                if socket in node.inputs:
                    info["emission_color"] = rounded(node.inputs[socket].default_value)
                    break
            if "Emission Strength" in node.inputs:
                info["emission_strength"] = round(float(node.inputs["Emission Strength"].default_value), 5)
            break
    return info


def _capped(items, render):
    items = list(items)
    return [render(i) for i in items[:MAX_LISTED]], len(items)


def _constraint(c):
    target = getattr(c, "target", None)
    return {"name": c.name, "type": c.type, "enabled": not c.mute, "influence": round(c.influence, 5),
            "target": target.name if target is not None else None}


@command(
    effect="read",
    summary="One object: transform, dimensions, parent and children, collections, modifiers, constraints, materials, mesh counts and smooth faces, rigid body, asset mark, keyframes.",
    params=s.obj({"name": OBJECT}, required=("name",)),
    result=s.obj(
        dict(SUMMARY["properties"], **{
            "dimensions": s.ref("vec3"),
            "children": s.array(s.string(), max_items=MAX_LISTED),
            "children_total": s.integer(0),
            "modifiers": s.array(s.obj({"name": s.string(), "type": s.string(), "show_viewport": s.boolean(), "show_render": s.boolean()},
                                       required=("name", "type", "show_viewport", "show_render")), max_items=MAX_LISTED),
            "modifiers_total": s.integer(0),
            "constraints": s.array(s.obj({"name": s.string(), "type": s.string(), "enabled": s.boolean(), "influence": s.number(),
                                          "target": s.nullable(s.string())},
                                         required=("name", "type", "enabled", "influence", "target")), max_items=MAX_LISTED),
            "constraints_total": s.integer(0),
            "material_details": s.array(s.obj({
                "name": s.string(), "base_color": s.ref("rgba"), "metallic": s.number(), "roughness": s.number(),
                "emission_color": s.array(s.number()), "emission_strength": s.number(),
            }, required=("name",)), max_items=MAX_LISTED),
            "mesh": s.obj({"vertices": s.integer(0), "edges": s.integer(0), "faces": s.integer(0), "uv_layers": s.array(s.string()),
                           "smooth_faces": s.integer(0, description="Faces shaded smooth"),
                           "evaluated": s.obj({"vertices": s.integer(0), "edges": s.integer(0), "faces": s.integer(0)},
                                              required=("vertices", "edges", "faces"),
                                              description="Counts after modifiers, at the current frame (what renders)")},
                          required=("vertices", "edges", "faces", "uv_layers", "smooth_faces", "evaluated")),
            "rigid_body": s.obj({"type": s.enum(("ACTIVE", "PASSIVE")), "mass": s.number(), "shape": s.string(), "enabled": s.boolean(),
                                 "kinematic": s.boolean()},
                                required=("type", "mass", "shape", "enabled", "kinematic"),
                                description="Present when the object is a rigid body"),
            "asset": s.obj({"tags": s.array(s.string(), max_items=MAX_LISTED), "description": s.string()},
                           required=("tags", "description"), description="Present when the object is marked as an asset"),
            "light": s.obj({"type": s.string(), "energy": s.number(), "color": s.ref("vec3"),
                            "size": s.number(description="AREA: edge (X) in metres"),
                            "shape": s.string(description="AREA: SQUARE, RECTANGLE, DISK or ELLIPSE"),
                            "size_y": s.number(description="AREA: Y edge in metres (RECTANGLE, ELLIPSE)"),
                            "radius": s.number(description="POINT, SPOT: radius in metres"),
                            "spot_size": s.number(description="SPOT: cone angle in radians"), "spot_blend": s.number()},
                           required=("type", "energy", "color")),
            "empty": s.obj({"display_type": s.string(), "display_size": s.number()}, required=("display_type", "display_size"),
                           description="Present when the object is an empty"),
            "camera": s.obj({
                "lens": s.number(), "active": s.boolean(), "type": s.string(),
                "dof": s.obj({"enabled": s.boolean(), "focus_object": s.nullable(s.string()), "focus_distance": s.number(), "fstop": s.number()},
                             required=("enabled", "focus_object", "focus_distance", "fstop")),
            }, required=("lens", "active", "dof")),
            "parent_type": s.string(),
            "world_location": s.ref("vec3"),
            "keyframes": s.array(s.obj({
                "property": s.string(),
                "channels": s.array(s.array(s.array(s.number(), 2, 2))),
                "keys_total": s.integer(0),
            }, required=("property", "channels", "keys_total")), max_items=MAX_LISTED),
            "custom_properties": s.obj(additional=s.any_value()),
        }),
        required=tuple(SUMMARY["required"]) + ("dimensions", "children", "children_total", "modifiers", "modifiers_total",
                                               "constraints", "constraints_total", "material_details", "keyframes", "parent_type",
                                               "custom_properties"),
        description=SUMMARY["description"],
    ),
    errors=("not_found",),
    max_result_bytes=512 * 1024,
)
def get_object_info(ctx, params):
    obj = get_object(params["name"])
    info = summary(obj)
    info["materials"] = [m.name for m in getattr(obj.data, "materials", []) if m is not None][:MAX_LISTED] if obj.data else []
    info["dimensions"] = rounded(obj.dimensions)
    info["parent_type"] = obj.parent_type
    info["world_location"] = rounded(obj.matrix_world.translation)
    info["children"], info["children_total"] = _capped(obj.children, lambda c: c.name)
    info["modifiers"], info["modifiers_total"] = _capped(
        obj.modifiers, lambda m: {"name": m.name, "type": m.type, "show_viewport": m.show_viewport, "show_render": m.show_render})
    info["constraints"], info["constraints_total"] = _capped(obj.constraints, _constraint)
    data = obj.data
    info["material_details"] = [_material_info(m) for m in getattr(data, "materials", []) if m is not None][:MAX_LISTED] if data else []
    if obj.type == "MESH":
        info["mesh"] = {"vertices": len(data.vertices), "edges": len(data.edges), "faces": len(data.polygons),
                        "uv_layers": [u.name for u in data.uv_layers][:8], "smooth_faces": _smooth_faces(data),
                        "evaluated": _evaluated_counts(obj)}
    elif obj.type == "LIGHT":
        info["light"] = {"type": data.type, "energy": round(data.energy, 5), "color": rounded(data.color)}
        if data.type == "AREA":
            info["light"].update(size=round(data.size, 5), shape=data.shape, size_y=round(data.size_y, 5))
        elif data.type in ("POINT", "SPOT"):
            info["light"]["radius"] = round(data.shadow_soft_size, 5)
        if data.type == "SPOT":
            info["light"].update(spot_size=round(data.spot_size, 5), spot_blend=round(data.spot_blend, 5))
    elif obj.type == "EMPTY":
        info["empty"] = {"display_type": obj.empty_display_type, "display_size": round(obj.empty_display_size, 5)}
    elif obj.type == "CAMERA":
        dof = data.dof
        info["camera"] = {
            "lens": round(data.lens, 5),
            "type": data.type,
            "active": scene().camera == obj,
            "dof": {
                "enabled": dof.use_dof,
                "focus_object": dof.focus_object.name if dof.focus_object else None,
                "focus_distance": round(dof.focus_distance, 5),
                "fstop": round(dof.aperture_fstop, 5),
            },
        }
    rb = obj.rigid_body
    if rb is not None:
        info["rigid_body"] = {"type": rb.type, "mass": round(rb.mass, 5), "shape": rb.collision_shape, "enabled": rb.enabled,
                              "kinematic": rb.kinematic}
    if obj.asset_data is not None:
        info["asset"] = {"tags": [t.name for t in obj.asset_data.tags][:MAX_LISTED], "description": obj.asset_data.description}
    info["keyframes"] = keyframes_of(obj, MAX_LISTED, MAX_KEYS_PER_CHANNEL)
    info["custom_properties"] = {k: _jsonable(obj[k]) for k in list(obj.keys())[:32] if not k.startswith("_")}
    return info


def _evaluated_counts(obj):
    """Vertex, edge and face counts of the mesh Blender renders: after modifiers and
    Geometry Nodes, at the current frame (the bridge settles the scene first)."""
    evaluated = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = evaluated.to_mesh()
    try:
        return {"vertices": len(mesh.vertices), "edges": len(mesh.edges), "faces": len(mesh.polygons)}
    finally:
        evaluated.to_mesh_clear()


def _smooth_faces(mesh):
    """How many faces are shaded smooth, read in one pass (no Python loop over faces)."""
    flags = array.array("b", bytes(len(mesh.polygons)))
    mesh.polygons.foreach_get("use_smooth", flags)
    return sum(flags)


def _jsonable(value):
    if isinstance(value, (bool, int, float, str)):
        return value
    try:
        return [_jsonable(v) for v in value]
    except TypeError:
        return repr(value)[:256]
