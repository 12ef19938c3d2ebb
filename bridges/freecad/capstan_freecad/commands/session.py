"""The bridge session, for capstan itself (host-only): a fresh document (the
conformance suite's reset) and undoing the last command."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .. import document


@command(
    effect="destroy",
    summary="Replace the session's document with a fresh empty one (capstan's conformance suite resets between cases).",
    params=s.obj({}),
    result=s.obj({"objects": s.array(s.string())}, required=("objects",)),
    host_only=True,
    full_delta=True,
)
def reset_document(ctx, params):
    doc = document.fresh()
    return {"objects": sorted(o.Name for o in doc.Objects)}


@command(
    effect="mutate",
    summary="Undo the last command that changed the document (each one is one FreeCAD transaction, named after it).",
    params=s.obj({}),
    result=s.obj({"undone": s.string()}, required=("undone",)),
    errors=("limit_exceeded",),
    host_only=True,
    full_delta=True,
)
def undo_last(ctx, params):
    doc = document.current()
    if not doc.UndoCount:
        raise CommandError("limit_exceeded", "there is nothing to undo")
    name = doc.UndoNames[0]
    doc.undo()
    doc.recompute()
    return {"undone": name}
