"""Render output in full, against real Blender (4.5 LTS and 5.2 LTS): the resolution
percentage in Blender's own range, viewport samples, denoising and the denoiser,
motion blur, the output file format with its settings, stills and sequences in that
format, FFmpeg video, and the compositor on both lines."""

import os

import bpy
import pytest

from lookdev_support import error_code, fresh, png_pixels  # noqa: F401

JPEG_MAGIC = b"\xff\xd8\xff"
EXR_MAGIC = b"\x76\x2f\x31\x01"


@pytest.fixture(autouse=True)
def factory_scene_after(client):
    """Tests in other files share the session's scene: leave it writing PNG again."""
    yield
    client.ok("reset_scene")


def head(path, n=4):
    with open(path, "rb") as f:
        return f.read(n)


def small(client, **extra):
    client.ok("set_render_settings", engine="cycles", resolution_x=32, resolution_y=24, samples=1, **extra)


def test_percentage_above_100_reads_back_and_outside_the_rna_range_is_refused(fresh):
    r = fresh.ok("set_render_settings", resolution_percentage=200)
    assert r["percentage"] == 200 and bpy.context.scene.render.resolution_percentage == 200
    assert r["delta"]["settings"] == ["render"]
    assert error_code(fresh, "set_render_settings", resolution_percentage=40000) == "invalid_params"
    assert bpy.context.scene.render.resolution_percentage == 200


def test_samples_denoising_and_motion_blur(fresh):
    sc = bpy.context.scene
    r = fresh.ok("set_render_settings", engine="cycles", samples=12, viewport_samples=5, denoise=False, viewport_denoise=True,
                 denoiser="OPENIMAGEDENOISE", viewport_denoiser="OPENIMAGEDENOISE", motion_blur=True, shutter=0.25)
    assert (sc.cycles.samples, sc.cycles.preview_samples) == (12, 5)
    assert (sc.cycles.use_denoising, sc.cycles.use_preview_denoising) == (False, True)
    assert (sc.cycles.denoiser, sc.cycles.preview_denoiser) == ("OPENIMAGEDENOISE", "OPENIMAGEDENOISE")
    assert sc.render.use_motion_blur and abs(sc.render.motion_blur_shutter - 0.25) < 1e-6
    assert r["viewport_samples"] == 5 and r["denoiser"] == "OPENIMAGEDENOISE" and r["shutter"] == 0.25
    # EEVEE keeps its own render and viewport samples (same names in 4.5 and 5.2).
    r = fresh.ok("set_render_settings", engine="eevee", samples=33, viewport_samples=9)
    assert (sc.eevee.taa_render_samples, sc.eevee.taa_samples) == (33, 9) and r["viewport_samples"] == 9


def test_an_unavailable_denoiser_is_refused_naming_what_this_blender_offers(fresh):
    sc = bpy.context.scene
    doc = fresh.call("set_render_settings", samples=7, denoiser="OPTIX")
    if doc["ok"]:  # a build with an OptiX device
        assert sc.cycles.denoiser == "OPTIX"
        return
    assert doc["error"]["code"] == "unsupported"
    assert "OPENIMAGEDENOISE" in doc["error"]["message"]
    assert sc.cycles.denoiser == "OPENIMAGEDENOISE" and sc.eevee.taa_render_samples != 7, "a refusal changes nothing"


def test_exr_multilayer_32_bit_reads_back(fresh):
    image = bpy.context.scene.render.image_settings
    r = fresh.ok("set_render_settings", file_format="OPEN_EXR_MULTILAYER", color_depth="32", exr_codec="DWAA", color_mode="RGBA")
    assert (image.file_format, image.color_depth, image.exr_codec, image.color_mode) == ("OPEN_EXR_MULTILAYER", "32", "DWAA", "RGBA")
    assert r["output"]["file_format"] == "OPEN_EXR_MULTILAYER" and r["output"]["extension"] == ".exr"
    assert r["output"]["video"] is None


def test_a_depth_the_format_lacks_is_refused_and_loses_nothing(fresh):
    image = bpy.context.scene.render.image_settings
    fresh.ok("set_render_settings", file_format="TIFF", color_depth="16")
    doc = fresh.call("set_render_settings", file_format="PNG", color_depth="32", resolution_x=50)
    assert doc["ok"] is False and doc["error"]["code"] == "invalid_params"
    assert "8, 16" in doc["error"]["message"], doc["error"]["message"]
    assert (image.file_format, image.color_depth) == ("TIFF", "16")
    assert bpy.context.scene.render.resolution_x != 50
    assert error_code(fresh, "set_render_settings", file_format="JPEG", color_mode="RGBA") == "invalid_params"
    assert image.file_format == "TIFF"
    # Without a format in the call, the scene's format lacks it.
    doc = fresh.call("set_render_settings", color_depth="32")
    assert doc["error"]["code"] == "unsupported" and "TIFF" in doc["error"]["message"]
    assert image.color_depth == "16"


def test_a_jpeg_render_writes_a_jpeg(fresh, bridge):
    small(fresh, file_format="JPEG", quality=80)
    r = fresh.ok("render_image", filename="shot")
    assert r["format"] == "JPEG" and r["path"] == os.path.join(bridge.output_dir, "shot.jpg")
    assert head(r["path"], 3) == JPEG_MAGIC
    r = fresh.ok("render_image", filename="named.jpg")
    assert os.path.basename(r["path"]) == "named.jpg" and head(r["path"], 3) == JPEG_MAGIC
    # Another format's extension is refused rather than hiding a JPEG behind .png.
    assert error_code(fresh, "render_image", filename="wrong.png") == "invalid_params"
    assert not os.path.exists(os.path.join(bridge.output_dir, "wrong.png"))


def test_png_stays_the_default(fresh, bridge):
    small(fresh)
    r = fresh.ok("render_image", filename="plain")
    assert r["format"] == "PNG" and r["path"].endswith("plain.png")
    assert png_pixels(r["path"])[:2] == (32, 24)


def test_an_exr_sequence(fresh, bridge):
    small(fresh, file_format="OPEN_EXR", color_depth="32")
    r = fresh.ok("render_frames", frame_start=1, frame_end=2, pattern="ex_##")
    assert r["files"] == ["ex_01.exr", "ex_02.exr"] and r["format"] == "OPEN_EXR"
    for name in r["files"]:
        assert head(os.path.join(bridge.output_dir, name)) == EXR_MAGIC


def test_ffmpeg_video_where_the_build_has_it(fresh, bridge):
    sc = bpy.context.scene
    small(fresh)
    if not bpy.app.build_options.codec_ffmpeg:
        assert error_code(fresh, "set_render_settings", file_format="FFMPEG") == "unsupported"
        return
    start = (sc.frame_start, sc.frame_end)
    r = fresh.ok("set_render_settings", file_format="FFMPEG", video_container="MPEG4", video_codec="H264")
    assert r["output"]["video"] == {"container": "MPEG4", "codec": "H264"}
    # A still cannot be a video.
    assert error_code(fresh, "render_image", filename="still") == "unsupported"
    r = fresh.ok("render_frames", frame_start=1, frame_end=3, pattern="clip_####")
    assert r["format"] == "FFMPEG" and r["files"] == ["clip_0001-0003.mp4"]
    path = os.path.join(bridge.output_dir, r["files"][0])
    assert head(path, 8)[4:8] == b"ftyp" and os.path.getsize(path) > 0
    assert (sc.frame_start, sc.frame_end) == start
    # Video settings belong to the FFMPEG format.
    fresh.ok("set_render_settings", file_format="PNG")
    assert error_code(fresh, "set_render_settings", video_codec="H264") == "unsupported"
    assert error_code(fresh, "set_render_settings", file_format="JPEG", video_codec="H264") == "invalid_params"


def test_the_compositor_runs_on_this_line_into_a_jpeg(fresh, bridge):
    """4.5 LTS: the scene's own node tree; 5.x: its compositing node group. A vignette
    darkens the corners of a JPEG render on both."""
    fresh.ok("set_render_settings", engine="cycles", resolution_x=48, resolution_y=48, samples=1, file_format="JPEG")
    fresh.ok("set_world", color=[1, 1, 1], strength=1)
    fresh.ok("delete_object", name="Cube")
    fresh.ok("compositor_graph_edit", op="preset", preset="vignette")
    assert fresh.ok("render_config")["compositor_nodes"] >= 5
    r = fresh.ok("render_image", filename="vignette")
    assert r["path"].endswith("vignette.jpg") and head(r["path"], 3) == JPEG_MAGIC
    w, h, px = png_pixels(r["path"])  # bpy reads any format it writes
    corner, centre = px[0], px[4 * (w * (h // 2) + w // 2)]
    assert corner < centre * 0.8, (corner, centre)


def test_a_format_this_line_lacks_is_refused_naming_the_line_that_has_it(fresh):
    image = bpy.context.scene.render.image_settings
    if bpy.app.version >= (5, 0, 0):
        r = fresh.ok("set_render_settings", file_format="AVIF")
        assert image.file_format == "AVIF" and r["output"]["extension"] == ".avif"
    else:
        doc = fresh.call("set_render_settings", file_format="AVIF")
        assert doc["error"]["code"] == "unsupported" and "5.2 LTS" in doc["error"]["message"], doc
        assert "OPEN_EXR_MULTILAYER" in doc["error"]["message"] and image.file_format == "PNG"


def test_a_preview_is_small_and_quick_and_puts_the_settings_back(fresh):
    sc = bpy.context.scene
    fresh.ok("set_render_settings", engine="cycles", resolution_x=1920, resolution_y=1080, samples=64)
    r = fresh.ok("render_image", filename="preview.png", preview=True)
    assert (r["width"], r["height"], r["preview"]) == (480, 270, True)
    assert png_pixels(r["path"])[:2] == (480, 270)
    # The scene is as it was: the preview changed nothing but the file it wrote.
    assert (sc.render.resolution_x, sc.render.resolution_y, sc.render.resolution_percentage, sc.cycles.samples) == (1920, 1080, 100, 64)
    assert "settings" not in r["delta"] or "render" not in r["delta"]["settings"]
    # A picture already small keeps its size; without preview the settings rule.
    fresh.ok("set_render_settings", resolution_x=64, resolution_y=48, samples=2)
    r = fresh.ok("render_image", filename="small.png", preview=True)
    assert (r["width"], r["height"]) == (64, 48)
    r = fresh.ok("render_image", filename="full.png")
    assert (r["width"], r["height"], r["preview"]) == (64, 48, False)
