"""Schemas and helpers the FreeCAD command modules share (no commands here)."""

from ..core import schema as s

MM = "millimetres"
POSITIVE_MM = s.number(exclusive_minimum=0, maximum=1e6, description="A length in millimetres, above 0")
NAMES = s.array(s.ref("object_name"), min_items=1, max_items=256)
PLACEMENT = {
    "position": s.ref("vec3"),
    "rotation": dict(s.vector(3), description="[x, y, z] in degrees: FreeCAD's yaw (about Z), pitch (about Y) and roll (about X) are z, y, x"),
}
BOUNDS = s.obj({"min": s.ref("vec3"), "max": s.ref("vec3"), "size": s.ref("vec3")}, required=("min", "max", "size"))


def placement(params):
    """A FreeCAD Placement from `position` (mm) and `rotation` (degrees), or None."""
    if "position" not in params and "rotation" not in params:
        return None
    import FreeCAD

    x, y, z = params.get("position", [0.0, 0.0, 0.0])
    rx, ry, rz = params.get("rotation", [0.0, 0.0, 0.0])
    return FreeCAD.Placement(FreeCAD.Vector(x, y, z), FreeCAD.Rotation(rz, ry, rx))


def vec(v):
    return [float(v.x), float(v.y), float(v.z)]


def bounds(box):
    return {"min": [box.XMin, box.YMin, box.ZMin], "max": [box.XMax, box.YMax, box.ZMax],
            "size": [box.XLength, box.YLength, box.ZLength]}
