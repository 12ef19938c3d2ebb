"""A small render of the scene, answered as a base64 PNG: the headless stand-in for a
viewport screenshot (no window exists in background mode). It is a read: every render
setting it touches is put back, a temporary framing camera (when the scene has none)
is removed, and the PNG is written to a temporary file in the session output folder,
read and deleted. Bounded: at most 1024x1024 and 16 samples.
"""

import base64
import math
import os
import uuid

import bpy
from mathutils import Vector

from .. import file_refs_check as refs_check
from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from .common import get_object, scene
from .render import _set_engine

RENDER_ATTRS = ("engine", "resolution_x", "resolution_y", "resolution_percentage", "film_transparent", "filepath", "use_file_extension")
IMAGE_ATTRS = ("file_format", "color_mode", "color_depth", "compression")
CYCLES_ATTRS = ("samples", "device", "use_denoising", "use_adaptive_sampling")


def _save(sc):
    r = sc.render
    saved = {"render": {a: getattr(r, a) for a in RENDER_ATTRS},
             "image": {a: getattr(r.image_settings, a) for a in IMAGE_ATTRS},
             "cycles": {a: getattr(sc.cycles, a) for a in CYCLES_ATTRS},
             "eevee": sc.eevee.taa_render_samples, "camera": sc.camera}
    return saved


def _restore(sc, saved):
    r = sc.render
    for a, v in saved["render"].items():
        setattr(r, a, v)
    for a, v in saved["image"].items():
        setattr(r.image_settings, a, v)
    for a, v in saved["cycles"].items():
        setattr(sc.cycles, a, v)
    sc.eevee.taa_render_samples = saved["eevee"]
    sc.camera = saved["camera"]


def _framing_camera(sc, aspect):
    """A temporary camera looking at every visible object's bounds from the front-right,
    far enough that the bounding sphere fits the narrower field of view."""
    corners = [o.matrix_world @ Vector(c) for o in sc.objects if o.visible_get() and o.type not in ("CAMERA", "LIGHT")
               for c in o.bound_box]
    if corners:
        lo = Vector(tuple(min(c[i] for c in corners) for i in range(3)))
        hi = Vector(tuple(max(c[i] for c in corners) for i in range(3)))
    else:
        lo, hi = Vector((-1, -1, -1)), Vector((1, 1, 1))
    center, radius = (lo + hi) / 2, max((hi - lo).length / 2, 0.1)
    data = bpy.data.cameras.new("capstan_preview_camera")
    data.lens = 50
    fov = 2 * math.atan(data.sensor_width / (2 * data.lens))
    fov = fov if aspect >= 1 else 2 * math.atan(math.tan(fov / 2) * aspect)
    cam = bpy.data.objects.new("capstan_preview_camera", data)
    sc.collection.objects.link(cam)
    direction = Vector((1.0, -1.0, 0.7)).normalized()
    cam.location = center + direction * (radius / math.sin(fov / 2) * 1.05)
    cam.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
    data.clip_end = max(100.0, (cam.location - center).length + radius * 2)
    return cam


@command(
    effect="read",
    summary="A small render of the scene as a base64 PNG (active camera, a named one, or a temporary framing camera); render settings are restored.",
    params=s.obj({
        "width": s.integer(16, 1024, description="Pixels (default 256)"),
        "height": s.integer(16, 1024, description="Pixels (default 256)"),
        "engine": s.enum(("workbench", "cycles", "eevee"), description="Default cycles (CPU); eevee and workbench need GL"),
        "samples": s.integer(1, 16, description="Cycles/EEVEE samples (default 4)"),
        "camera": s.string(1, s.NAME_MAX, description="Render through this camera object (default: the active camera)"),
    }),
    result=s.obj({
        "image_base64": s.string(1), "mime": s.enum(("image/png",)), "width": s.integer(1), "height": s.integer(1),
        "engine": s.string(), "samples": s.integer(1), "camera": s.string(), "temporary_camera": s.boolean(), "bytes": s.integer(1),
    }, required=("image_base64", "mime", "width", "height", "engine", "samples", "camera", "temporary_camera", "bytes")),
    errors=("not_found", "invalid_target", "unsupported", refs_check.CODE),
    timeout_s=300,
    max_result_bytes=8 * 1024 * 1024,
)
def render_preview(ctx, params):
    sc = scene()
    width, height = params.get("width", 256), params.get("height", 256)
    samples, engine = params.get("samples", 4), params.get("engine", "cycles")
    chosen = None
    if "camera" in params:
        chosen = get_object(params["camera"])
        if chosen.type != "CAMERA":
            raise invalid_target("%s is a %s, not a camera" % (chosen.name, chosen.type))
    path = paths.confined(ctx.output_dir, "capstan-preview-%s.png" % uuid.uuid4().hex)
    saved = _save(sc)
    had_result = "Render Result" in bpy.data.images
    temp = None
    try:
        _set_engine(sc.render, engine)
        r = sc.render
        r.resolution_x, r.resolution_y, r.resolution_percentage = width, height, 100
        r.filepath, r.use_file_extension = path, False
        r.image_settings.file_format, r.image_settings.color_mode, r.image_settings.color_depth = "PNG", "RGBA", "8"
        if r.engine == "CYCLES":
            sc.cycles.device, sc.cycles.samples, sc.cycles.use_denoising = "CPU", samples, False
        elif r.engine.startswith("BLENDER_EEVEE"):
            sc.eevee.taa_render_samples = samples
        if chosen is not None:
            sc.camera = chosen
        elif sc.camera is None:
            temp = _framing_camera(sc, width / height)
            sc.camera = temp
        camera_name, used_engine = sc.camera.name, r.engine
        refs_check.check_scene(ctx, "the preview render", render_scene=sc)
        # Rendering has no data-API route: the render operator is the only way.
        bpy.ops.render.render(write_still=True)
        with open(path, "rb") as f:
            png = f.read()
    except RuntimeError as e:
        raise CommandError("unsupported", "the %s render failed in this Blender: %s" % (engine, e))
    finally:
        _restore(sc, saved)
        if temp is not None:
            data = temp.data
            bpy.data.objects.remove(temp)
            bpy.data.cameras.remove(data)
        if not had_result and "Render Result" in bpy.data.images:
            bpy.data.images.remove(bpy.data.images["Render Result"])
        if os.path.exists(path):
            os.remove(path)
    return {"image_base64": base64.b64encode(png).decode("ascii"), "mime": "image/png", "width": width, "height": height,
            "engine": used_engine, "samples": samples, "camera": camera_name,
            "temporary_camera": temp is not None, "bytes": len(png)}

