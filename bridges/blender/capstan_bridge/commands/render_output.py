"""The render settings beyond engine and size: viewport samples, denoising, motion blur,
and the output file format with its main settings, set together so a refusal changes
nothing.

What this Blender offers is read from the running Blender, never from a list kept here:

- a denoiser (Cycles' `denoiser`, `preview_denoiser`) is a dynamic enum whose items
  depend on the build and the devices (OptiX needs an NVIDIA GPU); its items are found
  by setting each candidate and restoring the old value;
- colour depths, colour modes and codecs depend on the file format (PNG: 8 or 16, EXR:
  16 or 32; JPEG has no alpha); an item the format refuses is reported with the items
  the format offers;
- the resolution percentage is checked against the RNA hard range (1..32767 today).

The one version difference here: from Blender 5.0 an image format has a media type
(image, multi-layer image, video) and `file_format` offers only the items of the
current media type, so OpenEXR multilayer and FFmpeg are reached through it;
4.5 LTS has no media type and sets them directly (`set_file_format`).
"""

import bpy

from ..core import schema as s
from ..errors import CommandError
from .rna_versions import missing_item_note

IMAGE_FORMATS = ("PNG", "JPEG", "OPEN_EXR", "OPEN_EXR_MULTILAYER", "TIFF", "WEBP", "BMP", "TARGA", "HDR", "JPEG2000", "AVIF")
VIDEO_FORMAT = "FFMPEG"
FILE_FORMATS = IMAGE_FORMATS + (VIDEO_FORMAT,)
COLOR_DEPTHS = ("8", "10", "12", "16", "32")
COLOR_MODES = ("BW", "RGB", "RGBA")
EXR_CODECS = ("NONE", "ZIP", "PIZ", "DWAA", "DWAB", "HTJ2K", "ZIPS", "RLE", "PXR24", "B44", "B44A")
DENOISERS = ("OPENIMAGEDENOISE", "OPTIX")
VIEWPORT_DENOISERS = ("AUTO",) + DENOISERS
VIDEO_CONTAINERS = ("MPEG4", "MKV", "WEBM", "AVI", "QUICKTIME", "OGG")
VIDEO_CODECS = ("H264", "H265", "AV1", "WEBM", "FFV1", "PNG", "PRORES", "QTRLE", "THEORA", "MPEG4", "DNXHD")
# The media type (5.0+) each file format belongs to.
MEDIA_TYPE = {"OPEN_EXR_MULTILAYER": "MULTI_LAYER_IMAGE", VIDEO_FORMAT: "VIDEO"}

PARAMS = {
    "viewport_samples": s.integer(1, 65536, description="Viewport samples (Cycles preview samples, EEVEE viewport samples)"),
    "denoise": s.boolean(description="Denoise the final render (Cycles)"),
    "viewport_denoise": s.boolean(description="Denoise the viewport (Cycles)"),
    "denoiser": s.enum(DENOISERS, description="The render denoiser; OPTIX only where this Blender offers it"),
    "viewport_denoiser": s.enum(VIEWPORT_DENOISERS),
    "motion_blur": s.boolean(),
    "shutter": s.number(0, 100, description="Motion blur shutter time in frames"),
    "file_format": s.enum(FILE_FORMATS),
    "color_depth": s.enum(COLOR_DEPTHS, description="Bits per channel the format offers (PNG 8/16, EXR 16/32)"),
    "color_mode": s.enum(COLOR_MODES),
    "exr_codec": s.enum(EXR_CODECS),
    "quality": s.integer(0, 100, description="JPEG/WebP quality, or PNG compression"),
    "video_container": s.enum(VIDEO_CONTAINERS),
    "video_codec": s.enum(VIDEO_CODECS),
}

RESULT = {
    "viewport_samples": s.nullable(s.integer()),
    "denoise": s.boolean(), "viewport_denoise": s.boolean(), "denoiser": s.string(), "viewport_denoiser": s.string(),
    "motion_blur": s.boolean(), "shutter": s.number(),
    "output": s.obj({
        "file_format": s.string(), "color_depth": s.string(), "color_mode": s.string(), "quality": s.integer(),
        "exr_codec": s.string(), "extension": s.string(),
        "video": s.nullable(s.obj({"container": s.string(), "codec": s.string()}, required=("container", "codec"))),
    }, required=("file_format", "color_depth", "color_mode", "quality", "exr_codec", "extension", "video")),
}
RESULT_REQUIRED = tuple(RESULT)


class Changes:
    """Every assignment of one call, with the value before it, so a refusal takes them
    all back: bad input loses nothing."""

    def __init__(self):
        self.done = []
        self.side = []

    def set(self, struct, attr, value, refuse, code="invalid_params"):
        before = getattr(struct, attr)
        try:
            setattr(struct, attr, value)
        except (TypeError, ValueError):
            raise CommandError(code, refuse())
        self.done.append((struct, attr, before))

    def remember(self, struct, attrs):
        """Values a later assignment changes as a side effect (a new file format resets the
        colour depth): put back last on undo."""
        self.side += [(struct, a, getattr(struct, a)) for a in attrs]

    def undo(self):
        # An item only the old format offers (a depth, a 4.5-style format under a 5.x media
        # type) fails until what it depends on is back: those go in a second pass.
        failed = []
        for struct, attr, before in reversed(self.done):
            try:
                setattr(struct, attr, before)
            except (TypeError, ValueError):
                failed.append((struct, attr, before))
        for struct, attr, before in failed + self.side:
            try:
                setattr(struct, attr, before)
            except (TypeError, ValueError):
                pass
        self.done.clear()
        self.side.clear()


def offered(struct, attr, candidates):
    """The candidates `struct.attr` accepts now, tried one by one on the live RNA (dynamic
    enums list no items); the value is restored."""
    before = getattr(struct, attr)
    found = []
    for item in candidates:
        try:
            setattr(struct, attr, item)
            found.append(item)
        except (TypeError, ValueError):
            continue
    setattr(struct, attr, before)
    return found


def _static_items(struct, attr):
    return [i.identifier for i in struct.bl_rna.properties[attr].enum_items]


def set_file_format(changes, image, fmt):
    """Set the file format, through the media type from Blender 5.0."""
    if fmt == VIDEO_FORMAT and not bpy.app.build_options.codec_ffmpeg:
        raise CommandError("unsupported", "this Blender %s was built without FFmpeg: no video output" % bpy.app.version_string)
    changes.remember(image, ("color_depth", "color_mode", "exr_codec", "quality", "compression"))
    if hasattr(image, "media_type"):
        changes.set(image, "media_type", MEDIA_TYPE.get(fmt, "IMAGE"), lambda: "this Blender has no media type for %s" % fmt)
    changes.set(image, "file_format", fmt, lambda: "this Blender %s offers no %s output%s; it offers %s" % (
        bpy.app.version_string, fmt, missing_item_note("ImageFormatSettings", "file_format", fmt),
        ", ".join(f for f in _all_file_formats(image) if f in FILE_FORMATS)), code="unsupported")


def _all_file_formats(image):
    if not hasattr(image, "media_type"):
        return _static_items(image, "file_format")
    media, fmt = image.media_type, image.file_format
    found = []
    for kind in ("IMAGE", "MULTI_LAYER_IMAGE", "VIDEO"):
        image.media_type = kind
        found += [f for f in offered(image, "file_format", FILE_FORMATS) if f not in found]
    image.media_type = media
    image.file_format = fmt
    return found


def _refuse_item(image, attr, value, what):
    def message():
        items = offered(image, attr, _static_items(image, attr))
        return "%s %s is not offered for %s here; it offers %s%s" % (
            what, value, image.file_format, ", ".join(items) or "none",
            missing_item_note("ImageFormatSettings", attr, value))
    return message


def _denoiser(changes, cycles, attr, value):
    def message():
        return "this Blender %s offers no %s denoiser (OptiX needs an NVIDIA GPU and a build with it); it offers %s" % (
            bpy.app.version_string, value, ", ".join(offered(cycles, attr, VIEWPORT_DENOISERS)) or "none")
    changes.set(cycles, attr, value, message, code="unsupported")


def check_percentage(r, value):
    prop = r.bl_rna.properties["resolution_percentage"]
    if not prop.hard_min <= value <= prop.hard_max:
        raise CommandError("invalid_params", "resolution percentage %d is outside Blender's range %d..%d" % (value, prop.hard_min, prop.hard_max))


def apply(changes, sc, params):
    """Set what params names of the settings this module covers (PARAMS)."""
    r = sc.render
    cycles = sc.cycles
    if "viewport_samples" in params:
        if r.engine == "CYCLES":
            changes.set(cycles, "preview_samples", params["viewport_samples"], lambda: "viewport samples refused")
        elif r.engine.startswith("BLENDER_EEVEE"):
            changes.set(sc.eevee, "taa_samples", params["viewport_samples"], lambda: "viewport samples refused")
    for key, attr in (("denoise", "use_denoising"), ("viewport_denoise", "use_preview_denoising")):
        if key in params:
            changes.set(cycles, attr, params[key], lambda: "%s refused" % key)
    if "denoiser" in params:
        _denoiser(changes, cycles, "denoiser", params["denoiser"])
    if "viewport_denoiser" in params:
        _denoiser(changes, cycles, "preview_denoiser", params["viewport_denoiser"])
    if "motion_blur" in params:
        changes.set(r, "use_motion_blur", params["motion_blur"], lambda: "motion blur refused")
    if "shutter" in params:
        changes.set(r, "motion_blur_shutter", params["shutter"], lambda: "shutter refused")
    image = r.image_settings
    # A setting the format does not offer: with the format given in the same call the
    # arguments contradict each other (invalid_params); with the scene's own format, that
    # format lacks it (unsupported), and the message says what it offers.
    mismatch = "invalid_params" if "file_format" in params else "unsupported"
    if "file_format" in params:
        set_file_format(changes, image, params["file_format"])
    for key, what in (("color_depth", "colour depth"), ("color_mode", "colour mode"), ("exr_codec", "EXR codec")):
        if key in params:
            changes.set(image, key, params[key], _refuse_item(image, key, params[key], what), code=mismatch)
    if "quality" in params:
        attr = "compression" if image.file_format == "PNG" else "quality"
        changes.set(image, attr, params["quality"], lambda: "quality refused")
    for key, attr in (("video_container", "format"), ("video_codec", "codec")):
        if key in params:
            if image.file_format != VIDEO_FORMAT:
                raise CommandError(mismatch, "%s needs the FFMPEG file format (the scene writes %s)" % (key, image.file_format))
            changes.set(r.ffmpeg, attr, params[key], _refuse_item_ffmpeg(r.ffmpeg, attr, params[key]), code="unsupported")


def _refuse_item_ffmpeg(ffmpeg, attr, value):
    return lambda: "FFmpeg %s %s is not offered by this Blender; it offers %s" % (
        attr, value, ", ".join(offered(ffmpeg, attr, _static_items(ffmpeg, attr))))


def state(sc):
    r = sc.render
    cycles = sc.cycles
    image = r.image_settings
    engine = r.engine
    viewport = cycles.preview_samples if engine == "CYCLES" else (sc.eevee.taa_samples if engine.startswith("BLENDER_EEVEE") else None)
    video = image.file_format == VIDEO_FORMAT
    return {
        "viewport_samples": viewport,
        "denoise": cycles.use_denoising, "viewport_denoise": cycles.use_preview_denoising,
        "denoiser": cycles.denoiser, "viewport_denoiser": cycles.preview_denoiser,
        "motion_blur": r.use_motion_blur, "shutter": round(r.motion_blur_shutter, 5),
        "output": {
            "file_format": image.file_format, "color_depth": image.color_depth, "color_mode": image.color_mode,
            "quality": image.compression if image.file_format == "PNG" else image.quality,
            "exr_codec": image.exr_codec, "extension": extension(sc),
            "video": {"container": r.ffmpeg.format, "codec": r.ffmpeg.codec} if video else None,
        },
    }


def extension(sc):
    """The extension Blender gives the scene's output files ('.png', '.jpg', '.exr', '.mp4')."""
    return sc.render.file_extension


def still_format(sc):
    """The scene's file format for a still or an image sequence; video is refused."""
    fmt = sc.render.image_settings.file_format
    if fmt == VIDEO_FORMAT:
        raise CommandError("unsupported", "the scene writes FFmpeg video, which a still cannot be; set an image file_format first")
    return fmt

