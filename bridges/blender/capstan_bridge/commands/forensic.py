"""Forensic scene commands (accident reconstruction): roads with lane markings, dimensioned
vehicle and figure proxies, and translucent "ghost" copies. All bmesh and the data API;
lengths in metres, angles in degrees, colours linear RGBA. The capabilities that use them
(capability-packs/blender-forensic) own the dimension tables; these commands build
exactly the dimensions they are given."""

import math

import bmesh
import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from .common import OBJECT, VEC3, get_object, rounded
from ..errors import CommandError
from .forensic_build import EDGE_INSET, LINE_WIDTH, MARK_Z, arms, figure, lane_markings, material, strip, two_wheeler, vehicle
from .modeling_util import COUNTS, NEW_OBJECT_NAME, mesh_counts, new_object, refresh, refuse

ROAD_TYPES = ("straight", "intersection", "t_junction", "curve")
PROXY_KINDS = ("vehicle", "two_wheeler", "figure")
POSES = ("standing", "walking", "lying")
SIDES = ("front", "rear", "left", "right")
ASPHALT = (0.05, 0.05, 0.055, 1.0)
PAINT = (0.9, 0.9, 0.85, 1.0)
DAMAGE = (0.8, 0.02, 0.02, 1.0)
DIMS = s.array(s.number(0.05, 30), 3, 3, description="[length (x), width (y), height (z)] in metres")


def _mesh_object(ctx, name, bm, params):
    mesh = bpy.data.meshes.new(name)
    bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-5)
    bm.to_mesh(mesh)
    bm.free()
    obj = new_object(name, mesh, params)
    ctx.delta.created(obj)
    return obj



@command(
    effect="mutate",
    summary="Build a road surface (straight, intersection, T-junction or 90-degree curve) with lanes and, optionally, painted markings as a second mesh.",
    params=s.obj({
        "name": NEW_OBJECT_NAME,
        "road_type": s.enum(ROAD_TYPES, description="Default straight"),
        "lanes": s.integer(1, 8, description="Lanes across the road (default 2)"),
        "length": s.number(5, 1000, description="Metres end to end; a curve's centreline length (default 50)"),
        "lane_width": s.number(2, 5, description="Metres (default 3.5)"),
        "markings": s.boolean(description="Edge lines, centre line and dashed lane dividers (default true)"),
        "location": VEC3,
    }),
    result=s.obj({
        "road": s.string(), "markings": s.nullable(s.string()), "road_type": s.enum(ROAD_TYPES), "lanes": s.integer(1),
        "width": s.number(), "length": s.number(), "mesh": COUNTS, "marking_pieces": s.integer(0),
        "materials": s.array(s.string()), "dimensions": VEC3,
    }, required=("road", "markings", "road_type", "lanes", "width", "length", "mesh", "marking_pieces", "materials", "dimensions")),
    errors=("invalid_params",),
)
def build_road(ctx, params):
    name = params.get("name", "Road")
    road_type = params.get("road_type", "straight")
    lanes, length = params.get("lanes", 2), params.get("length", 50.0)
    lane_width = params.get("lane_width", 3.5)
    width = lanes * lane_width
    if road_type in ("intersection", "t_junction") and length < width + 2:
        raise refuse("a %s of %.1f m wide roads needs length >= %.1f m (width + 2)" % (road_type, width, width + 2))
    paths = arms(road_type, length, width)
    bm = bmesh.new()
    for path in paths:
        strip(bm, path, 0.0, width, 0.0)
    if road_type in ("intersection", "t_junction"):
        h = width / 2
        corners = [bm.verts.new(c) for c in ((-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0))]
        bm.faces.new(corners)
    road = _mesh_object(ctx, name, bm, params)
    asphalt = material(ctx, "%s Asphalt" % road.name, ASPHALT, roughness=0.9)
    road.data.materials.append(asphalt)
    road["forensic_kind"] = "road"
    mats, marks, pieces = [asphalt.name], None, 0
    if params.get("markings", True):
        bm = bmesh.new()
        for path in paths:
            pieces += lane_markings(bm, path, lanes, lane_width)
        if road_type == "t_junction":  # the main road's far edge line runs on across the junction
            h = width / 2
            strip(bm, [Vector((-h, 0)), Vector((h, 0))], -(h - EDGE_INSET), LINE_WIDTH, MARK_Z)
            pieces += 1
        marks = _mesh_object(ctx, "%s Markings" % road.name, bm, params)
        paint = material(ctx, "%s Paint" % road.name, PAINT, roughness=0.5)
        marks.data.materials.append(paint)
        marks["forensic_kind"] = "road_markings"
        mats.append(paint.name)
    refresh()
    return {"road": road.name, "markings": marks.name if marks else None, "road_type": road_type, "lanes": lanes,
            "width": round(width, 5), "length": round(length, 5), "mesh": mesh_counts(road.data), "marking_pieces": pieces,
            "materials": mats, "dimensions": rounded(road.dimensions)}


def _side_faces(faces, side):
    axis, sign = {"front": (0, 1), "rear": (0, -1), "left": (1, 1), "right": (1, -1)}[side]
    return [f for f in faces if f.normal[axis] * sign > 0.5]


@command(
    effect="mutate",
    summary="Place a bmesh proxy (vehicle, two-wheeler, figure) filling exactly [length, width, height], front towards +X, resting on its location; damage paints one side.",
    params=s.obj({
        "name": NEW_OBJECT_NAME,
        "kind": s.enum(PROXY_KINDS),
        "dims": DIMS,
        "location": VEC3,
        "rotation": s.number(-36000, 36000, description="Heading about Z in degrees (0: front towards +X)"),
        "color": s.ref("rgba"),
        "pose": s.enum(POSES, description="Figures only (default standing); a lying figure is length `height` along X"),
        "damage_side": s.enum(SIDES, description="Vehicles and two-wheelers: the impact side, painted as damage"),
    }, required=("name", "kind", "dims")),
    result=s.obj({
        "name": s.string(), "kind": s.enum(PROXY_KINDS), "pose": s.nullable(s.string()), "dimensions": VEC3,
        "location": VEC3, "rotation": s.number(), "mesh": COUNTS, "materials": s.array(s.string()), "damaged_faces": s.integer(0),
    }, required=("name", "kind", "pose", "dimensions", "location", "rotation", "mesh", "materials", "damaged_faces")),
    errors=("invalid_params",),
)
def place_proxy(ctx, params):
    kind, (L, W, H) = params["kind"], params["dims"]
    pose = params.get("pose")
    if pose is not None and kind != "figure":
        raise refuse("pose is for figures; a %s has none" % kind)
    if "damage_side" in params and kind == "figure":
        raise refuse("damage_side is for vehicles and two-wheelers")
    bm = bmesh.new()
    if kind == "vehicle":
        body = vehicle(bm, L, W, H)
    elif kind == "two_wheeler":
        body = two_wheeler(bm, L, W, H)
    else:
        pose = pose or "standing"
        body = figure(bm, L, W, H, pose)
    bm.normal_update()
    damaged = _side_faces(body, params["damage_side"]) if "damage_side" in params else []
    for f in damaged:
        f.material_index = 1
    place = {k: params[k] for k in ("location",) if k in params}
    obj = _mesh_object(ctx, params["name"], bm, place)
    obj.rotation_euler = (0.0, 0.0, math.radians(params.get("rotation", 0.0)))
    color = params.get("color", (0.8, 0.8, 0.8, 1.0) if kind != "figure" else (0.9, 0.6, 0.1, 1.0))
    mats = [material(ctx, "%s Paint" % obj.name, color, roughness=0.4)]
    if damaged:
        mats.append(material(ctx, "%s Damage" % obj.name, DAMAGE, roughness=0.8))
    for m in mats:
        obj.data.materials.append(m)
    obj["forensic_kind"] = kind
    obj["forensic_dims"] = [float(v) for v in (L, W, H)]
    refresh()
    return {"name": obj.name, "kind": kind, "pose": pose, "dimensions": rounded(obj.dimensions, 4), "location": rounded(obj.location),
            "rotation": round(math.degrees(obj.rotation_euler.z), 4), "mesh": mesh_counts(obj.data),
            "materials": [m.name for m in mats], "damaged_faces": len(damaged)}


@command(
    effect="mutate",
    summary="Make a translucent 'what-if' copy of a mesh: its own mesh data, one see-through material in place of all slots, the source's animation kept or dropped.",
    params=s.obj({
        "source": OBJECT,
        "name": NEW_OBJECT_NAME,
        "alpha": s.number(0, 1, description="Opacity (default 0.3)"),
        "color": s.array(s.number(0, 1), 3, 3, description="Linear [r, g, b] (default a light blue)"),
        "keep_animation": s.boolean(description="Keep the source's animation (shared action); default true"),
    }, required=("source",)),
    result=s.obj({
        "name": s.string(), "source": s.string(), "alpha": s.number(), "material": s.string(), "animated": s.boolean(),
        "location": VEC3, "dimensions": VEC3,
    }, required=("name", "source", "alpha", "material", "animated", "location", "dimensions")),
    errors=("not_found", "invalid_target"),
)
def ghost_copy(ctx, params):
    src = get_object(params["source"])
    if src.type != "MESH":
        raise CommandError("invalid_target", "object %r is a %s; a ghost copies a mesh proxy" % (src.name, src.type))
    obj = src.copy()
    obj.data = src.data.copy()
    obj.name = params.get("name", "%s Ghost" % src.name)
    obj.data.name = obj.name
    for coll in list(src.users_collection) or [bpy.context.scene.collection]:
        coll.objects.link(obj)
    ctx.delta.created(obj)
    if not params.get("keep_animation", True) and obj.animation_data is not None:
        if obj.animation_data.action is not None:
            ctx.delta.touch_datablock("actions", obj.animation_data.action)  # one user fewer
        obj.animation_data_clear()
    alpha = params.get("alpha", 0.3)
    mat = material(ctx, "%s Material" % obj.name, (*params.get("color", (0.3, 0.6, 1.0)), alpha), roughness=0.3)
    obj.data.materials.clear()
    obj.data.materials.append(mat)
    for poly in obj.data.polygons:
        poly.material_index = 0
    obj.show_transparent = True
    obj["forensic_kind"] = "ghost"
    obj["forensic_source"] = src.name
    refresh()
    animated = obj.animation_data is not None and obj.animation_data.action is not None
    return {"name": obj.name, "source": src.name, "alpha": round(alpha, 5), "material": mat.name, "animated": animated,
            "location": rounded(obj.location), "dimensions": rounded(obj.dimensions, 4)}
