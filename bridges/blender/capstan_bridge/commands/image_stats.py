"""Statistics of a PNG in the session output folder (a render of this session): size,
luminance, clipping, black and transparent shares, optionally over a region given in
frame fractions (x from the left, y from the bottom: camera_framing's bounds). A read:
the image is loaded as a temporary datablock and removed before answering.

Values are the stored (display-encoded) values in 0..1, not scene-linear light: the
file's bytes divided by 255 (or by 65535 for a 16-bit PNG). The datablock is read with
the Non-Color colour space so that a 16-bit file (which Blender decodes to floats) is
not linearised either. `empty`: every pixel transparent, or every pixel the same
colour up to a render's dither (each channel's standard deviation below 0.005, 1.3 8-bit
levels), such as a render of nothing but the world background."""

import os
import struct

import bpy
import numpy as np

from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found

MAX_SIDE = 8192
MAX_PIXELS = 4096 * 4096
REC709 = np.array([0.2126, 0.7152, 0.0722])
CLIP_AT = 254.0 / 255.0 - 1e-6
BLACK_AT = 1.0 / 255.0 + 1e-6
UNIFORM_STD = 0.005
# "All pixels equal" allows for the render's dither (noise of about one 8-bit level):
# every channel's standard deviation below UNIFORM_STD.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

FILENAME = s.string(5, 128, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.png$",
                    description="A plain PNG file name in the session output folder")
FRACTION = s.number(-1000, 1000)


def _png_size(path):
    """(width, height) from the PNG header, before Blender decodes anything."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        raise invalid_target("%s is not a PNG file" % os.path.basename(path))
    return struct.unpack(">II", head[16:24])


def pixel_box(region, width, height):
    """Columns [c0, c1) and rows [r0, r1) whose pixel centres lie in the region."""
    if region is None:
        return 0, width, 0, height
    x0, y0, x1, y1 = region
    if x0 >= x1 or y0 >= y1:
        raise CommandError("invalid_params", "region must be [x_min, y_min, x_max, y_max] with x_min < x_max and y_min < y_max")
    c0, c1 = max(0, int(np.ceil(x0 * width - 0.5))), min(width, int(np.floor(x1 * width - 0.5)) + 1)
    r0, r1 = max(0, int(np.ceil(y0 * height - 0.5))), min(height, int(np.floor(y1 * height - 0.5)) + 1)
    if c0 >= c1 or r0 >= r1:
        raise CommandError("invalid_params", "region %s holds no pixel centre of the %dx%d image" % (list(region), width, height))
    return c0, c1, r0, r1


def stats(rgba):
    """The statistics of an Nx4 array of values in 0..1."""
    rgb, alpha = rgba[:, :3], rgba[:, 3]
    lum = rgb.astype(np.float64) @ REC709
    std = float(lum.std())
    transparent = alpha < 0.01
    spread = rgba.std(axis=0, dtype=np.float64)
    return {
        "mean_luminance": round(float(lum.mean()), 6),
        "std_luminance": round(std, 6),
        "mean_rgb": [round(float(v), 6) for v in rgb.mean(axis=0, dtype=np.float64)],
        "clipped_fraction": round(float((rgb >= CLIP_AT).any(axis=1).mean()), 6),
        "black_fraction": round(float((rgb <= BLACK_AT).all(axis=1).mean()), 6),
        "alpha_mean": round(float(alpha.mean(dtype=np.float64)), 6),
        "transparent_fraction": round(float(transparent.mean()), 6),
        "uniform": std < UNIFORM_STD,
        "empty": bool(transparent.all() or (spread < UNIFORM_STD).all()),
    }


def _read_pixels(path, width, height):
    image = bpy.data.images.load(path, check_existing=False)
    try:
        image.colorspace_settings.name = "Non-Color"
        if tuple(image.size) != (width, height):
            raise invalid_target("Blender read %s as %dx%d, its header says %dx%d" % (
                os.path.basename(path), image.size[0], image.size[1], width, height))
        channels = image.channels
        buf = np.empty(width * height * channels, dtype=np.float32)
        image.pixels.foreach_get(buf)
    except RuntimeError as e:
        raise invalid_target("Blender cannot decode %s: %s" % (os.path.basename(path), e))
    finally:
        bpy.data.images.remove(image)
    buf = buf.reshape(height, width, channels)
    if channels == 4:
        return buf
    out = np.ones((height, width, 4), dtype=np.float32)
    out[:, :, :3] = buf[:, :, :1] if channels < 3 else buf[:, :, :3]
    return out


@command(
    effect="read",
    summary="Statistics of a PNG in the session output folder (whole or a region in frame fractions): luminance, clipping, black, transparency, emptiness.",
    params=s.obj({
        "filename": FILENAME,
        "region": s.array(FRACTION, 4, 4, description="[x_min, y_min, x_max, y_max] in frame fractions, y up (camera_framing's bounds); clipped to the image"),
    }, required=("filename",)),
    result=s.obj({
        "filename": s.string(), "width": s.integer(1), "height": s.integer(1),
        "region_pixels": s.array(s.integer(0), 4, 4, description="[column_min, row_min, column_max, row_max), rows from the bottom"),
        "pixels": s.integer(1),
        "mean_luminance": s.number(0, 1, description="Rec.709 luma of the stored values"), "std_luminance": s.number(0),
        "mean_rgb": s.vector(3), "clipped_fraction": s.number(0, 1), "black_fraction": s.number(0, 1),
        "alpha_mean": s.number(0, 1), "transparent_fraction": s.number(0, 1), "uniform": s.boolean(), "empty": s.boolean(),
    }, required=("filename", "width", "height", "region_pixels", "pixels", "mean_luminance", "std_luminance", "mean_rgb",
                 "clipped_fraction", "black_fraction", "alpha_mean", "transparent_fraction", "uniform", "empty")),
    errors=("invalid_params", "not_found", "invalid_target", "path_refused", "limit_exceeded"),
    timeout_s=120,
)
def image_stats(ctx, params):
    try:
        path = paths.confined(ctx.output_dir, params["filename"])
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))
    if not os.path.isfile(path):
        raise not_found("file in the session output folder", params["filename"])
    width, height = _png_size(path)
    if width < 1 or height < 1 or width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise CommandError("limit_exceeded", "%s is %dx%d; image_stats reads at most %d pixels a side and %d pixels in all"
                           % (params["filename"], width, height, MAX_SIDE, MAX_PIXELS))
    c0, c1, r0, r1 = pixel_box(params.get("region"), width, height)
    rgba = _read_pixels(path, width, height)[r0:r1, c0:c1].reshape(-1, 4)
    out = {"filename": params["filename"], "width": width, "height": height, "region_pixels": [c0, r0, c1, r1],
           "pixels": int(len(rgba))}
    out.update(stats(rgba))
    return out
