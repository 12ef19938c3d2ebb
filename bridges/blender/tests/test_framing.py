"""camera_framing against real Blender with known geometry: a 50 mm camera (36 mm
sensor, 1920x1080) 10 m in front of a 2 m cube, far from the origin (x = 500) so the
other tests' objects do not matter. The frame fractions are derived by hand and checked
against bpy_extras' world_to_camera_view, vertex by vertex."""

import math

import bpy
import pytest
from bpy_extras.object_utils import world_to_camera_view

X = 500.0


@pytest.fixture
def rig(client):
    sc = bpy.context.scene
    saved = (sc.camera, sc.render.resolution_x, sc.render.resolution_y, sc.render.pixel_aspect_x, sc.render.pixel_aspect_y)
    data = bpy.data.cameras.new("FrCamData")
    cam = bpy.data.objects.new("FrCam", data)
    sc.collection.objects.link(cam)
    cam.location = (X, -10.0, 0.0)
    cam.rotation_euler = (math.pi / 2, 0.0, 0.0)  # looks along +Y
    data.lens, data.sensor_width, data.sensor_fit = 50.0, 36.0, "AUTO"
    sc.render.resolution_x, sc.render.resolution_y = 1920, 1080
    sc.render.pixel_aspect_x = sc.render.pixel_aspect_y = 1.0
    sc.camera = cam
    client.ok("create_object", type="cube", name="FrCube", size=2.0, location=[X, 0.0, 0.0])
    bpy.context.view_layer.update()
    yield cam
    for name in ("FrCube", "FrCam", "FrDense"):
        if name in bpy.data.objects:
            bpy.data.objects.remove(bpy.data.objects[name])
    bpy.data.cameras.remove(data)
    sc.camera, sc.render.resolution_x, sc.render.resolution_y, sc.render.pixel_aspect_x, sc.render.pixel_aspect_y = saved


def by_bpy_extras(cam, name):
    obj = bpy.data.objects[name]
    dg = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(dg)
    pts = [world_to_camera_view(bpy.context.scene, cam, ev.matrix_world @ v.co) for v in ev.data.vertices]
    return (min(p.x for p in pts), max(p.x for p in pts), min(p.y for p in pts), max(p.y for p in pts))


def agrees(r, cam, name):
    b = r["bounds"]
    assert (b["x_min"], b["x_max"], b["y_min"], b["y_max"]) == pytest.approx(by_bpy_extras(cam, name), abs=1e-5)


def test_a_cube_ten_metres_ahead_fills_a_known_share_of_the_frame(client, rig):
    r = client.ok("camera_framing", object="FrCube")
    # The near face (depth 9 m) spans 2 m of a frame 9 * 36/50 = 6.48 m wide and 9 * 20.25/50 = 3.645 m high.
    w, h = 2 / 6.48, 2 / 3.645
    assert r["camera"] == "FrCam" and r["object"] == "FrCube" and r["frame"] == bpy.context.scene.frame_current
    assert r["bounds"] == pytest.approx({"x_min": 0.5 - w / 2, "x_max": 0.5 + w / 2, "y_min": 0.5 - h / 2, "y_max": 0.5 + h / 2}, abs=1e-5)
    assert r["width_fraction"] == pytest.approx(w, abs=1e-5) and r["height_fraction"] == pytest.approx(h, abs=1e-5)
    assert r["coverage"] == pytest.approx(h, abs=1e-5)
    assert r["fully_inside"] and r["in_front"] and r["visible"] and r["within_clip"]
    assert r["distance"] == pytest.approx(10.0, abs=1e-6)
    assert r["source"] == "vertices" and r["points"] == 8
    agrees(r, rig, "FrCube")
    named = client.ok("camera_framing", object="FrCube", camera="FrCam")
    assert named["bounds"] == r["bounds"]


def test_partly_out_of_frame_and_behind_the_camera(client, rig):
    bpy.data.objects["FrCube"].location.x = X + 3.5  # x in [2.5, 4.5] m; half-width 3.24 m at the near face
    bpy.context.view_layer.update()
    r = client.ok("camera_framing", object="FrCube")
    assert r["visible"] and r["in_front"] and not r["fully_inside"]
    assert r["bounds"]["x_max"] == pytest.approx(0.5 + 4.5 / 6.48, abs=1e-5)
    # The left edge is the far face's (depth 11 m, frame 7.92 m wide).
    assert r["width_fraction"] == pytest.approx(1 - (0.5 + 2.5 / 7.92), abs=1e-5)
    agrees(r, rig, "FrCube")
    bpy.data.objects["FrCube"].location = (X, -20.0, 0.0)  # 10 m behind the camera
    bpy.context.view_layer.update()
    r = client.ok("camera_framing", object="FrCube")
    assert not r["in_front"] and not r["visible"] and not r["fully_inside"]
    assert r["bounds"] is None and r["coverage"] == 0 and r["distance"] == pytest.approx(10.0, abs=1e-6)
    bpy.data.objects["FrCube"].location = (X, 5000.0, 0.0)  # beyond the default 100 m clip end
    bpy.context.view_layer.update()
    r = client.ok("camera_framing", object="FrCube")
    assert r["in_front"] and r["fully_inside"] and not r["within_clip"]


def test_shift_aspect_and_orthographic_match_world_to_camera_view(client, rig):
    rig.data.shift_x, rig.data.shift_y = 0.1, -0.05
    bpy.context.scene.render.resolution_x, bpy.context.scene.render.resolution_y = 800, 1200  # portrait
    bpy.context.scene.render.pixel_aspect_x = 2.0
    bpy.data.objects["FrCube"].rotation_euler = (0.3, 0.2, 0.7)
    bpy.context.view_layer.update()
    r = client.ok("camera_framing", object="FrCube")
    agrees(r, rig, "FrCube")
    rig.data.type, rig.data.ortho_scale = "ORTHO", 8.0
    bpy.context.view_layer.update()
    r = client.ok("camera_framing", object="FrCube")
    agrees(r, rig, "FrCube")
    assert r["fully_inside"]


def test_a_dense_mesh_is_framed_by_its_evaluated_bound_box(client, rig):
    client.ok("create_object", type="cube", name="FrDense", size=2.0, location=[X, 0.0, 0.0])
    sub = bpy.data.objects["FrDense"].modifiers.new("Sub", "SUBSURF")
    sub.levels = 7  # 98,306 evaluated vertices: above the 50k cap
    bpy.context.view_layer.update()
    r = client.ok("camera_framing", object="FrDense")
    assert r["source"] == "bound_box" and r["points"] == 8 and r["fully_inside"]
    # The smoothed cube shrinks inside its cage: its box is inside the cube's.
    cube = client.ok("camera_framing", object="FrCube")
    assert cube["bounds"]["x_min"] < r["bounds"]["x_min"] < r["bounds"]["x_max"] < cube["bounds"]["x_max"]


def test_errors_change_nothing(client, rig):
    assert client.call("camera_framing", object="Ghost")["error"]["code"] == "not_found"
    assert client.call("camera_framing", object="FrCube", camera="Ghost")["error"]["code"] == "not_found"
    assert client.call("camera_framing", object="FrCam", camera="FrCube")["error"]["code"] == "invalid_target"
    assert client.call("camera_framing", object="FrCam")["error"]["code"] == "invalid_params"
    assert client.call("camera_framing", object="FrCube", zoom=2)["error"]["code"] == "invalid_params"
    bpy.context.scene.camera = None
    assert client.call("camera_framing", object="FrCube")["error"]["code"] == "no_camera"
    assert client.ok("camera_framing", object="FrCube", camera="FrCam")["fully_inside"]
