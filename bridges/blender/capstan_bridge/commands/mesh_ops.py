"""Mesh topology operations with bmesh, on all of a mesh or on indexed elements.

No edit mode and no view-dependent operator: each op reads the mesh into a bmesh,
runs `bmesh.ops`, and writes it back only when the op succeeded. Which elements an op
works on comes from `selection` (all, or vertex/edge/face indices) converted to the
kind the op needs: a face op given vertices takes the faces whose vertices are all
selected, a vertex op given faces takes their vertices. Each op accepts only its own
params (others are an error that lists them). Lengths in metres in object space,
angles in degrees.
"""

import math
import random

import bmesh
from mathutils import Vector

from ..core import schema as s
from ..command import command
from .common import OBJECT, VEC3
from .modeling_util import COUNTS, get_mesh_object, limit, mesh_counts, refresh, refuse

MAX_VERTICES = 1_000_000
MAX_RESULT_FACES = 2_000_000

# op -> (element kind it works on, params it takes)
OPS = {
    "extrude": ("any", ("offset", "direction")),
    "inset": ("faces", ("width", "depth", "individual")),
    "bevel": ("edges", ("width", "segments", "profile", "vertex_only")),
    "subdivide": ("edges", ("cuts", "smooth")),
    "triangulate": ("faces", ()),
    "tris_to_quads": ("faces", ("angle",)),
    "merge": ("verts", ("distance",)),
    "dissolve_limited": ("edges", ("angle",)),
    "delete": ("any", ()),
    "flip_normals": ("faces", ()),
    "recalc_normals": ("faces", ()),
    "poke": ("faces", ("offset",)),
    "bisect": ("all", ("plane_co", "plane_no", "clear_inner", "clear_outer")),
    "spin": ("any", ("angle", "steps", "axis", "center")),
    "solidify": ("faces", ("thickness",)),
    "smooth_vertices": ("verts", ("factor", "iterations")),
    "randomize": ("verts", ("offset", "seed")),
}

PARAMS = s.obj({
    "offset": s.number(-1000, 1000, description="extrude: distance along the normal (default 1; a closed region such as a whole cube moves out along each vertex normal); poke: centre offset (default 0); randomize: amplitude (default 0.1)"),
    "direction": VEC3,
    "width": s.number(0, 1000, description="inset: border width (default 0.1); bevel: offset (default 0.1)"),
    "depth": s.number(-1000, 1000, description="inset: how far the inset moves along the normal (default 0)"),
    "individual": s.boolean(description="inset: each face on its own (default false: as a region)"),
    "segments": s.integer(1, 64, description="bevel: segments (default 1)"),
    "profile": s.number(0, 1, description="bevel: profile shape (default 0.5, round)"),
    "vertex_only": s.boolean(description="bevel: bevel vertices, not edges (default false)"),
    "cuts": s.integer(1, 100, description="subdivide: cuts per edge (default 1)"),
    "smooth": s.number(0, 1, description="subdivide: smoothing of the new vertices (default 0)"),
    "angle": s.number(-3600, 3600, description="Degrees. tris_to_quads: face/shape threshold (default 40); dissolve_limited: angle limit (default 5); spin: sweep (default 360)"),
    "steps": s.integer(1, 512, description="spin: steps (default 12)"),
    "axis": VEC3,
    "center": VEC3,
    "distance": s.number(0.000001, 10, description="merge: merge selected vertices closer than this instead of collapsing them to their centre"),
    "plane_co": VEC3,
    "plane_no": VEC3,
    "clear_inner": s.boolean(description="bisect: delete what is behind the plane"),
    "clear_outer": s.boolean(description="bisect: delete what is in front of the plane"),
    "thickness": s.number(-100, 100, description="solidify: shell thickness (default 0.1)"),
    "factor": s.number(0, 1, description="smooth_vertices: strength (default 0.5)"),
    "iterations": s.integer(1, 100, description="smooth_vertices: repeats (default 1)"),
    "seed": s.integer(0, 2**31 - 1, description="randomize: seed (default 0)"),
})


def _select(bm, selection, want):
    """Elements of kind `want` (verts, edges, faces) from the selection."""
    kind = selection.get("kind", "all")
    seqs = {"verts": bm.verts, "edges": bm.edges, "faces": bm.faces}
    if kind == "all":
        return list(seqs[want])
    if "indices" not in selection:
        raise refuse("selection kind %s needs indices" % kind)
    seq = seqs[kind]
    seq.ensure_lookup_table()
    bad = [i for i in selection["indices"] if i >= len(seq)]
    if bad:
        raise refuse("%s index %d is out of range (the mesh has %d)" % (kind, bad[0], len(seq)))
    picked = [seq[i] for i in dict.fromkeys(selection["indices"])]
    if kind == want:
        return picked
    if want == "verts":
        return list({v: None for e in picked for v in e.verts})
    chosen = set(picked)
    if want == "edges":
        if kind == "verts":
            return [e for e in bm.edges if all(v in chosen for v in e.verts)]
        return list({e: None for f in picked for e in f.edges})
    # want faces
    if kind == "verts":
        return [f for f in bm.faces if all(v in chosen for v in f.verts)]
    return [f for f in bm.faces if all(e in chosen for e in f.edges)]


def _need(items, what, op):
    if not items:
        raise refuse("%s found no %s in the selection" % (op, what))
    return items


def _run(bm, op, sel, p):
    ops = bmesh.ops
    kind = sel.get("kind", "all")
    if op == "extrude":
        offset = p.get("offset", 1.0)
        if kind in ("all", "faces"):
            faces = _need(_select(bm, sel, "faces"), "faces", op)
            normal = sum((f.normal for f in faces), Vector())
            closed = "direction" not in p and normal.length < 1e-6
            old_verts = {v for f in faces for v in f.verts}
            geom = ops.extrude_face_region(bm, geom=faces)["geom"]
            ops.delete(bm, geom=faces, context="FACES_ONLY")
            new_verts = [g for g in geom if isinstance(g, bmesh.types.BMVert)]
            if closed:
                # A closed region (its normals cancel: a whole cube) has no one direction;
                # like Blender's extrude there, each vertex moves out along its own normal
                # (shrink/fatten), and the old shell, left without faces, goes.
                ops.delete(bm, geom=[v for v in old_verts if v.is_valid and not v.link_faces], context="VERTS")
                bm.normal_update()
                for v in new_verts:
                    v.co += v.normal * offset
            else:
                move = Vector(p["direction"]) if "direction" in p else normal.normalized() * offset
                ops.translate(bm, verts=new_verts, vec=move)
        else:
            move = Vector(p.get("direction", (0.0, 0.0, offset)))
            if kind == "edges":
                geom = ops.extrude_edge_only(bm, edges=_need(_select(bm, sel, "edges"), "edges", op))["geom"]
                ops.translate(bm, verts=[g for g in geom if isinstance(g, bmesh.types.BMVert)], vec=move)
            else:
                verts = ops.extrude_vert_indiv(bm, verts=_need(_select(bm, sel, "verts"), "vertices", op))["verts"]
                ops.translate(bm, verts=verts, vec=move)
    elif op == "inset":
        faces = _need(_select(bm, sel, "faces"), "faces", op)
        fn = ops.inset_individual if p.get("individual") else ops.inset_region
        fn(bm, faces=faces, thickness=p.get("width", 0.1), depth=p.get("depth", 0.0), use_even_offset=True)
    elif op == "bevel":
        vonly = p.get("vertex_only", False)
        geom = _need(_select(bm, sel, "verts" if vonly else "edges"), "elements", op)
        ops.bevel(bm, geom=geom, offset=p.get("width", 0.1), offset_type="OFFSET", segments=p.get("segments", 1),
                  profile=p.get("profile", 0.5), affect="VERTICES" if vonly else "EDGES", clamp_overlap=True)
    elif op == "subdivide":
        edges = _need(_select(bm, sel, "edges"), "edges", op)
        cuts = p.get("cuts", 1)
        if len(bm.faces) * (cuts + 1) ** 2 > MAX_RESULT_FACES:
            raise limit("subdividing %d faces with %d cuts would pass %d faces" % (len(bm.faces), cuts, MAX_RESULT_FACES))
        ops.subdivide_edges(bm, edges=edges, cuts=cuts, smooth=p.get("smooth", 0.0), use_grid_fill=True)
    elif op == "triangulate":
        ops.triangulate(bm, faces=_need(_select(bm, sel, "faces"), "faces", op), quad_method="BEAUTY", ngon_method="BEAUTY")
    elif op == "tris_to_quads":
        a = math.radians(p.get("angle", 40.0))
        ops.join_triangles(bm, faces=_need(_select(bm, sel, "faces"), "faces", op), angle_face_threshold=a, angle_shape_threshold=a)
    elif op == "merge":
        verts = _need(_select(bm, sel, "verts"), "vertices", op)
        if "distance" in p:
            ops.remove_doubles(bm, verts=verts, dist=p["distance"])
        else:
            center = sum((v.co for v in verts), Vector()) / len(verts)
            ops.pointmerge(bm, verts=verts, merge_co=center)
    elif op == "dissolve_limited":
        edges = _need(_select(bm, sel, "edges"), "edges", op)
        verts = list({v: None for e in edges for v in e.verts})
        ops.dissolve_limit(bm, angle_limit=math.radians(p.get("angle", 5.0)), verts=verts, edges=edges)
    elif op == "delete":
        want = {"all": "verts", "verts": "verts", "edges": "edges", "faces": "faces"}[kind]
        geom = _need(_select(bm, sel, want), want, op)
        ops.delete(bm, geom=geom, context={"verts": "VERTS", "edges": "EDGES", "faces": "FACES"}[want])
    elif op == "flip_normals":
        ops.reverse_faces(bm, faces=_need(_select(bm, sel, "faces"), "faces", op))
    elif op == "recalc_normals":
        ops.recalc_face_normals(bm, faces=_need(_select(bm, sel, "faces"), "faces", op))
    elif op == "poke":
        ops.poke(bm, faces=_need(_select(bm, sel, "faces"), "faces", op), offset=p.get("offset", 0.0))
    elif op == "bisect":
        if kind != "all":
            raise refuse("bisect cuts the whole mesh; its selection is all")
        no = Vector(p.get("plane_no", (0.0, 0.0, 1.0)))
        if no.length < 1e-9:
            raise refuse("plane_no must not be zero")
        geom = list(bm.verts) + list(bm.edges) + list(bm.faces)
        ops.bisect_plane(bm, geom=geom, dist=1e-6, plane_co=p.get("plane_co", (0.0, 0.0, 0.0)), plane_no=no.normalized(),
                         clear_inner=p.get("clear_inner", False), clear_outer=p.get("clear_outer", False))
    elif op == "spin":
        steps, angle = p.get("steps", 12), math.radians(p.get("angle", 360.0))
        axis = Vector(p.get("axis", (0.0, 0.0, 1.0)))
        if axis.length < 1e-9:
            raise refuse("axis must not be zero")
        verts = _need(_select(bm, sel, "verts"), "vertices", op)
        if len(verts) * (steps + 1) > MAX_VERTICES:
            raise limit("spinning %d vertices %d steps would pass %d vertices" % (len(verts), steps, MAX_VERTICES))
        vs = set(verts)
        geom = verts + [e for e in bm.edges if all(v in vs for v in e.verts)] + [f for f in bm.faces if all(v in vs for v in f.verts)]
        full = abs(abs(angle) - 2 * math.pi) < 1e-6
        ops.spin(bm, geom=geom, cent=p.get("center", (0.0, 0.0, 0.0)), axis=axis.normalized(), angle=angle, steps=steps,
                 use_merge=full, use_duplicate=False)
    elif op == "solidify":
        ops.solidify(bm, geom=_need(_select(bm, sel, "faces"), "faces", op), thickness=p.get("thickness", 0.1))
    elif op == "smooth_vertices":
        verts = _need(_select(bm, sel, "verts"), "vertices", op)
        for _ in range(p.get("iterations", 1)):
            ops.smooth_vert(bm, verts=verts, factor=p.get("factor", 0.5), use_axis_x=True, use_axis_y=True, use_axis_z=True)
    elif op == "randomize":
        rng = random.Random(p.get("seed", 0))
        amp = p.get("offset", 0.1)
        for v in _need(_select(bm, sel, "verts"), "vertices", op):
            v.co += Vector((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))) * amp


@command(
    effect="destroy",
    summary="Run one bmesh topology operation (extrude, inset, bevel, subdivide, merge, delete, bisect, spin, ...) on a mesh's selected elements.",
    params=s.obj({
        "object": OBJECT,
        "op": s.enum(tuple(OPS)),
        "selection": s.obj({
            "kind": s.enum(("all", "verts", "edges", "faces"), description="What indices name (default all)"),
            "indices": s.array(s.integer(0), 1, 100000),
        }),
        "params": PARAMS,
    }, required=("object", "op")),
    result=s.obj({"object": s.string(), "op": s.string(), "before": COUNTS, "after": COUNTS},
                 required=("object", "op", "before", "after")),
    errors=("not_found", "invalid_target", "invalid_params", "limit_exceeded"),
    timeout_s=60,
)
def mesh_op(ctx, params):
    obj = get_mesh_object(params["object"])
    op = params["op"]
    p = params.get("params", {})
    extra = sorted(set(p) - set(OPS[op][1]))
    if extra:
        raise refuse("%s does not take %s; it takes %s" % (op, ", ".join(extra), ", ".join(OPS[op][1]) or "no params"))
    sel = params.get("selection", {})
    if sel.get("kind", "all") == "all" and "indices" in sel:
        raise refuse("indices need a selection kind (verts, edges or faces)")
    if len(obj.data.vertices) > MAX_VERTICES:
        raise limit("%s has more than %d vertices" % (obj.name, MAX_VERTICES))
    before = mesh_counts(obj.data)
    bm = bmesh.new()
    try:
        bm.from_mesh(obj.data)
        _run(bm, op, sel, p)
        bm.normal_update()
        ctx.delta.touch(obj)
        bm.to_mesh(obj.data)
    finally:
        bm.free()
    obj.data.update()
    refresh()
    return {"object": obj.name, "op": op, "before": before, "after": mesh_counts(obj.data)}
