"""Lights."""

import bpy

from .common import link, place, rounded


def create_light(ctx, params):
    kind = params["type"].upper()
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
    obj = bpy.data.objects.new(name, data)
    link(obj)
    place(obj, params)
    return {
        "name": obj.name,
        "type": kind,
        "location": rounded(obj.location),
        "rotation": rounded(obj.rotation_euler),
        "energy": round(data.energy, 5),
    }
