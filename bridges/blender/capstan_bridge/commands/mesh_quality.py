"""Mesh quality checks: what a printing, game or render checklist asks of a mesh.

Measured on the *evaluated* mesh (modifiers applied, the current frame), like every
other read of the add-on: a Solidify or Weld modifier that closes a hole makes the mesh
manifold, because that is the geometry that renders and exports. The base mesh is what
`inspect.mesh` pages over; here the question is "is what I will get clean?".

Per mesh object:
- edges by how many faces use them: boundary (1), wire / loose (0), more than two
  (`multi_face_edges`); `non_manifold_edges` is all three together (Blender's own
  "Select Non-Manifold" edges), `manifold` is true when there are none;
- loose vertices (no edge) and loose edges (no face);
- zero-area faces (area below `area_epsilon`, default 1e-8 m^2, object space);
- inconsistent normals: manifold edges whose two faces wind the same way round them
  (`inconsistent_normal_edges`), and per connected part the smaller set of faces whose
  winding disagrees with the rest (`flipped_faces`);
- triangles, quads and n-gons (more than four sides);
- separate parts: connected components over edges (a loose vertex is a part).

Everything is read through bmesh from a temporary copy of the evaluated mesh; nothing in
the scene changes. Indices (at most 16 of each kind) are of the evaluated mesh, which are
the base mesh's own when the object has no topology-changing modifier.
"""

import bmesh

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from . import geometry as g
from .common import OBJECT, get_object, scene

MAX_OBJECTS = 256
MAX_INDICES = 16
MAX_FACES = 2_000_000
DEFAULT_EPSILON = 1e-8

INDICES = s.array(s.integer(0), max_items=MAX_INDICES, description="The first indices (evaluated mesh)")

ROW = s.obj({
    "object": s.string(),
    "vertices": s.integer(0), "edges": s.integer(0), "faces": s.integer(0),
    "manifold": s.boolean(description="No boundary, wire or multi-face edges"),
    "clean": s.boolean(description="Manifold, no loose geometry, no zero-area faces, consistent normals"),
    "non_manifold_edges": s.integer(0), "boundary_edges": s.integer(0), "multi_face_edges": s.integer(0),
    "loose_vertices": s.integer(0), "loose_edges": s.integer(0),
    "zero_area_faces": s.integer(0),
    "inconsistent_normal_edges": s.integer(0), "flipped_faces": s.integer(0),
    "triangles": s.integer(0), "quads": s.integer(0), "ngons": s.integer(0),
    "parts": s.integer(0),
    "examples": s.obj({
        "boundary_edges": INDICES, "multi_face_edges": INDICES, "loose_vertices": INDICES, "loose_edges": INDICES,
        "zero_area_faces": INDICES, "flipped_faces": INDICES,
    }, required=("boundary_edges", "multi_face_edges", "loose_vertices", "loose_edges", "zero_area_faces", "flipped_faces")),
}, required=("object", "vertices", "edges", "faces", "manifold", "clean", "non_manifold_edges", "boundary_edges",
             "multi_face_edges", "loose_vertices", "loose_edges", "zero_area_faces", "inconsistent_normal_edges",
             "flipped_faces", "triangles", "quads", "ngons", "parts", "examples"))


def _first(items):
    return [int(i) for i in items[:MAX_INDICES]]


def _parts(bm):
    """Connected components over edges; every vertex belongs to exactly one."""
    seen = set()
    parts = 0
    for start in bm.verts:
        if start.index in seen:
            continue
        parts += 1
        seen.add(start.index)
        stack = [start]
        while stack:
            v = stack.pop()
            for e in v.link_edges:
                w = e.other_vert(v)
                if w.index not in seen:
                    seen.add(w.index)
                    stack.append(w)
    return parts


def _winds_along(face, edge):
    """True when the face's loop runs edge.verts[0] -> edge.verts[1]."""
    for loop in face.loops:
        if loop.edge == edge:
            return loop.vert == edge.verts[0]
    return True


def _flipped_faces(bm):
    """Faces whose winding disagrees with their part: per face-connected region (across
    manifold edges), propagate an orientation from one face and keep the smaller side."""
    flip = {}
    out = []
    for seed in bm.faces:
        if seed.index in flip:
            continue
        flip[seed.index] = False
        region, stack = [seed], [seed]
        while stack:
            f = stack.pop()
            for e in f.edges:
                if not e.is_manifold:
                    continue
                other = e.link_faces[0] if e.link_faces[1] == f else e.link_faces[1]
                if other.index in flip:
                    continue
                # Consistent neighbours run a shared edge in opposite directions.
                same = _winds_along(f, e) == _winds_along(other, e)
                flip[other.index] = flip[f.index] ^ same
                region.append(other)
                stack.append(other)
        flipped = [f.index for f in region if flip[f.index]]
        kept = [f.index for f in region if not flip[f.index]]
        out.extend(flipped if len(flipped) <= len(kept) else kept)
    return sorted(out)


def measure(obj, dg, epsilon):
    """The quality row of one mesh object's evaluated mesh."""
    ev = obj.evaluated_get(dg)
    me = ev.to_mesh()
    try:
        if len(me.polygons) > MAX_FACES:
            raise CommandError("limit_exceeded", "%s has %d evaluated faces; at most %d are checked" % (obj.name, len(me.polygons), MAX_FACES))
        bm = bmesh.new()
        bm.from_mesh(me)
    finally:
        ev.to_mesh_clear()
    try:
        for seq in (bm.verts, bm.edges, bm.faces):
            seq.index_update()
        boundary, multi, loose_e, bad_wind = [], [], [], 0
        for e in bm.edges:
            n = len(e.link_faces)
            if n == 0:
                loose_e.append(e.index)
            elif n == 1:
                boundary.append(e.index)
            elif n > 2:
                multi.append(e.index)
            elif not e.is_contiguous:
                bad_wind += 1
        loose_v = [v.index for v in bm.verts if not v.link_edges]
        zero = [f.index for f in bm.faces if f.calc_area() < epsilon]
        sides = [len(f.verts) for f in bm.faces]
        flipped = _flipped_faces(bm)
        non_manifold = len(boundary) + len(multi) + len(loose_e)
        row = {
            "object": obj.name, "vertices": len(bm.verts), "edges": len(bm.edges), "faces": len(bm.faces),
            "manifold": non_manifold == 0,
            "non_manifold_edges": non_manifold, "boundary_edges": len(boundary), "multi_face_edges": len(multi),
            "loose_vertices": len(loose_v), "loose_edges": len(loose_e), "zero_area_faces": len(zero),
            "inconsistent_normal_edges": bad_wind, "flipped_faces": len(flipped),
            "triangles": sides.count(3), "quads": sides.count(4), "ngons": sum(1 for n in sides if n > 4),
            "parts": _parts(bm),
            "examples": {"boundary_edges": _first(boundary), "multi_face_edges": _first(multi),
                         "loose_vertices": _first(loose_v), "loose_edges": _first(loose_e),
                         "zero_area_faces": _first(zero), "flipped_faces": _first(flipped)},
        }
    finally:
        bm.free()
    row["clean"] = row["manifold"] and not (loose_v or zero or bad_wind or flipped)
    return row


@command(
    effect="read",
    summary="Mesh quality of evaluated meshes: non-manifold and boundary edges, loose geometry, zero-area faces, "
            "inconsistent normals, n-gons, triangles, separate parts.",
    params=s.obj({
        "objects": s.array(OBJECT, 1, MAX_OBJECTS, description="Mesh objects to check (default: every mesh object in the scene)"),
        "area_epsilon": s.number(0, 1, description="Faces with a smaller area (m^2, object space) are zero-area (default 1e-8)"),
    }),
    result=s.obj({
        "objects": s.array(ROW, max_items=MAX_OBJECTS),
        "total": s.integer(0), "truncated": s.boolean(), "area_epsilon": s.number(0),
        "clean": s.boolean(description="Every listed mesh is clean"),
    }, required=("objects", "total", "truncated", "area_epsilon", "clean")),
    errors=("not_found", "invalid_target", "limit_exceeded"),
    timeout_s=60,
)
def mesh_quality(ctx, params):
    epsilon = float(params.get("area_epsilon", DEFAULT_EPSILON))
    if params.get("objects"):
        objs = [get_object(n) for n in dict.fromkeys(params["objects"])]
        bad = [o.name for o in objs if o.type != "MESH"]
        if bad:
            raise invalid_target("mesh quality reads meshes; %s %s not" % (", ".join(bad), "is" if len(bad) == 1 else "are"))
    else:
        objs = sorted((o for o in scene().objects if o.type == "MESH"), key=lambda o: o.name)
    dg = g.depsgraph()
    rows = [measure(o, dg, epsilon) for o in objs[:MAX_OBJECTS]]
    return {"objects": rows, "total": len(objs), "truncated": len(objs) > MAX_OBJECTS, "area_epsilon": epsilon,
            "clean": all(r["clean"] for r in rows)}
