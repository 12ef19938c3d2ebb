"""Helpers of the look-development tests: a fresh factory scene, input files in a read
root of the test's own, pixels of PNG files."""

import os

import bpy
import pytest

from capstan_bridge.core import paths

# Names that differ between the two tested Blender lines (4.5 LTS and 5.2 LTS).
BLENDER_5 = bpy.app.version >= (5, 0, 0)
# A factor socket's name: "Fac" in 4.5 (its identifier in both), "Factor" from 5.0.
FACTOR = "Factor" if BLENDER_5 else "Fac"
# EEVEE's engine id: BLENDER_EEVEE_NEXT in 4.2-4.5, BLENDER_EEVEE again from 5.0.
EEVEE = "BLENDER_EEVEE" if BLENDER_5 else "BLENDER_EEVEE_NEXT"


@pytest.fixture
def fresh(client):
    client.ok("reset_scene")
    return client


@pytest.fixture
def read_root(tmp_path, monkeypatch):
    """A temporary folder configured as the only extra read root (as CAPSTAN_READ_ROOTS
    is read when the bridge starts); the configuration is restored afterwards."""
    root = tmp_path / "inputs"
    root.mkdir()
    monkeypatch.setenv(paths.READ_ROOTS_ENV, str(root))
    paths.configure_read_roots()
    yield root
    monkeypatch.delenv(paths.READ_ROOTS_ENV)
    paths.configure_read_roots()


def write_image(path, width=8, height=8, color=(1.0, 0.5, 0.25, 1.0), file_format="PNG", float_buffer=False):
    """Write an image file with bpy, leaving no datablock behind."""
    image = bpy.data.images.new("capstan_test_writer", width, height, float_buffer=float_buffer)
    try:
        pixels = []
        for y in range(height):
            for x in range(width):
                k = (x + y) % 2
                pixels.extend(color if k else (0.1, 0.1, 0.1, 1.0))
        image.pixels = pixels
        image.filepath_raw = str(path)
        image.file_format = file_format
        image.save()
    finally:
        bpy.data.images.remove(image)
    return str(path)


def png_pixels(path):
    """(width, height, RGBA floats) of a PNG, read with bpy; no datablock left behind."""
    image = bpy.data.images.load(path, check_existing=False)
    try:
        return image.size[0], image.size[1], list(image.pixels)
    finally:
        bpy.data.images.remove(image)


def error_code(client, command, **params):
    doc = client.call(command, **params)
    assert doc["ok"] is False, doc
    return doc["error"]["code"]


def no_changes(delta):
    return not (delta["added"] or delta["removed"] or delta["changed"] or delta["settings"] or delta.get("datablocks"))
