"""Lights, world looks and camera rigs against real Blender (CATALOG section 3:
lighting/world and camera postconditions)."""

import math
import os

import bpy
import pytest
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Vector

from lookdev_support import FACTOR, error_code, fresh, png_pixels, read_root, write_image  # noqa: F401


def forward(obj):
    return (obj.matrix_world.to_3x3() @ Vector((0, 0, -1))).normalized()


# -- lights ---------------------------------------------------------------------------

def test_set_light_changes_what_it_is_told(fresh):
    r = fresh.ok("set_light", name="Light", type="SPOT", energy=500, color=[1, 0.5, 0.25], size=0.3, spot_size=math.radians(40), spot_blend=0.2, shadow=False)
    assert r["delta"]["changed"] == ["Light"] and "data" in r["delta"]["fields"]["Light"]
    light = bpy.data.objects["Light"].data
    assert light.type == "SPOT" and light.energy == 500 and light.shadow_soft_size == pytest.approx(0.3)
    assert light.spot_size == pytest.approx(math.radians(40)) and light.spot_blend == pytest.approx(0.2) and not light.use_shadow
    assert [round(c, 4) for c in light.color] == [1, 0.5, 0.25]
    r = fresh.ok("set_light", name="Light", type="AREA", size=2)
    assert bpy.data.objects["Light"].data.size == 2 and r["spot_size"] is None


def test_set_light_refusals_change_nothing(fresh):
    energy = bpy.data.objects["Light"].data.energy
    assert error_code(fresh, "set_light", name="Cube", energy=5) == "invalid_target"
    assert error_code(fresh, "set_light", name="Ghost", energy=5) == "not_found"
    assert error_code(fresh, "set_light", name="Light", spot_size=0.5) == "invalid_params"  # a point light
    assert error_code(fresh, "set_light", name="Light", energy=-1) == "invalid_params"
    assert error_code(fresh, "set_light", name="Light") == "invalid_params"
    assert bpy.data.objects["Light"].data.energy == energy


def mean_luminance(path):
    _, _, px = png_pixels(path)
    return sum(0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2] for i in range(0, len(px), 4)) / (len(px) / 4)


def test_more_energy_renders_brighter(fresh, bridge):
    fresh.ok("set_render_settings", engine="cycles", resolution_x=32, resolution_y=32, samples=2)
    fresh.ok("set_world", color=[0, 0, 0], strength=0)
    fresh.ok("set_light", name="Light", energy=100)
    dim = mean_luminance(fresh.ok("render_image", filename="dim.png")["path"])
    fresh.ok("set_light", name="Light", energy=3000)
    bright = mean_luminance(fresh.ok("render_image", filename="bright.png")["path"])
    assert bright > dim * 1.5, (dim, bright)


# -- world ----------------------------------------------------------------------------

def world_links():
    tree = bpy.context.scene.world.node_tree
    return {(l.from_node.type, l.to_node.type, l.to_socket.name) for l in tree.links}


def test_hdri_from_a_read_root(fresh, read_root):
    hdr = write_image(read_root / "studio.hdr", 16, 8, file_format="HDR", float_buffer=True)
    r = fresh.ok("set_world_hdri", path=hdr, strength=2, rotation=math.radians(90))
    assert r["delta"]["settings"] == ["world"] and r["delta"]["datablocks"]["images"]["added"] == ["studio.hdr"]
    assert ("TEX_ENVIRONMENT", "BACKGROUND", "Color") in world_links() and ("BACKGROUND", "OUTPUT_WORLD", "Surface") in world_links()
    tree = bpy.context.scene.world.node_tree
    env = next(n for n in tree.nodes if n.type == "TEX_ENVIRONMENT")
    assert env.image.name == "studio.hdr"
    mapping = next(n for n in tree.nodes if n.type == "MAPPING")
    assert mapping.inputs["Rotation"].default_value[2] == pytest.approx(math.radians(90))
    r = fresh.ok("set_world_hdri", path=hdr, background_visible=False)
    assert "datablocks" not in r["delta"] or "images" not in r["delta"]["datablocks"] or not r["delta"]["datablocks"]["images"]["added"]
    assert ("LIGHT_PATH", "MIX_SHADER", FACTOR) in world_links() and ("MIX_SHADER", "OUTPUT_WORLD", "Surface") in world_links()


def test_hdri_refuses_paths_outside_and_other_types(fresh, read_root, tmp_path):
    write_image(read_root / "flat.png")
    outside = write_image(tmp_path / "outside.hdr", 8, 4, file_format="HDR", float_buffer=True)
    os.symlink(outside, read_root / "sneaky.hdr")
    nodes = len(bpy.context.scene.world.node_tree.nodes)
    for path in [outside, str(read_root / "sneaky.hdr"), str(read_root / "flat.png"), "studio.hdr/../x.hdr", "sub/x.hdr"]:
        assert error_code(fresh, "set_world_hdri", path=path) == "path_refused", path
    assert error_code(fresh, "set_world_hdri", path=str(read_root / "none.exr")) == "not_found"
    assert len(bpy.context.scene.world.node_tree.nodes) == nodes


def test_physical_and_analytic_skies(fresh):
    r = fresh.ok("set_world_sky", sky_type="NISHITA", sun_elevation=math.radians(30), sun_rotation=math.radians(45), altitude=100, air=2, dust=1, ozone=3, strength=0.5)
    sky = next(n for n in bpy.context.scene.world.node_tree.nodes if n.type == "TEX_SKY")
    assert r["sky_type"] == sky.sky_type and sky.sky_type in ("NISHITA", "MULTIPLE_SCATTERING")
    assert sky.sun_elevation == pytest.approx(math.radians(30)) and sky.altitude == 100 and sky.air_density == 2 and sky.ozone_density == 3
    assert ("TEX_SKY", "BACKGROUND", "Color") in world_links()
    fresh.ok("set_world_sky", sky_type="HOSEK_WILKIE", sun_elevation=math.radians(90))
    sky = next(n for n in bpy.context.scene.world.node_tree.nodes if n.type == "TEX_SKY")
    assert sky.sky_type == "HOSEK_WILKIE" and Vector(sky.sun_direction).z == pytest.approx(1, abs=1e-5)
    assert error_code(fresh, "set_world_sky", sky_type="PREETHAM", altitude=5) == "invalid_params"
    assert error_code(fresh, "set_world_sky", sun_elevation=math.radians(-30)) == "invalid_params"


def test_gradient_is_brighter_at_the_top(fresh):
    r = fresh.ok("set_world_gradient", top=[1, 1, 1], bottom=[0, 0, 0], strength=1)
    assert r["mode"] == "gradient" and ("VALTORGB", "BACKGROUND", "Color") in world_links()
    # A camera looking up sees the top colour, looking down the bottom one.
    fresh.ok("set_render_settings", engine="cycles", resolution_x=16, resolution_y=16, samples=1)
    fresh.ok("delete_object", name="Cube")
    cam = bpy.data.objects["Camera"]
    cam.location, cam.rotation_euler = (0, 0, 0), (0, 0, 0)  # -Z: straight down
    down = mean_luminance(fresh.ok("render_image", filename="down.png")["path"])
    cam.rotation_euler = (math.pi, 0, 0)  # straight up
    up = mean_luminance(fresh.ok("render_image", filename="up.png")["path"])
    assert up > 0.5 > down, (up, down)


# -- camera ---------------------------------------------------------------------------

def test_aim_at_an_object_and_a_point(fresh):
    bpy.data.objects["Cube"].location = (2, 3, 1)
    r = fresh.ok("aim_camera", camera="Camera", target_object="Cube")
    cam = bpy.data.objects["Camera"]
    to_target = (Vector((2, 3, 1)) - cam.location).normalized()
    assert forward(cam).dot(to_target) > 0.999 and r["delta"]["changed"] == ["Camera"]
    fresh.ok("aim_camera", camera="Camera", target_point=[-4, 0, 0])
    assert forward(cam).dot((Vector((-4, 0, 0)) - cam.location).normalized()) > 0.999
    r = fresh.ok("aim_camera", camera="Camera", target_object="Cube", track=True)
    assert r["tracking"] == "Cube" and cam.constraints["capstan_track"].target.name == "Cube"
    assert "constraints" in r["delta"]["fields"]["Camera"]
    assert error_code(fresh, "aim_camera", camera="Camera", target_point=[0, 0, 0], track=True) == "invalid_params"
    assert error_code(fresh, "aim_camera", camera="Cube", target_point=[0, 0, 0]) == "invalid_target"
    assert error_code(fresh, "aim_camera", camera="Camera") == "invalid_params"
    assert error_code(fresh, "aim_camera", camera="Camera", target_point=list(cam.location)) == "invalid_params"


@pytest.mark.parametrize("keep", [True, False])
def test_framed_objects_are_inside_the_frame(fresh, keep):
    fresh.ok("create_object", type="uv_sphere", name="Far", location=[4, 5, 2], scale=[2, 2, 2])
    sc = bpy.context.scene
    sc.render.resolution_x, sc.render.resolution_y = 1920, 1080
    fresh.ok("frame_objects", camera="Camera", objects=["Cube", "Far"], margin=0.1, keep_direction=keep)
    bpy.context.view_layer.update()
    cam = bpy.data.objects["Camera"]
    corners = [o.matrix_world @ Vector(c) for o in (bpy.data.objects["Cube"], bpy.data.objects["Far"]) for c in o.bound_box]
    views = [world_to_camera_view(sc, cam, c) for c in corners]
    assert all(-1e-4 <= v.x <= 1 + 1e-4 and -1e-4 <= v.y <= 1 + 1e-4 and v.z > 0 for v in views)
    # Tight: some corner comes close to the margin on at least one axis.
    assert max(max(abs(v.x - 0.5), abs(v.y - 0.5)) for v in views) > 0.4


def test_frame_with_an_orthographic_camera(fresh):
    fresh.ok("set_camera_lens", camera="Camera", type="ORTHO")
    fresh.ok("frame_objects", camera="Camera", objects=["Cube"], margin=0.2)
    bpy.context.view_layer.update()
    sc, cam = bpy.context.scene, bpy.data.objects["Camera"]
    views = [world_to_camera_view(sc, cam, bpy.data.objects["Cube"].matrix_world @ Vector(c)) for c in bpy.data.objects["Cube"].bound_box]
    assert all(0 <= v.x <= 1 and 0 <= v.y <= 1 and v.z > 0 for v in views)


def test_dof_and_lens(fresh):
    r = fresh.ok("set_camera_dof", camera="Camera", enabled=True, focus_object="Cube", fstop=1.8)
    dof = bpy.data.objects["Camera"].data.dof
    assert dof.use_dof and dof.focus_object.name == "Cube" and dof.aperture_fstop == pytest.approx(1.8)
    assert r["delta"]["changed"] == ["Camera"]
    fresh.ok("set_camera_dof", camera="Camera", enabled=True, focus_distance=4)
    assert dof.focus_object is None and dof.focus_distance == 4
    assert error_code(fresh, "set_camera_dof", camera="Camera", enabled=True, focus_object="Cube", focus_distance=3) == "invalid_params"
    assert error_code(fresh, "set_camera_dof", camera="Camera", enabled=True, fstop=0.1) == "invalid_params"
    r = fresh.ok("set_camera_lens", camera="Camera", lens=85, sensor_width=24, sensor_fit="HORIZONTAL", shift_x=0.1, clip_start=0.5, clip_end=500)
    data = bpy.data.objects["Camera"].data
    assert (data.lens, data.sensor_width, data.sensor_fit, data.clip_start, data.clip_end) == (85, 24, "HORIZONTAL", 0.5, 500)
    assert data.shift_x == pytest.approx(0.1) and r["angle"] == pytest.approx(data.angle, abs=1e-5)
    assert error_code(fresh, "set_camera_lens", camera="Camera", clip_start=10, clip_end=5) == "invalid_params"
    assert error_code(fresh, "set_camera_lens", camera="Camera") == "invalid_params"
    assert data.clip_end == 500


def test_a_baked_float_exr_of_the_session_lights_the_world(fresh, bridge):
    r = fresh.ok("bake_texture", object="Cube", bake_type="ao", width=16, height=16, samples=1, filename="env.exr")
    assert r["path"].endswith("env.exr") and bpy.data.images["env"].is_float
    with open(r["path"], "rb") as f:
        assert f.read(4) == b"\x76\x2f\x31\x01", "an OpenEXR file"
    w = fresh.ok("set_world_hdri", path="env.exr", strength=1.5)
    env = next(n for n in bpy.context.scene.world.node_tree.nodes if n.type == "TEX_ENVIRONMENT")
    assert env.image.name == "env" and w["image"] == "env"
    assert "images" not in w["delta"].get("datablocks", {}) or not w["delta"]["datablocks"]["images"]["added"], "the baked image is reused"
