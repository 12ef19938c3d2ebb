"""Geometry helpers of the forensic commands (no command is declared here): strips along
centrelines for roads and their markings, and box/wheel parts for proxies. Everything is
bmesh in object space; lengths are metres."""

import math

import bmesh
import bpy
from mathutils import Matrix, Vector

from .materials import _principled as principled

MARK_Z = 0.005          # markings sit just above the road surface (no z-fighting)
LINE_WIDTH = 0.15       # painted line width
EDGE_INSET = 0.3        # edge lines this far inside the road edge
DASH, GAP = 3.0, 6.0    # dashed lane divider: 3 m paint, 6 m gap


def path_length(path):
    return sum((b - a).length for a, b in zip(path, path[1:]))


def _point_at(path, s):
    """Point and unit tangent at arc length s along a polyline of 2D Vectors."""
    for a, b in zip(path, path[1:]):
        seg = (b - a).length
        if s <= seg or b is path[-1]:
            t = min(max(s / seg, 0.0), 1.0) if seg > 0 else 0.0
            return a.lerp(b, t), (b - a).normalized()
        s -= seg
    return path[-1], (path[-1] - path[-2]).normalized()


def _sub_path(path, s0, s1):
    """The polyline between arc lengths s0 and s1 (its inner vertices kept)."""
    pts, acc = [_point_at(path, s0)], 0.0
    for a, b in zip(path, path[1:]):
        acc += (b - a).length
        if s0 < acc < s1:
            pts.append((b, (b - a).normalized()))
    pts.append(_point_at(path, s1))
    return pts


def strip(bm, path, offset, width, z, s0=None, s1=None):
    """Quads of `width` centred `offset` to the left of the polyline (from s0 to s1)."""
    s0 = 0.0 if s0 is None else s0
    s1 = path_length(path) if s1 is None else s1
    rows = []
    for p, t in _sub_path(path, s0, s1):
        left = Vector((-t.y, t.x))
        c = p + left * offset
        rows.append((bm.verts.new((*(c - left * width / 2), z)), bm.verts.new((*(c + left * width / 2), z))))
    for (a0, a1), (b0, b1) in zip(rows, rows[1:]):
        bm.faces.new((a0, b0, b1, a1))


def dashes(bm, path, offset, z):
    """A dashed line along the path; returns the number of dashes."""
    total, s, n = path_length(path), GAP / 2, 0
    while s < total - 0.5:
        strip(bm, path, offset, LINE_WIDTH, z, s, min(s + DASH, total))
        s, n = s + DASH + GAP, n + 1
    return n


def lane_markings(bm, path, lanes, lane_width):
    """Edge lines, a solid centre line (two-way roads) and dashed lane dividers; returns
    the number of painted pieces."""
    half = lanes * lane_width / 2
    pieces = 0
    for side in (-1, 1):
        strip(bm, path, side * (half - EDGE_INSET), LINE_WIDTH, MARK_Z)
        pieces += 1
    for k in range(1, lanes):
        offset = -half + k * lane_width
        if lanes % 2 == 0 and k == lanes // 2:
            strip(bm, path, offset, LINE_WIDTH, MARK_Z)
            pieces += 1
        else:
            pieces += dashes(bm, path, offset, MARK_Z)
    return pieces


def arc(length, width, segments=32):
    """A 90-degree left bend of centreline length `length`, starting at the origin along +X."""
    radius = max(2 * length / math.pi, width)
    return [Vector((radius * math.sin(a), radius - radius * math.cos(a)))
            for a in (math.pi / 2 * i / segments for i in range(segments + 1))]


def arms(road_type, length, width):
    """Centrelines of a road: one path for straight and curve, a centre square plus arms
    (from the square's edge outwards) for junctions."""
    if road_type == "straight":
        return [[Vector((-length / 2, 0)), Vector((length / 2, 0))]]
    if road_type == "curve":
        return [arc(length, width)]
    arm = (length - width) / 2
    dirs = [Vector((1, 0)), Vector((-1, 0)), Vector((0, 1))] + ([Vector((0, -1))] if road_type == "intersection" else [])
    return [[d * (width / 2), d * (width / 2 + arm)] for d in dirs]


def box(bm, lo, hi):
    """An axis-aligned box from corner lo to corner hi; returns its faces."""
    size = Vector(hi) - Vector(lo)
    centre = (Vector(lo) + Vector(hi)) / 2
    m = Matrix.Translation(centre) @ Matrix.Diagonal((*size, 1.0))
    made = bmesh.ops.create_cube(bm, size=1.0, matrix=m)
    return list({f for v in made["verts"] for f in v.link_faces})


def wheel(bm, x, y, radius, thickness):
    """A 12-sided wheel with its axle along Y, touching z = 0."""
    m = Matrix.Translation((x, y, radius)) @ Matrix.Rotation(math.pi / 2, 4, "X")
    bmesh.ops.create_cone(bm, cap_ends=True, segments=12, radius1=radius, radius2=radius, depth=thickness, matrix=m)


def vehicle(bm, L, W, H):
    """Wheels, body and cabin inside [-L/2, L/2] x [-W/2, W/2] x [0, H]; front is +X.
    Returns the body's faces (those damage can mark)."""
    r = min(0.18 * H, 0.16 * L)
    for sx in (-1, 1):
        for sy in (-1, 1):
            wheel(bm, sx * (L / 2 - max(1.6 * r, 0.12 * L)), sy * (W / 2 - 0.06 * W), r, 0.12 * W)
    body = box(bm, (-L / 2, -W / 2 + 0.02 * W, r), (L / 2, W / 2 - 0.02 * W, 0.6 * H))
    box(bm, (-0.32 * L, -0.45 * W, 0.6 * H), (0.2 * L, 0.45 * W, H))
    return body


def two_wheeler(bm, L, W, H):
    """Two wheels, a frame and handlebars spanning the full width at the top."""
    r = min(0.36 * H, 0.22 * L)
    for sx in (-1, 1):
        wheel(bm, sx * (L / 2 - r), 0.0, r, min(0.12, 0.3 * W))
    body = box(bm, (-L / 2 + r, -0.15 * W, 0.9 * r), (L / 2 - r, 0.15 * W, 0.75 * H))
    box(bm, (L / 2 - 1.3 * r, -W / 2, 0.9 * H), (L / 2 - 1.1 * r, W / 2, H))
    return body


def figure(bm, D, W, H, pose):
    """Legs, torso and head of a person H tall facing +X (D deep, W shoulder-wide). A
    walking figure's legs are apart along X; a lying one is rotated onto its back."""
    hip, shoulder, neck = 0.47 * H, 0.82 * H, 0.87 * H
    leg_w = 0.38 * W
    stride = 0.2 * D if pose == "walking" else 0.0  # legs stay within the depth D
    for sy, sx in ((-1, 1), (1, -1)):
        box(bm, (sx * stride - 0.3 * D, sy * 0.05 * W - (leg_w if sy < 0 else 0), 0),
            (sx * stride + 0.3 * D, sy * 0.05 * W + (leg_w if sy > 0 else 0), hip))
    torso = box(bm, (-D / 2, -W / 2, hip), (D / 2, W / 2, shoulder))
    box(bm, (-0.35 * D, -0.18 * W, neck), (0.35 * D, 0.18 * W, H))
    box(bm, (-0.15 * D, -0.08 * W, shoulder), (0.15 * D, 0.08 * W, neck))
    if pose == "lying":  # on its back, head towards +X, resting on z = 0
        bmesh.ops.rotate(bm, verts=bm.verts, cent=(0, 0, 0), matrix=Matrix.Rotation(math.pi / 2, 3, "Y"))
        low = min(v.co.z for v in bm.verts)
        mid = (min(v.co.x for v in bm.verts) + max(v.co.x for v in bm.verts)) / 2
        for v in bm.verts:
            v.co.z -= low
            v.co.x -= mid
    return torso


def material(ctx, name, color, roughness=0.6, emission=0.0):
    """A new Principled material (Blender suffixes a taken name); alpha below 1 makes it
    see-through (blended in EEVEE, alpha in Cycles)."""
    mat = ctx.delta.created_datablock("materials", bpy.data.materials.new(name))
    bsdf = principled(mat)  # the node tree (use_nodes before Blender 5) with its Principled BSDF
    bsdf.inputs["Base Color"].default_value = (*color[:3], 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Alpha"].default_value = color[3]
    if emission:
        bsdf.inputs["Emission Color"].default_value = (*color[:3], 1.0)
        bsdf.inputs["Emission Strength"].default_value = emission
    mat.diffuse_color = color
    if color[3] < 1.0:
        if hasattr(mat, "surface_render_method"):
            mat.surface_render_method = "BLENDED"
        else:
            mat.blend_method = "BLEND"
    return mat
