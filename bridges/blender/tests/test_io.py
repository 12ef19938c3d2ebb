"""io: round trips through the output folder, .blend save/open/new, append, image planes,
confinement of every path (a refused path changes nothing)."""

import os

import bpy
import pytest

from capstan_bridge.commands import io_files
from lookdev_support import error_code, fresh, read_root, write_image  # noqa: F401


def mesh_counts():
    return {o.name: len(o.data.vertices) for o in bpy.data.objects if o.type == "MESH"}


@pytest.mark.parametrize("fmt", ["glb", "obj", "stl"])
def test_round_trip_keeps_names_and_vertex_counts(fresh, fmt):
    fresh.ok("create_object", type="uv_sphere", name="Ball", location=[2, 0, 0])
    expected = mesh_counts()
    out = fresh.ok("export_file", filename="trip." + fmt, format=fmt, objects=["Ball", "Cube"])
    assert out["objects"] == ["Ball", "Cube"] and out["bytes"] > 0 and os.path.isfile(out["path"])
    assert fresh.ok("new_file", empty=True)["objects"] == []
    got = fresh.ok("import_file", path="trip." + fmt)
    assert got["format"] == fmt
    counts = mesh_counts()
    assert got["delta"]["added"] == got["new_objects"] == sorted(counts)
    if fmt == "stl":  # STL has no object names and merges nothing: one object per file, welded counts differ
        assert len(counts) == 1 and sum(counts.values()) > 0
    else:
        assert counts == expected


def test_export_answers_unsupported_when_the_exporter_is_missing(fresh, monkeypatch):
    monkeypatch.setattr(io_files, "_probed", {"import": {}, "export": {}})
    assert error_code(fresh, "export_file", filename="x.glb", format="glb") == "unsupported"
    monkeypatch.setattr(io_files, "_probed", None)
    assert "glb" in fresh.ok("io_formats")["export"]


@pytest.mark.parametrize("path", ["/etc/passwd.obj", "../x.obj", "/tmp/../etc/x.glb", "sub/x.obj"])
def test_an_import_path_outside_the_roots_is_refused_and_changes_nothing(fresh, path):
    before = sorted(o.name for o in bpy.data.objects)
    doc = fresh.call("import_file", path=path)
    assert doc["ok"] is False and doc["error"]["code"] == "path_refused" and "delta" not in doc["error"]
    assert sorted(o.name for o in bpy.data.objects) == before


@pytest.mark.parametrize("name", ["/tmp/x.glb", "../x.glb", "a/x.glb"])
def test_an_export_outside_the_output_folder_is_refused(fresh, name):
    assert error_code(fresh, "export_file", filename=name, format="glb") in ("path_refused", "invalid_params")


def test_export_checks_extension_names_and_animation(fresh):
    assert error_code(fresh, "export_file", filename="x.obj", format="glb") == "invalid_params"
    assert error_code(fresh, "export_file", filename="x.glb", format="glb", objects=["Ghost"]) == "not_found"
    assert error_code(fresh, "export_file", filename="x.stl", format="stl", export_animation=True) == "unsupported"


def test_save_then_open_restores_the_scene(fresh):
    fresh.ok("create_object", type="cone", name="Spire")
    saved = fresh.ok("save_blend", filename="kept.blend", compress=True)
    assert saved["copy"] is True and saved["bytes"] > 0 and bpy.data.filepath == ""
    fresh.ok("new_file", empty=True)
    opened = fresh.ok("open_blend", path="kept.blend")
    assert "Spire" in opened["objects"] and "Spire" in opened["delta"]["added"]
    assert error_code(fresh, "open_blend", path="/etc/kept.blend") == "path_refused"
    assert error_code(fresh, "open_blend", path="missing.blend") == "not_found"
    fresh.ok("reset_scene")  # the conformance runner's reset still works after an open
    assert sorted(o.name for o in bpy.data.objects) == ["Camera", "Cube", "Light"]


def test_append_objects_from_a_blend(fresh):
    fresh.ok("create_object", type="torus", name="Ring")
    fresh.ok("save_blend", filename="lib.blend")
    fresh.ok("reset_scene")
    out = fresh.ok("append_from_blend", path="lib.blend", datablock_type="Object", names=["Ring"], location=[0, 0, 3])
    assert out["datablocks"] == ["Ring"] and out["delta"]["added"] == ["Ring"]
    assert tuple(bpy.data.objects["Ring"].location) == (0, 0, 3)
    assert error_code(fresh, "append_from_blend", path="lib.blend", datablock_type="Object", names=["Nope"]) == "not_found"
    linked = fresh.ok("append_from_blend", path="lib.blend", datablock_type="Material", names=["Material"], link=True)
    assert linked["linked"] is True and linked["datablocks"] == ["Material"]
    assert [m.name for m in bpy.data.materials if m.library is not None] == ["Material"]
    assert error_code(fresh, "append_from_blend", path="/etc/lib.blend", datablock_type="Object", names=["Ring"]) == "path_refused"
    assert error_code(fresh, "append_from_blend", path="lib.blend", datablock_type="Material", names=["Material"], location=[0, 0, 1]) == "invalid_params"


def test_image_plane_has_the_aspect_of_the_image(fresh, read_root):
    path = write_image(read_root / "board.png", width=16, height=8)
    out = fresh.ok("create_image_plane", path=path, name="Board", size=2.0, location=[0, 1, 0], emission=True, alpha=True)
    assert out["delta"]["added"] == ["Board"]
    board = bpy.data.objects["Board"]
    assert tuple(round(d, 4) for d in board.dimensions) == (2.0, 1.0, 0.0)
    assert out["image"] == "board.png" and out["material"] in bpy.data.materials
    assert error_code(fresh, "create_image_plane", path="/etc/board.png") == "path_refused"


@pytest.mark.parametrize("fmt", io_files.EXPORT_FORMATS)
def test_every_available_exporter_writes_a_file_and_leaves_the_scene_alone(fresh, fmt):
    if fmt not in fresh.ok("io_formats")["export"]:
        assert error_code(fresh, "export_file", filename="all." + fmt, format=fmt) == "unsupported"
        return
    out = fresh.ok("export_file", filename="all." + fmt, format=fmt)
    assert out["bytes"] > 0 and out["objects"] == ["Camera", "Cube", "Light"]


def test_fbx_round_trip(fresh):
    fresh.ok("export_file", filename="trip.fbx", format="fbx", objects=["Cube"])
    fresh.ok("new_file", empty=True)
    got = fresh.ok("import_file", path="trip.fbx", scale=2.0)
    assert got["new_objects"] == ["Cube"] and len(bpy.data.objects["Cube"].data.vertices) == 8
    assert tuple(round(d, 4) for d in bpy.data.objects["Cube"].dimensions) == (4.0, 4.0, 4.0)
