"""Creating geometry from data: curves from points, 3D text, meshes from vertices and
faces, and converting between curve/text and mesh. All data API; angles in degrees."""

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from ..errors import invalid_target
from .common import OBJECT, VEC3, get_object, rounded
from .modeling_util import COUNTS, NEW_OBJECT_NAME, ROTATION_DEG, SAFE_NAME, evaluated, mesh_counts, new_object, refresh, refuse

CURVE_TYPES = ("BEZIER", "NURBS", "POLY", "PATH", "CIRCLE")
MAX_POINTS = 4096
MAX_VERTICES = 65536
MAX_FACES = 65536
MAX_EDGES = 131072


def _curve_result(obj):
    curve = obj.data
    length = sum(sp.calc_length() for sp in curve.splines)
    return {"name": obj.name, "type": obj.type, "location": rounded(obj.location), "splines": len(curve.splines),
            "points": sum(len(sp.bezier_points) + len(sp.points) for sp in curve.splines),
            "length": round(length, 5), "cyclic": any(sp.use_cyclic_u for sp in curve.splines),
            "bevel_depth": round(curve.bevel_depth, 5), "extrude": round(curve.extrude, 5)}


CURVE_RESULT = s.obj({
    "name": s.string(), "type": s.string(), "location": VEC3, "splines": s.integer(0), "points": s.integer(0),
    "length": s.number(description="Evaluated spline length in metres"), "cyclic": s.boolean(),
    "bevel_depth": s.number(), "extrude": s.number(),
}, required=("name", "type", "location", "splines", "points", "length", "cyclic", "bevel_depth", "extrude"))


@command(
    effect="mutate",
    summary="Add a Bezier, NURBS, poly, path or circle curve through points (metres), optionally with a round tube bevel.",
    params=s.add_rule(s.obj({
        "curve_type": s.enum(CURVE_TYPES, description="Spline kind (default BEZIER); CIRCLE needs no points"),
        "points": s.array(VEC3, 2, MAX_POINTS, description="Control points [x, y, z] in the object's space"),
        "cyclic": s.boolean(description="Close the curve (default false; CIRCLE is always closed)"),
        "radius": s.number(exclusive_minimum=0, maximum=10000, description="CIRCLE radius in metres (default 1)"),
        "bevel_depth": s.number(0, 100, description="Tube radius in metres (default 0: a bare curve)"),
        "extrude": s.number(0, 100, description="Ribbon half-width in metres (default 0)"),
        "resolution": s.integer(1, 64, description="Segments per span (default 12)"),
        "name": NEW_OBJECT_NAME,
        "location": VEC3,
    }), {"anyOf": [{"required": ["points"]}, {"required": ["curve_type"], "properties": {"curve_type": {"const": "CIRCLE"}}}]}),
    result=CURVE_RESULT,
    errors=("invalid_params",),
)
def create_curve(ctx, params):
    kind = params.get("curve_type", "BEZIER")
    points = params.get("points")
    if kind == "CIRCLE":
        if points is not None:
            raise refuse("a CIRCLE curve takes a radius, not points")
    elif points is None:
        raise refuse("a %s curve needs at least 2 points" % kind)
    elif "radius" in params:
        raise refuse("radius is for CIRCLE curves only")
    name = params.get("name") or ("Circle" if kind == "CIRCLE" else "Curve")
    curve = bpy.data.curves.new(name, "CURVE")
    curve.dimensions = "3D"
    curve.resolution_u = params.get("resolution", 12)
    curve.bevel_depth = params.get("bevel_depth", 0.0)
    curve.extrude = params.get("extrude", 0.0)
    if kind == "CIRCLE":
        r = params.get("radius", 1.0)
        spline = curve.splines.new("BEZIER")
        spline.bezier_points.add(3)
        k = 0.5522847498 * r  # handle length of a cubic Bezier quarter circle
        for p, (x, y) in zip(spline.bezier_points, ((r, 0), (0, r), (-r, 0), (0, -r))):
            p.co = (x, y, 0)
            tangent = Vector((-y, x, 0)).normalized() * k
            p.handle_left_type = p.handle_right_type = "ALIGNED"
            p.handle_left = Vector(p.co) - tangent
            p.handle_right = Vector(p.co) + tangent
        spline.use_cyclic_u = True
    elif kind == "BEZIER":
        spline = curve.splines.new("BEZIER")
        spline.bezier_points.add(len(points) - 1)
        for p, co in zip(spline.bezier_points, points):
            p.co = co
            p.handle_left_type = p.handle_right_type = "AUTO"
        spline.use_cyclic_u = params.get("cyclic", False)
    else:
        spline = curve.splines.new("POLY" if kind == "POLY" else "NURBS")
        spline.points.add(len(points) - 1)
        for p, co in zip(spline.points, points):
            p.co = (co[0], co[1], co[2], 1.0)
        spline.use_cyclic_u = params.get("cyclic", False)
        if kind != "POLY":
            spline.order_u = min(4, len(points))
            spline.use_endpoint_u = not spline.use_cyclic_u
        if kind == "PATH":
            curve.use_path = True
    if curve.bevel_depth > 0:
        curve.fill_mode = "FULL"
    obj = new_object(name, curve, params)
    ctx.delta.created(obj)
    refresh()
    return _curve_result(obj)


@command(
    effect="mutate",
    summary="Add a 3D text object (Blender's built-in font); size and depths in metres, rotation in degrees.",
    params=s.obj({
        "text": s.string(1, 1024),
        "name": NEW_OBJECT_NAME,
        "location": VEC3,
        "rotation": ROTATION_DEG,
        "size": s.number(exclusive_minimum=0, maximum=1000, description="Letter height in metres (default 1)"),
        "extrude": s.number(0, 100, description="Depth of the letters in metres (default 0: flat)"),
        "bevel_depth": s.number(0, 10, description="Rounded edge in metres (default 0)"),
        "bevel_resolution": s.integer(0, 32, description="Segments of the rounded edge (Blender's default 4)"),
        "align_x": s.enum(("LEFT", "CENTER", "RIGHT", "JUSTIFY", "FLUSH")),
        "align_y": s.enum(("TOP", "TOP_BASELINE", "CENTER", "BOTTOM_BASELINE", "BOTTOM")),
    }, required=("text",)),
    result=s.obj({
        "name": s.string(), "type": s.string(), "text": s.string(), "location": VEC3, "dimensions": VEC3,
        "size": s.number(), "extrude": s.number(), "bevel_depth": s.number(), "bevel_resolution": s.integer(0),
        "align_x": s.string(), "align_y": s.string(),
    }, required=("name", "type", "text", "location", "dimensions", "size", "extrude", "align_x", "align_y")),
    errors=(),
)
def create_text(ctx, params):
    name = params.get("name") or "Text"
    data = bpy.data.curves.new(name, "FONT")
    data.body = params["text"]
    data.size = params.get("size", 1.0)
    data.extrude = params.get("extrude", 0.0)
    data.bevel_depth = params.get("bevel_depth", 0.0)
    if "bevel_resolution" in params:
        data.bevel_resolution = params["bevel_resolution"]
    data.align_x = params.get("align_x", "LEFT")
    data.align_y = params.get("align_y", "TOP_BASELINE")
    obj = new_object(name, data, params)
    ctx.delta.created(obj)
    evaluated(obj)  # the original's bounds and dimensions are those of the evaluated geometry
    return {"name": obj.name, "type": obj.type, "text": data.body, "location": rounded(obj.location),
            "dimensions": rounded(obj.dimensions), "size": round(data.size, 5), "extrude": round(data.extrude, 5),
            "bevel_depth": round(data.bevel_depth, 5), "bevel_resolution": data.bevel_resolution, "align_x": data.align_x, "align_y": data.align_y}


@command(
    effect="mutate",
    summary="Add a mesh object from explicit vertices (metres), edges and faces (vertex indices); checked and validated.",
    params=s.obj({
        "name": NEW_OBJECT_NAME,
        "vertices": s.array(VEC3, 1, MAX_VERTICES),
        "edges": s.array(s.array(s.integer(0), 2, 2), 0, MAX_EDGES, description="[a, b] vertex index pairs"),
        "faces": s.array(s.array(s.integer(0), 3, 256), 0, MAX_FACES, description="Vertex indices of each face, in winding order"),
        "location": VEC3,
        "smooth": s.boolean(description="Smooth shading (default false: flat)"),
    }, required=("name", "vertices")),
    result=s.obj({"name": s.string(), "type": s.string(), "location": VEC3, "mesh": COUNTS,
                  "repaired": s.boolean(description="Blender's validation fixed something (e.g. a duplicate edge)")},
                 required=("name", "type", "location", "mesh", "repaired")),
    errors=("invalid_params",),
)
def create_mesh(ctx, params):
    verts = params["vertices"]
    edges, faces = params.get("edges", []), params.get("faces", [])
    n = len(verts)
    for kind, items in (("edge", edges), ("face", faces)):
        for i, item in enumerate(items):
            bad = [v for v in item if v >= n]
            if bad:
                raise refuse("%s %d uses vertex %d; there are %d vertices" % (kind, i, bad[0], n))
            if len(set(item)) != len(item):
                raise refuse("%s %d repeats a vertex: %s" % (kind, i, item))
    mesh = bpy.data.meshes.new(params["name"])
    mesh.from_pydata(verts, edges, faces)
    repaired = bool(mesh.validate())
    if params.get("smooth"):
        mesh.shade_smooth()
    obj = new_object(params["name"], mesh, params)
    ctx.delta.created(obj)
    refresh()
    return {"name": obj.name, "type": obj.type, "location": rounded(obj.location), "mesh": mesh_counts(mesh), "repaired": repaired}


def _mesh_to_curve_data(mesh, name):
    """Poly splines along the mesh's edge chains (a chain ends where a vertex has
    other than two edges; a closed loop becomes a cyclic spline)."""
    links = {}
    for e in mesh.edges:
        a, b = e.vertices
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    used = set()
    chains = []

    def walk(start, nxt):
        chain = [start]
        prev, cur = start, nxt
        used.add(frozenset((start, nxt)))
        while True:
            chain.append(cur)
            if len(links[cur]) != 2 or cur == start:
                break
            step = [v for v in links[cur] if frozenset((cur, v)) not in used]
            if not step:
                break
            prev, cur = cur, step[0]
            used.add(frozenset((prev, cur)))
        return chain

    ends = [v for v, ns in links.items() if len(ns) != 2]
    for v in ends + sorted(links):
        for w in links[v]:
            if frozenset((v, w)) not in used:
                chains.append(walk(v, w))
    curve = bpy.data.curves.new(name, "CURVE")
    curve.dimensions = "3D"
    for chain in chains:
        cyclic = len(chain) > 2 and chain[0] == chain[-1]
        pts = chain[:-1] if cyclic else chain
        spline = curve.splines.new("POLY")
        spline.points.add(len(pts) - 1)
        for p, i in zip(spline.points, pts):
            co = mesh.vertices[i].co
            p.co = (co.x, co.y, co.z, 1.0)
        spline.use_cyclic_u = cyclic
    return curve


@command(
    effect="mutate",
    summary="Add a mesh converted from a curve, text, surface or metaball (modifiers applied), or a poly curve from a mesh's edges, in the source's place.",
    params=s.obj({
        "object": OBJECT,
        "target": s.enum(("MESH", "CURVE"), description="What to convert to (default MESH)"),
        "new_name": SAFE_NAME,
        "adopt_children": s.boolean(description="Move the source's children to the result, keeping where they are (default false)"),
    }, required=("object",)),
    result=s.obj({"name": s.string(), "type": s.string(), "source": s.string(), "adopted": s.array(s.string()),
                  "mesh": COUNTS, "splines": s.integer(0)},
                 required=("name", "type", "source", "adopted")),
    errors=("not_found", "invalid_target"),
)
def convert_object(ctx, params):
    """The source stays; replacing it (delete, then rename the result) is left to the
    caller, so that each step's delta says what it did."""
    obj = get_object(params["object"])
    target = params.get("target", "MESH")
    if target == "MESH" and obj.type not in ("CURVE", "FONT", "SURFACE", "META"):
        raise invalid_target("%s is a %s; only curves, text, surfaces and metaballs convert to a mesh" % (obj.name, obj.type))
    if target == "CURVE" and obj.type != "MESH":
        raise invalid_target("%s is a %s; only meshes convert to a curve here" % (obj.name, obj.type))
    if target == "CURVE" and not len(obj.data.edges):
        raise invalid_target("%s has no edges to turn into a curve" % obj.name)
    name = params.get("new_name") or obj.name + ("_mesh" if target == "MESH" else "_curve")
    if target == "MESH":
        depsgraph, ev = evaluated(obj)
        data = bpy.data.meshes.new_from_object(ev, preserve_all_data_layers=True, depsgraph=depsgraph)
    else:
        data = _mesh_to_curve_data(obj.data, name)
        for mat in obj.data.materials:
            data.materials.append(mat)
    data.name = obj.name if params.get("adopt_children") else name
    new = new_object(name, data, {}, list(obj.users_collection) or [bpy.context.scene.collection])
    new.parent, new.matrix_parent_inverse, new.matrix_basis = obj.parent, obj.matrix_parent_inverse.copy(), obj.matrix_basis.copy()
    ctx.delta.created(new)
    adopted = []
    if params.get("adopt_children"):
        # The result sits exactly where the source does, so the children keep their
        # parent inverse and local transform and stay put in the world.
        for child in list(obj.children):
            ctx.delta.touch(child)
            inverse = child.matrix_parent_inverse.copy()
            child.parent = new
            child.matrix_parent_inverse = inverse
            adopted.append(child.name)
    evaluated(new)  # so its bounds and dimensions read back right away
    out = {"name": new.name, "type": new.type, "source": obj.name, "adopted": adopted}
    if new.type == "MESH":
        out["mesh"] = mesh_counts(data)
    else:
        out["splines"] = len(data.splines)
    return out
