"""Rounding and bevelling edges: fillet and chamfer (parametric Part features on a
solid; the input is hidden). Edges are numbered as FreeCAD names them: 1 is `Edge1`."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .. import document

EDGES = s.one_of(
    s.enum(["all"]),
    s.array(s.integer(1, 100000), min_items=1, max_items=1000),
    description="\"all\", or edge numbers as FreeCAD names them (1 is Edge1)",
)
RESULT = s.obj({"name": s.string(), "edges": s.integer(1), "volume": s.number(), "valid": s.boolean()},
               required=("name", "edges", "volume", "valid"))


def _edges(obj, wanted):
    count = len(obj.Shape.Edges)
    if wanted == "all":
        return list(range(1, count + 1))
    beyond = sorted(e for e in set(wanted) if e > count)
    if beyond:
        raise CommandError("invalid_params", "%r has %d edges; no edge %s" % (obj.Name, count, ", ".join(map(str, beyond[:10]))))
    return sorted(set(wanted))


def _apply(type_id, default_name, params, size_key, what):
    base = document.solid_object(params["object"])
    numbers = _edges(base, params.get("edges", "all"))
    size = float(params[size_key])
    doc = document.current()
    feature = doc.addObject(type_id, params.get("name", default_name))
    if "name" in params:
        feature.Label = params["name"]
    feature.Base = base
    feature.Edges = [(n, size, size) for n in numbers]
    document.recompute_or_fail(doc, [feature], "a %s of %s mm on %d edges of %r" % (what, size, len(numbers), base.Name))
    if not feature.Shape.isValid():
        doc.removeObject(feature.Name)
        raise CommandError("operation_failed", "the %s of %r is not a valid solid" % (what, base.Name))
    base.Visibility = False
    return {"name": feature.Name, "edges": len(numbers), "volume": feature.Shape.Volume, "valid": feature.Shape.isValid()}


def _params(size_key, size_doc):
    return s.obj({
        "object": s.ref("object_name"),
        size_key: s.number(exclusive_minimum=0, maximum=1e5, description=size_doc),
        "edges": EDGES,
        "name": dict(s.ref("object_name"), description="The new feature's name"),
    }, required=("object", size_key))


@command(
    effect="mutate",
    summary="Round edges of a solid with a radius in mm (all edges or the listed ones) into a new Fillet feature.",
    params=_params("radius", "Fillet radius, mm"),
    result=RESULT,
    errors=("not_found", "invalid_target", "invalid_params", "operation_failed"),
)
def fillet(ctx, params):
    return _apply("Part::Fillet", "Fillet", params, "radius", "fillet")


@command(
    effect="mutate",
    summary="Bevel edges of a solid by a size in mm (all edges or the listed ones) into a new Chamfer feature.",
    params=_params("size", "Chamfer size (distance from the edge on both faces), mm"),
    result=RESULT,
    errors=("not_found", "invalid_target", "invalid_params", "operation_failed"),
)
def chamfer(ctx, params):
    return _apply("Part::Chamfer", "Chamfer", params, "size", "chamfer")
