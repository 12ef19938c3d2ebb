"""Render isolation for product shots: every other geometry object leaves the render
(`hide_render`), so a hero shot shows the product and its rig, not the default cube it
sits inside. Objects hidden this way carry `capstan_isolated`; `isolate=false` shows
exactly those again and touches nothing the user hid. Lights, cameras and empties are
left alone (they light or frame the shot, or render nothing); so is every owned product
rig object (`capstan_role` product_*); a kept product keeps its children."""

import bpy

from ..core import schema as s
from ..command import command
from .common import OBJECT, get_object, scene

GEOMETRY = frozenset({"MESH", "CURVE", "SURFACE", "META", "FONT", "CURVES", "POINTCLOUD", "VOLUME", "GREASEPENCIL"})
TAG = "capstan_isolated"


def _is_rig(obj):
    return str(obj.get("capstan_role", "")).startswith("product_")


@command(
    effect="mutate",
    summary="Hide every other geometry object from the render so only the named products (and the owned product rig) appear; or show again what an earlier isolation hid.",
    params=s.obj({
        "keep": s.array(OBJECT, 1, 64, description="The products that stay in the render (exact names)"),
        "isolate": s.boolean("true (default) hides the others; false shows again the objects an earlier isolation hid"),
    }),
    result=s.obj({
        "hidden": s.array(s.string(), description="Objects this call took out of the render"),
        "shown": s.array(s.string(), description="Objects this call put back"),
        "kept": s.array(s.string()),
    }, required=("hidden", "shown", "kept")),
    errors=("not_found", "invalid_params"),
)
def product_isolate(ctx, params):
    sc = scene()
    isolate = params.get("isolate", True)
    keep = [get_object(name) for name in params.get("keep", [])]
    if isolate and not keep:
        from ..errors import CommandError
        raise CommandError("invalid_params", "name the products to keep in the render")
    # A product is the object and everything parented under it (a bottle's cap, an
    # empty's meshes).
    kept = {o.session_uid for k in keep for o in (k, *k.children_recursive)}
    hidden, shown = [], []
    for obj in sorted(sc.objects, key=lambda o: o.name):
        if isolate:
            if obj.session_uid in kept:
                if obj.get(TAG):
                    ctx.delta.touch(obj)
                    obj.hide_render = False
                    del obj[TAG]
                    shown.append(obj.name)
                continue
            if obj.type not in GEOMETRY or _is_rig(obj) or obj.hide_render:
                continue
            ctx.delta.touch(obj)
            obj.hide_render = True
            obj[TAG] = True
            hidden.append(obj.name)
        elif obj.get(TAG):
            ctx.delta.touch(obj)
            obj.hide_render = False
            del obj[TAG]
            shown.append(obj.name)
    return {"hidden": hidden, "shown": shown, "kept": [o.name for o in keep]}
