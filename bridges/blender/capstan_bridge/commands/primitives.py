"""Primitive meshes built with bmesh and the data API, never `bpy.ops.mesh.primitive_*`.

Blender's add operators walk the view layer on every call, so their cost grows with
the scene (258 ms beside 2,000 objects, against 0.03 ms for the data API). These
builders make the same shapes as the operators (same vertex and face counts, same
dimensions for the same size, a `UVMap` layer) into a new mesh datablock. They take
the operators' parameters (vertices, segments, rings, radii, depth, fill type, ...), with
the defaults read from the running Blender's operator RNA, never copied here.
"""

import math

import bmesh
import bpy
from mathutils import Matrix

from ..errors import CommandError

# One call must not make Blender allocate without bound (it runs under a hard
# address-space limit and would die with the session's unsaved scene); the packs check
# the same budget before they call.
MAX_VERTICES = 2_000_000

# Which operator gives each kind its parameters and their defaults, and which of the
# operator's properties each kind takes (under the name capstan uses for it).
OPERATORS = {
    "cube": ("primitive_cube_add", {}),
    "uv_sphere": ("primitive_uv_sphere_add", {"segments": "segments", "rings": "ring_count", "radius": "radius"}),
    "ico_sphere": ("primitive_ico_sphere_add", {"subdivisions": "subdivisions", "radius": "radius"}),
    "cylinder": ("primitive_cylinder_add", {"vertices": "vertices", "radius": "radius", "depth": "depth", "fill_type": "end_fill_type"}),
    "cone": ("primitive_cone_add", {"vertices": "vertices", "radius1": "radius1", "radius2": "radius2", "depth": "depth",
                                    "fill_type": "end_fill_type"}),
    "torus": ("primitive_torus_add", {"major_segments": "major_segments", "minor_segments": "minor_segments",
                                      "major_radius": "major_radius", "minor_radius": "minor_radius"}),
    "plane": ("primitive_plane_add", {}),
    "circle": ("primitive_circle_add", {"vertices": "vertices", "radius": "radius", "fill_type": "fill_type"}),
    "grid": ("primitive_grid_add", {"x_subdivisions": "x_subdivisions", "y_subdivisions": "y_subdivisions"}),
    "monkey": ("primitive_monkey_add", {}),
}
PARAMETERS = ("vertices", "segments", "rings", "subdivisions", "x_subdivisions", "y_subdivisions", "radius", "radius1",
              "radius2", "depth", "major_radius", "minor_radius", "major_segments", "minor_segments", "fill_type")
_defaults = {}


def operator_defaults(kind):
    """The defaults of the add operator for `kind`, read from the running Blender's RNA
    (reading the RNA runs nothing), under capstan's parameter names."""
    if kind not in _defaults:
        op, names = OPERATORS[kind]
        props = getattr(bpy.ops.mesh, op).get_rna_type().properties
        _defaults[kind] = {ours: props[theirs].default for ours, theirs in names.items()}
    return _defaults[kind]


def applies_to(parameter):
    """The kinds that take `parameter`."""
    return [kind for kind, (_, names) in OPERATORS.items() if parameter in names]


def settings(kind, size, given):
    """The parameters for `kind`: Blender's defaults, scaled to `size` when one is given
    (size is the overall size: a cube's edge, a round thing's diameter), then the ones given."""
    out = dict(operator_defaults(kind))
    if size is not None:
        r = size / 2.0
        for key in ("radius", "radius1"):
            if key in out:
                out[key] = r
        if "depth" in out:
            out["depth"] = size
        if kind == "torus":  # keep Blender's 4:1 ratio and fit the outer diameter
            out["major_radius"], out["minor_radius"] = r / 1.25, r / 5.0
    out.update(given)
    return out


def _build(name, fill):
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    try:
        uv = bm.loops.layers.uv.new("UVMap")
        fill(bm, uv)
        bm.to_mesh(mesh)
    finally:
        bm.free()
    return mesh


def _torus(bm, uv, major, minor, major_segments, minor_segments):
    rings = []
    for i in range(major_segments):
        a = 2 * math.pi * i / major_segments
        ring = []
        for j in range(minor_segments):
            b = 2 * math.pi * j / minor_segments
            r = major + minor * math.cos(b)
            ring.append(bm.verts.new((r * math.cos(a), r * math.sin(a), minor * math.sin(b))))
        rings.append(ring)
    for i in range(major_segments):
        for j in range(minor_segments):
            i2, j2 = (i + 1) % major_segments, (j + 1) % minor_segments
            face = bm.faces.new((rings[i][j], rings[i2][j], rings[i2][j2], rings[i][j2]))
            corners = ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1))
            for loop, (u, v) in zip(face.loops, corners):
                loop[uv].uv = (u / major_segments, v / minor_segments)


def _vertices(kind, p):
    """An upper bound of the vertices `kind` gets with parameters `p`."""
    if kind in ("cylinder", "cone"):
        return 2 * p["vertices"] + 2
    if kind == "circle":
        return p["vertices"] + 1
    if kind == "uv_sphere":
        return p["segments"] * p["rings"] + 2
    if kind == "ico_sphere":
        return 10 * 4 ** p["subdivisions"] + 2
    if kind == "grid":
        return (p["x_subdivisions"] + 1) * (p["y_subdivisions"] + 1)
    if kind == "torus":
        return p["major_segments"] * p["minor_segments"]
    return 0


def mesh(kind, size, name, given=None):
    """A new mesh datablock of primitive `kind`: overall size `size` (metres; None: the
    operator's default), with the operator parameters in `given` (see `settings`)."""
    size_or_default = 2.0 if size is None else size
    r = size_or_default / 2.0
    p = settings(kind, size, given or {})
    if _vertices(kind, p) > MAX_VERTICES:
        raise CommandError("invalid_params", "these parameters make more than %d vertices" % MAX_VERTICES)
    ops = bmesh.ops
    caps = {"cap_ends": p.get("fill_type", "NOTHING") != "NOTHING", "cap_tris": p.get("fill_type") == "TRIFAN"}
    fills = {
        "cube": lambda bm, uv: ops.create_cube(bm, size=size_or_default, calc_uvs=True),
        "uv_sphere": lambda bm, uv: ops.create_uvsphere(bm, u_segments=p["segments"], v_segments=p["rings"], radius=p["radius"], calc_uvs=True),
        "ico_sphere": lambda bm, uv: ops.create_icosphere(bm, subdivisions=p["subdivisions"], radius=p["radius"], calc_uvs=True),
        "cylinder": lambda bm, uv: ops.create_cone(bm, segments=p["vertices"], radius1=p["radius"], radius2=p["radius"], depth=p["depth"],
                                                   calc_uvs=True, **caps),
        "cone": lambda bm, uv: ops.create_cone(bm, segments=p["vertices"], radius1=p["radius1"], radius2=p["radius2"], depth=p["depth"],
                                               calc_uvs=True, **caps),
        "plane": lambda bm, uv: ops.create_grid(bm, x_segments=1, y_segments=1, size=r, calc_uvs=True),
        "grid": lambda bm, uv: ops.create_grid(bm, x_segments=p["x_subdivisions"], y_segments=p["y_subdivisions"], size=r, calc_uvs=True),
        "circle": lambda bm, uv: ops.create_circle(bm, segments=p["vertices"], radius=p["radius"], **caps),
        "monkey": lambda bm, uv: ops.create_monkey(bm, matrix=Matrix.Scale(r, 4), calc_uvs=True),
        "torus": lambda bm, uv: _torus(bm, uv, p["major_radius"], p["minor_radius"], p["major_segments"], p["minor_segments"]),
    }
    return _build(name, fills[kind])


KINDS = ("cube", "uv_sphere", "ico_sphere", "cylinder", "cone", "torus", "plane", "circle", "grid", "monkey")
