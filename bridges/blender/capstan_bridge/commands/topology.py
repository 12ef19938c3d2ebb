"""Object topology: join meshes into one, separate a mesh into objects, bake transforms
into the data, move the origin. World-space placement never changes: what moves into
the data leaves the object's transform, and children keep where they are."""

import bmesh
import bpy
import numpy as np
from mathutils import Matrix, Vector

from ..core import schema as s
from ..command import command
from ..errors import invalid_target
from .common import OBJECT, get_object, rounded, scene
from .modeling_util import COUNTS, get_mesh_object, limit, mesh_counts, refresh, refuse

MAX_PARTS = 256


@command(
    effect="destroy",
    summary="Join mesh objects into one (the first, or `into`); the others are removed, their geometry kept in place.",
    params=s.obj({"objects": s.array(OBJECT, 2, 256), "into": OBJECT}, required=("objects",)),
    result=s.obj({"object": s.string(), "joined": s.array(s.string()), "mesh": COUNTS}, required=("object", "joined", "mesh")),
    errors=("not_found", "invalid_target", "invalid_params"),
    timeout_s=60,
)
def join_objects(ctx, params):
    names = list(dict.fromkeys(params["objects"]))
    objs = [get_object(n) for n in names]
    into = get_object(params["into"]) if "into" in params else objs[0]
    if into not in objs:
        objs.append(into)
    if len(objs) < 2:
        raise refuse("join needs two different objects")
    bad = [o.name for o in objs if o.type != "MESH"]
    if bad:
        raise invalid_target("only meshes join; %s %s not" % (", ".join(bad), "is" if len(bad) == 1 else "are"))
    if into.data.users > 1 or into.data.shape_keys is not None:
        raise invalid_target("%s's mesh is shared or has shape keys; joining into it would change other objects or lose keys" % into.name)
    bpy.context.view_layer.update()  # resyncs the layer with objects added since
    layer = bpy.context.view_layer.objects
    hidden = [o.name for o in objs if o.name not in layer]
    if hidden:
        raise invalid_target("%s %s not in the view layer (an excluded collection); joining needs them there" % (", ".join(hidden), "is" if len(hidden) == 1 else "are"))
    others = [o for o in objs if o != into]
    ctx.delta.touch(into)
    for o in others:
        for child in o.children:
            ctx.delta.touch(child)
        ctx.delta.removing(o)
    joined = [o.name for o in others]
    # object.join has no data-API equivalent that keeps materials, UV maps, vertex groups
    # and attributes of every part; it needs a context naming the objects, no view.
    with bpy.context.temp_override(active_object=into, object=into, selected_objects=objs, selected_editable_objects=objs):
        result = bpy.ops.object.join()
    if "FINISHED" not in result:
        raise invalid_target("Blender refused to join %s" % ", ".join(o.name for o in objs))
    refresh()
    return {"object": into.name, "joined": joined, "mesh": mesh_counts(into.data)}


def _parts_loose(mesh):
    n = len(mesh.vertices)
    edges = np.empty(len(mesh.edges) * 2, dtype=np.int64)
    mesh.edges.foreach_get("vertices", edges)
    parent = np.arange(n)

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in edges.reshape(-1, 2):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    roots = np.array([find(i) for i in range(n)])
    order = list(dict.fromkeys(roots.tolist()))
    return [set(np.nonzero(roots == r)[0].tolist()) for r in order]


def _parts_material(mesh):
    idx = np.empty(len(mesh.polygons), dtype=np.int64)
    mesh.polygons.foreach_get("material_index", idx)
    return [set(np.nonzero(idx == m)[0].tolist()) for m in dict.fromkeys(idx.tolist())]


def _keep(mesh, part, mode):
    """Reduce `mesh` to `part` (vertex indices for LOOSE, face indices for MATERIAL)."""
    bm = bmesh.new()
    try:
        bm.from_mesh(mesh)
        if mode == "LOOSE":
            bm.verts.ensure_lookup_table()
            bmesh.ops.delete(bm, geom=[v for v in bm.verts if v.index not in part], context="VERTS")
        else:
            bm.faces.ensure_lookup_table()
            bmesh.ops.delete(bm, geom=[f for f in bm.faces if f.index not in part], context="FACES")
        bm.to_mesh(mesh)
    finally:
        bm.free()
    mesh.update()


@command(
    effect="destroy",
    summary="Split a mesh object into one object per loose part or per material; the original keeps the first part.",
    params=s.obj({"object": OBJECT, "mode": s.enum(("LOOSE", "MATERIAL"))}, required=("object", "mode")),
    result=s.obj({"object": s.string(), "mode": s.string(), "new_objects": s.array(s.string()),
                  "parts": s.array(s.obj({"name": s.string(), "mesh": COUNTS}, required=("name", "mesh")))},
                 required=("object", "mode", "new_objects", "parts")),
    errors=("not_found", "invalid_target", "limit_exceeded"),
    timeout_s=60,
)
def separate_object(ctx, params):
    obj = get_mesh_object(params["object"])
    mode = params["mode"]
    parts = _parts_loose(obj.data) if mode == "LOOSE" else _parts_material(obj.data)
    if len(parts) > MAX_PARTS:
        raise limit("%s would split into %d objects (at most %d)" % (obj.name, len(parts), MAX_PARTS))
    ctx.delta.touch(obj)
    collections = list(obj.users_collection)
    news = []
    for part in parts[1:]:
        new = obj.copy()
        new.data = obj.data.copy()
        _keep(new.data, part, mode)
        for coll in collections:
            coll.objects.link(new)
        new.data.name = new.name
        ctx.delta.created(new)
        news.append(new)
    if len(parts) > 1:
        _keep(obj.data, parts[0], mode)
    every = [obj] + news
    refresh()
    return {"object": obj.name, "mode": mode, "new_objects": [o.name for o in news],
            "parts": [{"name": o.name, "mesh": mesh_counts(o.data)} for o in every]}


def _transformable(name):
    obj = get_object(name)
    if obj.type not in ("MESH", "CURVE", "SURFACE"):
        raise invalid_target("%s is a %s; transforms bake into meshes and curves only" % (obj.name, obj.type))
    if obj.data.users > 1:
        raise invalid_target("%s shares its data with other objects; make it single-user first" % obj.name)
    return obj


def _rebase(ctx, obj, new_basis):
    """Give obj the basis `new_basis`, moving the difference into its data; children stay put."""
    old = obj.matrix_basis.copy()
    m = new_basis.inverted() @ old
    ctx.delta.touch(obj)
    for child in obj.children:
        ctx.delta.touch(child)
        child.matrix_parent_inverse = m @ child.matrix_parent_inverse
    obj.data.transform(m)
    obj.matrix_basis = new_basis
    obj.data.update()


@command(
    effect="destroy",
    summary="Bake an object's location, rotation and/or scale into its mesh or curve data, leaving it where it is.",
    params=s.obj({
        "object": OBJECT,
        "apply": s.array(s.enum(("location", "rotation", "scale")), 1, 3),
    }, required=("object", "apply")),
    result=s.obj({"object": s.string(), "applied": s.array(s.string()), "location": s.ref("vec3"),
                  "rotation": s.ref("vec3"), "scale": s.ref("vec3")},
                 required=("object", "applied", "location", "rotation", "scale")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def apply_transform(ctx, params):
    obj = _transformable(params["object"])
    applied = list(dict.fromkeys(params["apply"]))
    if len(applied) != len(params["apply"]):
        raise refuse("apply lists a part twice")
    loc, rot, scale = obj.matrix_basis.decompose()
    keep = Matrix.Identity(4)
    if "location" not in applied:
        keep = Matrix.Translation(loc)
    if "rotation" not in applied:
        keep = keep @ rot.to_matrix().to_4x4()
    if "scale" not in applied:
        keep = keep @ Matrix.Diagonal(scale.to_4d())
    _rebase(ctx, obj, keep)
    refresh()
    return {"object": obj.name, "applied": applied, "location": rounded(obj.location),
            "rotation": rounded(obj.rotation_euler), "scale": rounded(obj.scale)}


def _points(obj):
    if obj.type == "MESH":
        co = np.empty(len(obj.data.vertices) * 3)
        obj.data.vertices.foreach_get("co", co)
        return co.reshape(-1, 3)
    pts = []
    for sp in obj.data.splines:
        pts.extend(tuple(p.co) for p in sp.bezier_points)
        pts.extend(tuple(p.co)[:3] for p in sp.points)
    return np.array(pts).reshape(-1, 3)


@command(
    effect="destroy",
    summary="Move an object's origin (to its geometry's median, its bounds centre, the 3D cursor or the world origin) without moving its geometry.",
    params=s.obj({"object": OBJECT, "mode": s.enum(("geometry", "bounds_center", "cursor", "world"))}, required=("object", "mode")),
    result=s.obj({"object": s.string(), "mode": s.string(), "location": s.ref("vec3"), "moved_by": s.ref("vec3")},
                 required=("object", "mode", "location", "moved_by")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def set_origin(ctx, params):
    obj = _transformable(params["object"])
    mode = params["mode"]
    if mode in ("geometry", "bounds_center"):
        pts = _points(obj)
        if not len(pts):
            raise invalid_target("%s has no geometry to centre on" % obj.name)
        p = Vector(pts.mean(axis=0) if mode == "geometry" else (pts.min(axis=0) + pts.max(axis=0)) / 2)
    else:
        bpy.context.view_layer.update()
        point = scene().cursor.location if mode == "cursor" else Vector((0.0, 0.0, 0.0))
        p = obj.matrix_world.inverted() @ Vector(point)
    old_loc = Vector(obj.location)
    _rebase(ctx, obj, obj.matrix_basis @ Matrix.Translation(p))
    refresh()
    return {"object": obj.name, "mode": mode, "location": rounded(obj.location), "moved_by": rounded(Vector(obj.location) - old_loc)}
