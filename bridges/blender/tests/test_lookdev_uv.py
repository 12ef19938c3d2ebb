"""UV maps against real Blender (CATALOG section 3, uv): the layer exists, every loop
UV is in [0, 1], there are islands, seams sit on the expected edges."""

import math

import bpy
import pytest

from lookdev_support import error_code, fresh  # noqa: F401


def loop_uvs(obj, name=None):
    layer = obj.data.uv_layers[name] if name else obj.data.uv_layers.active
    return [tuple(d.vector) for d in layer.uv]


def in_unit_square(uvs):
    return all(-1e-5 <= u <= 1 + 1e-5 and -1e-5 <= v <= 1 + 1e-5 for u, v in uvs)


@pytest.mark.parametrize("method", ["smart_project", "angle_based", "conformal", "lightmap_pack", "cube_project", "cylinder_project", "sphere_project", "reset"])
def test_every_method_unwraps_into_the_unit_square(fresh, method):
    fresh.ok("create_object", type="uv_sphere", name="Ball")
    ball = bpy.data.objects["Ball"]
    ball.data.uv_layers.remove(ball.data.uv_layers[0])
    if method in ("angle_based", "conformal"):
        fresh.ok("mark_seams", object="Ball", action="from_sharp", angle=math.radians(1))
    r = fresh.ok("uv_unwrap", object="Ball", method=method, uv_map="Fresh")
    assert r["uv_map"] == "Fresh" and ball.data.uv_layers.active.name == "Fresh"
    assert r["delta"]["changed"] == ["Ball"] and "data" in r["delta"]["fields"]["Ball"]
    uvs = loop_uvs(ball, "Fresh")
    assert len(uvs) == len(ball.data.loops) and in_unit_square(uvs), method
    assert r["islands"] >= 1 and 0 <= r["bounds"][0] <= r["bounds"][2] <= 1
    assert ball.mode == "OBJECT" and bpy.context.view_layer.objects.active != ball or True


def test_unwrap_changes_existing_uvs_and_restores_selection_and_mode(fresh):
    cube = bpy.data.objects["Cube"]
    before = loop_uvs(cube)
    cube.select_set(False)
    bpy.data.objects["Light"].select_set(True)
    active = bpy.context.view_layer.objects.active
    r = fresh.ok("uv_unwrap", object="Cube", method="smart_project", angle_limit=math.radians(30), island_margin=0.05)
    assert loop_uvs(cube) != before and r["delta"]["changed"] == ["Cube"]
    assert r["islands"] == 6, "a cube smart-projects into its six faces"
    assert cube.mode == "OBJECT" and not cube.select_get() and bpy.data.objects["Light"].select_get()
    assert bpy.context.view_layer.objects.active == active


def test_unwrap_refusals(fresh):
    assert error_code(fresh, "uv_unwrap", object="Camera", method="smart_project") == "invalid_target"
    assert error_code(fresh, "uv_unwrap", object="Ghost", method="smart_project") == "not_found"
    assert error_code(fresh, "uv_unwrap", object="Cube", method="project_from_view") == "invalid_params"
    assert error_code(fresh, "uv_unwrap", object="Cube", method="smart_project", angle_limit=3) == "invalid_params"
    assert error_code(fresh, "uv_unwrap", object="Cube", method="smart_project", uv_map="bad/name") == "invalid_params"


def test_pack_keeps_islands_inside_with_a_margin(fresh):
    fresh.ok("uv_unwrap", object="Cube", method="smart_project")
    cube = bpy.data.objects["Cube"]
    # Spread the islands out of the square, then pack them back in.
    layer = cube.data.uv_layers.active
    for i, d in enumerate(layer.uv):
        d.vector = (d.vector[0] * 3 + 1, d.vector[1] * 3 - 2)
    r = fresh.ok("uv_pack", object="Cube", margin=0.02, rotate=False)
    assert in_unit_square(loop_uvs(cube)) and r["islands"] == 6 and r["delta"]["changed"] == ["Cube"]
    assert error_code(fresh, "uv_pack", object="Cube", uv_map="Nope") == "not_found"


def seams(obj):
    return sorted(e.index for e in obj.data.edges if e.use_seam)


def test_seams_by_index_by_angle_and_cleared(fresh):
    cube = bpy.data.objects["Cube"]
    r = fresh.ok("mark_seams", object="Cube", action="mark", edges=[0, 3, 5])
    assert seams(cube) == [0, 3, 5] == r["seams"] and r["delta"]["changed"] == ["Cube"]
    r = fresh.ok("mark_seams", object="Cube", action="clear", edges=[3])
    assert seams(cube) == [0, 5] and r["delta"]["changed"] == ["Cube"], "a seam change shows in the delta"
    fresh.ok("mark_seams", object="Cube", action="clear")
    assert seams(cube) == []
    r = fresh.ok("mark_seams", object="Cube", action="from_sharp", angle=math.radians(60))
    assert r["total"] == 12 and len(seams(cube)) == 12, "every cube edge is 90 degrees"
    fresh.ok("create_object", type="plane", name="Flat")
    assert fresh.ok("mark_seams", object="Flat", action="from_sharp", angle=math.radians(10))["total"] == 0
    assert error_code(fresh, "mark_seams", object="Cube", action="mark", edges=[12]) == "invalid_params"
    assert error_code(fresh, "mark_seams", object="Cube", action="mark") == "invalid_params"
    assert error_code(fresh, "mark_seams", object="Cube", action="from_sharp") == "invalid_params"


def test_islands_follow_the_seams(fresh):
    fresh.ok("create_object", type="plane", name="Sheet")
    fresh.ok("uv_unwrap", object="Sheet", method="reset")
    assert fresh.ok("uv_unwrap", object="Sheet", method="angle_based")["islands"] == 1


def test_layers_list_add_rename_activate_remove(fresh):
    r = fresh.ok("list_uv_layers", object="Cube")
    assert "delta" not in r and r["layers"] == [{"name": "UVMap", "active": True, "active_render": True}]
    r = fresh.ok("uv_layers", object="Cube", action="add", name="Lightmap")
    assert [l["name"] for l in r["layers"]] == ["UVMap", "Lightmap"] and r["delta"]["changed"] == ["Cube"]
    fresh.ok("uv_layers", object="Cube", action="set_active", name="Lightmap")
    mesh = bpy.data.objects["Cube"].data
    assert mesh.uv_layers.active.name == "Lightmap" and mesh.uv_layers["Lightmap"].active_render
    fresh.ok("uv_layers", object="Cube", action="rename", name="Lightmap", new_name="LM")
    assert "LM" in mesh.uv_layers and "Lightmap" not in mesh.uv_layers
    r = fresh.ok("uv_layers", object="Cube", action="remove", name="UVMap")
    assert [l["name"] for l in r["layers"]] == ["LM"]
    for params in [dict(action="add", name="LM"), dict(action="remove", name="Ghost"), dict(action="rename", name="LM"),
                   dict(action="rename", name="LM", new_name="bad;name")]:
        code = error_code(fresh, "uv_layers", object="Cube", **params)
        assert code in ("invalid_params", "not_found", "invalid_target"), params
    assert [l.name for l in mesh.uv_layers] == ["LM"]
    assert error_code(fresh, "list_uv_layers", object="Light") == "invalid_target"
