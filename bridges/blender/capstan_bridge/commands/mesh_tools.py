"""Destructive mesh tools: apply or remove a modifier, voxel remesh, whole-mesh
deformation filters (in place of sculpt brushes, which need a view), and cleanup.

Applying goes through the data API, never `object.modifier_apply`: the object's other
modifiers are switched off, the evaluated mesh is copied (`new_from_object`) and
takes the place of the object's mesh, then they are switched back. As Blender's own
apply does, only that modifier acts on the base mesh. Shared meshes and meshes with
shape keys are refused (Blender refuses them too)."""

import math

import bmesh
import bpy
import numpy as np

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .common import OBJECT, get_object
from .modeling_util import COUNTS, evaluated, get_mesh_object, limit, mesh_counts, refresh, refuse

MAX_REMESH_FACES = 2_000_000
MAX_FILTER_VERTICES = 1_000_000


def apply_evaluated(obj, mod):
    """Bake modifier `mod` of mesh object `obj` into its mesh and remove the modifier."""
    states = [(m, m.show_viewport) for m in obj.modifiers]
    try:
        for m, _ in states:
            m.show_viewport = m == mod
        depsgraph, ev = evaluated(obj)
        mesh = bpy.data.meshes.new_from_object(ev, preserve_all_data_layers=True, depsgraph=depsgraph)
    finally:
        for m, shown in states:
            m.show_viewport = shown
    old = obj.data
    name = old.name
    old.name = name + ".old"
    mesh.name = name
    obj.data = mesh
    obj.modifiers.remove(mod)
    if old.users == 0:
        bpy.data.meshes.remove(old)
    return mesh


def _modifier(obj, name):
    mod = obj.modifiers.get(name)
    if mod is None:
        # Name the modifiers it has: Blender's UI calls a Subsurf "Subdivision", and an
        # agent guesses the UI's word first.
        have = ", ".join("%r (%s)" % (m.name, m.type) for m in obj.modifiers[:16]) or "none"
        raise CommandError("not_found", "no modifier named %r on %s; it has: %s" % (name, obj.name, have))
    return mod


APPLY_RESULT = s.obj({"object": s.string(), "modifier": s.string(), "type": s.string(), "before": COUNTS, "after": COUNTS,
                      "modifiers": s.array(s.string(), description="Modifiers left on the object")},
                     required=("object", "modifier", "type", "before", "after", "modifiers"))


@command(
    effect="destroy",
    summary="Apply one modifier of a mesh object: its result becomes the mesh and the modifier is removed.",
    params=s.obj({"object": OBJECT, "modifier": s.string(1, 63)}, required=("object", "modifier")),
    result=APPLY_RESULT,
    errors=("not_found", "invalid_target"),
    timeout_s=60,
)
def apply_modifier(ctx, params):
    obj = get_mesh_object(params["object"])
    mod = _modifier(obj, params["modifier"])
    before = mesh_counts(obj.data)
    kind, name = mod.type, mod.name
    ctx.delta.touch(obj)
    mesh = apply_evaluated(obj, mod)
    refresh()
    return {"object": obj.name, "modifier": name, "type": kind, "before": before, "after": mesh_counts(mesh),
            "modifiers": [m.name for m in obj.modifiers]}


@command(
    effect="destroy",
    summary="Remove one modifier from an object without applying it (its settings are lost).",
    params=s.obj({"object": OBJECT, "modifier": s.string(1, 63)}, required=("object", "modifier")),
    result=s.obj({"object": s.string(), "modifier": s.string(), "type": s.string(), "modifiers": s.array(s.string())},
                 required=("object", "modifier", "type", "modifiers")),
    errors=("not_found",),
)
def remove_modifier(ctx, params):
    obj = get_object(params["object"])
    mod = _modifier(obj, params["modifier"])
    kind, name = mod.type, mod.name
    ctx.delta.touch(obj)
    obj.modifiers.remove(mod)
    refresh()
    return {"object": obj.name, "modifier": name, "type": kind, "modifiers": [m.name for m in obj.modifiers]}


@command(
    effect="destroy",
    summary="Voxel-remesh a mesh into even quads (voxel size in metres, object space); replaces its topology.",
    params=s.obj({
        "object": OBJECT,
        "voxel_size": s.number(0.0001, 1),
        "adaptivity": s.number(0, 1, description="Reduce faces in flat areas (default 0)"),
    }, required=("object", "voxel_size")),
    result=s.obj({"object": s.string(), "voxel_size": s.number(), "before": COUNTS, "after": COUNTS},
                 required=("object", "voxel_size", "before", "after")),
    errors=("not_found", "invalid_target", "limit_exceeded"),
    timeout_s=120,
)
def remesh_voxel(ctx, params):
    obj = get_mesh_object(params["object"])
    if not len(obj.data.polygons):
        raise refuse("%s has no faces to remesh" % obj.name)
    size = params["voxel_size"]
    area = sum(p.area for p in obj.data.polygons)
    if area / (size * size) > MAX_REMESH_FACES:
        raise limit("voxel size %g on %.3g m2 of surface would make about %d faces (at most %d)"
                    % (size, area, area / (size * size), MAX_REMESH_FACES))
    before = mesh_counts(obj.data)
    ctx.delta.touch(obj)
    mod = obj.modifiers.new("capstan_remesh", "REMESH")
    try:
        mod.mode = "VOXEL"
        mod.voxel_size = size
        mod.adaptivity = params.get("adaptivity", 0.0)
        mesh = apply_evaluated(obj, mod)
    except Exception:
        if obj.modifiers.get(mod.name) is not None:
            obj.modifiers.remove(mod)  # a failed remesh leaves the object as it was
        raise
    refresh()
    return {"object": obj.name, "voxel_size": size, "before": before, "after": mesh_counts(mesh)}


def _neighbours(mesh):
    """(sources, targets) index arrays of every directed edge."""
    edges = np.empty(len(mesh.edges) * 2, dtype=np.int64)
    mesh.edges.foreach_get("vertices", edges)
    a, b = edges[0::2], edges[1::2]
    return np.concatenate([a, b]), np.concatenate([b, a])


def _normals(mesh, co):
    mesh.vertices.foreach_set("co", co.ravel())
    mesh.update()
    out = np.empty(len(mesh.vertices) * 3)
    mesh.vertex_normals.foreach_get("vector", out)
    return out.reshape(-1, 3)


@command(
    effect="destroy",
    summary="Deform a whole mesh deterministically (smooth, inflate, flatten, randomize) in place of sculpt brushes.",
    params=s.obj({
        "object": OBJECT,
        "filter": s.enum(("smooth", "inflate", "flatten", "randomize")),
        "strength": s.number(0, 1, description="0..1; inflate and randomize move up to strength x the mean edge length per iteration"),
        "iterations": s.integer(1, 50, description="Repeats (default 1)"),
        "seed": s.integer(0, 2**31 - 1, description="randomize: seed (default 0)"),
    }, required=("object", "filter", "strength")),
    result=s.obj({"object": s.string(), "filter": s.string(), "iterations": s.integer(1), "vertices": s.integer(0),
                  "mean_displacement": s.number(), "max_displacement": s.number()},
                 required=("object", "filter", "iterations", "vertices", "mean_displacement", "max_displacement")),
    errors=("not_found", "invalid_target", "limit_exceeded", "invalid_params"),
    timeout_s=60,
)
def mesh_filter(ctx, params):
    obj = get_mesh_object(params["object"])
    mesh = obj.data
    n = len(mesh.vertices)
    if n > MAX_FILTER_VERTICES:
        raise limit("%s has more than %d vertices" % (obj.name, MAX_FILTER_VERTICES))
    if "seed" in params and params["filter"] != "randomize":
        raise refuse("seed is for the randomize filter only")
    kind, strength, iterations = params["filter"], params["strength"], params.get("iterations", 1)
    co = np.empty(n * 3)
    mesh.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    start = co.copy()
    src, dst = _neighbours(mesh)
    if kind != "flatten" and not len(src):
        raise refuse("%s has no edges to filter along" % obj.name)
    degree = np.bincount(src, minlength=n)
    edge_len = float(np.linalg.norm(co[src] - co[dst], axis=1).mean()) if len(src) else 0.0
    rng = np.random.default_rng(params.get("seed", 0))
    ctx.delta.touch(obj)
    for _ in range(iterations):
        if kind == "smooth":
            total = np.zeros_like(co)
            np.add.at(total, src, co[dst])
            has = degree > 0
            co[has] += strength * (total[has] / degree[has, None] - co[has])
        elif kind in ("inflate", "randomize"):
            normals = _normals(mesh, co)
            amount = strength * edge_len
            if kind == "randomize":
                amount = amount * rng.uniform(-1.0, 1.0, size=(n, 1))
            co = co + normals * amount
        else:
            centre = co.mean(axis=0)
            _, _, vt = np.linalg.svd(co - centre, full_matrices=False)
            normal = vt[-1]
            co = co - strength * np.outer((co - centre) @ normal, normal)
    mesh.vertices.foreach_set("co", co.ravel())
    mesh.update()
    moved = np.linalg.norm(co - start, axis=1)
    refresh()
    return {"object": obj.name, "filter": kind, "iterations": iterations, "vertices": n,
            "mean_displacement": round(float(moved.mean()), 6), "max_displacement": round(float(moved.max()), 6)}


# Kinds purge_orphans removes unused datablocks of; those the delta tracks are reported.
PURGE_KINDS = ("meshes", "curves", "materials", "textures", "images", "node_groups", "actions", "lights", "cameras",
               "metaballs", "lattices", "worlds", "particles")
TRACKED = ("materials", "images", "node_groups", "actions", "worlds")
MAX_PURGE_PASSES = 16


def _purge(ctx):
    removed = {}
    for _ in range(MAX_PURGE_PASSES):
        found = False
        for kind in PURGE_KINDS:
            coll = getattr(bpy.data, kind)
            doomed = [b for b in coll if b.users == 0 and not b.use_fake_user and b.library is None
                      and getattr(b, "type", None) not in ("RENDER_RESULT", "COMPOSITING")]
            for block in doomed:
                found = True
                removed.setdefault(kind, []).append(block.name)
                if kind in TRACKED:
                    ctx.delta.removing_datablock(kind, block)
                coll.remove(block)
        if not found:
            break
    return {k: sorted(v) for k, v in removed.items()}


@command(
    effect="destroy",
    summary="Clean up: merge vertices by distance, purge unused datablocks, shade smooth/flat/by angle, or recalculate normals outward.",
    params=s.needs_by_value(s.obj({
        "action": s.enum(("merge_by_distance", "purge_orphans", "shade_smooth", "shade_flat", "shade_auto_smooth", "recalc_normals")),
        "object": OBJECT,
        "threshold": s.number(0.000001, 1, description="merge_by_distance: metres (default 0.0001)"),
        "angle": s.number(0, 180, description="shade_auto_smooth: edges sharper than this stay sharp, degrees (default 30)"),
    }, required=("action",)), "action", {a: ("object",) for a in ("merge_by_distance", "shade_smooth", "shade_flat", "shade_auto_smooth", "recalc_normals")}),
    result=s.obj({"action": s.string(), "object": s.nullable(s.string()), "before": COUNTS, "after": COUNTS,
                  "removed_vertices": s.integer(0), "purged": s.obj(additional=s.array(s.string()))},
                 required=("action", "object")),
    errors=("not_found", "invalid_target", "invalid_params"),
    timeout_s=60,
)
def cleanup(ctx, params):
    action = params["action"]
    if action == "purge_orphans":
        if "object" in params or "threshold" in params or "angle" in params:
            raise refuse("purge_orphans works on the whole file and takes no object, threshold or angle")
        return {"action": action, "object": None, "purged": _purge(ctx)}
    if "object" not in params:
        raise refuse("%s needs an object" % action)
    if "threshold" in params and action != "merge_by_distance":
        raise refuse("threshold is for merge_by_distance")
    if "angle" in params and action != "shade_auto_smooth":
        raise refuse("angle is for shade_auto_smooth")
    obj = get_mesh_object(params["object"], single_user=False)
    mesh = obj.data
    before = mesh_counts(mesh)
    ctx.delta.touch_data_users(obj)
    if action in ("merge_by_distance", "recalc_normals"):
        bm = bmesh.new()
        try:
            bm.from_mesh(mesh)
            if action == "merge_by_distance":
                bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=params.get("threshold", 0.0001))
            else:
                bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
            bm.to_mesh(mesh)
        finally:
            bm.free()
        mesh.update()
    elif action == "shade_smooth":
        mesh.shade_smooth()
    elif action == "shade_flat":
        mesh.shade_flat()
    else:
        mesh.shade_smooth()
        mesh.set_sharp_from_angle(angle=math.radians(params.get("angle", 30.0)))
    after = mesh_counts(mesh)
    refresh()
    return {"action": action, "object": obj.name, "before": before, "after": after,
            "removed_vertices": before["vertices"] - after["vertices"]}
