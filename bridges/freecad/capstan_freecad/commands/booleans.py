"""Booleans of two solids: fuse, cut, common (parametric Part features: the inputs
stay in the document, hidden unless asked otherwise)."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from .. import document

OPERATIONS = {"fuse": "Part::Fuse", "cut": "Part::Cut", "common": "Part::Common"}


@command(
    effect="mutate",
    summary="Fuse, cut (base minus tool) or intersect (common) two solids into a new object; the inputs are hidden unless keep_inputs_visible.",
    params=s.obj({
        "operation": s.enum(sorted(OPERATIONS)),
        "base": s.ref("object_name"),
        "tool": s.ref("object_name"),
        "name": dict(s.ref("object_name"), description="The result's name (default: the operation)"),
        "keep_inputs_visible": s.boolean(description="Leave base and tool visible (default false: hidden, as FreeCAD does)"),
    }, required=("operation", "base", "tool")),
    result=s.obj({"name": s.string(), "operation": s.string(), "volume": s.number(), "solids": s.integer(0)},
                 required=("name", "operation", "volume", "solids")),
    errors=("not_found", "invalid_target", "operation_failed"),
)
def boolean(ctx, params):
    if params["base"] == params["tool"]:
        raise invalid_target("base and tool are the same object")
    base, tool = document.solid_object(params["base"]), document.solid_object(params["tool"])
    doc = document.current()
    result = doc.addObject(OPERATIONS[params["operation"]], params.get("name", params["operation"].capitalize()))
    if "name" in params:
        result.Label = params["name"]
    result.Base, result.Tool = base, tool
    document.recompute_or_fail(doc, [result], "the %s of %r and %r" % (params["operation"], base.Name, tool.Name))
    if result.Shape.Volume <= 1e-9:
        raise CommandError("operation_failed", "the %s of %r and %r is empty" % (params["operation"], base.Name, tool.Name))
    if not params.get("keep_inputs_visible", False):
        base.Visibility = False
        tool.Visibility = False
    return {"name": result.Name, "operation": params["operation"], "volume": result.Shape.Volume,
            "solids": len(result.Shape.Solids)}
