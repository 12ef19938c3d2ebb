"""Lights."""

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .common import OBJECT, VEC3, claim_name, link, place, rounded


@command(
    effect="mutate",
    summary="Add a light; aim it at a point with look_at or set its rotation in radians.",
    params=s.obj({
        "type": s.enum(("point", "sun", "spot", "area")),
        "name": OBJECT,
        "location": VEC3,
        "rotation": VEC3,
        "look_at": VEC3,
        "energy": s.number(0, 1_000_000, description="Watts (sun: irradiance in W/m2)"),
        "color": s.ref("color3"),
        "size": s.number(0, 1000, description="Area edge, point/spot radius, or sun angle in radians"),
        "spot_size": s.number(0.01, 3.1416),
        "shape": s.enum(("SQUARE", "RECTANGLE", "DISK", "ELLIPSE"), description="area only"),
        "size_y": s.number(0, 1000, description="area of shape RECTANGLE or ELLIPSE only: Y edge in metres"),
    }, required=("type", "location")),
    result=s.obj({
        "name": s.string(), "type": s.string(), "location": VEC3, "rotation": VEC3, "energy": s.number(),
        "renamed_from": s.string(),
    }, required=("name", "type", "location", "rotation", "energy")),
    errors=("invalid_params",),
)
def create_light(ctx, params):
    kind = params["type"].upper()
    if ("shape" in params or "size_y" in params) and kind != "AREA":
        raise CommandError("invalid_params", "shape and size_y are for area lights")
    if "size_y" in params and params.get("shape") not in ("RECTANGLE", "ELLIPSE"):
        raise CommandError("invalid_params", "size_y needs shape RECTANGLE or ELLIPSE")
    name = params.get("name") or "%s Light" % params["type"].capitalize()
    data = bpy.data.lights.new(name, kind)
    if "energy" in params:
        data.energy = params["energy"]
    if "color" in params:
        data.color = params["color"][:3]
    if "size" in params:
        if kind == "AREA":
            data.size = params["size"]
        elif kind in ("POINT", "SPOT"):
            data.shadow_soft_size = params["size"]
        elif kind == "SUN":
            data.angle = params["size"]
    if kind == "SPOT" and "spot_size" in params:
        data.spot_size = params["spot_size"]
    if "shape" in params:
        data.shape = params["shape"]
    if "size_y" in params:
        data.size_y = params["size_y"]
    obj = bpy.data.objects.new(name, data)
    link(obj)
    ctx.delta.created(obj)
    out = claim_name(obj, params.get("name"), {})
    place(obj, params)
    out.update({
        "name": obj.name,
        "type": kind,
        "location": rounded(obj.location),
        "rotation": rounded(obj.rotation_euler),
        "energy": round(data.energy, 5),
    })
    return out
