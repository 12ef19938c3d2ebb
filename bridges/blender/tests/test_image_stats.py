"""image_stats against real Blender on PNGs written here byte by byte (known values),
and on a real render: statistics of the stored values, regions in frame fractions with
y up, confinement to the session output folder, the size cap, and no datablock left
behind."""

import os
import struct
import zlib

import bpy
import pytest


def write_png(path, rows, bits=8, alpha=True):
    """rows: top row first, each a list of (r, g, b[, a]) integers."""
    channels = 4 if alpha else 3
    fmt = ">%dH" if bits == 16 else "%dB"
    raw = b"".join(b"\x00" + struct.pack(fmt % (len(row) * channels), *[c for px in row for c in px[:channels]]) for row in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", len(rows[0]), len(rows), bits, 6 if alpha else 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@pytest.fixture
def out(bridge):
    return bridge.output_dir


def luma(r, g, b):
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0


def test_known_pixels_and_a_region_with_y_up(client, out):
    # Top row: white, red (half transparent); bottom row: black, transparent grey.
    write_png(os.path.join(out, "st_known.png"), [[(255, 255, 255, 255), (255, 0, 0, 128)], [(0, 0, 0, 255), (100, 100, 100, 0)]])
    images = len(bpy.data.images)
    r = client.ok("image_stats", filename="st_known.png")
    assert len(bpy.data.images) == images
    assert (r["width"], r["height"], r["pixels"], r["region_pixels"]) == (2, 2, 4, [0, 0, 2, 2])
    lums = [1.0, luma(255, 0, 0), 0.0, luma(100, 100, 100)]
    mean = sum(lums) / 4
    assert r["mean_luminance"] == pytest.approx(mean, abs=1e-5)
    assert r["std_luminance"] == pytest.approx((sum((v - mean) ** 2 for v in lums) / 4) ** 0.5, abs=1e-5)
    assert r["mean_rgb"] == pytest.approx([(255 + 255 + 100) / 1020, (255 + 100) / 1020, (255 + 100) / 1020], abs=1e-5)
    assert r["clipped_fraction"] == 0.5 and r["black_fraction"] == 0.25
    assert r["alpha_mean"] == pytest.approx((255 + 128 + 255) / 1020, abs=1e-5) and r["transparent_fraction"] == 0.25
    assert not r["uniform"] and not r["empty"]
    # The bottom half (y up): the black pixel and the transparent one.
    r = client.ok("image_stats", filename="st_known.png", region=[0, 0, 1, 0.5])
    assert r["pixels"] == 2 and r["region_pixels"] == [0, 0, 2, 1]
    assert r["black_fraction"] == 0.5 and r["transparent_fraction"] == 0.5 and r["clipped_fraction"] == 0
    # The top-right pixel, from a region that sticks out of the frame (as framing bounds may).
    r = client.ok("image_stats", filename="st_known.png", region=[0.6, 0.6, 1.7, 3])
    assert r["pixels"] == 1 and r["mean_rgb"] == pytest.approx([1, 0, 0]) and r["alpha_mean"] == pytest.approx(128 / 255, abs=1e-6)
    assert r["uniform"] and r["empty"]  # one pixel: all pixels equal


def test_uniform_transparent_and_sixteen_bit_images(client, out):
    write_png(os.path.join(out, "st_flat.png"), [[(10, 20, 30)] * 8] * 4, alpha=False)
    r = client.ok("image_stats", filename="st_flat.png")
    assert r["uniform"] and r["empty"] and r["std_luminance"] == 0 and r["alpha_mean"] == 1 and r["transparent_fraction"] == 0
    assert r["mean_luminance"] == pytest.approx(luma(10, 20, 30), abs=1e-6) and r["black_fraction"] == 0
    write_png(os.path.join(out, "st_dither.png"), [[(100, 100, 100), (101, 99, 101)], [(102, 100, 99), (100, 101, 100)]], alpha=False)
    assert client.ok("image_stats", filename="st_dither.png")["empty"], "a dithered plain background is empty"
    write_png(os.path.join(out, "st_faint.png"), [[(100, 100, 100), (104, 100, 100)]], alpha=False)
    assert not client.ok("image_stats", filename="st_faint.png")["empty"]
    write_png(os.path.join(out, "st_clear.png"), [[(0, 0, 0, 0), (255, 0, 0, 0)]] * 2)
    r = client.ok("image_stats", filename="st_clear.png")
    assert r["empty"] and not r["uniform"] and r["transparent_fraction"] == 1
    # 16 bits: the stored value, not linearised (Blender decodes these to floats).
    write_png(os.path.join(out, "st_deep.png"), [[(32768, 32768, 32768, 65535), (65535, 65535, 65535, 65535)]], bits=16)
    r = client.ok("image_stats", filename="st_deep.png")
    assert r["mean_luminance"] == pytest.approx((32768 / 65535 + 1) / 2, abs=1e-4) and r["clipped_fraction"] == 0.5


def test_a_render_of_this_session(client, out):
    """A camera of its own, far below everything, looking down at nothing, then at a plane."""
    sc = bpy.context.scene
    saved = sc.camera
    data = bpy.data.cameras.new("StCamData")
    cam = bpy.data.objects.new("StCam", data)
    sc.collection.objects.link(cam)
    cam.location, cam.rotation_euler = (900.0, 900.0, -1000.0), (0.0, 0.0, 0.0)  # looks along -Z
    sc.camera = cam
    if "Render Result" in bpy.data.images:  # render_image then creates it, and must report it
        bpy.data.images.remove(bpy.data.images["Render Result"])
    try:
        client.ok("set_render_settings", engine="cycles", resolution_x=32, resolution_y=24, resolution_percentage=100, samples=1, transparent=True)
        first = client.ok("render_image", filename="st_render.png")
        assert first["delta"]["datablocks"]["images"]["added"] == ["Render Result"]
        r = client.ok("image_stats", filename="st_render.png")
        assert (r["width"], r["height"], r["pixels"]) == (32, 24, 768)
        assert r["empty"] and r["transparent_fraction"] == 1 and r["alpha_mean"] == 0
        client.ok("create_object", type="plane", name="StFloor", size=100.0, location=[900.0, 900.0, -1005.0])
        client.ok("render_image", filename="st_render.png")
        r = client.ok("image_stats", filename="st_render.png")
        assert r["transparent_fraction"] == 0 and r["alpha_mean"] == 1 and r["mean_luminance"] > 0
    finally:
        for name in ("StFloor", "StCam"):
            if name in bpy.data.objects:
                bpy.data.objects.remove(bpy.data.objects[name])
        bpy.data.cameras.remove(data)
        sc.camera = saved


def test_refusals_change_nothing(client, out):
    images = len(bpy.data.images)
    assert client.call("image_stats", filename="st_missing.png")["error"]["code"] == "not_found"
    for bad in ("../x.png", "sub/x.png", "/etc/x.png", "x.jpg"):
        assert client.call("image_stats", filename=bad)["error"]["code"] == "invalid_params", bad
    outside = os.path.join(os.path.dirname(out), "st_outside.png")
    write_png(outside, [[(1, 2, 3, 255)]])
    link = os.path.join(out, "st_link.png")
    if not os.path.lexists(link):
        os.symlink(outside, link)
    assert client.call("image_stats", filename="st_link.png")["error"]["code"] == "path_refused"
    with open(os.path.join(out, "st_fake.png"), "wb") as f:
        f.write(b"not a png at all, just text")
    assert client.call("image_stats", filename="st_fake.png")["error"]["code"] == "invalid_target"
    with open(os.path.join(out, "st_huge.png"), "wb") as f:  # a header that claims 9000 x 9000
        f.write(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">IIBBBBB", 9000, 9000, 8, 6, 0, 0, 0))
    assert client.call("image_stats", filename="st_huge.png")["error"]["code"] == "limit_exceeded"
    write_png(os.path.join(out, "st_small.png"), [[(1, 2, 3, 255)] * 4] * 4)
    assert client.call("image_stats", filename="st_small.png", region=[0.5, 0, 0.4, 1])["error"]["code"] == "invalid_params"
    assert client.call("image_stats", filename="st_small.png", region=[2, 2, 3, 3])["error"]["code"] == "invalid_params"
    assert client.call("image_stats", filename="st_small.png", region=[0, 0, 1])["error"]["code"] == "invalid_params"
    assert len(bpy.data.images) == images
