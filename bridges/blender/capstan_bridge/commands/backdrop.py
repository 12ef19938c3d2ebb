"""Product backdrops: a shadow-catcher plane, a cyclorama sweep (floor curving up into a
wall, no horizon line) or a plinth box under the product. The backdrop is owned
(`capstan_role` = product_backdrop): a later call rebuilds that same object's mesh in
place (the generated mesh it replaces is dropped), so backdrops never pile up."""

import math

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from .common import get_object, link, rounded, scene
from .materials import _principled, _socket

STYLES = ("shadow_catcher", "cyclorama", "plinth")
ROLE = "product_backdrop"
NAME = "Product Backdrop"
SWEEP_STEPS = 12


def _bounds(objects):
    corners = [o.matrix_world @ Vector(c) for o in objects for c in o.bound_box]
    if not corners:
        return Vector((0, 0, 0)), 1.0, 0.0
    lo = Vector(tuple(min(c[i] for c in corners) for i in range(3)))
    hi = Vector(tuple(max(c[i] for c in corners) for i in range(3)))
    return (lo + hi) / 2, max((hi - lo).length / 2, 0.5), lo.z


def _geometry(style, size):
    h = size / 2
    if style == "shadow_catcher":
        return [(-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0)], [(0, 1, 2, 3)]
    if style == "plinth":
        t = size / 5  # top face at z=0, so the product stands on it
        v = [(x, y, z) for z in (-t, 0) for (x, y) in ((-h, -h), (h, -h), (h, h), (-h, h))]
        return v, [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
    r = size / 4  # cyclorama profile in y/z: floor, quarter circle, wall; swept along x
    profile = [(-h, 0.0)] + [(h - r + r * math.sin(a), r - r * math.cos(a))
                             for a in (i * (math.pi / 2) / SWEEP_STEPS for i in range(SWEEP_STEPS + 1))] + [(h, h + r)]
    verts = [(x, y, z) for (y, z) in profile for x in (-h, h)]
    faces = [(2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2) for i in range(len(profile) - 1)]
    return verts, faces


@command(
    effect="mutate",
    summary="An owned product backdrop under an object or all meshes: shadow-catcher plane, cyclorama sweep or plinth; rebuilt in place on a later call.",
    params=s.obj({
        "style": s.enum(STYLES),
        "under_object": s.ref("object_name"),
        "size": s.number(exclusive_minimum=0, maximum=1000, description="Edge length in metres (default 4x the products' radius)"),
        "color": s.ref("color3"),
    }, required=("style",)),
    result=s.obj({
        "name": s.string(), "style": s.enum(STYLES), "created": s.boolean(), "size": s.number(), "floor": s.number(),
        "location": s.ref("vec3"), "vertices": s.integer(0), "faces": s.integer(0), "shadow_catcher": s.boolean(),
        "material": s.nullable(s.string()),
    }, required=("name", "style", "created", "size", "floor", "location", "vertices", "faces", "shadow_catcher", "material")),
    errors=("not_found",),
)
def product_backdrop(ctx, params):
    sc = scene()
    style = params["style"]
    if "under_object" in params:
        products = [get_object(params["under_object"])]
    else:
        products = [o for o in sc.objects if o.type == "MESH" and o.visible_get()
                    and o.get("capstan_role") not in (ROLE, "product_shadow_catcher")]
    center, radius, floor = _bounds(products)
    size = params.get("size", round(radius * 4, 4))
    verts, faces = _geometry(style, size)
    mesh = bpy.data.meshes.new(NAME)
    mesh.from_pydata(verts, [], faces)
    mesh.validate()
    for p in mesh.polygons:
        p.use_smooth = style == "cyclorama"
    obj = next((o for o in bpy.data.objects if o.get("capstan_role") == ROLE), None)
    created = obj is None
    if created:
        obj = bpy.data.objects.new(NAME, mesh)
        link(obj)
        ctx.delta.created(obj)
        obj["capstan_role"] = ROLE
    else:
        ctx.delta.touch(obj)
        old = obj.data
        obj.data = mesh
        if old is not None and old.users == 0:
            bpy.data.meshes.remove(old)  # the generated mesh this backdrop replaces
    obj["capstan_call"] = "product.backdrop:" + style
    obj.location = (center.x, center.y, floor)
    obj.is_shadow_catcher = style == "shadow_catcher"
    material = None
    if style != "shadow_catcher":
        mat = bpy.data.materials.get(NAME)
        if mat is None:
            mat = ctx.delta.created_datablock("materials", bpy.data.materials.new(NAME))
        else:
            ctx.delta.touch_datablock("materials", mat)
        color = list(params.get("color", [0.8, 0.8, 0.8]))[:3] + [1.0]
        node = _principled(mat)
        _socket(node, "Base Color").default_value = color
        _socket(node, "Roughness").default_value = 0.8
        mat.diffuse_color = color
        mesh.materials.append(mat)
        material = mat.name
    return {"name": obj.name, "style": style, "created": created, "size": round(size, 5), "floor": round(floor, 5),
            "location": rounded(obj.location), "vertices": len(mesh.vertices), "faces": len(mesh.polygons),
            "shadow_catcher": obj.is_shadow_catcher, "material": material}
