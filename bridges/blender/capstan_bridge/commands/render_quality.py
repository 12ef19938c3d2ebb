"""Cycles quality knobs and the still-image output format, which `set_render_settings`
does not cover: light-path bounces, adaptive sampling threshold, and PNG/JPEG/EXR output
with a colour depth that suits the format."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .common import scene

FORMATS = ("PNG", "JPEG", "OPEN_EXR")


@command(
    effect="mutate",
    summary="Cycles light-path bounces, adaptive sampling threshold, denoising, and the output file format (PNG, JPEG or OpenEXR).",
    params=s.obj({
        "max_bounces": s.integer(0, 64, description="Total light-path bounces; diffuse, glossy and transmission follow it"),
        "adaptive_threshold": s.number(0.001, 1, description="Noise threshold of adaptive sampling (turns it on)"),
        "denoise": s.boolean(),
        "file_format": s.enum(FORMATS),
    }, min_properties=1),
    result=s.obj({
        "max_bounces": s.integer(0), "diffuse_bounces": s.integer(0), "glossy_bounces": s.integer(0),
        "transmission_bounces": s.integer(0), "adaptive_sampling": s.boolean(), "adaptive_threshold": s.number(),
        "denoise": s.boolean(), "file_format": s.string(), "color_depth": s.string(),
    }, required=("max_bounces", "diffuse_bounces", "glossy_bounces", "transmission_bounces", "adaptive_sampling",
                 "adaptive_threshold", "denoise", "file_format", "color_depth")),
    errors=("unsupported",),
)
def set_render_quality(ctx, params):
    sc = scene()
    cycles = getattr(sc, "cycles", None)
    if cycles is None:
        raise CommandError("unsupported", "this Blender has no Cycles settings")
    ctx.delta.touch_settings("render")
    if "max_bounces" in params:
        n = params["max_bounces"]
        cycles.max_bounces = n
        cycles.diffuse_bounces = min(n, max(1, n // 2))
        cycles.glossy_bounces = min(n, max(1, n // 2))
        cycles.transmission_bounces = n
    if "adaptive_threshold" in params:
        cycles.use_adaptive_sampling = True
        cycles.adaptive_threshold = params["adaptive_threshold"]
    if "denoise" in params:
        cycles.use_denoising = params["denoise"]
    if "file_format" in params:
        image = sc.render.image_settings
        image.file_format = params["file_format"]
        image.color_depth = {"PNG": "16", "JPEG": "8", "OPEN_EXR": "32"}[params["file_format"]]
    image = sc.render.image_settings
    return {
        "max_bounces": cycles.max_bounces, "diffuse_bounces": cycles.diffuse_bounces, "glossy_bounces": cycles.glossy_bounces,
        "transmission_bounces": cycles.transmission_bounces, "adaptive_sampling": cycles.use_adaptive_sampling,
        "adaptive_threshold": round(cycles.adaptive_threshold, 6), "denoise": cycles.use_denoising,
        "file_format": image.file_format, "color_depth": image.color_depth,
    }
