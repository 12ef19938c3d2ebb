"""Cameras: placement, aim, lens, depth of field, active camera."""

import bpy

from .common import get_object, link, place, rounded, scene
from .errors import CommandError


def set_camera(ctx, params):
    s = scene()
    name = params.get("name") or (s.camera.name if s.camera else "Camera")
    obj = bpy.data.objects.get(name)
    created = obj is None
    if created:
        obj = bpy.data.objects.new(name, bpy.data.cameras.new(name))
        link(obj)
    elif obj.type != "CAMERA":
        raise CommandError("invalid_target", "object %r is a %s, not a camera" % (name, obj.type))
    place(obj, params)
    cam = obj.data
    if "lens" in params:
        cam.lens = params["lens"]
    dof = params.get("dof")
    if dof is not None:
        cam.dof.use_dof = dof["enabled"]
        if "focus_object" in dof:
            cam.dof.focus_object = get_object(dof["focus_object"])
        if "focus_distance" in dof:
            cam.dof.focus_object = None
            cam.dof.focus_distance = dof["focus_distance"]
        if "fstop" in dof:
            cam.dof.aperture_fstop = dof["fstop"]
    if params.get("make_active", True):
        s.camera = obj
    return {
        "name": obj.name,
        "created": created,
        "location": rounded(obj.location),
        "rotation": rounded(obj.rotation_euler),
        "lens": round(cam.lens, 5),
        "active": s.camera == obj,
    }
