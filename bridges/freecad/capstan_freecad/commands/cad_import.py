"""Importing CAD files (STEP, IGES) from the read roots.

Paths follow the one policy every capstan bridge enforces (`core/paths.py`,
`checked_input`): an absolute path under the session output folder or a folder of
CAPSTAN_READ_ROOTS, no `..`, symlinks resolved before the check; anything else is
`path_refused`, exactly as Blender's imports answer.
"""

import os

from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .. import document

EXTENSIONS = {".step": "step", ".stp": "step", ".iges": "iges", ".igs": "iges"}


def _solidified(shape):
    """IGES (and some STEP writers) carry a solid as loose faces: sew closed shells
    back into solids, so the import measures as what it was exported from."""
    import Part

    if shape.Solids or not shape.Faces:
        return shape
    try:
        shell = Part.Shell(shape.Faces)
        if shell.isClosed():
            solid = Part.Solid(shell)
            if solid.isValid() and solid.Volume > 0:
                return solid
    except Exception:  # not one closed shell: keep the faces as they are
        pass
    return shape


@command(
    effect="mutate",
    summary="Import a STEP (.step/.stp) or IGES (.iges/.igs) file from a read root as one new object; answers it and its measurements.",
    params=s.obj({
        "path": s.string(1, paths.MAX_INPUT_PATH, description="Absolute path under a read root, or a bare file name in the session output directory"),
        "name": dict(s.ref("object_name"), description="The new object's name (default: the file's name)"),
    }, required=("path",)),
    result=s.obj({"path": s.string(), "format": s.string(), "new_objects": s.array(s.string()),
                  "volume_mm3": s.number(), "solids": s.integer(0)},
                 required=("path", "format", "new_objects", "volume_mm3", "solids")),
    errors=("path_refused", "not_found", "operation_failed"),
    full_delta=True,
    timeout_s=120,
)
def import_cad(ctx, params):
    import Part

    real = paths.checked_input(ctx.output_dir, params["path"], tuple(EXTENSIONS))
    fmt = EXTENSIONS[os.path.splitext(real)[1].lower()]
    try:
        shape = Part.read(real)
    except Exception as e:
        raise CommandError("operation_failed", "FreeCAD could not read %r as %s: %s" % (os.path.basename(real), fmt, e))
    if shape.isNull() or not shape.Faces:
        raise CommandError("operation_failed", "%r holds no shape" % os.path.basename(real))
    shape = _solidified(shape)
    doc = document.current()
    stem = os.path.splitext(os.path.basename(real))[0]
    default = "".join(c if c.isalnum() else "_" for c in stem)[:40] or "Imported"
    obj = doc.addObject("Part::Feature", params.get("name", default))
    obj.Label = params.get("name", stem[:63])
    obj.Shape = shape
    doc.recompute()
    return {"path": real, "format": fmt, "new_objects": [obj.Name], "volume_mm3": obj.Shape.Volume,
            "solids": len(obj.Shape.Solids)}
