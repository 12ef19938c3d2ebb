"""Product commands against real Blender (CATALOG §3 product): material presets read
back exactly from the Principled BSDF, imperfections wire a noise into roughness, and
the owned three-light rig has the preset energies, is updated in place by a later rig
(no duplicate lights) and a 64x64 Cycles preview with film_transparent has alpha < 1 at
the corners. The verification mode checks every delta."""

import base64
import math

import bpy
import pytest
from mathutils import Vector

from test_inspect_reads import _png


def obj(client, name, location):
    if name not in bpy.data.objects:
        client.ok("create_object", type="uv_sphere", name=name, location=list(location))
    return name


def principled(mat):
    return next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED")


def test_every_material_preset_reads_back(client):
    from capstan_bridge.commands.product import MATERIALS
    name = obj(client, "PrMat", (400, 0, 0))
    for preset, (color, metallic, roughness, extras) in MATERIALS.items():
        r = client.ok("set_product_material", object=name, preset=preset)
        mat = bpy.data.materials[r["material"]]
        node = principled(mat)
        assert r["material"] == "PrMat_" + preset and bpy.data.objects[name].material_slots[0].material == mat
        assert tuple(node.inputs["Base Color"].default_value)[:3] == pytest.approx(color, abs=1e-6)
        assert node.inputs["Metallic"].default_value == pytest.approx(metallic)
        assert node.inputs["Roughness"].default_value == pytest.approx(roughness)
        for socket, value in extras.items():
            assert node.inputs[socket].default_value == pytest.approx(value), (preset, socket)
        assert r["delta"]["changed"] == [name]
    glass = principled(bpy.data.materials["PrMat_clear_glass"])
    assert glass.inputs["Transmission Weight"].default_value == 1.0


def test_overrides_and_imperfections(client):
    name = obj(client, "PrMat2", (405, 0, 0))
    r = client.ok("set_product_material", object=name, preset="gold", material="PrGold", color_override=[0.5, 0.4, 0.1, 1],
                  roughness_override=0.4, add_imperfections=True)
    mat = bpy.data.materials["PrGold"]
    node = principled(mat)
    assert r["created"] and r["imperfections"] and r["delta"]["datablocks"]["materials"]["added"] == ["PrGold"]
    link = next(l for l in mat.node_tree.links if l.to_socket == node.inputs["Roughness"])
    assert link.from_node.name == "capstan_imperfections_range"
    assert link.from_node.inputs["To Min"].default_value == pytest.approx(0.32)
    assert tuple(node.inputs["Base Color"].default_value) == pytest.approx((0.5, 0.4, 0.1, 1))
    r = client.ok("set_product_material", object=name, preset="gold", material="PrGold")
    assert not r["created"] and not r["imperfections"] and not node.inputs["Roughness"].is_linked
    assert client.call("set_product_material", object="Ghost", preset="gold")["error"]["code"] == "not_found"
    assert client.call("set_product_material", object=name, preset="wood")["error"]["code"] == "invalid_params"
    client.ok("create_object", type="empty", name="PrEmpty")
    assert client.call("set_product_material", object="PrEmpty", preset="gold")["error"]["code"] == "invalid_target"


def test_light_rig_is_owned_and_replaced_in_place(client):
    from capstan_bridge.commands.product import RIGS
    client.ok("reset_scene")
    r = client.ok("product_light_rig", preset="product_studio")
    assert sorted(r["delta"]["added"]) == ["Product Fill", "Product Key", "Product Rim", "Product Shadow Catcher"]
    assert [l["energy"] for l in r["lights"]] == [1000, 400, 600]
    for l in r["lights"]:
        o = bpy.data.objects[l["name"]]
        assert o.data.type == "AREA" and o["capstan_role"] == "product_" + l["role"]
        forward = o.rotation_euler.to_matrix() @ Vector((0, 0, -1))
        to_center = (Vector(r["center"]) - o.location).normalized()
        assert forward.dot(to_center) > 0.999
    assert bpy.data.objects["Product Shadow Catcher"].is_shadow_catcher
    lights_before = len(bpy.data.lights)
    r2 = client.ok("product_light_rig", preset="jewelry", shadow_catcher=False)
    assert r2["delta"]["added"] == [] and r2["delta"]["removed"] == []
    assert [l["energy"] for l in r2["lights"]] == [spec[0] for spec in RIGS["jewelry"]]
    assert len(bpy.data.lights) == lights_before and bpy.data.objects["Product Shadow Catcher"].hide_render
    r3 = client.ok("product_light_rig", preset="jewelry", shadow_catcher=False)
    assert r3["delta"]["changed"] == [] and r3["delta"]["added"] == []  # same preset again: no change


def test_transparent_preview_of_a_lit_product_has_clear_corners(client):
    client.ok("reset_scene")
    client.ok("product_light_rig", preset="product_studio")
    client.ok("set_render_settings", engine="cycles", transparent=True)
    p = client.ok("render_preview", width=64, height=64, samples=2)
    w, h, rows = _png(base64.b64decode(p["image_base64"]))
    assert (w, h) == (64, 64)
    corners = [rows[0][3], rows[0][-1], rows[-1][3], rows[-1][-1]]
    assert all(a < 255 for a in corners), corners


def test_render_quality_sets_bounces_threshold_and_format(client):
    client.ok("reset_scene")
    sc = bpy.context.scene
    r = client.ok("set_render_quality", max_bounces=12, adaptive_threshold=0.01, file_format="OPEN_EXR", denoise=True)
    assert r["delta"]["settings"] == ["render"] and r["delta"]["changed"] == []
    assert (sc.cycles.max_bounces, sc.cycles.transmission_bounces, sc.cycles.diffuse_bounces) == (12, 12, 6)
    assert sc.cycles.use_adaptive_sampling and sc.cycles.adaptive_threshold == pytest.approx(0.01)
    assert sc.render.image_settings.file_format == "OPEN_EXR" and r["color_depth"] == "32"
    r = client.ok("set_render_quality", file_format="JPEG")
    assert r["color_depth"] == "8" and r["max_bounces"] == 12
    assert client.call("set_render_quality")["error"]["code"] == "invalid_params"
    assert client.call("set_render_quality", file_format="TIFF")["error"]["code"] == "invalid_params"


def test_backdrop_styles_are_owned_and_rebuilt_in_place(client):
    client.ok("reset_scene")
    r = client.ok("product_backdrop", style="shadow_catcher", under_object="Cube")
    assert r["created"] and r["delta"]["added"] == ["Product Backdrop"] and r["floor"] == pytest.approx(-1.0)
    obj = bpy.data.objects["Product Backdrop"]
    assert obj.is_shadow_catcher and len(obj.data.polygons) == 1 and r["location"] == pytest.approx([0, 0, -1])
    meshes = len(bpy.data.meshes)
    r = client.ok("product_backdrop", style="cyclorama", size=8, color=[0.2, 0.3, 0.4])
    assert not r["created"] and r["delta"]["added"] == [] and r["delta"]["changed"] == ["Product Backdrop"]
    assert not obj.is_shadow_catcher and r["faces"] == 14 and len(bpy.data.meshes) == meshes
    zs = [v.co.z for v in obj.data.vertices]
    assert min(zs) == pytest.approx(0) and max(zs) == pytest.approx(6)  # floor, then the wall up to size/2 + radius
    assert tuple(principled(bpy.data.materials["Product Backdrop"]).inputs["Base Color"].default_value)[:3] == pytest.approx((0.2, 0.3, 0.4))
    r = client.ok("product_backdrop", style="plinth", under_object="Cube", size=2)
    assert r["faces"] == 6 and max(v.co.z for v in obj.data.vertices) == pytest.approx(0)
    assert client.call("product_backdrop", style="plinth", under_object="Ghost")["error"]["code"] == "not_found"


def _forward_dot(cam, point):
    bpy.context.view_layer.update()
    mw = cam.matrix_world
    forward = (mw.to_3x3() @ Vector((0, 0, -1))).normalized()
    return forward.dot((Vector(point) - mw.translation).normalized())


def test_turntable_camera_loops_around_the_bounds_centre(client):
    client.ok("reset_scene")
    bpy.data.objects["Cube"].location = (1, 2, 0.5)
    r = client.ok("product_camera_rig", style="turntable", target="Cube", frames=120, distance=5, height=1)
    assert sorted(r["delta"]["added"]) == ["Product Camera", "Product Camera Pivot"]
    assert r["center"] == pytest.approx([1, 2, 0.5]) and (r["frame_start"], r["frame_end"]) == (1, 120)
    sc = bpy.context.scene
    cam = bpy.data.objects["Product Camera"]
    assert sc.camera == cam and cam.data.dof.use_dof and cam.data.dof.focus_object.name == "Product Camera Pivot"
    for frame, angle in ((1, 0), (61, 180)):
        sc.frame_set(frame)
        assert bpy.data.objects["Product Camera Pivot"].rotation_euler.z == pytest.approx(math.radians(angle), abs=1e-4)
        assert _forward_dot(cam, r["center"]) > 0.999
        assert (cam.matrix_world.translation - Vector(r["center"])).length == pytest.approx(math.hypot(5, 1), abs=1e-4)
    sc.frame_set(1)
    actions = len(bpy.data.actions)
    r2 = client.ok("product_camera_rig", style="detail_orbit", target="Cube", frames=48, orbit_angle=60)
    assert r2["delta"]["added"] == [] and len(bpy.data.actions) == actions and not r2["created"]
    sc.frame_set(48)
    assert bpy.data.objects["Product Camera Pivot"].rotation_euler.z == pytest.approx(math.radians(30), abs=1e-4)
    sc.frame_set(1)


def test_hero_reveal_pushes_in_and_zooms(client):
    client.ok("reset_scene")
    r = client.ok("product_camera_rig", style="hero_reveal", target="Cube", frames=100, distance=4, start_distance=8,
                  start_lens=35, end_lens=70)
    cam, sc = bpy.data.objects["Product Camera"], bpy.context.scene
    sc.frame_set(1)
    assert cam.data.lens == pytest.approx(35) and cam.location.y == pytest.approx(-8)
    sc.frame_set(100)
    assert cam.data.lens == pytest.approx(70) and cam.location.y == pytest.approx(-4)
    assert _forward_dot(cam, r["center"]) > 0.999
    sc.frame_set(1)
    assert client.call("product_camera_rig", style="turntable", target="Ghost")["error"]["code"] == "not_found"
    assert client.call("product_camera_rig", style="turntable", target="Cube", frames=10)["error"]["code"] == "invalid_params"
