"""Exporting objects to STEP, STL or OBJ in the session output folder.

The file name is a plain name joined to the session output folder
(`core/paths.py`, `checked_output`); anything else is `path_refused`. Meshes (STL, OBJ)
are tessellated with a linear deflection (mm, the largest distance between the mesh and
the surface) and an angular deflection (degrees, the largest angle between neighbouring
facets), given or from a named preset.
"""

import math
import os

from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .. import document
from .common import NAMES

FORMATS = {"step": (".step", ".stp"), "stl": (".stl",), "obj": (".obj",)}
# preset -> (linear deflection mm, angular deflection degrees)
PRESETS = {"coarse": (1.0, 30.0), "normal": (0.1, 15.0), "fine": (0.01, 5.0)}

QUALITY = s.one_of(
    s.enum(sorted(PRESETS), description="coarse: 1 mm / 30 deg; normal: 0.1 mm / 15 deg; fine: 0.01 mm / 5 deg"),
    s.obj({
        "linear_deflection_mm": s.number(minimum=0.001, maximum=100),
        "angular_deflection_deg": s.number(minimum=0.5, maximum=90),
    }, required=("linear_deflection_mm", "angular_deflection_deg")),
    description="Tessellation of STL and OBJ (default normal); ignored for STEP",
)


def _objects(params):
    if "objects" not in params:
        objects = document.visible_shapes()
        if not objects:
            raise CommandError("not_found", "the document has no visible object with a shape")
        return objects
    objects = [document.get(name) for name in params["objects"]]
    for obj in objects:
        if not document.has_shape(obj):
            raise CommandError("invalid_target", "%r has no shape to export" % obj.Name)
    return objects


# The finest linear deflection, as a fraction of the exported shapes' bounding-box
# diagonal. Tessellation work and memory grow with size / deflection: a 1 m sphere at
# 0.001 mm (inside the schema's bounds) took 24 GB before the kernel killed FreeCAD, and
# under a memory limit the mesher gave up and wrote an empty file. 2e-5 of the diagonal
# is finer than the `fine` preset on any part up to half a metre, and keeps a metre-sized
# part at tens of thousands of triangles from the linear bound.
MIN_RELATIVE_DEFLECTION = 2e-5


def _deflections(quality, objects):
    """(linear mm, angular degrees) as asked, the linear one no finer than
    MIN_RELATIVE_DEFLECTION of the shapes' size (the answer reports what was used)."""
    linear, angular = PRESETS[quality] if isinstance(quality, str) else (quality["linear_deflection_mm"], quality["angular_deflection_deg"])
    diagonal = max((o.Shape.BoundBox.DiagonalLength for o in objects), default=0.0)
    return max(linear, diagonal * MIN_RELATIVE_DEFLECTION), angular


def _mesh(objects, linear, angular):
    """One mesh of the objects' shapes; each shape is copied first, because tessellating
    a shape stores the triangulation in it (and changes what its bounding box reads)."""
    import Mesh
    import MeshPart

    mesh = Mesh.Mesh()
    for obj in objects:
        mesh.addMesh(MeshPart.meshFromShape(Shape=obj.Shape.copy(), LinearDeflection=linear,
                                            AngularDeflection=math.radians(angular), Relative=False))
    return mesh


@command(
    effect="write",
    summary="Export objects (or every visible shape) to STEP, STL or OBJ in the session output folder; meshes with a tessellation quality.",
    params=s.obj({
        "file_name": s.string(1, 128, description="A plain file name; its extension must match the format"),
        "format": s.enum(sorted(FORMATS)),
        "objects": dict(NAMES, description="Names to export (default: every visible object with a shape)"),
        "quality": QUALITY,
    }, required=("file_name", "format")),
    result=s.obj({"path": s.string(), "format": s.string(), "bytes": s.integer(0), "objects": s.array(s.string()),
                  "triangles": dict(s.integer(0), description="STL and OBJ: the mesh's triangle count"),
                  "linear_deflection_mm": s.number(), "angular_deflection_deg": s.number()},
                 required=("path", "format", "bytes", "objects")),
    errors=("path_refused", "not_found", "invalid_target", "invalid_params", "operation_failed"),
    timeout_s=120,
)
def export_cad(ctx, params):
    fmt = params["format"]
    name = params["file_name"]
    if not name.lower().endswith(FORMATS[fmt]):
        raise CommandError("invalid_params", "%r does not end in %s" % (name, " or ".join(FORMATS[fmt])))
    path = paths.checked_output(ctx.output_dir, name)
    objects = _objects(params)
    out = {"format": fmt, "objects": [o.Name for o in objects]}
    if fmt == "step":
        import Import

        Import.export(objects, path)
    else:
        linear, angular = _deflections(params.get("quality", "normal"), objects)
        mesh = _mesh(objects, linear, angular)
        if mesh.CountFacets == 0:
            # The mesher gives up quietly (out of memory, a degenerate shape): an empty
            # file is not an export.
            raise CommandError("operation_failed", "FreeCAD made no triangles of %s" % ", ".join(o.Name for o in objects))
        mesh.write(path)
        out.update(triangles=int(mesh.CountFacets), linear_deflection_mm=linear, angular_deflection_deg=angular)
    if not os.path.isfile(path):
        raise CommandError("operation_failed", "FreeCAD wrote no %s file" % fmt)
    out.update(path=path, bytes=os.path.getsize(path))
    return out
