"""Procedural generation: noise terrain, scattering instances over a surface with
Geometry Nodes, and the evaluated facts generation is checked by (instance counts,
evaluated geometry, world bounds). Everything is seeded and capped."""

import math
import random

import bmesh
import bpy
import numpy as np
from mathutils import Vector, noise

from ..core import schema as s
from ..command import command
from ..errors import invalid_target, not_found
from .common import OBJECT, VEC3, get_object, rounded
from .modeling_util import COUNTS, NEW_OBJECT_NAME, SAFE_NAME, evaluated, limit, mesh_counts, new_object, refresh, refuse

MAX_SCATTER = 100_000
MAX_POINTS_BEFORE_CAP = 1_000_000
MAX_STATS = 64


@command(
    effect="mutate",
    summary="Add a noise-displaced terrain: a subdivided square grid whose heights (seeded fractal noise) span exactly `height` metres.",
    params=s.obj({
        "name": NEW_OBJECT_NAME,
        "size": s.number(1, 10000, description="Edge length in metres (default 20)"),
        "subdivisions": s.integer(1, 512, description="Grid cuts per side (default 64)"),
        "height": s.number(0, 1000, description="Lowest to highest point in metres (default 2)"),
        "noise_scale": s.number(exclusive_minimum=0, maximum=10000, description="Size of the noise features in metres (default size / 4)"),
        "detail": s.integer(0, 15, description="Extra noise octaves (default 4)"),
        "seed": s.integer(0, 2**31 - 1, description="Seed (default 0)"),
        "location": VEC3,
    }),
    result=s.obj({"name": s.string(), "mesh": COUNTS, "z_min": s.number(), "z_max": s.number(), "size": s.number(),
                  "seed": s.integer()}, required=("name", "mesh", "z_min", "z_max", "size", "seed")),
    errors=(),
    timeout_s=60,
)
def create_terrain(ctx, params):
    size = params.get("size", 20.0)
    subdivisions = params.get("subdivisions", 64)
    height = params.get("height", 2.0)
    scale = params.get("noise_scale", size / 4.0)
    octaves = params.get("detail", 4) + 1
    seed = params.get("seed", 0)
    name = params.get("name") or "Terrain"
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    try:
        bm.loops.layers.uv.new("UVMap")
        bmesh.ops.create_grid(bm, x_segments=subdivisions, y_segments=subdivisions, size=size / 2.0, calc_uvs=True)
        bm.to_mesh(mesh)
    finally:
        bm.free()
    n = len(mesh.vertices)
    co = np.empty(n * 3)
    mesh.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    rng = random.Random(seed)
    shift = Vector((rng.uniform(-1000, 1000), rng.uniform(-1000, 1000), rng.uniform(-1000, 1000)))
    h = np.array([noise.fractal(Vector((x / scale, y / scale, 0.0)) + shift, 1.0, 2.0, octaves, noise_basis="PERLIN_ORIGINAL")
                  for x, y in co[:, :2]])
    span = float(h.max() - h.min())
    co[:, 2] = (h - h.min()) / span * height if span > 1e-12 else 0.0
    mesh.vertices.foreach_set("co", co.ravel())
    mesh.update()
    mesh.shade_smooth()
    obj = new_object(name, mesh, params)
    ctx.delta.created(obj)
    refresh()
    return {"name": obj.name, "mesh": mesh_counts(mesh), "z_min": round(float(co[:, 2].min()), 5),
            "z_max": round(float(co[:, 2].max()), 5), "size": size, "seed": seed}


def _instances_of(obj, depsgraph, first=3):
    count, positions = 0, []
    for inst in depsgraph.object_instances:
        if inst.is_instance and inst.parent is not None and inst.parent.original == obj:
            count += 1
            if len(positions) < first:
                positions.append(rounded(inst.matrix_world.translation))
    return count, positions


def _world_area(obj):
    mesh = obj.data
    m = obj.matrix_world
    total = 0.0
    for poly in mesh.polygons:
        pts = [m @ mesh.vertices[i].co for i in poly.vertices]
        for i in range(1, len(pts) - 1):
            total += (pts[i] - pts[0]).cross(pts[i + 1] - pts[0]).length / 2
    return total


def _sock(sockets, identifier):
    """A socket by identifier (`sockets[name]` finds the first of several same-named ones).
    Blender 4.5 LTS keeps one socket per data type (`B_INT`, `Min_001` and `Value_001` for
    FLOAT); 5.2 LTS has one socket that takes the node's data type (`B`, `Min`, `Value`)."""
    for x in sockets:
        if x.identifier == identifier:
            return x
    base = identifier.rsplit("_", 1)[0]
    return next(x for x in sockets if x.identifier == base and x.enabled)


def _scatter_graph(tree, instance, p):
    tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
    tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    nodes, links = tree.nodes, tree.links
    gin, gout = nodes.new("NodeGroupInput"), nodes.new("NodeGroupOutput")
    dist = nodes.new("GeometryNodeDistributePointsOnFaces")
    dist.distribute_method = "RANDOM"
    dist.inputs["Density"].default_value = p["density"]
    dist.inputs["Seed"].default_value = p["seed"]
    inst = nodes.new("GeometryNodeInstanceOnPoints")
    if isinstance(instance, bpy.types.Object):
        info = nodes.new("GeometryNodeObjectInfo")
        info.inputs["Object"].default_value = instance
        info.inputs["As Instance"].default_value = True
        links.new(info.outputs["Geometry"], inst.inputs["Instance"])
    else:
        info = nodes.new("GeometryNodeCollectionInfo")
        info.inputs["Collection"].default_value = instance
        info.inputs["Separate Children"].default_value = True
        info.inputs["Reset Children"].default_value = True
        links.new(info.outputs["Instances"], inst.inputs["Instance"])
        inst.inputs["Pick Instance"].default_value = True
    links.new(gin.outputs[0], dist.inputs["Mesh"])
    links.new(dist.outputs["Points"], inst.inputs["Points"])
    index, compare = nodes.new("GeometryNodeInputIndex"), nodes.new("FunctionNodeCompare")
    compare.data_type, compare.operation = "INT", "LESS_THAN"
    _sock(compare.inputs, "B_INT").default_value = p["max_count"]
    links.new(index.outputs[0], _sock(compare.inputs, "A_INT"))
    links.new(compare.outputs[0], inst.inputs["Selection"])
    scale = nodes.new("FunctionNodeRandomValue")
    scale.data_type = "FLOAT"
    _sock(scale.inputs, "Min_001").default_value = p["scale_min"]  # Min/Max of the FLOAT data type
    _sock(scale.inputs, "Max_001").default_value = p["scale_max"]
    scale.inputs["Seed"].default_value = p["seed"] + 1
    links.new(_sock(scale.outputs, "Value_001"), inst.inputs["Scale"])
    spin = nodes.new("FunctionNodeRandomValue")
    spin.data_type = "FLOAT"
    _sock(spin.inputs, "Min_001").default_value = 0.0
    _sock(spin.inputs, "Max_001").default_value = 2 * math.pi * p["rotation_random"]
    spin.inputs["Seed"].default_value = p["seed"] + 2
    euler = nodes.new("ShaderNodeCombineXYZ")
    links.new(_sock(spin.outputs, "Value_001"), euler.inputs["Z"])
    if p["align_to_normal"]:
        rotate = nodes.new("FunctionNodeRotateRotation")
        rotate.rotation_space = "LOCAL"
        to_rot = nodes.new("FunctionNodeEulerToRotation")
        links.new(euler.outputs[0], to_rot.inputs[0])
        links.new(dist.outputs["Rotation"], rotate.inputs["Rotation"])
        links.new(to_rot.outputs[0], rotate.inputs["Rotate By"])
        links.new(rotate.outputs[0], inst.inputs["Rotation"])
    else:
        to_rot = nodes.new("FunctionNodeEulerToRotation")
        links.new(euler.outputs[0], to_rot.inputs[0])
        links.new(to_rot.outputs[0], inst.inputs["Rotation"])
    join = nodes.new("GeometryNodeJoinGeometry")
    links.new(inst.outputs["Instances"], join.inputs[0])
    links.new(gin.outputs[0], join.inputs[0])
    links.new(join.outputs[0], gout.inputs[0])
    bad = [l for l in tree.links if not l.is_valid]
    if bad:
        raise RuntimeError("scatter graph has invalid links: %s" % [(l.from_socket.name, l.to_socket.name) for l in bad])
    return tree


@command(
    effect="mutate",
    summary="Scatter instances of an object or collection over a mesh surface (Geometry Nodes distribute + instance), seeded and capped.",
    params=s.obj({
        "surface": OBJECT,
        "instance": s.string(1, s.NAME_MAX, description="Object (or, if no object has the name, collection) to instance"),
        "density": s.number(0.01, 10000, description="Points per square metre of surface (default 10)"),
        "seed": s.integer(0, 2**31 - 3),
        "scale_min": s.number(exclusive_minimum=0, maximum=1000, description="Smallest random scale (default 1)"),
        "scale_max": s.number(exclusive_minimum=0, maximum=1000, description="Largest random scale (default 1)"),
        "rotation_random": s.number(0, 1, description="Random turn about the normal, as a fraction of a full turn (default 0)"),
        "align_to_normal": s.boolean(description="Point instances' Z along the surface normal (default true)"),
        "max_count": s.integer(1, MAX_SCATTER, description="At most this many instances (default 1000)"),
        "name": dict(SAFE_NAME, description="Name for the new scatter modifier and its node group (default Scatter)"),
    }, required=("surface", "instance")),
    result=s.obj({"surface": s.string(), "modifier": s.string(), "node_group": s.string(), "instances": s.integer(0),
                  "first_positions": s.array(VEC3), "area": s.number()},
                 required=("surface", "modifier", "node_group", "instances", "first_positions", "area")),
    errors=("not_found", "invalid_target", "invalid_params", "limit_exceeded"),
    timeout_s=60,
)
def scatter_instances(ctx, params):
    surface = get_object(params["surface"])
    if surface.type != "MESH":
        raise invalid_target("%s is a %s; scatter needs a mesh surface" % (surface.name, surface.type))
    instance = bpy.data.objects.get(params["instance"]) or bpy.data.collections.get(params["instance"])
    if instance is None:
        raise not_found("object or collection", params["instance"])
    if instance == surface:
        raise invalid_target("a surface cannot scatter itself")
    p = {"density": params.get("density", 10.0), "seed": params.get("seed", 0), "scale_min": params.get("scale_min", 1.0),
         "scale_max": params.get("scale_max", 1.0), "rotation_random": params.get("rotation_random", 0.0),
         "align_to_normal": params.get("align_to_normal", True), "max_count": params.get("max_count", 1000)}
    if p["scale_min"] > p["scale_max"]:
        raise refuse("scale_min is above scale_max")
    bpy.context.view_layer.update()
    area = _world_area(surface)
    if area <= 0:
        raise invalid_target("%s has no surface area" % surface.name)
    if area * p["density"] > MAX_POINTS_BEFORE_CAP:
        raise limit("density %g over %.4g m2 makes about %d points (at most %d before max_count)"
                    % (p["density"], area, area * p["density"], MAX_POINTS_BEFORE_CAP))
    name = params.get("name") or "Scatter"
    ctx.delta.touch(surface)
    tree = bpy.data.node_groups.new(name, "GeometryNodeTree")
    try:
        _scatter_graph(tree, instance, p)
    except Exception:
        bpy.data.node_groups.remove(tree)  # a failed build leaves nothing behind
        raise
    ctx.delta.created_datablock("node_groups", tree)
    mod = surface.modifiers.new(name, "NODES")
    mod.node_group = tree
    depsgraph, _ = evaluated(surface)
    count, first = _instances_of(surface, depsgraph)
    return {"surface": surface.name, "modifier": mod.name, "node_group": tree.name, "instances": count,
            "first_positions": first, "area": round(area, 5)}


@command(
    effect="read",
    summary="Evaluated facts of objects (after modifiers and geometry nodes): mesh counts, instance counts and world bounds.",
    params=s.obj({"objects": s.array(OBJECT, 1, MAX_STATS)}, required=("objects",)),
    result=s.obj({"objects": s.array(s.obj({
        "name": s.string(), "type": s.string(), "evaluated": COUNTS, "original": COUNTS, "triangles": s.integer(0), "instances": s.integer(0),
        "first_instances": s.array(VEC3), "bounds_min": VEC3, "bounds_max": VEC3, "dimensions": VEC3,
    }, required=("name", "type", "evaluated", "triangles", "instances", "first_instances", "bounds_min", "bounds_max", "dimensions")))},
        required=("objects",)),
    errors=("not_found",),
)
def evaluated_stats(ctx, params):
    objs = [get_object(n) for n in dict.fromkeys(params["objects"])]
    depsgraph = bpy.context.evaluated_depsgraph_get()
    depsgraph.update()
    out = []
    for obj in objs:
        ev = obj.evaluated_get(depsgraph)
        try:
            mesh = ev.to_mesh()
        except RuntimeError:
            mesh = None
        counts = mesh_counts(mesh) if mesh is not None else {"vertices": 0, "edges": 0, "faces": 0}
        triangles = 0
        if mesh is not None:
            mesh.calc_loop_triangles()
            triangles = len(mesh.loop_triangles)
            ev.to_mesh_clear()
        # The original's bound box is the evaluated geometry's (an evaluated text's is not).
        corners = [obj.matrix_world @ Vector(c) for c in obj.bound_box]
        lo = [min(c[i] for c in corners) for i in range(3)]
        hi = [max(c[i] for c in corners) for i in range(3)]
        count, first = _instances_of(obj, depsgraph)
        row = {"name": obj.name, "type": obj.type, "evaluated": counts, "triangles": triangles, "instances": count, "first_instances": first,
               "bounds_min": rounded(lo), "bounds_max": rounded(hi), "dimensions": rounded(obj.dimensions)}
        if obj.type == "MESH":
            row["original"] = mesh_counts(obj.data)
        out.append(row)
    return {"objects": out}
