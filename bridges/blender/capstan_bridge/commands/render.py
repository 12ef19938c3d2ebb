"""Render settings and rendering to a file in the session output directory."""

import os

import bpy

from .. import paths
from .common import assign, scene
from .errors import CommandError


ENGINE_IDS = {
    "cycles": ["CYCLES"],
    "workbench": ["BLENDER_WORKBENCH"],
    # EEVEE is BLENDER_EEVEE_NEXT in 4.2-4.5 and BLENDER_EEVEE again from 5.0.
    "eevee": ["BLENDER_EEVEE_NEXT", "BLENDER_EEVEE"],
}


def _set_engine(r, name):
    for candidate in ENGINE_IDS[name]:
        try:
            r.engine = candidate
            return
        except TypeError:
            continue
    raise CommandError("unsupported", "this Blender has no %s engine" % name)


def set_render_settings(ctx, params):
    s = scene()
    r = s.render
    if "engine" in params:
        _set_engine(r, params["engine"])
        if r.engine == "CYCLES":
            s.cycles.device = "CPU"
    assign(r, params, (
        ("resolution_x", "resolution_x"),
        ("resolution_y", "resolution_y"),
        ("resolution_percentage", "resolution_percentage"),
        ("transparent", "film_transparent"),
    ))
    if "samples" in params:
        if r.engine == "CYCLES":
            s.cycles.samples = params["samples"]
        elif r.engine.startswith("BLENDER_EEVEE"):
            s.eevee.taa_render_samples = params["samples"]
    samples = s.cycles.samples if r.engine == "CYCLES" else (s.eevee.taa_render_samples if r.engine.startswith("BLENDER_EEVEE") else None)
    return {
        "engine": r.engine,
        "resolution": [r.resolution_x, r.resolution_y],
        "percentage": r.resolution_percentage,
        "samples": samples,
        "transparent": r.film_transparent,
    }


def render_image(ctx, params):
    s = scene()
    if s.camera is None:
        raise CommandError("no_camera", "the scene has no active camera; set one with set_camera first")
    try:
        path = paths.confined(ctx.output_dir, params["filename"])
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))
    r = s.render
    r.filepath = path
    r.image_settings.file_format = "PNG"
    bpy.ops.render.render(write_still=True)
    if not os.path.isfile(path):
        raise CommandError("blender_error", "the render finished but wrote no file")
    scale = r.resolution_percentage / 100.0
    return {
        "path": path,
        "width": int(r.resolution_x * scale),
        "height": int(r.resolution_y * scale),
        "engine": r.engine,
        "bytes": os.path.getsize(path),
    }
