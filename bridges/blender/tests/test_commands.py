"""Every command against real Blender (bpy), read back from the scene."""

import math
import os
import struct

import bpy
import pytest
from mathutils import Vector

from capstan_bridge.core import paths


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_create_modify_delete_with_deltas(client):
    r = client.ok("create_object", type="uv_sphere", name="PyBall", location=[1, 2, 3], rotation=[0, 0, math.pi / 2], scale=[2, 2, 2])
    assert r["name"] == "PyBall" and r["delta"]["added"] == ["PyBall"]
    obj = bpy.data.objects["PyBall"]
    assert tuple(round(v, 5) for v in obj.location) == (1, 2, 3)
    assert abs(obj.rotation_euler.z - math.pi / 2) < 1e-6
    r = client.ok("modify_object", name="PyBall", location=[0, 0, 5], visible=False)
    assert r["delta"]["changed"] == ["PyBall"] and r["delta"]["added"] == []
    assert obj.hide_render and obj.location.z == 5
    r = client.ok("delete_object", name="PyBall")
    assert r["delta"]["removed"] == ["PyBall"]
    assert "PyBall" not in bpy.data.objects


def test_every_primitive_can_be_created(client):
    for kind in ["cube", "uv_sphere", "ico_sphere", "cylinder", "cone", "torus", "plane", "circle", "grid", "monkey", "empty"]:
        r = client.ok("create_object", type=kind, name="Prim_" + kind)
        assert r["delta"]["added"] == [r["name"]], kind


def test_a_taken_name_is_reported(client):
    client.ok("create_object", type="cube", name="Twice")
    r = client.ok("create_object", type="cube", name="Twice")
    assert r["name"] != "Twice" and r["renamed_from"] == "Twice"


def test_missing_objects_are_not_found(client):
    for command, params in [("get_object_info", {"name": "Ghost"}), ("delete_object", {"name": "Ghost"}), ("set_material", {"object": "Ghost", "metallic": 1})]:
        doc = client.call(command, **params)
        assert doc["ok"] is False and doc["error"]["code"] == "not_found", doc


def test_materials_are_principled_and_assigned(client):
    client.ok("create_object", type="cube", name="PyMat")
    r = client.ok("set_material", object="PyMat", material="Shiny", base_color=[0.8, 0.1, 0.1, 1], metallic=1, roughness=0.1)
    assert r["delta"]["changed"] == ["PyMat"]
    mat = bpy.data.objects["PyMat"].data.materials[0]
    assert mat.name == "Shiny"
    bsdf = next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    assert [round(v, 4) for v in bsdf.inputs["Base Color"].default_value] == [0.8, 0.1, 0.1, 1.0]
    assert bsdf.inputs["Metallic"].default_value == 1.0
    info = client.ok("get_object_info", name="PyMat")
    assert info["material_details"][0]["roughness"] == pytest.approx(0.1)


def test_lights_aim_at_their_target(client):
    r = client.ok("create_light", type="area", name="PyKey", location=[4, -4, 4], look_at=[0, 0, 0], energy=750, size=2)
    light = bpy.data.objects[r["name"]]
    assert light.data.type == "AREA" and light.data.energy == 750 and light.data.size == 2
    forward = light.rotation_euler.to_matrix() @ Vector((0, 0, -1))
    to_target = (-light.location).normalized()
    assert forward.dot(to_target) > 0.999


def test_camera_world_render_settings_and_render(client, bridge):
    client.ok("create_object", type="cube", name="Subject")
    r = client.ok("set_camera", name="PyCam", location=[5, -5, 3], look_at=[0, 0, 0], lens=85, dof={"enabled": True, "focus_object": "Subject", "fstop": 2.8})
    assert r["active"] and r["created"]
    cam = bpy.data.objects["PyCam"]
    assert bpy.context.scene.camera == cam and cam.data.lens == 85
    assert cam.data.dof.use_dof and cam.data.dof.focus_object.name == "Subject"
    r = client.ok("set_world", color=[0.2, 0.3, 0.4], strength=0.5)
    assert r["mode"] == "color" and r["delta"]["settings"] == ["world"]
    r = client.ok("set_world", sky={"sun_elevation": 0.3})
    assert r["mode"] == "sky"
    r = client.ok("set_render_settings", engine="cycles", resolution_x=64, resolution_y=48, samples=2, transparent=True)
    assert r["engine"] == "CYCLES" and r["resolution"] == [64, 48] and r["delta"]["settings"] == ["render"]
    r = client.ok("render_image", filename="py_test.png")
    assert os.path.dirname(r["path"]) == os.path.realpath(bridge.output_dir)
    assert png_size(r["path"]) == (64, 48)


def test_render_paths_are_confined(bridge, tmp_path):
    out = bridge.output_dir
    assert paths.confined(out, "ok.png").startswith(os.path.realpath(out))
    for bad in ["../x.png", "/tmp/x.png", "a/b.png", "..", ""]:
        with pytest.raises(paths.PathRefused):
            paths.confined(out, bad)
    os.symlink(str(tmp_path / "elsewhere.png"), os.path.join(out, "link.png"))
    with pytest.raises(paths.PathRefused):
        paths.confined(out, "link.png")


def test_keyframes_land_on_their_frames(client):
    client.ok("create_object", type="cube", name="PyAnim")
    client.ok("insert_keyframe", object="PyAnim", property="location", frame=1, value=[0, 0, 0])
    r = client.ok("insert_keyframe", object="PyAnim", property="location", frame=24, value=[0, 0, 3])
    assert r["frames"] == [1.0, 24.0]
    info = client.ok("get_object_info", name="PyAnim")
    z = next(k for k in info["keyframes"] if k["property"] == "location")["channels"][2]
    assert z == [[1.0, 0.0], [24.0, 3.0]]
    doc = client.call("insert_keyframe", object="PyAnim", property="location", frame=2, value=True)
    assert doc["error"]["code"] == "invalid_params"


def test_blender_exceptions_do_not_leak_tracebacks(client):
    client.ok("create_object", type="empty", name="NoMaterials")
    doc = client.call("set_material", object="NoMaterials", metallic=1)
    assert doc["error"]["code"] == "invalid_target"
    assert "traceback" not in doc["error"]


def test_delete_takes_the_objects_own_data_and_leaves_shared_data(client):
    client.ok("create_object", type="cube", name="Solo")
    solo_mesh = bpy.data.objects["Solo"].data.name
    client.ok("create_object", type="cube", name="Shared")
    shared = bpy.data.objects["Shared"].data
    twin = bpy.data.objects.new("Twin", shared)
    bpy.context.scene.collection.objects.link(twin)
    r = client.ok("delete_object", names=["Solo", "Shared"])
    assert sorted(r["delta"]["removed"]) == ["Shared", "Solo"]
    assert solo_mesh not in bpy.data.meshes, "an orphan mesh was left behind"
    assert bpy.data.objects["Twin"].data.name in bpy.data.meshes and bpy.data.objects["Twin"].data.users == 1
