"""Parametric primitives: box, cylinder, sphere, cone, torus (Part workbench features,
dimensions in millimetres)."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .. import document
from .common import PLACEMENT, POSITIVE_MM, placement

# kind -> (FreeCAD type, {param: FreeCAD property})
KINDS = {
    "box": ("Part::Box", {"length": "Length", "width": "Width", "height": "Height"}),
    "cylinder": ("Part::Cylinder", {"radius": "Radius", "height": "Height"}),
    "sphere": ("Part::Sphere", {"radius": "Radius"}),
    "cone": ("Part::Cone", {"radius": "Radius1", "top_radius": "Radius2", "height": "Height"}),
    "torus": ("Part::Torus", {"radius": "Radius1", "tube_radius": "Radius2"}),
}
# Dimensions that may be left out, with the value they then take.
OPTIONAL = {"top_radius": 0.0}


def _params():
    schema = s.obj(dict({
        "kind": s.enum(sorted(KINDS)),
        "name": s.ref("object_name"),
        "length": dict(POSITIVE_MM, description="box: along X, mm"),
        "width": dict(POSITIVE_MM, description="box: along Y, mm"),
        "height": dict(POSITIVE_MM, description="box, cylinder, cone: along Z, mm"),
        "radius": dict(POSITIVE_MM, description="cylinder, sphere: radius; cone: base radius; torus: major radius (mm)"),
        "top_radius": s.number(minimum=0, maximum=1e6, description="cone: top radius, mm (default 0: a point)"),
        "tube_radius": dict(POSITIVE_MM, description="torus: minor radius, mm"),
    }, **PLACEMENT), required=("kind",))
    return s.needs_by_value(schema, "kind", {kind: tuple(p for p in props if p not in OPTIONAL) for kind, (_, props) in KINDS.items()})


@command(
    effect="mutate",
    summary="Create a parametric solid (box, cylinder, sphere, cone, torus) with dimensions in mm, optionally placed and rotated.",
    params=_params(),
    result=s.obj({"name": s.string(), "kind": s.string(), "volume": s.number()}, required=("name", "kind", "volume")),
    errors=("invalid_params", "operation_failed"),
)
def create_primitive(ctx, params):
    kind = params["kind"]
    type_id, props = KINDS[kind]
    extra = sorted(p for p in ("length", "width", "height", "radius", "top_radius", "tube_radius") if p in params and p not in props)
    if extra:
        raise CommandError("invalid_params", "a %s has no %s" % (kind, ", ".join(extra)))
    if kind == "torus" and params["tube_radius"] >= params["radius"]:
        raise CommandError("invalid_params", "a torus's tube_radius must be below its radius")
    params = dict(OPTIONAL, **params) if kind == "cone" else params
    if kind == "cone" and params["top_radius"] == params["radius"]:
        raise CommandError("invalid_params", "a cone's top_radius must differ from its radius (that is a cylinder)")
    doc = document.current()
    obj = doc.addObject(type_id, params.get("name", kind.capitalize()))
    if "name" in params:
        obj.Label = params["name"]
    for param, prop in props.items():
        setattr(obj, prop, float(params[param]))
    where = placement(params)
    if where is not None:
        obj.Placement = where
    document.recompute_or_fail(doc, [obj], "the %s" % kind)
    return {"name": obj.Name, "kind": kind, "volume": obj.Shape.Volume}
