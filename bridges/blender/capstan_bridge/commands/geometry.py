"""World-space geometry of evaluated objects, for the spatial commands (no commands here).

Everything is measured on the *evaluated* object (modifiers applied) in world space and
in metres: vertex positions come from `evaluated_get(depsgraph).to_mesh()` transformed
by the evaluated `matrix_world`, BVH trees are built from those world-space triangles,
so ray casts, overlaps and distances need no space conversions. `to_mesh()` of an
evaluated object adds nothing to `bpy.data` (cleared at once), so reads stay reads.
"""

import math

import bpy
import numpy as np
from mathutils import Vector
from mathutils.bvhtree import BVHTree

from ..errors import CommandError, invalid_target
from .common import get_object, rounded

GEOMETRY_TYPES = ("MESH", "CURVE", "SURFACE", "FONT", "META")
MAX_TRIANGLES = 200000


def depsgraph():
    return bpy.context.evaluated_depsgraph_get()


class WorldMesh:
    """One object's evaluated triangles in world space."""

    surface = True
    measured = "surface"

    def __init__(self, obj, dg, need_triangles=True):
        if obj.type not in GEOMETRY_TYPES:
            raise invalid_target("%s is a %s, which has no surface to measure" % (obj.name, obj.type))
        self.name = obj.name
        ev = obj.evaluated_get(dg)
        mesh = ev.to_mesh()
        try:
            n = len(mesh.vertices)
            co = np.empty(n * 3, dtype=np.float32)
            mesh.vertices.foreach_get("co", co)
            m = np.array(ev.matrix_world, dtype=np.float64)
            self.points = co.reshape(-1, 3).astype(np.float64) @ m[:3, :3].T + m[:3, 3]
            self.triangles = []
            self.tri_polygon = []
            if need_triangles:
                mesh.calc_loop_triangles()
                if len(mesh.loop_triangles) > MAX_TRIANGLES:
                    raise CommandError("limit_exceeded", "%s has %d triangles; the spatial commands measure at most %d"
                                       % (obj.name, len(mesh.loop_triangles), MAX_TRIANGLES))
                self.triangles = [tuple(t.vertices) for t in mesh.loop_triangles]
                self.tri_polygon = [t.polygon_index for t in mesh.loop_triangles]
        finally:
            ev.to_mesh_clear()
        self._tree = None
        self._vectors = None
        self._extent = None

    @property
    def vectors(self):
        if self._vectors is None:
            self._vectors = [Vector(p) for p in self.points.tolist()]
        return self._vectors

    @property
    def tree(self):
        if self._tree is None:
            self._tree = BVHTree.FromPolygons(self.points.tolist(), self.triangles, all_triangles=True)
        return self._tree

    def triangle(self, index):
        v = self.vectors
        a, b, c = self.triangles[index]
        return v[a], v[b], v[c]

    def closed(self):
        """Every triangle edge is shared by exactly two triangles (a watertight surface)."""
        uses = {}
        for a, b, c in self.triangles:
            for e in ((a, b), (b, c), (c, a)):
                key = (e[0], e[1]) if e[0] < e[1] else (e[1], e[0])
                uses[key] = uses.get(key, 0) + 1
        return bool(uses) and all(n == 2 for n in uses.values())

    @property
    def extent(self):
        """How far the mesh reaches from the world origin on any axis (at least 1)."""
        if self._extent is None:
            self._extent = max(1.0, float(np.abs(self.points).max())) if len(self.points) else 1.0
        return self._extent

    def bounds(self):
        if not len(self.points):
            return None
        return self.points.min(axis=0), self.points.max(axis=0)


def world_mesh(name, dg=None, need_triangles=True):
    return WorldMesh(get_object(name), dg or depsgraph(), need_triangles)


class WorldPoint:
    """An object that is a place, not a shape (one of POINT_TYPES), measured from its
    evaluated world origin. Only `min_distance` takes one, and never asks it for
    triangles."""

    surface = False
    measured = "origin"

    def __init__(self, obj, dg):
        self.name = obj.name
        self.point = Vector(obj.evaluated_get(dg).matrix_world.translation)


# Objects that are a place, not a shape: measured from their origin. Other types without
# a triangle surface here (volumes, point clouds, hair curves, grease pencil, lattices)
# and an empty that instances a collection (its shape is the collection's) have an
# extent an origin would misstate, so they are refused, not measured from a point.
POINT_TYPES = ("LIGHT", "CAMERA", "EMPTY", "SPEAKER", "LIGHT_PROBE")


def measurable(name, dg):
    """The object as something a distance can be measured from: its surface when its
    type has one, its origin when it is a place (light, camera, plain empty, speaker,
    light probe)."""
    obj = get_object(name)
    if obj.type in GEOMETRY_TYPES:
        return WorldMesh(obj, dg)
    if obj.type in POINT_TYPES and not (obj.type == "EMPTY" and obj.instance_type == "COLLECTION" and obj.instance_collection):
        return WorldPoint(obj, dg)
    what = "an empty instancing a collection" if obj.type == "EMPTY" else "of type %s" % obj.type
    raise invalid_target("%s is %s: neither a surface to measure nor a point (measure a mesh, curve, text, light, camera or plain empty)"
                         % (obj.name, what))


def point_distance(a, b):
    """(distance, point on a, point on b, contained) when at least one side is a
    WorldPoint: origin to origin, or origin to the nearest point of the other's surface
    (contained names the origin as inside when that surface is closed and encloses it)."""
    if not a.surface and not b.surface:
        return (a.point - b.point).length, a.point, b.point, None
    point, mesh, inside = (a, b, "a_inside_b") if not a.surface else (b, a, "b_inside_a")
    near, _normal, _index, dist = mesh.tree.find_nearest(point.point)
    # An origin on the surface (within float32 rounding there) is neither inside nor out.
    on_surface = dist <= 1e-6 * _scale(point.point)
    how = inside if not on_surface and mesh.closed() and ray_parity_inside(point.point, mesh) else None
    if point is a:
        return dist, point.point, near, how
    return dist, near, point.point, how


def object_bounds(obj, dg):
    """(min, max) of the evaluated object in world space; a point for objects without
    geometry (empties, lights, cameras), None for a mesh without vertices."""
    if obj.type in GEOMETRY_TYPES:
        return WorldMesh(obj, dg, need_triangles=False).bounds()
    p = np.array(obj.evaluated_get(dg).matrix_world.translation, dtype=np.float64)
    return p, p.copy()


def box_doc(lo, hi):
    return {"min": rounded(lo, 6), "max": rounded(hi, 6), "center": rounded((lo + hi) / 2.0, 6),
            "dimensions": rounded(hi - lo, 6)}


# Three unrelated directions, none in a plane a modelled shape is likely to be split
# along: a ray in the plane y=z (the old single direction was) runs along the diagonal of
# a triangulated cube face from its centre line, crosses both triangles there and counts
# an inside point as outside.
PARITY_RAYS = (Vector((0.5773, 0.6193, 0.5327)).normalized(),
               Vector((-0.4112, 0.7291, -0.5469)).normalized(),
               Vector((0.6872, -0.3313, -0.6464)).normalized())


def _crossings(origin, direction, mesh):
    crossings = 0
    for _ in range(4096):
        hit, _normal, _index, dist = mesh.tree.ray_cast(origin, direction)
        if hit is None:
            break
        crossings += 1
        # Step past the hit by a few float32 steps at the larger of its own and the
        # mesh's distance from the world origin (a big triangle's rounding comes from
        # its far corners; one step is ~1.5e-5 m at 140 m, 8 of them are taken), or the
        # next cast finds the same triangle again. A wall thinner than the step (at
        # 140 m, a tenth of a millimetre) can be stepped over.
        origin = hit + direction * max(max(_scale(hit), mesh.extent) * 2.0 ** -20, 1e-7 * dist)
    return crossings


def _scale(p):
    """How far a point is from the world origin on its largest axis (at least 1):
    float32 rounding grows with it."""
    return max(1.0, abs(p[0]), abs(p[1]), abs(p[2]))


def ray_parity_inside(point, mesh):
    """Is `point` inside the closed surface `mesh`? Counts crossings along three skewed
    rays (odd = inside) and takes the majority, so one ray grazing an edge or a vertex,
    where two triangles both count, does not decide."""
    origin = Vector(point)
    votes = sum(_crossings(origin, d, mesh) % 2 for d in PARITY_RAYS)
    return votes >= 2


def _plane(t):
    n = (t[1] - t[0]).cross(t[2] - t[0])
    if n.length < 1e-14:
        return None
    return n.normalized()


def _straddles(t, point, normal, tol):
    ds = [(p - point).dot(normal) for p in t]
    return min(ds) < -tol and max(ds) > tol


def crossing(a, b, tol):
    """Do the surfaces of `a` and `b` cross (more than `tol` metres deep)? Triangle pairs
    that merely touch (coplanar contact, an edge resting on a face) do not count."""
    tol = max(tol, 1e-6)
    for ia, ib in a.tree.overlap(b.tree):
        ta, tb = a.triangle(ia), b.triangle(ib)
        na, nb = _plane(ta), _plane(tb)
        if na is None or nb is None:
            continue
        if _straddles(tb, ta[0], na, tol) and _straddles(ta, tb[0], nb, tol):
            return True
    return False


def intersection(a, b, tol):
    """'surfaces_cross', 'a_inside_b', 'b_inside_a' or None."""
    if not a.triangles or not b.triangles:
        return None
    if crossing(a, b, tol):
        return "surfaces_cross"
    if b.closed() and ray_parity_inside(a.points[0], b) and _depth(a.vectors[0], b) > tol:
        return "a_inside_b"
    if a.closed() and ray_parity_inside(b.points[0], a) and _depth(b.vectors[0], a) > tol:
        return "b_inside_a"
    return None


def _depth(point, mesh):
    hit = mesh.tree.find_nearest(point)
    return hit[3] if hit[0] is not None else 0.0


def aabb_overlap(a_box, b_box, tol):
    """Boxes interpenetrate by more than `tol` on every axis. The depth on an axis is how
    far one box must move to separate (so a flat plane inside a box's height counts)."""
    (alo, ahi), (blo, bhi) = a_box, b_box
    depth = np.minimum(ahi - blo, bhi - alo)
    return bool(np.all(depth > tol))


def _closest_segments(p1, q1, p2, q2):
    """Closest points of segments p1q1 and p2q2 (Ericson, Real-Time Collision Detection 5.1.9)."""
    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    a, e, f = d1.dot(d1), d2.dot(d2), d2.dot(r)
    eps = 1e-18
    if a <= eps and e <= eps:
        return p1, p2
    if a <= eps:
        s, t = 0.0, min(max(f / e, 0.0), 1.0)
    else:
        c = d1.dot(r)
        if e <= eps:
            s, t = min(max(-c / a, 0.0), 1.0), 0.0
        else:
            b = d1.dot(d2)
            denom = a * e - b * b
            s = min(max((b * f - c * e) / denom, 0.0), 1.0) if denom > eps else 0.0
            t = (b * s + f) / e
            if t < 0.0:
                s, t = min(max(-c / a, 0.0), 1.0), 0.0
            elif t > 1.0:
                s, t = min(max((b - c) / a, 0.0), 1.0), 1.0
    return p1 + d1 * s, p2 + d2 * t


def _vertex_face(src, dst, best):
    """Nearest (distance, point on src, point on dst) from src's vertices to dst's surface."""
    for v in src.vectors:
        hit = dst.tree.find_nearest(v, best[0]) if math.isfinite(best[0]) else dst.tree.find_nearest(v)
        if hit[0] is not None and hit[3] < best[0]:
            best = (hit[3], v.copy(), hit[0].copy())
    return best


def _edges(mesh):
    out = set()
    for a, b, c in mesh.triangles:
        for e in ((a, b), (b, c), (c, a)):
            out.add((e[0], e[1]) if e[0] < e[1] else (e[1], e[0]))
    return out


def min_distance(a, b):
    """Exact minimum distance between two disjoint triangle surfaces: the minimum over
    vertex-face pairs (both ways, BVH nearest) and edge-edge pairs (candidates found
    within the vertex-face bound, so none closer is missed). (distance, pa, pb)."""
    best = (math.inf, None, None)
    best = _vertex_face(a, b, best)
    d, pb, pa = _vertex_face(b, a, (best[0], None, None))
    if pb is not None:
        best = (d, pa, pb)
    if not math.isfinite(best[0]):
        return best
    va, vb = a.vectors, b.vectors
    b_tri_edges = {}
    seen = set()
    for i, j in _edges(a):
        p, q = va[i], va[j]
        mid, half = (p + q) / 2.0, (q - p).length / 2.0
        for _loc, _n, tri, _d in b.tree.find_nearest_range(mid, best[0] + half):
            edges = b_tri_edges.get(tri)
            if edges is None:
                x, y, z = b.triangles[tri]
                edges = b_tri_edges[tri] = ((x, y), (y, z), (z, x))
            for k, m in edges:
                key = (i, j, min(k, m), max(k, m))
                if key in seen:
                    continue
                seen.add(key)
                c1, c2 = _closest_segments(p, q, vb[k], vb[m])
                dist = (c1 - c2).length
                if dist < best[0]:
                    best = (dist, c1, c2)
    return best


def axes_of(obj, dg):
    m = obj.evaluated_get(dg).matrix_world.to_3x3()
    return {axis: rounded(m.col[i].normalized(), 6) for i, axis in enumerate("xyz")}
