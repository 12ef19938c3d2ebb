"""Measuring solids: volume, area, bounds, centre of mass, validity."""

from ..core import schema as s
from ..command import command
from .. import document
from ..errors import invalid_target
from .common import BOUNDS, NAMES, bounds

MEASURED = s.obj({
    "name": s.string(), "label": s.string(),
    "volume_mm3": s.number(), "area_mm2": s.number(),
    "bounds_mm": BOUNDS,
    "center_of_mass": s.nullable(dict(s.vector(3), description="[x, y, z] mm; null when the shape has no solid")),
    "valid": s.boolean(), "solids": s.integer(0), "faces": s.integer(0), "edges": s.integer(0),
}, required=("name", "label", "volume_mm3", "area_mm2", "bounds_mm", "center_of_mass", "valid", "solids", "faces", "edges"))


def center_of_mass(shape):
    """The volume-weighted centre of the shape's solids (a compound has no
    CenterOfMass of its own)."""
    solids = [solid for solid in shape.Solids if solid.Volume > 0]
    total = sum(solid.Volume for solid in solids)
    if not total:
        return None
    return [sum(getattr(solid.CenterOfMass, axis) * solid.Volume for solid in solids) / total for axis in "xyz"]


def measured(obj):
    shape = obj.Shape
    return {
        "name": obj.Name, "label": obj.Label,
        "volume_mm3": shape.Volume, "area_mm2": shape.Area,
        "bounds_mm": bounds(shape.BoundBox),
        "center_of_mass": center_of_mass(shape),
        "valid": shape.isValid(), "solids": len(shape.Solids), "faces": len(shape.Faces), "edges": len(shape.Edges),
    }


@command(
    effect="read",
    summary="Measure objects (or every visible shape): volume in mm^3, area in mm^2, bounds, centre of mass, validity and solid count.",
    params=s.obj({"objects": dict(NAMES, description="Names to measure (default: every visible object with a shape)")}),
    result=s.obj({"objects": s.array(MEASURED), "total_volume_mm3": s.number(), "total_bounds_mm": s.nullable(BOUNDS)},
                 required=("objects", "total_volume_mm3", "total_bounds_mm")),
    errors=("not_found", "invalid_target"),
)
def measure(ctx, params):
    if "objects" in params:
        objects = [document.get(name) for name in params["objects"]]
        for obj in objects:
            if not document.has_shape(obj):
                raise invalid_target("%r has no shape" % obj.Name)
    else:
        objects = document.visible_shapes()
    out = [measured(obj) for obj in objects]
    total = None
    for obj in objects:
        box = obj.Shape.BoundBox
        if total is None:
            total = box
        else:
            total = total.united(box)
    return {"objects": out, "total_volume_mm3": sum(m["volume_mm3"] for m in out),
            "total_bounds_mm": bounds(total) if total is not None else None}



