"""Live RNA lookup, read-only: search the running Blender's types by name, and describe
one type's properties (type, enum items, ranges), so an agent uses the enum values and
limits of *this* Blender, not remembered ones. Nothing here sets a property.
"""

import bpy

from ..core import schema as s
from ..command import command
from ..errors import not_found
from .inspect import PAGE, page

MAX_LIMIT = 500
DEFAULT_LIMIT = 100
MAX_ENUM_ITEMS = 128

TYPE_NAME = s.string(1, 128, pattern=r"^[A-Za-z][A-Za-z0-9_]*$", description="An RNA type name, as in bpy.types (e.g. SubsurfModifier)")
QUERY = s.string(1, 64, description="Case-insensitive substring of the identifier, name or description")


def _types():
    out = []
    for name in sorted(dir(bpy.types)):
        if name.startswith("_"):
            continue
        rna = getattr(getattr(bpy.types, name, None), "bl_rna", None)
        if rna is not None:
            out.append((name, rna))
    return out


def _matches(query, *texts):
    q = query.lower()
    return any(q in (t or "").lower() for t in texts)


@command(
    effect="read",
    summary="Search the running Blender's RNA types by name or description (paged).",
    params=s.obj({
        "query": QUERY,
        "offset": s.integer(0, 100_000), "limit": s.integer(1, MAX_LIMIT, description="Default %d" % DEFAULT_LIMIT),
    }, required=("query",)),
    result=s.obj({
        "types": s.array(s.obj({"name": s.string(), "label": s.string(), "description": s.string(), "base": s.nullable(s.string())},
                               required=("name", "label", "description", "base")), max_items=MAX_LIMIT),
        "page": PAGE,
    }, required=("types", "page")),
)
def rna_search(ctx, params):
    offset, limit = params.get("offset", 0), params.get("limit", DEFAULT_LIMIT)
    found = [(n, r) for n, r in _types() if _matches(params["query"], n, r.name, r.description)]
    rows = [{"name": n, "label": r.name, "description": r.description, "base": r.base.identifier if r.base else None}
            for n, r in found[offset:offset + limit]]
    return {"types": rows, "page": page(len(found), offset, limit)}


def _number(v):
    return None if v is None or v != v or abs(v) > 1e30 else round(float(v), 6)


def _prop(p):
    out = {"identifier": p.identifier, "name": p.name, "description": p.description, "type": p.type,
           "subtype": p.subtype, "read_only": p.is_readonly, "array_length": getattr(p, "array_length", 0)}
    if p.type in ("INT", "FLOAT"):
        out["min"], out["max"] = _number(p.hard_min), _number(p.hard_max)
        out["soft_min"], out["soft_max"] = _number(p.soft_min), _number(p.soft_max)
    if p.type == "ENUM":
        items = [{"identifier": i.identifier, "name": i.name} for i in p.enum_items]
        out["enum_items"], out["enum_flag"] = items[:MAX_ENUM_ITEMS], p.is_enum_flag
    if p.type in ("POINTER", "COLLECTION") and p.fixed_type is not None:
        out["fixed_type"] = p.fixed_type.identifier
    return out


PROP = s.obj({
    "identifier": s.string(), "name": s.string(), "description": s.string(), "type": s.string(), "subtype": s.string(),
    "read_only": s.boolean(), "array_length": s.integer(0),
    "min": s.nullable(s.number()), "max": s.nullable(s.number()), "soft_min": s.nullable(s.number()), "soft_max": s.nullable(s.number()),
    "enum_items": s.array(s.obj({"identifier": s.string(), "name": s.string()}, required=("identifier", "name")), max_items=MAX_ENUM_ITEMS),
    "enum_flag": s.boolean(), "fixed_type": s.string(),
}, required=("identifier", "name", "description", "type", "subtype", "read_only", "array_length"))


@command(
    effect="read",
    summary="Describe one RNA type of the running Blender: its properties with types, ranges and enum items (paged, filterable).",
    params=s.obj({
        "type_name": TYPE_NAME, "query": QUERY,
        "offset": s.integer(0, 100_000), "limit": s.integer(1, MAX_LIMIT, description="Default %d" % DEFAULT_LIMIT),
    }, required=("type_name",)),
    result=s.obj({
        "type_name": s.string(), "label": s.string(), "description": s.string(), "base": s.nullable(s.string()),
        "functions": s.array(s.string(), max_items=MAX_LIMIT), "properties": s.array(PROP, max_items=MAX_LIMIT), "page": PAGE,
    }, required=("type_name", "label", "description", "base", "functions", "properties", "page")),
    errors=("not_found",),
    max_result_bytes=2 * 1024 * 1024,
)
def rna_describe(ctx, params):
    name = params["type_name"]
    rna = getattr(getattr(bpy.types, name, None), "bl_rna", None)
    if rna is None:
        raise not_found("RNA type", name)
    props = [p for p in rna.properties if p.identifier != "rna_type"]
    if "query" in params:
        props = [p for p in props if _matches(params["query"], p.identifier, p.name, p.description)]
    offset, limit = params.get("offset", 0), params.get("limit", DEFAULT_LIMIT)
    return {
        "type_name": name, "label": rna.name, "description": rna.description, "base": rna.base.identifier if rna.base else None,
        "functions": [f.identifier for f in rna.functions][:MAX_LIMIT],
        "properties": [_prop(p) for p in props[offset:offset + limit]], "page": page(len(props), offset, limit),
    }
