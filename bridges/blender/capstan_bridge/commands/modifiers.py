"""Modifiers (non-destructive): adding one, its properties checked against the RNA."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from . import rna_props
from .common import OBJECT, get_object

# The modifier types capstan offers; others (file caches, physics, geometry nodes)
# have their own commands or none.
TYPES = ("SUBSURF", "BEVEL", "MIRROR", "ARRAY", "SOLIDIFY", "DECIMATE", "REMESH", "SHRINKWRAP", "SMOOTH",
         "SIMPLE_DEFORM", "DISPLACE", "WIREFRAME", "TRIANGULATE", "WELD", "SCREW", "SKIN", "LATTICE", "CURVE",
         "CAST", "WAVE", "BOOLEAN")

PROPERTY_VALUE = s.one_of(s.number(), s.boolean(), s.string(0, 256), s.array(s.any_value(), 1, 32),
                          description="A number, boolean, enum identifier or object name, or a list for array properties")


@command(
    effect="mutate",
    summary="Add a modifier to an object, with properties checked against Blender's RNA (an unknown property is an error).",
    params=s.obj({
        "object": OBJECT,
        "type": s.enum(TYPES),
        "name": s.string(1, 63),
        "properties": s.obj(additional=PROPERTY_VALUE, description="RNA identifier -> value, e.g. {\"levels\": 2}"),
    }, required=("object", "type")),
    result=s.obj({
        "object": s.string(), "modifier": s.string(), "type": s.string(), "index": s.integer(0),
        "properties": s.obj(additional=s.any_value()),
    }, required=("object", "modifier", "type", "index", "properties")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def add_modifier(ctx, params):
    obj = get_object(params["object"])
    kind = params["type"]
    ctx.delta.touch(obj)
    try:
        mod = obj.modifiers.new(params.get("name") or kind.title(), kind)
    except (TypeError, RuntimeError) as e:
        raise invalid_target("%s (%s) cannot take a %s modifier: %s" % (obj.name, obj.type, kind, e))
    if mod is None:
        raise invalid_target("%s (%s) cannot take a %s modifier" % (obj.name, obj.type, kind))
    try:
        applied = rna_props.apply(mod, params.get("properties", {}))
    except CommandError:
        obj.modifiers.remove(mod)
        raise
    return {"object": obj.name, "modifier": mod.name, "type": mod.type,
            "index": list(obj.modifiers).index(mod), "properties": applied}
