"""Scene-wide reads: graph views (hierarchy, modifiers, materials, topology,
constraints), typed quality diagnostics (camera, lights, world, render), and .blend
bookkeeping (datablock counts, missing files, linked libraries, paths). All bounded:
lists stop at their cap and report the total and `truncated`.
"""

import os

import bpy

from ..core import schema as s
from ..command import command
from .common import get_object, rounded, scene

VIEWS = ("hierarchy", "modifiers", "materials", "topology", "constraints")
MAX_ENTRIES = 500
MAX_ITEMS = 64
MAX_DIAG_OBJECTS = 2000

ITEM = s.obj({
    "name": s.string(), "type": s.string(), "enabled": s.boolean(), "target": s.nullable(s.string()),
    "index": s.integer(0), "link": s.string(),
}, required=("name",))

ENTRY = s.obj({
    "name": s.string(), "type": s.string(), "parent": s.nullable(s.string()), "depth": s.integer(0),
    "children": s.array(s.string(), max_items=MAX_ITEMS),
    "items": s.array(ITEM, max_items=MAX_ITEMS), "items_total": s.integer(0),
    "topology": s.obj({"vertices": s.integer(0), "edges": s.integer(0), "faces": s.integer(0),
                       "evaluated_vertices": s.integer(0), "evaluated_faces": s.integer(0)},
                      required=("vertices", "edges", "faces", "evaluated_vertices", "evaluated_faces")),
}, required=("name", "type"))


def _depth(obj):
    d = 0
    while obj.parent is not None and d < 1000:
        obj, d = obj.parent, d + 1
    return d


def _items(view, obj, depsgraph):
    if view == "modifiers":
        return [{"name": m.name, "type": m.type, "enabled": m.show_viewport and m.show_render} for m in obj.modifiers]
    if view == "constraints":
        return [{"name": c.name, "type": c.type, "enabled": c.enabled,
                 "target": getattr(getattr(c, "target", None), "name", None)} for c in obj.constraints]
    if view == "materials":
        return [{"name": slot.material.name if slot.material else "", "index": i, "link": slot.link}
                for i, slot in enumerate(obj.material_slots)]
    return []


def _entry(view, obj, depsgraph):
    out = {"name": obj.name, "type": obj.type}
    if view == "hierarchy":
        kids = [c.name for c in obj.children]
        out.update(parent=obj.parent.name if obj.parent else None, depth=_depth(obj), children=kids[:MAX_ITEMS])
    elif view == "topology":
        if obj.type == "MESH":
            me = obj.data
            ev = obj.evaluated_get(depsgraph).data
            out["topology"] = {"vertices": len(me.vertices), "edges": len(me.edges), "faces": len(me.polygons),
                               "evaluated_vertices": len(ev.vertices), "evaluated_faces": len(ev.polygons)}
    else:
        items = _items(view, obj, depsgraph)
        out.update(items=items[:MAX_ITEMS], items_total=len(items))
    return out


@command(
    effect="read",
    summary="Scene graph views for one object or all: hierarchy, modifiers, materials, topology (original and evaluated counts), constraints.",
    params=s.obj({
        "view": s.enum(VIEWS, description="Which view (default hierarchy)"),
        "object": s.string(1, s.NAME_MAX, description="Only this object (default: every object in the scene)"),
    }),
    result=s.obj({
        "view": s.enum(VIEWS), "object": s.nullable(s.string()),
        "entries": s.array(ENTRY, max_items=MAX_ENTRIES), "total": s.integer(0), "truncated": s.boolean(),
    }, required=("view", "object", "entries", "total", "truncated")),
    errors=("not_found",),
    max_result_bytes=2 * 1024 * 1024,
)
def scene_inspect(ctx, params):
    view = params.get("view", "hierarchy")
    sc = scene()
    if "object" in params:
        objs = [get_object(params["object"])]
    elif view == "hierarchy":  # roots first, then depth-first, so a page reads as a tree
        objs, stack = [], sorted((o for o in sc.objects if o.parent is None), key=lambda o: o.name, reverse=True)
        while stack and len(objs) <= MAX_ENTRIES:
            o = stack.pop()
            objs.append(o)
            stack.extend(sorted((c for c in o.children if c.name in sc.objects), key=lambda c: c.name, reverse=True))
    else:
        objs = sorted(sc.objects, key=lambda o: o.name)
    total = len(sc.objects) if "object" not in params else 1
    depsgraph = bpy.context.evaluated_depsgraph_get() if view == "topology" else None
    entries = [_entry(view, o, depsgraph) for o in objs[:MAX_ENTRIES]]
    return {"view": view, "object": params.get("object"), "entries": entries, "total": total, "truncated": total > len(entries)}


def _owner(obj):
    tags = {k: str(obj[k]) for k in ("capstan_call", "capstan_role") if k in obj.keys()}
    return tags or None


def _world(sc):
    w = sc.world
    if w is None:
        return None
    hdri, color, strength = None, None, None
    tree = w.node_tree if getattr(w, "node_tree", None) else None
    if tree is not None:
        for n in tree.nodes:
            if n.type == "TEX_ENVIRONMENT" and n.image is not None:
                hdri = n.image.filepath or n.image.name
            if n.type == "BACKGROUND":
                color = rounded(n.inputs["Color"].default_value)[:3]
                strength = round(n.inputs["Strength"].default_value, 5)
    return {"name": w.name, "hdri": hdri, "color": color, "strength": strength}


@command(
    effect="read",
    summary="Typed quality facts: camera with depth of field, lights, world and HDRI, render engine, resolution, samples, format, ownership tags.",
    params=s.obj({}),
    result=s.obj({
        "schema_version": s.integer(2),
        "camera": s.nullable(s.obj({
            "name": s.string(), "lens": s.number(), "sensor_width": s.number(), "type": s.string(),
            "location": s.ref("vec3"), "dof": s.obj({"enabled": s.boolean(), "focus_object": s.nullable(s.string()),
                                                     "focus_distance": s.number(), "fstop": s.number()},
                                                    required=("enabled", "focus_object", "focus_distance", "fstop")),
        }, required=("name", "lens", "sensor_width", "type", "location", "dof"))),
        "lights": s.array(s.obj({"name": s.string(), "type": s.string(), "energy": s.number(), "color": s.array(s.number(), 3, 3)},
                                required=("name", "type", "energy", "color")), max_items=MAX_ITEMS),
        "lights_total": s.integer(0),
        "world": s.nullable(s.obj({"name": s.string(), "hdri": s.nullable(s.string()),
                                   "color": s.nullable(s.array(s.number(), 3, 3)), "strength": s.nullable(s.number())},
                                  required=("name", "hdri", "color", "strength"))),
        "render": s.obj({
            "engine": s.string(), "resolution": s.array(s.integer(), 2, 2), "percentage": s.integer(),
            "samples": s.nullable(s.integer()), "transparent": s.boolean(), "file_format": s.string(),
            "view_transform": s.string(), "look": s.string(), "motion_blur": s.boolean(), "denoise": s.nullable(s.boolean()),
        }, required=("engine", "resolution", "percentage", "samples", "transparent", "file_format", "view_transform",
                     "look", "motion_blur", "denoise")),
        "objects": s.array(s.obj({"name": s.string(), "type": s.string(), "owner": s.nullable(s.obj(additional=s.string()))},
                                 required=("name", "type", "owner")), max_items=MAX_DIAG_OBJECTS),
        "objects_total": s.integer(0), "objects_truncated": s.boolean(), "owned_objects": s.integer(0),
    }, required=("schema_version", "camera", "lights", "lights_total", "world", "render", "objects", "objects_total",
                 "objects_truncated", "owned_objects")),
    max_result_bytes=1024 * 1024,
)
def scene_diagnostics(ctx, params):
    sc = scene()
    r = sc.render
    cam = sc.camera
    camera = None
    if cam is not None and cam.type == "CAMERA":
        d = cam.data.dof
        camera = {"name": cam.name, "lens": round(cam.data.lens, 5), "sensor_width": round(cam.data.sensor_width, 5),
                  "type": cam.data.type, "location": rounded(cam.matrix_world.translation),
                  "dof": {"enabled": d.use_dof, "focus_object": d.focus_object.name if d.focus_object else None,
                          "focus_distance": round(d.focus_distance, 5), "fstop": round(d.aperture_fstop, 5)}}
    lights = [o for o in sc.objects if o.type == "LIGHT"]
    cycles = r.engine == "CYCLES"
    samples = sc.cycles.samples if cycles else (sc.eevee.taa_render_samples if r.engine.startswith("BLENDER_EEVEE") else None)
    objs = list(sc.objects)
    listed = [{"name": o.name, "type": o.type, "owner": _owner(o)} for o in objs[:MAX_DIAG_OBJECTS]]
    return {
        "schema_version": 2,
        "camera": camera,
        "lights": [{"name": o.name, "type": o.data.type, "energy": round(o.data.energy, 5), "color": rounded(o.data.color)}
                   for o in lights[:MAX_ITEMS]],
        "lights_total": len(lights),
        "world": _world(sc),
        "render": {"engine": r.engine, "resolution": [r.resolution_x, r.resolution_y], "percentage": r.resolution_percentage,
                   "samples": samples, "transparent": r.film_transparent, "file_format": r.image_settings.file_format,
                   "view_transform": sc.view_settings.view_transform, "look": sc.view_settings.look,
                   "motion_blur": r.use_motion_blur, "denoise": sc.cycles.use_denoising if cycles else None},
        "objects": listed, "objects_total": len(objs), "objects_truncated": len(objs) > len(listed),
        "owned_objects": sum(1 for o in listed if o["owner"]),
    }


BLEND_VIEWS = ("datablocks", "missing_files", "linked_libraries", "paths")
KINDS = ("objects", "meshes", "materials", "textures", "images", "lights", "cameras", "worlds", "collections", "scenes",
         "actions", "node_groups", "curves", "fonts", "armatures", "libraries", "sounds", "movieclips", "texts")
FILE_KINDS = ("images", "libraries", "sounds", "fonts", "movieclips")


def _missing():
    out = []
    for kind in FILE_KINDS:
        for block in getattr(bpy.data, kind):
            path = getattr(block, "filepath", "")
            if not path or path.startswith("<") or getattr(block, "packed_file", None) is not None:
                continue
            absolute = bpy.path.abspath(path, library=block.library)
            if not os.path.exists(absolute):
                out.append({"kind": kind, "name": block.name, "filepath": path})
    return out


@command(
    effect="read",
    summary=".blend bookkeeping: datablock counts, missing external files, linked libraries, and the file's paths.",
    params=s.obj({"view": s.enum(BLEND_VIEWS, description="Which summary (default datablocks)")}),
    result=s.obj({
        "view": s.enum(BLEND_VIEWS),
        "counts": s.obj(additional=s.integer(0)),
        "files": s.array(s.obj({"kind": s.string(), "name": s.string(), "filepath": s.string()},
                               required=("kind", "name", "filepath")), max_items=MAX_ENTRIES),
        "libraries": s.array(s.obj({"name": s.string(), "filepath": s.string(), "exists": s.boolean(), "users": s.integer(0)},
                                   required=("name", "filepath", "exists", "users")), max_items=MAX_ENTRIES),
        "paths": s.obj({"filepath": s.string(), "is_saved": s.boolean(), "is_dirty": s.boolean(), "render_output": s.string(),
                        "version": s.string()}, required=("filepath", "is_saved", "is_dirty", "render_output", "version")),
        "total": s.integer(0), "truncated": s.boolean(),
    }, required=("view", "total", "truncated")),
)
def blendfile_summary(ctx, params):
    view = params.get("view", "datablocks")
    out = {"view": view}
    if view == "datablocks":
        out["counts"] = {k: len(getattr(bpy.data, k)) for k in KINDS}
        out["total"], out["truncated"] = sum(out["counts"].values()), False
    elif view == "missing_files":
        files = _missing()
        out.update(files=files[:MAX_ENTRIES], total=len(files), truncated=len(files) > MAX_ENTRIES)
    elif view == "linked_libraries":
        libs = [{"name": lib.name, "filepath": lib.filepath, "exists": os.path.exists(bpy.path.abspath(lib.filepath)),
                 "users": lib.users} for lib in bpy.data.libraries]
        out.update(libraries=libs[:MAX_ENTRIES], total=len(libs), truncated=len(libs) > MAX_ENTRIES)
    else:
        out["paths"] = {"filepath": bpy.data.filepath, "is_saved": bool(bpy.data.filepath), "is_dirty": bpy.data.is_dirty,
                        "render_output": scene().render.filepath, "version": bpy.app.version_string}
        out.update(total=1, truncated=False)
    return out
