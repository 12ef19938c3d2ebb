"""The FreeCAD document the bridge works on, and lookups commands share.

One document per bridge session, created on first use and replaced by
`reset_document`; its undo mode is on, so each command is one transaction
(`bridge.py`). Objects are named by their FreeCAD `Name` (unique in the document,
never changed), which is what every command takes and answers; the `Label` is the
user-visible name and may differ.

Only the main thread calls into here (FreeCAD's document API is not thread-safe).
"""

from .errors import CommandError, invalid_target, not_found

DOCUMENT_NAME = "capstan"


def current():
    """The session's document (created, with undo on, when missing)."""
    import FreeCAD

    doc = FreeCAD.listDocuments().get(DOCUMENT_NAME)
    if doc is None:
        doc = FreeCAD.newDocument(DOCUMENT_NAME)
        doc.UndoMode = 1
        FreeCAD.setActiveDocument(doc.Name)
    return doc


def fresh():
    """Close the session's document and open an empty one."""
    import FreeCAD

    if DOCUMENT_NAME in FreeCAD.listDocuments():
        FreeCAD.closeDocument(DOCUMENT_NAME)
    return current()


def get(name):
    obj = current().getObject(name)
    if obj is None:
        raise not_found("object", name)
    return obj


def has_shape(obj):
    shape = getattr(obj, "Shape", None)
    return shape is not None and not shape.isNull()


def solid_object(name):
    """The named object, which must carry a shape with at least one solid."""
    obj = get(name)
    if not has_shape(obj) or not obj.Shape.Solids:
        raise invalid_target("%r has no solid shape" % name)
    return obj


def recompute_or_fail(doc, created, what):
    """Recompute; if an object this command created is invalid, remove what the command
    created (so the document is as it was) and fail with `operation_failed`."""
    doc.recompute()
    broken = [o for o in created if not o.isValid() or not has_shape(o)]
    if broken:
        for obj in reversed(created):
            if doc.getObject(obj.Name) is not None:
                doc.removeObject(obj.Name)
        doc.recompute()
        raise CommandError("operation_failed", "FreeCAD could not compute %s" % what)


def visible_shapes():
    """Objects a whole-document export means: visible, with a non-empty shape."""
    return [o for o in current().Objects if has_shape(o) and getattr(o, "Visibility", True)]
