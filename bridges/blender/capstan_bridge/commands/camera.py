"""Cameras: placement, aim, lens, depth of field, active camera."""

import bpy

from ..core import schema as s
from ..command import command
from ..errors import invalid_target
from .common import OBJECT, VEC3, get_object, link, place, rounded, scene


@command(
    effect="mutate",
    summary="Create or update a camera (placement, aim, lens, depth of field) and optionally make it the scene camera.",
    params=s.obj({
        "name": OBJECT,
        "location": VEC3,
        "rotation": VEC3,
        "look_at": VEC3,
        "lens": s.number(1, 5000, description="Focal length in millimetres"),
        "dof": s.obj({
            "enabled": s.boolean(),
            "focus_object": OBJECT,
            "focus_distance": s.number(0, 100000),
            "fstop": s.number(0.1, 128),
        }, required=("enabled",)),
        "make_active": s.boolean(),
    }),
    result=s.obj({
        "name": s.string(), "created": s.boolean(), "location": VEC3, "rotation": VEC3, "lens": s.number(), "active": s.boolean(),
    }, required=("name", "created", "location", "rotation", "lens", "active")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def set_camera(ctx, params):
    sc = scene()
    dof = params.get("dof")
    focus = get_object(dof["focus_object"]) if dof and "focus_object" in dof else None
    name = params.get("name") or (sc.camera.name if sc.camera else "Camera")
    obj = bpy.data.objects.get(name)
    created = obj is None
    if created:
        obj = bpy.data.objects.new(name, bpy.data.cameras.new(name))
        link(obj)
        ctx.delta.created(obj)
    elif obj.type != "CAMERA":
        raise invalid_target("object %r is a %s, not a camera" % (name, obj.type))
    else:
        ctx.delta.touch_data_users(obj)
    place(obj, params)
    cam = obj.data
    if "lens" in params:
        cam.lens = params["lens"]
    if dof is not None:
        cam.dof.use_dof = dof["enabled"]
        if focus is not None:
            cam.dof.focus_object = focus
        if "focus_distance" in dof:
            cam.dof.focus_object = None
            cam.dof.focus_distance = dof["focus_distance"]
        if "fstop" in dof:
            cam.dof.aperture_fstop = dof["fstop"]
    if params.get("make_active", True) and sc.camera != obj:
        ctx.delta.touch_settings("scene")
        sc.camera = obj
    return {
        "name": obj.name,
        "created": created,
        "location": rounded(obj.location),
        "rotation": rounded(obj.rotation_euler),
        "lens": round(cam.lens, 5),
        "active": sc.camera == obj,
    }
