"""Animation commands against real Blender (CATALOG §3 animation): frame_set drives
evaluation, and matrix_world is compared with the expected interpolation."""

import bpy
import pytest



def empty(client, name="KfEmpty"):
    """An object without geometry (the factory camera may be gone: other tests reset the scene)."""
    if name not in bpy.data.objects:
        client.ok("create_object", type="empty", name=name)
    return name

def cube(client, name, location=(0, 0, 0)):
    client.ok("create_object", type="cube", name=name, location=list(location))
    return bpy.data.objects[name]


def key(client, name, prop, frame, value):
    client.ok("insert_keyframe", object=name, property=prop, frame=frame, value=value)


def test_linear_interpolation_is_exact_at_mid_frame(client):
    obj = cube(client, "KfLin")
    key(client, "KfLin", "location", 1, [0, 0, 0])
    key(client, "KfLin", "location", 11, [10, 0, 0])
    r = client.ok("set_interpolation", object="KfLin", data_path="location", interpolation="LINEAR")
    assert r["fcurves"] == 3 and r["keyframes"] == 6 and r["delta"]["changed"] == ["KfLin"]
    bpy.context.scene.frame_set(6)
    assert obj.matrix_world.translation.x == pytest.approx(5.0, abs=1e-5)
    r = client.ok("set_interpolation", object="KfLin", data_path="location", index=0, interpolation="CONSTANT")
    assert r["fcurves"] == 1
    bpy.context.scene.frame_set(6)
    assert obj.matrix_world.translation.x == pytest.approx(0.0, abs=1e-6)
    r = client.ok("set_interpolation", object="KfLin", interpolation="BOUNCE", easing="EASE_OUT", handle_type="VECTOR")
    assert r["delta"]["changed"] == ["KfLin"]
    k = bpy.data.objects["KfLin"].animation_data.action.layers[0].strips[0].channelbags[0].fcurves[0].keyframe_points[0]
    assert (k.interpolation, k.easing, k.handle_left_type) == ("BOUNCE", "EASE_OUT", "VECTOR")


def test_cyclic_extrapolation_repeats_the_motion(client):
    obj = cube(client, "KfCyc")
    key(client, "KfCyc", "location", 1, [0, 0, 0])
    key(client, "KfCyc", "location", 11, [10, 0, 0])
    client.ok("set_interpolation", object="KfCyc", interpolation="LINEAR", extrapolation="CYCLIC")
    bpy.context.scene.frame_set(16)  # half way through the second cycle
    assert obj.matrix_world.translation.x == pytest.approx(5.0, abs=1e-5)
    client.ok("set_interpolation", object="KfCyc", extrapolation="CONSTANT")
    bpy.context.scene.frame_set(16)
    assert obj.matrix_world.translation.x == pytest.approx(10.0, abs=1e-5)


def test_interpolation_errors(client):
    cube(client, "KfNone")
    assert client.call("set_interpolation", object="KfNone", interpolation="LINEAR")["error"]["code"] == "not_found"
    assert client.call("set_interpolation", object="KfNone")["error"]["code"] == "invalid_params"


def test_clear_one_path_then_everything(client):
    obj = cube(client, "KfClear")
    key(client, "KfClear", "location", 1, [0, 0, 0])
    key(client, "KfClear", "scale", 1, [1, 1, 1])
    r = client.ok("clear_keyframes", object="KfClear", data_path="scale")
    assert [x["data_path"] for x in r["removed"]] == ["scale"] * 3 and r["remaining_fcurves"] == 3
    assert r["delta"]["changed"] == ["KfClear"] and "animation" in r["delta"]["fields"]["KfClear"]
    r = client.ok("clear_keyframes", object="KfClear")
    assert r["action_unassigned"] and obj.animation_data.action is None
    assert client.call("clear_keyframes", object="KfClear")["error"]["code"] == "not_found"


def test_frame_range_and_fps(client):
    r = client.ok("set_frame_range", frame_start=10, frame_end=250, fps=30, frame_current=20)
    sc = bpy.context.scene
    assert (sc.frame_start, sc.frame_end, sc.render.fps, sc.frame_current) == (10, 250, 30, 20)
    assert sorted(r["delta"]["settings"]) == ["render", "scene"]
    r = client.ok("set_frame_range", frame_start=300, frame_end=400)
    assert (sc.frame_start, sc.frame_end) == (300, 400)
    assert client.call("set_frame_range", frame_start=50, frame_end=10)["error"]["code"] == "invalid_params"
    client.ok("set_frame_range", frame_start=1, frame_end=250, fps=24, frame_current=1)


def test_shape_keys_add_set_key_and_evaluate(client):
    empty(client)
    obj = cube(client, "KfShape")
    assert client.ok("list_shape_keys", object="KfShape")["total"] == 0
    r = client.ok("shape_keys", object="KfShape", action="add", name="Up", offset=[0, 0, 1], vertices=[1, 3, 5, 7])
    assert [k["name"] for k in r["keys"]] == ["Basis", "Up"] and r["delta"]["changed"] == ["KfShape"]
    client.ok("shape_keys", object="KfShape", action="set_value", name="Up", value=0.5)
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    assert max(v.co.z for v in ev.data.vertices) == pytest.approx(1.5, abs=1e-5)
    r = client.ok("shape_keys", object="KfShape", action="keyframe", name="Up", value=0.0, frame=1)
    assert len(r["delta"]["datablocks"]["actions"]["added"]) == 1
    client.ok("shape_keys", object="KfShape", action="keyframe", name="Up", value=1.0, frame=11)
    bpy.context.scene.frame_set(11)
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    assert max(v.co.z for v in ev.data.vertices) == pytest.approx(2.0, abs=1e-5)
    assert client.call("shape_keys", object="KfShape", action="set_value", name="Nope", value=1)["error"]["code"] == "not_found"
    assert client.call("shape_keys", object="KfShape", action="add_basis")["error"]["code"] == "invalid_params"
    assert client.call("shape_keys", object="KfEmpty", action="add_basis")["error"]["code"] == "invalid_target"
    bpy.context.scene.frame_set(1)


def test_follow_path_moves_the_object_along_the_curve(client):
    empty(client)
    curve = bpy.data.curves.new("KfPathData", "CURVE")
    spline = curve.splines.new("POLY")
    spline.points.add(1)
    spline.points[0].co = (0, 0, 0, 1)
    spline.points[1].co = (10, 0, 0, 1)
    path = bpy.data.objects.new("KfPath", curve)
    bpy.context.scene.collection.objects.link(path)
    obj = bpy.data.objects.new("KfRider", None)
    bpy.context.scene.collection.objects.link(obj)
    r = client.ok("follow_path", object="KfRider", curve="KfPath", frames=100, start_frame=1)
    assert r["frame_end"] == 101 and "KfRider" in r["delta"]["changed"]
    for frame, x in ((1, 0.0), (51, 5.0), (101, 10.0)):
        bpy.context.scene.frame_set(frame)
        assert obj.matrix_world.translation.x == pytest.approx(x, abs=1e-4), frame
    assert client.call("follow_path", object="KfRider", curve="KfEmpty", frames=10)["error"]["code"] == "invalid_target"
    bpy.context.scene.frame_set(1)
