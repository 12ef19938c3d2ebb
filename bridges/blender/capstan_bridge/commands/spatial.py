"""Spatial measurement in the evaluated scene, in metres: ray casts, world bounds,
overlap, minimum distance, mesh statistics, and two placements (on a support, relative
to another object). All reads except place_on / place_relative; geometry helpers live
in `geometry.py`."""

import numpy as np
from mathutils import Matrix, Vector

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from . import geometry as g
from .common import OBJECT, VEC3, get_object, rounded, scene

BOX = s.obj({"min": VEC3, "max": VEC3, "center": VEC3, "dimensions": VEC3}, required=("min", "max", "center", "dimensions"))
AXES = s.obj({"x": VEC3, "y": VEC3, "z": VEC3}, required=("x", "y", "z"))
NULL_VEC3 = s.nullable(s.vector(3))
TOLERANCE = s.number(0, 10, description="Metres; contacts shallower than this are touching, not intersecting (default 0.001)")
MAX_LISTED = 64


def _names(params, key="objects"):
    names = params.get(key) or []
    return list(dict.fromkeys(names))


@command(
    effect="read",
    summary="Cast a ray into the evaluated scene (or only into the given objects); metres, world space.",
    params=s.obj({
        "origin": VEC3,
        "direction": VEC3,
        "max_distance": s.number(exclusive_minimum=0, maximum=1e6, description="Metres (default 1000)"),
        "objects": s.array(OBJECT, 1, 64, description="Only these objects can be hit"),
    }, required=("origin", "direction")),
    result=s.obj({
        "hit": s.boolean(), "location": NULL_VEC3, "normal": NULL_VEC3, "object": s.nullable(s.string()),
        "face_index": s.nullable(s.integer()), "distance": s.nullable(s.number()),
    }, required=("hit", "location", "normal", "object", "face_index", "distance")),
    errors=("invalid_params", "not_found", "invalid_target", "limit_exceeded"),
)
def raycast(ctx, params):
    direction = Vector(params["direction"])
    if direction.length < 1e-12:
        raise CommandError("invalid_params", "direction must not be the zero vector")
    direction.normalize()
    origin = Vector(params["origin"])
    limit = float(params.get("max_distance", 1000.0))
    dg = g.depsgraph()
    best = None
    if params.get("objects"):
        for name in _names(params):
            mesh = g.world_mesh(name, dg)
            if not mesh.triangles:
                continue
            loc, normal, tri, dist = mesh.tree.ray_cast(origin, direction, limit)
            if loc is not None and (best is None or dist < best[3]):
                best = (loc, normal, mesh.tri_polygon[tri], dist, mesh.name)
    else:
        ok, loc, normal, index, obj, _m = scene().ray_cast(dg, origin, direction, distance=limit)
        if ok:
            best = (loc, normal, index, (loc - origin).length, getattr(obj, "original", obj).name)
    if best is None:
        return {"hit": False, "location": None, "normal": None, "object": None, "face_index": None, "distance": None}
    loc, normal, index, dist, name = best
    return {"hit": True, "location": rounded(loc, 6), "normal": rounded(normal.normalized(), 6), "object": name,
            "face_index": int(index), "distance": round(float(dist), 6)}


@command(
    effect="read",
    summary="World-space axis-aligned bounds of the evaluated objects (or of every visible object with geometry), in metres.",
    params=s.obj({"objects": s.array(OBJECT, 1, 256, description="Default: every visible object with geometry")}),
    result=s.obj(dict(BOX["properties"], **{
        "empty": s.boolean(),
        "objects": s.array(s.obj(dict(BOX["properties"], name=s.string(), type=s.string(), origin=VEC3, axes=AXES),
                                 required=("name", "type", "origin", "axes") + tuple(BOX["required"])), max_items=MAX_LISTED),
        "objects_total": s.integer(0),
    }), required=("empty", "objects", "objects_total")),
    errors=("not_found", "invalid_target", "limit_exceeded"),
)
def bounds_world(ctx, params):
    dg = g.depsgraph()
    if params.get("objects"):
        objs = [get_object(n) for n in _names(params)]
    else:
        objs = [o for o in scene().objects if o.type in g.GEOMETRY_TYPES and o.visible_get()]
    rows, los, his = [], [], []
    for obj in objs:
        box = g.object_bounds(obj, dg)
        if box is None:
            continue
        los.append(box[0])
        his.append(box[1])
        if len(rows) < MAX_LISTED:
            row = {"name": obj.name, "type": obj.type, "origin": rounded(obj.evaluated_get(dg).matrix_world.translation, 6),
                   "axes": g.axes_of(obj, dg)}
            row.update(g.box_doc(*box))
            rows.append(row)
    out = {"empty": not los, "objects": rows, "objects_total": len(los)}
    if los:
        out.update(g.box_doc(np.min(los, axis=0), np.max(his, axis=0)))
    return out


def _overlap(a_name, b_name, method, tol):
    if a_name == b_name:
        raise CommandError("invalid_params", "a and b are the same object")
    dg = g.depsgraph()
    a, b = g.world_mesh(a_name, dg, need_triangles=(method == "bvh")), g.world_mesh(b_name, dg, need_triangles=(method == "bvh"))
    boxes = a.bounds(), b.bounds()
    aabb = boxes[0] is not None and boxes[1] is not None and g.aabb_overlap(boxes[0], boxes[1], tol)
    if method == "aabb":
        return a, b, aabb, aabb, ("aabb_overlap" if aabb else None)
    near = boxes[0] is not None and boxes[1] is not None and g.aabb_overlap(boxes[0], boxes[1], -1e-9)
    how = g.intersection(a, b, tol) if near else None
    return a, b, how is not None, aabb, how


@command(
    effect="read",
    summary="Do two evaluated objects overlap? BVH (surfaces cross, or one is inside the other) or AABB; metres.",
    params=s.obj({"a": OBJECT, "b": OBJECT, "method": s.enum(("bvh", "aabb")), "tolerance": TOLERANCE},
                 required=("a", "b")),
    result=s.obj({
        "a": s.string(), "b": s.string(), "method": s.string(), "tolerance": s.number(),
        "intersects": s.boolean(), "aabb_intersects": s.boolean(),
        "how": s.nullable(s.string(description="surfaces_cross, a_inside_b, b_inside_a or aabb_overlap; null when apart")),
    }, required=("a", "b", "method", "tolerance", "intersects", "aabb_intersects", "how")),
    errors=("invalid_params", "not_found", "invalid_target", "limit_exceeded"),
    timeout_s=60,
)
def check_overlap(ctx, params):
    method, tol = params.get("method", "bvh"), float(params.get("tolerance", 0.001))
    a, b, hit, aabb, how = _overlap(params["a"], params["b"], method, tol)
    return {"a": a.name, "b": b.name, "method": method, "tolerance": tol, "intersects": hit, "aabb_intersects": aabb, "how": how}


MEASURED_FROM = s.enum(("surface", "origin"), description="surface: its evaluated triangles; origin: its world location (an object with no surface: light, camera, empty)")


@command(
    effect="read",
    summary="Minimum distance between two evaluated objects, metres: surface to surface (exact over BVH triangles; 0 when they cross), "
            "or from the origin of one with no surface (light, camera, empty).",
    params=s.obj({"a": OBJECT, "b": OBJECT}, required=("a", "b")),
    result=s.obj({
        "a": s.string(), "b": s.string(), "distance": s.number(0), "intersects": s.boolean(),
        "contained": s.nullable(s.string(description="a_inside_b or b_inside_a when one surface (or origin) is enclosed by the other's surface")),
        "point_a": NULL_VEC3, "point_b": NULL_VEC3,
        "measured": s.obj({"a": MEASURED_FROM, "b": MEASURED_FROM}, required=("a", "b")),
    }, required=("a", "b", "distance", "intersects", "contained", "point_a", "point_b", "measured")),
    errors=("invalid_params", "not_found", "invalid_target", "limit_exceeded"),
    timeout_s=60,
)
def min_distance(ctx, params):
    if params["a"] == params["b"]:
        raise CommandError("invalid_params", "a and b are the same object")
    dg = g.depsgraph()
    a, b = g.measurable(params["a"], dg), g.measurable(params["b"], dg)
    if (a.surface and not a.triangles) or (b.surface and not b.triangles):
        empty = a if a.surface and not a.triangles else b
        raise invalid_target("%s has no faces (a wire, points or an unbevelled curve): there is no surface to measure to" % empty.name)
    out = {"a": a.name, "b": b.name, "measured": {"a": a.measured, "b": b.measured}}
    if not a.surface or not b.surface:
        dist, pa, pb, how = g.point_distance(a, b)
        return dict(out, distance=round(float(dist), 6), intersects=False, contained=how, point_a=rounded(pa, 6), point_b=rounded(pb, 6))
    how = g.intersection(a, b, 0.0)
    if how == "surfaces_cross":
        return dict(out, distance=0.0, intersects=True, contained=None, point_a=None, point_b=None)
    dist, pa, pb = g.min_distance(a, b)
    return dict(out, distance=round(float(dist), 6), intersects=False, contained=how, point_a=rounded(pa, 6), point_b=rounded(pb, 6))


@command(
    effect="read",
    summary="Counts of an object's evaluated mesh: vertices, edges, faces, triangles, largest face, watertightness.",
    params=s.obj({"object": OBJECT}, required=("object",)),
    result=s.obj({
        "object": s.string(), "vertices": s.integer(0), "edges": s.integer(0), "faces": s.integer(0),
        "triangles": s.integer(0), "max_face_sides": s.integer(0), "non_triangle_faces": s.integer(0), "closed": s.boolean(),
    }, required=("object", "vertices", "edges", "faces", "triangles", "max_face_sides", "non_triangle_faces", "closed")),
    errors=("not_found", "invalid_target", "limit_exceeded"),
)
def mesh_stats(ctx, params):
    obj = get_object(params["object"])
    if obj.type not in g.GEOMETRY_TYPES:
        raise invalid_target("%s is a %s, which has no mesh" % (obj.name, obj.type))
    ev = obj.evaluated_get(g.depsgraph())
    mesh = ev.to_mesh()
    try:
        sides = np.empty(len(mesh.polygons), dtype=np.int32)
        mesh.polygons.foreach_get("loop_total", sides)
        mesh.calc_loop_triangles()
        out = {"object": obj.name, "vertices": len(mesh.vertices), "edges": len(mesh.edges), "faces": len(mesh.polygons),
               "triangles": len(mesh.loop_triangles), "max_face_sides": int(sides.max()) if len(sides) else 0,
               "non_triangle_faces": int((sides != 3).sum())}
    finally:
        ev.to_mesh_clear()
    out["closed"] = g.world_mesh(obj.name).closed() if out["triangles"] <= g.MAX_TRIANGLES else False
    return out


def _move(ctx, obj, delta_world, dry_run):
    """Translate `obj` by a world-space vector (through its parent's space if parented)."""
    if dry_run or delta_world.length == 0:
        return Vector(obj.location) + (_to_local(obj) @ delta_world)
    ctx.delta.touch(obj)
    obj.location = Vector(obj.location) + (_to_local(obj) @ delta_world)
    return Vector(obj.location)


def _to_local(obj):
    if obj.parent is None:
        return Matrix.Identity(3)
    return (obj.parent.matrix_world @ obj.matrix_parent_inverse).to_3x3().inverted_safe()


PLACE_RESULT = s.obj({
    "object": s.string(), "target": s.string(), "location": VEC3, "moved_by": VEC3, "dry_run": s.boolean(),
    "bounds": BOX, "support_z": s.number(),
}, required=("object", "target", "location", "moved_by", "dry_run", "bounds"))


@command(
    effect="mutate",
    summary="Rest an object on the top surface of a support, found by ray casts over the object's footprint; metres.",
    params=s.obj({
        "object": OBJECT, "target": OBJECT,
        "offset_z": s.number(-1000, 1000, description="Gap above the surface in metres (default 0)"),
        "align": s.enum(("center", "keep_xy"), description="center: over the support's centre (default); keep_xy: where it is"),
        "dry_run": s.boolean(),
    }, required=("object", "target")),
    result=PLACE_RESULT,
    errors=("invalid_params", "not_found", "invalid_target", "limit_exceeded"),
)
def place_on(ctx, params):
    obj, target = get_object(params["object"]), get_object(params["target"])
    if obj == target:
        raise CommandError("invalid_params", "an object cannot rest on itself")
    dg = g.depsgraph()
    box = g.object_bounds(obj, dg)
    support = g.world_mesh(target.name, dg)
    tbox = support.bounds()
    if box is None or tbox is None or not support.triangles:
        raise invalid_target("both the object and the support need geometry")
    lo, hi = box
    if params.get("align", "center") == "center":
        shift_xy = (tbox[0][:2] + tbox[1][:2]) / 2.0 - (lo[:2] + hi[:2]) / 2.0
    else:
        shift_xy = np.zeros(2)
    # Rays go down through where the two footprints overlap (a roof over a row of
    # pillars overlaps each pillar's top only), on a grid that includes the overlap's
    # centre and edges; the highest hit is the surface the object rests on.
    foot_lo, foot_hi = lo[:2] + shift_xy, hi[:2] + shift_xy
    over_lo, over_hi = np.maximum(foot_lo, tbox[0][:2]), np.minimum(foot_hi, tbox[1][:2])
    if np.any(over_lo > over_hi):
        raise invalid_target("%s's footprint (x %.3f..%.3f, y %.3f..%.3f) does not overlap %s's (x %.3f..%.3f, y %.3f..%.3f); "
                             "use align: center or move it over the support first" % (
                                 obj.name, foot_lo[0], foot_hi[0], foot_lo[1], foot_hi[1],
                                 target.name, tbox[0][0], tbox[1][0], tbox[0][1], tbox[1][1]))
    top = float(tbox[1][2]) + 1.0
    best = None
    steps = (0.5, 0.01, 0.99, 0.25, 0.75)
    for fx in steps:
        for fy in steps:
            x = over_lo[0] + fx * (over_hi[0] - over_lo[0])
            y = over_lo[1] + fy * (over_hi[1] - over_lo[1])
            loc = support.tree.ray_cast(Vector((x, y, top)), Vector((0, 0, -1)))[0]
            if loc is not None and (best is None or loc.z > best):
                best = loc.z
    if best is None:
        raise invalid_target("no ray down through the overlap of %s's and %s's footprints (x %.3f..%.3f, y %.3f..%.3f) "
                             "hit %s's surface" % (obj.name, target.name, over_lo[0], over_hi[0], over_lo[1], over_hi[1], target.name))
    offset = float(params.get("offset_z", 0.0))
    delta = Vector((shift_xy[0], shift_xy[1], best + offset - lo[2]))
    dry = bool(params.get("dry_run", False))
    location = _move(ctx, obj, delta, dry)
    d = np.array(delta)
    return {"object": obj.name, "target": target.name, "location": rounded(location, 6), "moved_by": rounded(delta, 6),
            "dry_run": dry, "bounds": g.box_doc(lo + d, hi + d), "support_z": round(best, 6)}


# Lateral relations: the world axis and side. Front is -Y (Blender's front view looks along +Y).
RELATIONS = {"next_to": (0, 1), "right_of": (0, 1), "left_of": (0, -1), "behind": (1, 1), "in_front_of": (1, -1)}


@command(
    effect="mutate",
    summary="Place an object next to, left or right of, in front of, behind, below or inside another, by world bounds; metres.",
    params=s.obj({
        "object": OBJECT, "target": OBJECT,
        "relation": s.enum(tuple(RELATIONS) + ("below", "inside"), description="next_to is right_of (+X); in_front_of is -Y"),
        "margin": s.number(0, 1000, description="Gap in metres (default 0.05); inside: the clearance it needs"),
        "dry_run": s.boolean(),
    }, required=("object", "target", "relation")),
    result=PLACE_RESULT,
    errors=("invalid_params", "not_found", "invalid_target", "limit_exceeded"),
)
def place_relative(ctx, params):
    obj, target = get_object(params["object"]), get_object(params["target"])
    if obj == target:
        raise CommandError("invalid_params", "an object cannot be placed relative to itself")
    dg = g.depsgraph()
    box, tbox = g.object_bounds(obj, dg), g.object_bounds(target, dg)
    if box is None or tbox is None:
        raise invalid_target("both objects need geometry")
    (lo, hi), (tlo, thi) = box, tbox
    margin = float(params.get("margin", 0.05))
    relation = params["relation"]
    center, tcenter = (lo + hi) / 2.0, (tlo + thi) / 2.0
    new_center = tcenter.copy()
    if relation in RELATIONS:
        axis, side = RELATIONS[relation]
        half = (hi[axis] - lo[axis]) / 2.0
        new_center[axis] = (thi[axis] + margin + half) if side > 0 else (tlo[axis] - margin - half)
        new_center[2] = tlo[2] + (hi[2] - lo[2]) / 2.0  # stands on the same floor as the target
    elif relation == "below":
        new_center[2] = tlo[2] - margin - (hi[2] - lo[2]) / 2.0
    else:
        if np.any((hi - lo) > (thi - tlo) - 2 * margin + 1e-9):
            raise invalid_target("%s (%s m) does not fit inside %s (%s m) with a margin of %g m" % (
                obj.name, rounded(hi - lo, 4), target.name, rounded(thi - tlo, 4), margin))
    delta = Vector(new_center - center)
    dry = bool(params.get("dry_run", False))
    location = _move(ctx, obj, delta, dry)
    d = np.array(delta)
    return {"object": obj.name, "target": target.name, "location": rounded(location, 6), "moved_by": rounded(delta, 6),
            "dry_run": dry, "bounds": g.box_doc(lo + d, hi + d)}
