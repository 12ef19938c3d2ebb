"""File paths in real Blender (issue 27): every reference listed as relative or absolute,
existing or not, inside the read roots or not; paths made relative to the saved .blend
and absolute again; images packed into the .blend. Only inputs in the read roots are
touched, nothing is written to disk, and a rewritten path points to the same file."""

import os

import bpy
import pytest

from lookdev_support import error_code, fresh, read_root, write_image  # noqa: F401


@pytest.fixture(autouse=True)
def factory_scene_after(client):
    """Leave no reference to this module's temporary folders to the tests that follow."""
    yield
    client.ok("reset_scene")


def files_under(folder):
    return {os.path.relpath(os.path.join(base, name), folder) for base, dirs, files in os.walk(folder) for name in dirs + files}


def images(client):
    return {r["datablock"]: r for r in client.ok("list_file_references", kinds=["image"])["references"]}


@pytest.fixture
def textured(fresh, read_root, tmp_path):
    """Three images: one in a read root, one outside every root, one in a root whose file
    is gone; all loaded by absolute path."""
    wood = write_image(read_root / "wood.png")
    stray_path = write_image(tmp_path / "stray.png")
    gone_path = write_image(read_root / "gone.png")
    fresh.ok("load_image", path=wood)
    stray = bpy.data.images.load(stray_path, check_existing=False)
    stray.name = "Stray"
    gone = bpy.data.images.load(gone_path, check_existing=False)
    gone.name = "Gone"
    os.remove(gone_path)
    return {"wood": wood, "stray": stray_path, "gone": gone_path}


def test_each_reference_says_how_it_is_stored_where_it_points_and_whether_it_exists(textured, fresh):
    listed = images(fresh)
    assert set(listed) == {"wood.png", "Stray", "Gone"}
    wood = listed["wood.png"]
    assert (wood["path"], wood["relative"], wood["exists"], wood["inside_read_roots"]) == (textured["wood"], False, True, True)
    assert wood["absolute"] == os.path.realpath(textured["wood"]) and wood["problem"] is None
    gone = listed["Gone"]
    assert (gone["relative"], gone["exists"], gone["inside_read_roots"]) == (False, False, True)
    stray = listed["Stray"]
    # Outside the read roots capstan does not look: the file exists, but that is not said.
    assert os.path.exists(textured["stray"])
    assert (stray["relative"], stray["exists"], stray["inside_read_roots"], stray["problem"]) == (False, None, False, "outside_read_roots")
    # kinds filters; several kinds at once.
    both = fresh.ok("list_file_references", kinds=["image", "render_output"])["references"]
    assert sorted({r["kind"] for r in both}) == ["image", "render_output"] and len(both) == 4
    assert fresh.ok("list_file_references", kinds=["sound"])["total"] == 0


def test_make_relative_needs_a_saved_file(textured, fresh):
    doc = fresh.call("rewrite_file_paths", action="make_relative")
    assert doc["ok"] is False and doc["error"]["code"] == "unsaved_file", doc
    assert "save" in doc["error"]["message"]
    assert bpy.data.images["wood.png"].filepath == textured["wood"], "nothing was rewritten"


def test_paths_made_relative_and_absolute_again_point_to_the_same_files(textured, fresh, bridge, tmp_path):
    fresh.ok("save_blend", filename="paths.blend", copy=False)
    blend = bpy.data.filepath
    assert os.path.dirname(blend) == os.path.realpath(bridge.output_dir)
    out_before, tmp_before = files_under(bridge.output_dir), files_under(tmp_path)

    out = fresh.ok("rewrite_file_paths", action="make_relative")
    assert out["blend_file"] == blend and out["unchanged"] == 0
    rewritten = {r["datablock"]: r for r in out["rewritten"]}
    assert set(rewritten) == {"wood.png", "Gone"}, out
    wood = bpy.data.images["wood.png"].filepath
    assert rewritten["wood.png"]["before"] == textured["wood"] and rewritten["wood.png"]["after"] == wood
    assert wood.startswith("//") and os.path.realpath(bpy.path.abspath(wood)) == os.path.realpath(textured["wood"])
    # Outside the roots nothing is touched; the delta names the images that changed.
    assert [(s["datablock"], s["reason"]) for s in out["skipped"]] == [("Stray", "outside_read_roots")]
    assert bpy.data.images["Stray"].filepath == textured["stray"]
    assert out["delta"]["datablocks"]["images"]["changed"] == ["Gone", "wood.png"]
    assert out["delta"]["changed"] == []
    listed = images(fresh)
    assert (listed["wood.png"]["path"], listed["wood.png"]["relative"], listed["wood.png"]["exists"]) == (wood, True, True)
    assert listed["wood.png"]["absolute"] == os.path.realpath(textured["wood"])

    again = fresh.ok("rewrite_file_paths", action="make_relative")
    assert again["rewritten"] == [] and again["unchanged"] == 2, "already relative"

    back = fresh.ok("rewrite_file_paths", action="make_absolute", kinds=["image"])
    assert {r["datablock"]: r["after"] for r in back["rewritten"]} == {"wood.png": textured["wood"], "Gone": textured["gone"]}
    assert bpy.data.images["wood.png"].filepath == textured["wood"]
    assert images(fresh)["wood.png"]["relative"] is False
    # Rewriting paths writes no file anywhere.
    assert files_under(bridge.output_dir) == out_before and files_under(tmp_path) == tmp_before


def test_kinds_limit_what_is_rewritten(textured, fresh):
    fresh.ok("save_blend", filename="kinds.blend", copy=False)
    out = fresh.ok("rewrite_file_paths", action="make_relative", kinds=["sound", "font"])
    assert out["rewritten"] == [] and out["skipped"] == [] and out["unchanged"] == 0
    assert bpy.data.images["wood.png"].filepath == textured["wood"]
    assert fresh.call("rewrite_file_paths", action="make_relative", kinds=["render_output"])["error"]["code"] == "invalid_params"


def test_linked_datablocks_keep_their_paths(fresh, read_root):
    lib_path = str(read_root / "shared.blend")
    picture = write_image(read_root / "shared.png")
    image = bpy.data.images.load(picture, check_existing=False)
    image.name = "Shared Picture"
    bpy.data.libraries.write(lib_path, {image})
    bpy.data.images.remove(image)
    with bpy.data.libraries.load(lib_path, link=True) as (_src, dst):
        dst.images = ["Shared Picture"]
    fresh.ok("save_blend", filename="links.blend", copy=False)
    out = fresh.ok("rewrite_file_paths", action="make_relative")
    assert [r["kind"] for r in out["rewritten"]] == ["library"]
    assert bpy.data.libraries[0].filepath.startswith("//")
    assert os.path.realpath(bpy.path.abspath(bpy.data.libraries[0].filepath)) == os.path.realpath(lib_path)
    assert [(s["kind"], s["reason"]) for s in out["skipped"]] == [("image", "linked")]


def test_pack_reads_images_in_the_roots_into_the_blend(textured, fresh, bridge):
    out_before = files_under(bridge.output_dir)
    out = fresh.ok("pack_images")
    assert [p["image"] for p in out["packed"]] == ["wood.png"]
    assert out["packed"][0]["bytes"] == os.path.getsize(textured["wood"])
    assert sorted((s["datablock"], s["reason"]) for s in out["skipped"]) == [("Gone", "missing"), ("Stray", "outside_read_roots")]
    assert bpy.data.images["wood.png"].packed_file is not None and bpy.data.images["Stray"].packed_file is None
    assert out["delta"]["datablocks"]["images"]["changed"] == ["wood.png"]
    listed = images(fresh)
    assert listed["wood.png"]["packed"] is True and listed["Stray"]["packed"] is False
    assert files_under(bridge.output_dir) == out_before, "packing writes no file"
    again = fresh.ok("pack_images", images=["wood.png"])
    assert again["packed"] == [] and [s["reason"] for s in again["skipped"]] == ["already_packed"]
    assert error_code(fresh, "pack_images", images=["Nope"]) == "not_found"


def test_a_packed_image_path_is_rewritten_without_reading_the_file(textured, fresh):
    fresh.ok("pack_images", images=["wood.png"])
    os.remove(textured["wood"])  # a reload would now fail; filepath_raw reloads nothing
    fresh.ok("save_blend", filename="packed.blend", copy=False)
    out = fresh.ok("rewrite_file_paths", action="make_relative", kinds=["image"])
    assert "wood.png" in {r["datablock"] for r in out["rewritten"]}
    image = bpy.data.images["wood.png"]
    assert image.filepath.startswith("//") and image.packed_file is not None and tuple(image.size) == (8, 8)
