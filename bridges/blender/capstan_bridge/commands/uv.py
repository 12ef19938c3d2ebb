"""UV maps: unwrap or project, pack islands, seams, layers.

Seams and layers are data API and bmesh. Unwrapping and packing have no data-API
entry point: they are edit-mode operators, run on this one object only
(`_editing`), with every face selected, and the object's selection, the active
object and the mode restored afterwards.
"""

import contextlib
import math

import bpy
import bmesh  # noqa: E402 (after bpy, which it needs)

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .common import OBJECT, get_object
from .shading import SAFE_NAME

METHODS = ("smart_project", "angle_based", "conformal", "lightmap_pack", "cube_project", "cylinder_project",
           "sphere_project", "reset")
MAX_UV_LAYERS = 8


def get_mesh(name):
    obj = get_object(name)
    if obj.type != "MESH":
        raise invalid_target("object %r is a %s, not a mesh" % (obj.name, obj.type))
    if obj.mode != "OBJECT":
        raise invalid_target("object %r is in %s mode" % (obj.name, obj.mode))
    return obj


def _layer(mesh, name, create=False):
    """The named UV layer (or the active one), made active for the operators."""
    if name is None:
        layer = mesh.uv_layers.active
        if layer is None:
            if not create:
                raise invalid_target("mesh %r has no UV map" % mesh.name)
            layer = mesh.uv_layers.new(name="UVMap")
    else:
        layer = mesh.uv_layers.get(name)
        if layer is None:
            if not create:
                raise not_found("UV map", name)
            if len(mesh.uv_layers) >= MAX_UV_LAYERS:
                raise CommandError("limit_exceeded", "a mesh holds at most %d UV maps" % MAX_UV_LAYERS)
            layer = mesh.uv_layers.new(name=name)
    mesh.uv_layers.active = layer
    return layer


@contextlib.contextmanager
def _editing(obj):
    """Edit mode on `obj` alone, all faces selected; everything restored after."""
    view_layer = bpy.context.view_layer
    active = view_layer.objects.active
    selected = [o for o in view_layer.objects if o.select_get()]
    for o in selected:
        o.select_set(False)
    obj.select_set(True)
    view_layer.objects.active = obj
    try:
        with bpy.context.temp_override(active_object=obj, object=obj, selected_objects=[obj], selected_editable_objects=[obj]):
            bpy.ops.object.mode_set(mode="EDIT")
            try:
                bm = bmesh.from_edit_mesh(obj.data)
                for face in bm.faces:
                    face.select = True
                bmesh.update_edit_mesh(obj.data)
                yield
            finally:
                bpy.ops.object.mode_set(mode="OBJECT")
    finally:
        obj.select_set(False)
        for o in selected:
            o.select_set(True)
        view_layer.objects.active = active


def uv_stats(mesh, layer):
    """(bounds [umin, vmin, umax, vmax], islands) of one UV layer; islands are found by
    walking faces that share a UV-connected edge."""
    bm = bmesh.new()
    try:
        bm.from_mesh(mesh)
        uv = bm.loops.layers.uv.get(layer.name)
        us, vs = [], []
        for face in bm.faces:
            for loop in face.loops:
                us.append(loop[uv].uv.x)
                vs.append(loop[uv].uv.y)
        bounds = [round(min(us), 5), round(min(vs), 5), round(max(us), 5), round(max(vs), 5)] if us else [0.0] * 4
        seen, islands = set(), 0
        for start in bm.faces:
            if start.index in seen:
                continue
            islands += 1
            stack = [start]
            seen.add(start.index)
            while stack:
                face = stack.pop()
                for loop in face.loops:
                    other = loop.link_loop_radial_next
                    if other == loop or other.face.index in seen or loop.edge.seam:
                        continue
                    # Same edge, same UVs on both sides (in opposite order): connected.
                    a, b = loop[uv].uv, loop.link_loop_next[uv].uv
                    c, d = other[uv].uv, other.link_loop_next[uv].uv
                    if (a - d).length < 1e-5 and (b - c).length < 1e-5:
                        seen.add(other.face.index)
                        stack.append(other.face)
        return bounds, islands
    finally:
        bm.free()


UV_RESULT = s.obj({
    "object": s.string(), "uv_map": s.string(), "bounds": s.array(s.number(), 4, 4, description="[u min, v min, u max, v max]"),
    "islands": s.integer(0), "method": s.string(),
}, required=("object", "uv_map", "bounds", "islands", "method"))


def _answer(obj, layer, method):
    bounds, islands = uv_stats(obj.data, layer)
    return {"object": obj.name, "uv_map": layer.name, "bounds": bounds, "islands": islands, "method": method}


@command(
    effect="mutate",
    summary="Unwrap or project a mesh's UV map (created when missing): smart project, angle based, conformal, lightmap, cube, cylinder, sphere, reset.",
    params=s.obj({
        "object": OBJECT,
        "method": s.enum(METHODS),
        "angle_limit": s.number(0.01745, 1.5533, description="Smart project: radians (1..89 degrees)"),
        "island_margin": s.number(0, 1),
        "uv_map": SAFE_NAME,
    }, required=("object", "method")),
    result=UV_RESULT,
    errors=("not_found", "invalid_target", "limit_exceeded"),
    timeout_s=120,
)
def uv_unwrap(ctx, params):
    obj = get_mesh(params["object"])
    if not obj.data.polygons:
        raise invalid_target("mesh %r has no faces to unwrap" % obj.name)
    ctx.delta.touch_data_users(obj)
    layer_name = _layer(obj.data, params.get("uv_map"), create=True).name
    method = params["method"]
    margin = params.get("island_margin", 0.02)
    with _editing(obj):
        if method == "smart_project":
            bpy.ops.uv.smart_project(angle_limit=params.get("angle_limit", math.radians(66)), island_margin=margin)
        elif method in ("angle_based", "conformal"):
            bpy.ops.uv.unwrap(method=method.upper(), margin=margin)
        elif method == "lightmap_pack":
            bpy.ops.uv.lightmap_pack(PREF_MARGIN_DIV=max(0.001, margin))
        elif method == "cube_project":
            bpy.ops.uv.cube_project(scale_to_bounds=True)
        elif method in ("cylinder_project", "sphere_project"):
            # No view exists headless: project around the object's own axes.
            getattr(bpy.ops.uv, method)(direction="ALIGN_TO_OBJECT", scale_to_bounds=True)
        else:
            bpy.ops.uv.reset()
    layer = obj.data.uv_layers[layer_name]
    return _answer(obj, layer, method)


@command(
    effect="mutate",
    summary="Pack a mesh's UV islands into the unit square with a margin, optionally rotating them.",
    params=s.obj({"object": OBJECT, "margin": s.number(0, 1), "rotate": s.boolean(), "uv_map": SAFE_NAME},
                 required=("object",)),
    result=UV_RESULT,
    errors=("not_found", "invalid_target"),
    timeout_s=120,
)
def uv_pack(ctx, params):
    obj = get_mesh(params["object"])
    layer = _layer(obj.data, params.get("uv_map"))
    ctx.delta.touch_data_users(obj)
    name = layer.name
    with _editing(obj):
        bpy.ops.uv.select_all(action="SELECT")
        bpy.ops.uv.pack_islands(margin=params.get("margin", 0.003), rotate=params.get("rotate", True))
    return _answer(obj, obj.data.uv_layers[name], "pack")


@command(
    effect="mutate",
    summary="Mark or clear UV seams on edges by index, clear them all, or mark every edge sharper than an angle (radians).",
    params=s.obj({
        "object": OBJECT,
        "action": s.enum(("mark", "clear", "from_sharp")),
        "edges": s.array(s.integer(0), 1, 100_000, description="Edge indices (mark, clear); clear without edges clears all"),
        "angle": s.number(0, 3.1416, description="from_sharp: radians between face normals"),
    }, required=("object", "action")),
    result=s.obj({"object": s.string(), "action": s.string(), "seams": s.array(s.integer(0)), "total": s.integer(0)},
                 required=("object", "action", "seams", "total")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def mark_seams(ctx, params):
    obj = get_mesh(params["object"])
    mesh = obj.data
    action, edges = params["action"], params.get("edges")
    if action == "mark" and edges is None:
        raise CommandError("invalid_params", "mark needs edges")
    if action == "from_sharp" and "angle" not in params:
        raise CommandError("invalid_params", "from_sharp needs angle")
    if action != "from_sharp" and "angle" in params:
        raise CommandError("invalid_params", "angle is for from_sharp")
    if edges is not None:
        bad = [e for e in edges if e >= len(mesh.edges)]
        if bad:
            raise CommandError("invalid_params", "edge %d is out of range: the mesh has %d edges" % (bad[0], len(mesh.edges)))
    ctx.delta.touch_data_users(obj)
    bm = bmesh.new()
    try:
        bm.from_mesh(mesh)
        bm.edges.ensure_lookup_table()
        if action == "from_sharp":
            for e in bm.edges:
                if len(e.link_faces) == 2 and e.calc_face_angle(0.0) >= params["angle"] - 1e-6:
                    e.seam = True
        else:
            for i in (edges if edges is not None else range(len(bm.edges))):
                bm.edges[i].seam = action == "mark"
        bm.to_mesh(mesh)
        seams = [e.index for e in bm.edges if e.seam]
    finally:
        bm.free()
    mesh.update()
    return {"object": obj.name, "action": action, "seams": seams[:10000], "total": len(seams)}


LAYER_ROW = s.obj({"name": s.string(), "active": s.boolean(), "active_render": s.boolean()},
                  required=("name", "active", "active_render"))


def _layers(mesh):
    return [{"name": l.name, "active": l.active, "active_render": l.active_render} for l in mesh.uv_layers]


@command(
    effect="read",
    summary="A mesh's UV maps: names, which is active for editing and which for rendering.",
    params=s.obj({"object": OBJECT}, required=("object",)),
    result=s.obj({"object": s.string(), "layers": s.array(LAYER_ROW)}, required=("object", "layers")),
    errors=("not_found", "invalid_target"),
)
def list_uv_layers(ctx, params):
    obj = get_mesh(params["object"])
    return {"object": obj.name, "layers": _layers(obj.data)}


@command(
    effect="destroy",
    summary="Add, remove, rename a mesh's UV map or make it the active one (for editing and rendering); removing discards its UVs.",
    params=s.obj({
        "object": OBJECT,
        "action": s.enum(("add", "remove", "rename", "set_active")),
        "name": SAFE_NAME,
        "new_name": SAFE_NAME,
    }, required=("object", "action", "name")),
    result=s.obj({"object": s.string(), "action": s.string(), "layers": s.array(LAYER_ROW)}, required=("object", "action", "layers")),
    errors=("not_found", "invalid_target", "invalid_params", "limit_exceeded"),
)
def uv_layers(ctx, params):
    obj = get_mesh(params["object"])
    mesh, action, name = obj.data, params["action"], params["name"]
    layers = mesh.uv_layers
    if action == "add":
        if name in layers:
            raise CommandError("invalid_target", "mesh %r already has a UV map %r" % (mesh.name, name))
        if len(layers) >= MAX_UV_LAYERS:
            raise CommandError("limit_exceeded", "a mesh holds at most %d UV maps" % MAX_UV_LAYERS)
    else:
        if name not in layers:
            raise not_found("UV map", name)
    if action == "rename":
        if "new_name" not in params:
            raise CommandError("invalid_params", "rename needs new_name")
        if params["new_name"] in layers and params["new_name"] != name:
            raise CommandError("invalid_target", "mesh %r already has a UV map %r" % (mesh.name, params["new_name"]))
    ctx.delta.touch_data_users(obj)
    if action == "add":
        layer = layers.new(name=name)
        if layer.name != name:
            layer.name = name
    elif action == "remove":
        layers.remove(layers[name])
    elif action == "rename":
        layers[name].name = params["new_name"]
    else:
        layers.active = layers[name]
        layers[name].active_render = True
    return {"object": obj.name, "action": action, "layers": _layers(mesh)}
