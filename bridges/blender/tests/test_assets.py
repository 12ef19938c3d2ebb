"""assets: the fixture builds its own library (a mesh marked as an asset with tags, saved
into a temporary read root, plus an HDRI and a texture-set folder); search finds it,
append brings it in with a delta of one object. No network anywhere."""

import os
import shutil

import bpy
import pytest

from lookdev_support import error_code, fresh, read_root, write_image  # noqa: F401


@pytest.fixture
def library(fresh, read_root, bridge):
    fresh.ok("create_object", type="cone", name="Lamp Post", location=[0, 0, 0])
    marked = fresh.ok("mark_asset", target="Lamp Post", kind="object", tags=["street", "metal"], description="A tall street lamp")
    assert marked["tags"] == ["metal", "street"] and marked["catalog"] is None
    assert bpy.data.objects["Lamp Post"].asset_data is not None
    fresh.ok("save_blend", filename="props.blend")
    shutil.move(os.path.join(bridge.output_dir, "props.blend"), str(read_root / "props.blend"))
    (read_root / "hdri").mkdir()
    write_image(read_root / "hdri" / "studio_small.exr", 8, 4, file_format="OPEN_EXR", float_buffer=True)
    (read_root / "bricks").mkdir()
    for role in ("diff", "nor_gl", "rough", "disp"):
        write_image(read_root / "bricks" / ("bricks_%s_1k.png" % role), 8, 8)
    fresh.ok("reset_scene")
    return read_root


def test_search_finds_the_marked_asset_by_query_tags_and_kind(fresh, library):
    hits = fresh.ok("list_local_assets", query="lamp", tags=["street"])
    assert [(a["name"], a["kind"], a["file"]) for a in hits["assets"]] == [("Lamp Post", "object", "props.blend")]
    assert hits["assets"][0]["library"] == os.path.realpath(str(library)) and hits["total"] == 1
    assert fresh.ok("list_local_assets", tags=["wooden"])["total"] == 0
    kinds = {a["kind"]: a for a in fresh.ok("list_local_assets")["assets"]}
    assert kinds["hdri"]["name"] == "studio_small"
    assert (kinds["texture_set"]["name"], kinds["texture_set"]["file"]) == ("bricks", os.path.join("bricks", "bricks_diff_1k.png"))
    assert kinds["texture_set"]["maps"] == {"diffuse": "bricks_diff_1k.png", "normal": "bricks_nor_gl_1k.png",
                                             "roughness": "bricks_rough_1k.png", "displacement": "bricks_disp_1k.png"}
    page = fresh.ok("list_local_assets", offset=1, limit=1)
    assert len(page["assets"]) == 1 and page["total"] == 3
    # Searching read the library into a temporary Main: nothing was linked.
    assert len(bpy.data.libraries) == 0 and "Lamp Post" not in bpy.data.objects


def test_import_appends_one_object(fresh, library):
    hit = fresh.ok("list_local_assets", query="lamp")["assets"][0]
    out = fresh.ok("append_from_blend", path=os.path.join(hit["library"], hit["file"]), datablock_type="Object", names=[hit["name"]], location=[3, 0, 0])
    assert out["delta"]["added"] == ["Lamp Post"] and out["delta"]["removed"] == []
    assert tuple(bpy.data.objects["Lamp Post"].location) == (3, 0, 0)


def test_texture_set_drives_the_material(fresh, library):
    out = fresh.ok("apply_texture_set", object="Cube", path=str(library / "bricks"), scale=4, displacement=True)
    assert set(out["maps"]) == {"diffuse", "normal", "roughness", "displacement"} and out["displacement"] is True
    tree = bpy.data.materials[out["material"]].node_tree
    bsdf = next(n for n in tree.nodes if n.bl_idname == "ShaderNodeBsdfPrincipled")
    assert bsdf.inputs["Base Color"].links[0].from_node.image.name == out["maps"]["diffuse"]
    assert bsdf.inputs["Normal"].links[0].from_node.bl_idname == "ShaderNodeNormalMap"
    assert bpy.data.images[out["maps"]["roughness"]].colorspace_settings.name == "Non-Color"
    assert tuple(tree.nodes["capstan_ts_mapping"].inputs["Scale"].default_value) == (4, 4, 4)
    again = fresh.ok("apply_texture_set", object="Cube", path=str(library / "bricks"))
    assert again["delta"]["added"] == [] and len([n for n in tree.nodes if n.name.startswith("capstan_ts_")]) == 6
    assert error_code(fresh, "apply_texture_set", object="Cube", path="/etc") == "path_refused"
    assert error_code(fresh, "apply_texture_set", object="Cube", path=str(library / "hdri")) == "not_found"
    assert error_code(fresh, "apply_texture_set", object="Light", path=str(library / "bricks")) == "invalid_target"


def test_a_flat_folder_holds_sets_named_by_prefix(fresh, bridge):
    for name in ("crate_diff.png", "crate_rough.png", "floor_albedo.png", "floor_normal.png", "lonely_diff.png"):
        write_image(os.path.join(bridge.output_dir, name), 4, 4)
    try:
        sets = {a["name"]: a for a in fresh.ok("list_local_assets", kind="texture_set")["assets"]}
        assert sets["crate"]["maps"] == {"diffuse": "crate_diff.png", "roughness": "crate_rough.png"} and "lonely" not in sets
        out = fresh.ok("apply_texture_set", object="Cube", path="crate_rough.png")
        assert sorted(out["maps"]) == ["diffuse", "roughness"] and out["material"] == "Material"
        assert error_code(fresh, "apply_texture_set", object="Cube", path="lonely_diff.png") == "not_found"
    finally:
        for name in os.listdir(bridge.output_dir):
            if name.endswith(".png"):
                os.remove(os.path.join(bridge.output_dir, name))


def test_mark_refuses_unknown_targets(fresh):
    assert error_code(fresh, "mark_asset", target="Ghost", kind="object") == "not_found"
    assert error_code(fresh, "mark_asset", target="Cube", kind="material") == "not_found"
    out = fresh.ok("mark_asset", target="Material", kind="material", tags=["base"], catalog="0d5f9a52-1c1a-4a4e-9d5e-3c1b2a3f4e5d")
    assert out["catalog"] == "0d5f9a52-1c1a-4a4e-9d5e-3c1b2a3f4e5d"
