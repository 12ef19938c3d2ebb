"""Render settings and rendering to a file in the session output directory."""

import os

import bpy

from .. import file_refs_check as refs_check
from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError
from . import render_output as out
from .common import scene

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
    summary="Engine (Cycles on the CPU), resolution and percentage, render and viewport samples, denoising, motion blur, "
            "transparency, output file format and its settings; a refusal changes nothing.",
    params=s.obj(dict({
        "engine": s.enum(("cycles", "eevee", "workbench")),
        "resolution_x": s.integer(4, 16384),
        "resolution_y": s.integer(4, 16384),
        "resolution_percentage": s.integer(1, 32767, description="Checked against this Blender's RNA range"),
        "samples": s.integer(1, 65536),
        "transparent": s.boolean(),
    }, **out.PARAMS), min_properties=1),
    result=s.obj(dict({
        "engine": s.string(), "resolution": s.array(s.integer(), 2, 2), "percentage": s.integer(),
        "samples": s.nullable(s.integer()), "transparent": s.boolean(),
    }, **out.RESULT), required=("engine", "resolution", "percentage", "samples", "transparent") + out.RESULT_REQUIRED),
    errors=("unsupported", "invalid_params"),
)
def set_render_settings(ctx, params):
    ctx.delta.touch_settings("render")
    sc = scene()
    r = sc.render
    if "resolution_percentage" in params:
        out.check_percentage(r, params["resolution_percentage"])
    changes = out.Changes()
    try:
        if "engine" in params:
            changes.set(r, "engine", r.engine, lambda: "engine refused")  # remembered for a later refusal
            _set_engine(r, params["engine"])
            if r.engine == "CYCLES":
                changes.set(sc.cycles, "device", "CPU", lambda: "this Blender's Cycles has no CPU device")
        for key, attr in (("resolution_x", "resolution_x"), ("resolution_y", "resolution_y"),
                          ("resolution_percentage", "resolution_percentage"), ("transparent", "film_transparent")):
            if key in params:
                changes.set(r, attr, params[key], lambda: "%s refused" % key)
        if "samples" in params:
            if r.engine == "CYCLES":
                changes.set(sc.cycles, "samples", params["samples"], lambda: "samples refused")
            elif r.engine.startswith("BLENDER_EEVEE"):
                changes.set(sc.eevee, "taa_render_samples", params["samples"], lambda: "samples refused")
        out.apply(changes, sc, params)
    except CommandError:
        changes.undo()
        raise
    samples = sc.cycles.samples if r.engine == "CYCLES" else (sc.eevee.taa_render_samples if r.engine.startswith("BLENDER_EEVEE") else None)
    return dict({
        "engine": r.engine,
        "resolution": [r.resolution_x, r.resolution_y],
        "percentage": r.resolution_percentage,
        "samples": samples,
        "transparent": r.film_transparent,
    }, **out.state(sc))


# Extensions of the image formats Blender writes: a file name ending in one of them must
# name the format the scene writes (no `.png` file holding a JPEG).
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".exr", ".tif", ".tiff", ".webp", ".bmp", ".tga", ".hdr", ".jp2", ".j2c",
                    ".avif", ".dpx", ".cin", ".rgb", ".sgi")


def output_name(filename, ext, fmt):
    """`filename` with the extension the scene's format gets: added when it has none, kept
    when it is that one; another format's extension is refused."""
    root, given = os.path.splitext(filename)
    if given.lower() == ext:
        return filename
    if given.lower() in IMAGE_EXTENSIONS:
        raise CommandError("invalid_params", "%s ends in %s but the scene writes %s (%s): name it %s%s, leave the extension off, "
                                             "or set file_format first" % (filename, given, fmt, ext, root, ext))
    return filename + ext


# A preview (render_image's `preview`): small and quick, for a picture nobody sized.
PREVIEW_PX = 480
PREVIEW_SAMPLES = 16


def _preview_settings(sc):
    """Shrink the render to a preview for one picture; returns what to put back, as
    (owner, attribute, value). Only the percentage and the samples change: the
    resolution, its aspect and everything else the scene says stay as they are."""
    r = sc.render
    saved = []

    def change(owner, attr, value):
        if getattr(owner, attr) != value:
            saved.append((owner, attr, getattr(owner, attr)))
            setattr(owner, attr, value)

    longest = max(r.resolution_x, r.resolution_y) * r.resolution_percentage / 100.0
    if longest > PREVIEW_PX:
        change(r, "resolution_percentage", max(1, int(r.resolution_percentage * PREVIEW_PX / longest)))
    if r.engine == "CYCLES":
        change(sc.cycles, "samples", min(sc.cycles.samples, PREVIEW_SAMPLES))
    elif r.engine.startswith("BLENDER_EEVEE"):
        change(sc.eevee, "taa_render_samples", min(sc.eevee.taa_render_samples, PREVIEW_SAMPLES))
    return saved


@command(
    effect="mutate",
    summary="Render the active camera to a still in the scene's file format (PNG unless set otherwise) in the session's "
            "output directory; the extension follows the format.",
    params=s.obj({
        "filename": s.string(1, 128, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$",
                             description="A plain file name; the format's extension is added when it has none"),
        "preview": s.boolean(description="Render this one picture at most %d px on its longer side with at most %d samples; "
                                         "the scene's own settings are put back afterwards" % (PREVIEW_PX, PREVIEW_SAMPLES)),
    }, required=("filename",)),
    result=s.obj({
        "path": s.string(), "width": s.integer(1), "height": s.integer(1), "engine": s.string(), "bytes": s.integer(1),
        "file": s.string(description="The file's name, with the format's extension"), "format": s.string(), "color_depth": s.string(),
        "preview": s.boolean(),
    }, required=("path", "file", "width", "height", "engine", "bytes", "format", "color_depth", "preview")),
    errors=("no_camera", "path_refused", "invalid_params", "unsupported", refs_check.CODE),
    timeout_s=600,
)
def render_image(ctx, params):
    sc = scene()
    if sc.camera is None:
        raise CommandError("no_camera", "the scene has no active camera; set one with set_camera first")
    r = sc.render
    fmt = out.still_format(sc)
    name = output_name(params["filename"], out.extension(sc), fmt)
    try:
        path = paths.confined(ctx.output_dir, name)
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))
    saved = r.filepath
    had_result = "Render Result" in bpy.data.images
    restore = _preview_settings(sc) if params.get("preview") else []
    try:
        r.filepath = path
        refs_check.check_scene(ctx, "the render", render_scene=sc)
        # The render operator is the only way to render; it does not walk the scene
        # beyond what the render itself needs.
        bpy.ops.render.render(write_still=True)
        # The size rendered, before a preview's settings are put back.
        width, height = (int(n * r.resolution_percentage / 100.0) for n in (r.resolution_x, r.resolution_y))
    finally:
        r.filepath = saved
        for owner, attr, value in reversed(restore):
            setattr(owner, attr, value)
        # The first render of a session (or after the image was removed) creates Blender's
        # "Render Result" image: part of what this command changed.
        if not had_result and "Render Result" in bpy.data.images:
            ctx.delta.created_datablock("images", bpy.data.images["Render Result"])
    if not os.path.isfile(path):
        raise CommandError("blender_error", "the render finished but wrote no %s" % os.path.basename(path))
    return {
        "preview": bool(params.get("preview")),
        "path": path,
        "file": os.path.basename(path),
        "width": width,
        "height": height,
        "engine": r.engine,
        "bytes": os.path.getsize(path),
        "format": fmt,
        "color_depth": r.image_settings.color_depth,
    }
