"""Reading the document: its objects, and one object in detail."""

from ..core import schema as s
from ..command import command
from .. import document
from .common import vec
from .measure import MEASURED, measured

LISTED = s.obj({"name": s.string(), "label": s.string(), "type": s.string(), "visible": s.boolean(),
                "has_shape": s.boolean()}, required=("name", "label", "type", "visible", "has_shape"))


def _listed(obj):
    return {"name": obj.Name, "label": obj.Label, "type": obj.TypeId,
            "visible": bool(getattr(obj, "Visibility", True)), "has_shape": document.has_shape(obj)}


@command(
    effect="read",
    summary="List the document's objects: name, label, FreeCAD type, visibility, whether it has a shape.",
    params=s.obj({}),
    result=s.obj({"document": s.string(), "objects": s.array(LISTED)}, required=("document", "objects")),
)
def list_objects(ctx, params):
    doc = document.current()
    return {"document": doc.Name, "objects": [_listed(o) for o in doc.Objects]}


@command(
    effect="read",
    summary="Describe one object: type, label, placement, what it is built from and what uses it, and its measurements when it has a shape.",
    params=s.obj({"name": s.ref("object_name")}, required=("name",)),
    result=s.obj(dict(LISTED["properties"], **{
        "position": s.ref("vec3"),
        "rotation": dict(s.ref("vec3"), description="[x, y, z] degrees (roll, pitch, yaw)"),
        "inputs": s.array(s.string()), "used_by": s.array(s.string()),
        "measure": s.nullable(MEASURED),
    }), required=("name", "label", "type", "visible", "has_shape", "position", "rotation", "inputs", "used_by", "measure")),
    errors=("not_found",),
)
def object_info(ctx, params):
    obj = document.get(params["name"])
    out = _listed(obj)
    placement = getattr(obj, "Placement", None)
    if placement is not None:
        yaw, pitch, roll = placement.Rotation.toEuler()
        out["position"], out["rotation"] = vec(placement.Base), [roll, pitch, yaw]
    else:
        out["position"], out["rotation"] = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    out["inputs"] = sorted(o.Name for o in obj.OutList)
    out["used_by"] = sorted(o.Name for o in obj.InList)
    out["measure"] = measured(obj) if document.has_shape(obj) else None
    return out
