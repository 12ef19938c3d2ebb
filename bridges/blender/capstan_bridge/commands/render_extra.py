"""Rendering beyond one still: frame ranges to image sequences in the scene's file format
(PNG unless set otherwise) or to one FFmpeg video where the build has FFmpeg, colour
management, and the render configuration facts an audit needs."""

import os
import re

import bpy

from .. import file_refs_check as refs_check
from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError
from . import render_output as out
from . import scene_compositor
from .common import scene

MAX_FRAMES = 2400
PATTERN = r"^[A-Za-z0-9_-]{0,60}#{1,8}[A-Za-z0-9_-]{0,60}$"


def frame_name(pattern, frame, ext=".png"):
    """`frame_####` with frame 7 gives `frame_0007.png` (`.jpg`, `.exr`... by format)."""
    hashes = re.search(r"#+", pattern)
    return "%s%0*d%s%s" % (pattern[:hashes.start()], hashes.end() - hashes.start(), frame, pattern[hashes.end():], ext)


@command(
    effect="mutate",
    summary="Render frames start..end (every step-th) to the output directory: an image sequence in the scene's file "
            "format (PNG by default) or one FFMPEG video; the current frame is restored.",
    params=s.obj({
        "frame_start": s.integer(-100000, 1000000),
        "frame_end": s.integer(-100000, 1000000),
        "step": s.integer(1, 100),
        "pattern": s.string(1, 128, pattern=PATTERN, description="File name with #s for the frame number, no extension"),
    }, required=("frame_start", "frame_end")),
    result=s.obj({
        "files": s.array(s.string()), "frames": s.array(s.integer()), "folder": s.string(), "width": s.integer(1),
        "height": s.integer(1), "engine": s.string(), "path": s.string(description="The first file"),
        "format": s.string(),
    }, required=("files", "frames", "folder", "width", "height", "engine", "path", "format")),
    errors=("no_camera", "invalid_params", "limit_exceeded", "path_refused", "unsupported", refs_check.CODE),
    timeout_s=3600,
)
def render_frames(ctx, params):
    sc = scene()
    start, end, step = params["frame_start"], params["frame_end"], params.get("step", 1)
    if end < start:
        raise CommandError("invalid_params", "frame_end (%d) is before frame_start (%d)" % (end, start))
    if end - start > MAX_FRAMES:
        raise CommandError("limit_exceeded", "at most %d frames past frame_start" % MAX_FRAMES)
    if sc.camera is None:
        raise CommandError("no_camera", "the scene has no active camera; set one first")
    frames = list(range(start, end + 1, step))
    pattern = params.get("pattern", "frame_####")
    r = sc.render
    fmt = r.image_settings.file_format
    if fmt == out.VIDEO_FORMAT:
        return _render_video(ctx, sc, start, end, step, frames, pattern)
    try:
        targets = [paths.confined(ctx.output_dir, frame_name(pattern, f, out.extension(sc))) for f in frames]
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))
    saved = (sc.frame_current, r.filepath)
    try:
        r.filepath = targets[0]
        refs_check.check_scene(ctx, "the render", render_scene=sc)
        for frame, path in zip(frames, targets):
            sc.frame_set(frame)
            r.filepath = path
            # Rendering has no data-API entry point; one still per frame keeps every
            # file name ours (an animation render would name files itself).
            bpy.ops.render.render(write_still=True)
    finally:
        r.filepath = saved[1]
        sc.frame_set(saved[0])
    missing = [p for p in targets if not os.path.isfile(p)]
    if missing:
        raise CommandError("blender_error", "the render wrote no %s" % os.path.basename(missing[0]))
    return _answer(ctx, sc, targets, frames, fmt)


def _answer(ctx, sc, files, frames, fmt):
    r = sc.render
    scale = r.resolution_percentage / 100.0
    return {"files": [os.path.basename(p) for p in files], "frames": frames, "folder": ctx.output_dir,
            "width": int(r.resolution_x * scale), "height": int(r.resolution_y * scale), "engine": r.engine,
            "path": files[0], "format": fmt}


def _render_video(ctx, sc, start, end, step, frames, pattern):
    """One FFmpeg video of the frames: Blender names it, the #s becoming the frame range
    (`turn_####` gives `turn_0001-0048.mp4`); the scene's frame range is restored."""
    if not bpy.app.build_options.codec_ffmpeg:
        raise CommandError("unsupported", "this Blender %s was built without FFmpeg: render an image sequence" % bpy.app.version_string)
    r = sc.render
    saved = (sc.frame_current, sc.frame_start, sc.frame_end, sc.frame_step, r.filepath)
    try:
        sc.frame_start, sc.frame_end, sc.frame_step = start, end, step
        try:
            r.filepath = paths.confined(ctx.output_dir, pattern)
            path = paths.confined(ctx.output_dir, os.path.basename(r.frame_path(frame=start)))
        except paths.PathRefused as e:
            raise CommandError("path_refused", str(e))
        refs_check.check_scene(ctx, "the render", render_scene=sc)
        # A video is written by the animation render alone: one file, named by Blender
        # from the path checked above.
        bpy.ops.render.render(animation=True)
    finally:
        sc.frame_start, sc.frame_end, sc.frame_step, r.filepath = saved[1], saved[2], saved[3], saved[4]
        sc.frame_set(saved[0])
    if not os.path.isfile(path):
        raise CommandError("blender_error", "the render wrote no %s" % os.path.basename(path))
    return _answer(ctx, sc, [path], frames, out.VIDEO_FORMAT)


VIEW_TRANSFORMS = ("AgX", "Filmic", "Standard", "Khronos PBR Neutral")


@command(
    effect="mutate",
    summary="Colour management of the render: view transform, look, exposure and gamma.",
    params=s.obj({
        "view_transform": s.enum(VIEW_TRANSFORMS),
        "look": s.string(1, 64, pattern=r"^[A-Za-z0-9 _+().-]{1,64}$", description="A look of the view transform, e.g. 'Punchy' (or 'AgX - Punchy'), or 'None'"),
        "exposure": s.number(-10, 10),
        "gamma": s.number(0, 5),
    }, min_properties=1),
    result=s.obj({"view_transform": s.string(), "look": s.string(), "exposure": s.number(), "gamma": s.number()},
                 required=("view_transform", "look", "exposure", "gamma")),
    errors=("unsupported", "invalid_params"),
)
def set_color_management(ctx, params):
    view = scene().view_settings
    before = (view.view_transform, view.look)
    ctx.delta.touch_settings("render")
    # The transforms and looks come from the OpenColorIO configuration: their RNA
    # enums are dynamic, so a name is checked by setting it.
    if "view_transform" in params:
        try:
            view.view_transform = params["view_transform"]
        except TypeError:
            raise CommandError("unsupported", "this Blender's colour configuration has no view transform %r" % params["view_transform"])
    if "look" in params:
        look = params["look"]
        candidates = [look] if look == "None" else ["%s - %s" % (view.view_transform, look), look]
        for name in candidates:
            try:
                view.look = name
                break
            except TypeError:
                continue
        else:
            view.view_transform, view.look = before
            raise CommandError("invalid_params", "%r is not a look of %s" % (look, view.view_transform))
    elif view.view_transform != before[0]:
        view.look = "None"
    if "exposure" in params:
        view.exposure = params["exposure"]
    if "gamma" in params:
        view.gamma = params["gamma"]
    return {"view_transform": view.view_transform, "look": view.look, "exposure": round(view.exposure, 5),
            "gamma": round(view.gamma, 5)}


@command(
    effect="read",
    summary="The render configuration an audit checks: engine, samples, resolution, output format, motion blur, compositor, colour management, camera and depth of field.",
    params=s.obj({}),
    result=s.obj({
        "engine": s.string(), "samples": s.nullable(s.integer()), "resolution": s.array(s.integer(), 2, 2),
        "percentage": s.integer(), "file_format": s.string(), "color_depth": s.string(), "film_transparent": s.boolean(),
        "motion_blur": s.boolean(), "denoising": s.nullable(s.boolean()), "compositor_nodes": s.integer(0),
        "view_transform": s.string(), "look": s.string(), "exposure": s.number(),
        "frame_range": s.array(s.integer(), 2, 2), "fps": s.number(),
        "camera": s.nullable(s.string()), "dof": s.boolean(), "fstop": s.nullable(s.number()),
    }, required=("engine", "samples", "resolution", "percentage", "file_format", "color_depth", "film_transparent",
                 "motion_blur", "denoising", "compositor_nodes", "view_transform", "look", "exposure", "frame_range",
                 "fps", "camera", "dof", "fstop")),
)
def render_config(ctx, params):
    sc = scene()
    r = sc.render
    engine = r.engine
    samples = sc.cycles.samples if engine == "CYCLES" else (sc.eevee.taa_render_samples if engine.startswith("BLENDER_EEVEE") else None)
    tree = scene_compositor.tree(sc)
    cam = sc.camera
    dof = cam.data.dof if cam is not None and cam.type == "CAMERA" else None
    return {
        "engine": engine, "samples": samples, "resolution": [r.resolution_x, r.resolution_y],
        "percentage": r.resolution_percentage, "file_format": r.image_settings.file_format,
        "color_depth": r.image_settings.color_depth, "film_transparent": r.film_transparent,
        "motion_blur": r.use_motion_blur, "denoising": sc.cycles.use_denoising if engine == "CYCLES" else None,
        "compositor_nodes": len(tree.nodes) if scene_compositor.enabled(sc) else 0,
        "view_transform": sc.view_settings.view_transform, "look": sc.view_settings.look,
        "exposure": round(sc.view_settings.exposure, 5), "frame_range": [sc.frame_start, sc.frame_end],
        "fps": round(r.fps / r.fps_base, 5), "camera": cam.name if cam else None,
        "dof": bool(dof and dof.use_dof), "fstop": round(dof.aperture_fstop, 5) if dof else None,
    }
