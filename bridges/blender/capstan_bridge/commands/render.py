"""Render settings and rendering to a file in the session output directory."""

import os

import bpy

from .. import file_refs_check as refs_check
from .. import paths
from .. import schema as s
from ..command import command
from ..errors import CommandError
from .common import assign, scene

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


@command(
    effect="mutate",
    summary="Render engine (Cycles runs on the CPU), resolution, samples and film transparency.",
    params=s.obj({
        "engine": s.enum(("cycles", "eevee", "workbench")),
        "resolution_x": s.integer(4, 16384),
        "resolution_y": s.integer(4, 16384),
        "resolution_percentage": s.integer(1, 100),
        "samples": s.integer(1, 65536),
        "transparent": s.boolean(),
    }, min_properties=1),
    result=s.obj({
        "engine": s.string(), "resolution": s.array(s.integer(), 2, 2), "percentage": s.integer(),
        "samples": s.nullable(s.integer()), "transparent": s.boolean(),
    }, required=("engine", "resolution", "percentage", "samples", "transparent")),
    errors=("unsupported",),
)
def set_render_settings(ctx, params):
    ctx.delta.touch_settings("render")
    sc = scene()
    r = sc.render
    if "engine" in params:
        _set_engine(r, params["engine"])
        if r.engine == "CYCLES":
            sc.cycles.device = "CPU"
    assign(r, params, (
        ("resolution_x", "resolution_x"),
        ("resolution_y", "resolution_y"),
        ("resolution_percentage", "resolution_percentage"),
        ("transparent", "film_transparent"),
    ))
    if "samples" in params:
        if r.engine == "CYCLES":
            sc.cycles.samples = params["samples"]
        elif r.engine.startswith("BLENDER_EEVEE"):
            sc.eevee.taa_render_samples = params["samples"]
    samples = sc.cycles.samples if r.engine == "CYCLES" else (sc.eevee.taa_render_samples if r.engine.startswith("BLENDER_EEVEE") else None)
    return {
        "engine": r.engine,
        "resolution": [r.resolution_x, r.resolution_y],
        "percentage": r.resolution_percentage,
        "samples": samples,
        "transparent": r.film_transparent,
    }


@command(
    effect="mutate",
    summary="Render the active camera to a PNG file inside the session's output directory; the render settings are left as they were.",
    params=s.obj({
        "filename": s.string(5, 128, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.png$", description="A plain PNG file name"),
    }, required=("filename",)),
    result=s.obj({
        "path": s.string(), "width": s.integer(1), "height": s.integer(1), "engine": s.string(), "bytes": s.integer(1),
    }, required=("path", "width", "height", "engine", "bytes")),
    errors=("no_camera", "path_refused", refs_check.CODE),
    timeout_s=600,
)
def render_image(ctx, params):
    sc = scene()
    if sc.camera is None:
        raise CommandError("no_camera", "the scene has no active camera; set one with set_camera first")
    try:
        path = paths.confined(ctx.output_dir, params["filename"])
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))
    r = sc.render
    saved = (r.filepath, r.image_settings.file_format)
    had_result = "Render Result" in bpy.data.images
    try:
        r.filepath = path
        r.image_settings.file_format = "PNG"
        refs_check.check_scene(ctx, "the render", render_scene=sc)
        # The render operator is the only way to render; it does not walk the scene
        # beyond what the render itself needs.
        bpy.ops.render.render(write_still=True)
    finally:
        r.filepath, r.image_settings.file_format = saved
        # The first render of a session (or after the image was removed) creates Blender's
        # "Render Result" image: part of what this command changed.
        if not had_result and "Render Result" in bpy.data.images:
            ctx.delta.created_datablock("images", bpy.data.images["Render Result"])
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
