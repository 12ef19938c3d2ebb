"""Paged reads of one mesh: vertices, edges, faces, UVs, normals, attributes, shape keys
and vertex-group weights, `limit` rows at a time (at most 5000), with the total and the
next offset. Arrays are read with `foreach_get` (no per-element Python for the filters),
so a large mesh costs one page, not the whole mesh, beyond the selection mask.
"""

import numpy as np

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .common import OBJECT, get_object, rounded
from .inspect import PAGE, page

ACTIONS = ("summary", "vertices", "edges", "faces", "uvs", "normals", "attributes", "shape_keys", "group_weights")
MAX_LIMIT = 5000
DEFAULT_LIMIT = 250
MAX_NAMES = 64

ROW = s.obj({
    "index": s.integer(0, description="Vertex, edge, face, loop or key index"),
    "co": s.ref("vec3"),
    "normal": s.ref("vec3"),
    "center": s.ref("vec3"),
    "vertices": s.array(s.integer(0)),
    "face": s.integer(0),
    "vertex": s.integer(0),
    "uv": s.array(s.number(), 2, 2),
    "area": s.number(0),
    "material_index": s.integer(0),
    "selected": s.boolean(),
    "seam": s.boolean(),
    "value": s.array(s.number(), 1, 16, description="An attribute value as numbers (a bool is 0 or 1)"),
    "weight": s.number(0, 1),
    "name": s.string(),
    "key_value": s.number(),
    "relative_key": s.string(),
}, required=("index",))

SUMMARY = s.obj({
    "vertices": s.integer(0), "edges": s.integer(0), "faces": s.integer(0), "triangles": s.integer(0), "loops": s.integer(0),
    "selected_vertices": s.integer(0),
    "uv_layers": s.array(s.string(), max_items=MAX_NAMES), "active_uv_layer": s.nullable(s.string()),
    "vertex_groups": s.array(s.string(), max_items=MAX_NAMES),
    "attributes": s.array(s.obj({"name": s.string(), "domain": s.string(), "data_type": s.string()},
                                required=("name", "domain", "data_type")), max_items=MAX_NAMES),
    "shape_keys": s.array(s.string(), max_items=MAX_NAMES), "materials": s.array(s.string(), max_items=MAX_NAMES),
    "dimensions": s.ref("vec3"),
}, required=("vertices", "edges", "faces", "triangles", "loops", "selected_vertices", "uv_layers", "active_uv_layer",
             "vertex_groups", "attributes", "shape_keys", "materials", "dimensions"))


def _get(collection, attribute, width, dtype=np.float32):
    out = np.empty(len(collection) * width, dtype=dtype)
    if len(collection):
        collection.foreach_get(attribute, out)
    return out.reshape(-1, width) if width > 1 else out


def _summary(obj, me):
    keys = me.shape_keys.key_blocks if me.shape_keys else []
    return {
        "vertices": len(me.vertices), "edges": len(me.edges), "faces": len(me.polygons), "loops": len(me.loops),
        "triangles": int(np.maximum(_get(me.polygons, "loop_total", 1, np.int32) - 2, 0).sum()),
        "selected_vertices": int(_get(me.vertices, "select", 1, bool).sum()),
        "uv_layers": [u.name for u in me.uv_layers][:MAX_NAMES],
        "active_uv_layer": me.uv_layers.active.name if me.uv_layers.active else None,
        "vertex_groups": [g.name for g in obj.vertex_groups][:MAX_NAMES],
        "attributes": [{"name": a.name, "domain": a.domain, "data_type": a.data_type}
                       for a in me.attributes if not a.name.startswith(".")][:MAX_NAMES],
        "shape_keys": [k.name for k in keys][:MAX_NAMES],
        "materials": [m.name for m in me.materials if m is not None][:MAX_NAMES],
        "dimensions": rounded(obj.dimensions),
    }


def _indices(collection, selected_only):
    """Indices of the rows to page over: all, or those whose `select` is set."""
    if not selected_only:
        return None, len(collection)
    idx = np.flatnonzero(_get(collection, "select", 1, bool))
    return idx, len(idx)


def _window(idx, total, offset, limit):
    stop = min(total, offset + limit)
    return [int(i) for i in idx[offset:stop]] if idx is not None else list(range(offset, stop))


def _rows(obj, me, params, offset, limit):
    action, sel = params["action"], params.get("selected_only", False)
    if action in ("vertices", "normals"):
        idx, total = _indices(me.vertices, sel)
        rows = []
        for i in _window(idx, total, offset, limit):
            v = me.vertices[i]
            rows.append({"index": i, "co": rounded(v.co), "selected": v.select} if action == "vertices"
                        else {"index": i, "normal": rounded(v.normal)})
        return rows, total
    if action == "edges":
        idx, total = _indices(me.edges, sel)
        return [{"index": i, "vertices": list(me.edges[i].vertices), "seam": me.edges[i].use_seam,
                 "selected": me.edges[i].select} for i in _window(idx, total, offset, limit)], total
    if action == "faces":
        idx, total = _indices(me.polygons, sel)
        return [{"index": i, "vertices": list(p.vertices), "normal": rounded(p.normal), "center": rounded(p.center),
                 "area": round(p.area, 6), "material_index": p.material_index, "selected": p.select}
                for i in _window(idx, total, offset, limit) for p in (me.polygons[i],)], total
    if action == "uvs":
        name = params.get("uv_layer")
        layer = me.uv_layers.get(name) if name else me.uv_layers.active
        if layer is None:
            if name:
                raise not_found("UV layer", name)
            raise invalid_target("%s has no UV layer" % obj.name)
        total = len(me.loops)
        faces = None
        rows = []
        for i in range(offset, min(total, offset + limit)):
            if faces is None:  # loop -> face, only when a page is asked for
                starts = _get(me.polygons, "loop_start", 1, np.int32)
                faces = np.searchsorted(starts, np.arange(total), side="right") - 1
            rows.append({"index": i, "vertex": me.loops[i].vertex_index, "face": int(faces[i]), "uv": rounded(layer.uv[i].vector)})
        return rows, total
    if action == "attributes":
        name = params.get("attribute_name")
        if not name:
            raise CommandError("invalid_params", "action attributes needs attribute_name (see action summary for the names)")
        attr = me.attributes.get(name)
        if attr is None:
            raise not_found("attribute", name)
        total = len(attr.data)
        rows = []
        for i in range(offset, min(total, offset + limit)):
            d = attr.data[i]
            v = getattr(d, "vector", None) if hasattr(d, "vector") else getattr(d, "color", None) if hasattr(d, "color") else d.value
            vals = [float(x) for x in v] if hasattr(v, "__len__") and not isinstance(v, str) else [float(v)]
            rows.append({"index": i, "value": [round(x, 6) for x in vals][:16]})
        return rows, total
    if action == "shape_keys":
        keys = list(me.shape_keys.key_blocks) if me.shape_keys else []
        return [{"index": i, "name": k.name, "key_value": round(k.value, 6), "relative_key": k.relative_key.name}
                for i, k in enumerate(keys[offset:offset + limit], start=offset)], len(keys)
    # group_weights
    name = params.get("group_name")
    if not name:
        raise CommandError("invalid_params", "action group_weights needs group_name (see action summary for the names)")
    group = obj.vertex_groups.get(name)
    if group is None:
        raise not_found("vertex group", name)
    gi = group.index
    members = [(v.index, g.weight) for v in me.vertices for g in v.groups if g.group == gi]
    return [{"index": i, "weight": round(w, 6)} for i, w in members[offset:offset + limit]], len(members)


@command(
    effect="read",
    summary="Paged mesh data of one object: a summary, or vertices, edges, faces, UVs, normals, an attribute, shape keys or one vertex group's weights.",
    params=s.obj({
        "object": OBJECT,
        "action": s.enum(ACTIONS, description="What to read (default summary)"),
        "offset": s.integer(0, 100_000_000, description="First row (default 0)"),
        "limit": s.integer(1, MAX_LIMIT, description="Rows per page (default %d)" % DEFAULT_LIMIT),
        "selected_only": s.boolean("Only selected vertices, edges or faces"),
        "uv_layer": s.string(1, s.NAME_MAX, description="UV layer for action uvs (default: the active one)"),
        "group_name": s.string(1, s.NAME_MAX, description="Vertex group for action group_weights"),
        "attribute_name": s.string(1, s.NAME_MAX, description="Attribute for action attributes"),
    }, required=("object",)),
    result=s.obj({
        "object": s.string(), "action": s.enum(ACTIONS), "summary": s.nullable(SUMMARY),
        "rows": s.array(ROW, max_items=MAX_LIMIT), "page": PAGE,
    }, required=("object", "action", "summary", "rows", "page")),
    errors=("not_found", "invalid_target"),
    max_result_bytes=4 * 1024 * 1024,
)
def mesh_inspect(ctx, params):
    obj = get_object(params["object"])
    if obj.type != "MESH":
        raise invalid_target("%s is a %s, not a mesh" % (obj.name, obj.type))
    me = obj.data
    action = params.get("action", "summary")
    offset, limit = params.get("offset", 0), params.get("limit", DEFAULT_LIMIT)
    if action == "summary":
        return {"object": obj.name, "action": action, "summary": _summary(obj, me), "rows": [], "page": page(0, 0, limit)}
    rows, total = _rows(obj, me, dict(params, action=action), offset, limit)
    return {"object": obj.name, "action": action, "summary": None, "rows": rows, "page": page(total, offset, limit)}
