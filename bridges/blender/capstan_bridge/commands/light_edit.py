"""Editing an existing light: type, energy, colour, size, spot cone, shadows. Radians."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from .common import OBJECT, get_object, rounded

LIGHT_TYPES = ("POINT", "SUN", "SPOT", "AREA")


def _size_attr(kind):
    return {"AREA": "size", "SUN": "angle"}.get(kind, "shadow_soft_size")


@command(
    effect="mutate",
    summary="Change an existing light: type, energy, colour, size (area edge, point/spot radius, sun angle in radians), spot cone and blend, shadows.",
    params=s.obj({
        "name": OBJECT,
        "type": s.enum(LIGHT_TYPES),
        "energy": s.number(0, 1_000_000, description="Watts (sun: irradiance in W/m2)"),
        "color": s.ref("color3"),
        "size": s.number(0, 1000),
        "spot_size": s.number(0.01745, 3.1416, description="Spot cone angle in radians"),
        "spot_blend": s.number(0, 1),
        "shadow": s.boolean(),
    }, required=("name",), min_properties=2),
    result=s.obj({
        "name": s.string(), "type": s.enum(LIGHT_TYPES), "energy": s.number(), "color": s.ref("vec3"), "size": s.number(),
        "spot_size": s.nullable(s.number()), "spot_blend": s.nullable(s.number()), "shadow": s.boolean(),
    }, required=("name", "type", "energy", "color", "size", "spot_size", "spot_blend", "shadow")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def set_light(ctx, params):
    obj = get_object(params["name"])
    if obj.type != "LIGHT":
        raise invalid_target("object %r is a %s, not a light" % (obj.name, obj.type))
    kind = params.get("type", obj.data.type)
    if ("spot_size" in params or "spot_blend" in params) and kind != "SPOT":
        raise CommandError("invalid_params", "spot_size and spot_blend are for SPOT lights; %r is %s" % (obj.name, kind))
    if kind == "SUN" and params.get("size", 0) > 3.1416:
        raise CommandError("invalid_params", "a sun's size is its angle in radians (0..pi)")
    ctx.delta.touch_data_users(obj)
    data = obj.data
    if kind != data.type:
        data.type = kind
        data = obj.data  # the RNA type of the data follows the light type
    if "energy" in params:
        data.energy = params["energy"]
    if "color" in params:
        data.color = params["color"][:3]
    if "size" in params:
        setattr(data, _size_attr(kind), params["size"])
    if "spot_size" in params:
        data.spot_size = params["spot_size"]
    if "spot_blend" in params:
        data.spot_blend = params["spot_blend"]
    if "shadow" in params:
        data.use_shadow = params["shadow"]
    spot = data.type == "SPOT"
    return {
        "name": obj.name, "type": data.type, "energy": round(data.energy, 5), "color": rounded(data.color),
        "size": round(getattr(data, _size_attr(data.type)), 5),
        "spot_size": round(data.spot_size, 5) if spot else None, "spot_blend": round(data.spot_blend, 5) if spot else None,
        "shadow": data.use_shadow,
    }
