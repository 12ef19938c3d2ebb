"""Deltas that cost what changed: tracked, checked against a whole-scene snapshot
(the fixture's bridge runs in verification mode), reported when a command fails
half-way; creation through the data API; answers bounded; undo steps."""

import json

import bpy
import pytest

from capstan_bridge.commands import primitives


def test_modifier_constraint_parent_and_keyframe_each_show_in_the_delta(client):
    client.ok("create_object", type="cube", name="DeltaBox")
    client.ok("create_object", type="empty", name="DeltaTarget", location=[0, 3, 0])
    r = client.ok("add_modifier", object="DeltaBox", type="BEVEL", properties={"width": 0.1, "segments": 2})
    assert r["delta"]["changed"] == ["DeltaBox"] and r["delta"]["fields"]["DeltaBox"] == ["modifiers"]
    r = client.ok("add_constraint", object="DeltaBox", type="TRACK_TO", target="DeltaTarget")
    assert r["delta"]["fields"]["DeltaBox"] == ["constraints"]
    r = client.ok("parent_objects", parent="DeltaTarget", children=["DeltaBox"])
    assert r["delta"]["changed"] == ["DeltaBox"] and "parent" in r["delta"]["fields"]["DeltaBox"]
    r = client.ok("insert_keyframe", object="DeltaBox", property="location", frame=3)
    assert r["delta"]["changed"] == ["DeltaBox"] and "animation" in r["delta"]["fields"]["DeltaBox"]
    assert r["delta"]["datablocks"]["actions"]["added"]


def test_read_commands_report_nothing(client):
    client.ok("create_object", type="cube", name="ReadBox")
    for command, params in [("get_scene_info", {}), ("get_object_info", {"name": "ReadBox"}), ("list_constraints", {"object": "ReadBox"})]:
        assert "delta" not in client.ok(command, **params)


def test_a_failed_command_reports_what_it_changed_first(client):
    # Deleting two objects where the second is missing still reports the first.
    client.ok("create_object", type="cube", name="Doomed")
    r = client.ok("delete_object", names=["Doomed", "NotThere"])
    assert r["delta"]["removed"] == ["Doomed"] and r["not_found"] == ["NotThere"]


def test_deleting_a_target_changes_who_pointed_at_it(client):
    client.ok("create_object", type="cube", name="Holder")
    client.ok("create_object", type="empty", name="Aim")
    client.ok("add_constraint", object="Holder", type="DAMPED_TRACK", target="Aim")
    r = client.ok("delete_object", name="Aim")
    assert r["delta"]["removed"] == ["Aim"] and r["delta"]["changed"] == ["Holder"]


@pytest.mark.parametrize("kind,op,kwargs", [
    ("cube", "primitive_cube_add", {"size": 2}),
    ("uv_sphere", "primitive_uv_sphere_add", {"radius": 1}),
    ("ico_sphere", "primitive_ico_sphere_add", {"radius": 1}),
    ("cylinder", "primitive_cylinder_add", {"radius": 1, "depth": 2}),
    ("cone", "primitive_cone_add", {"radius1": 1, "depth": 2}),
    ("plane", "primitive_plane_add", {"size": 2}),
    ("grid", "primitive_grid_add", {"size": 2}),
    ("circle", "primitive_circle_add", {"radius": 1}),
    ("monkey", "primitive_monkey_add", {"size": 2}),
])
def test_data_api_primitives_match_the_operators(kind, op, kwargs):
    mesh = primitives.mesh(kind, 2.0, "Probe_" + kind)
    getattr(bpy.ops.mesh, op)(**kwargs)
    ref = bpy.context.active_object.data
    assert (len(mesh.vertices), len(mesh.polygons)) == (len(ref.vertices), len(ref.polygons)), kind
    assert [u.name for u in mesh.uv_layers] == ["UVMap"] or kind == "circle"
    bpy.data.objects.remove(bpy.context.active_object)


def test_the_scene_summary_stays_small_beside_two_thousand_objects(client):
    mesh = bpy.data.meshes.new("crowd")
    for i in range(2000):
        bpy.context.scene.collection.objects.link(bpy.data.objects.new("Crowd%04d" % i, mesh))
    try:
        doc = client.call("get_scene_info")
        size = len(json.dumps(doc))
        assert size <= 16 * 1024, size
        assert doc["result"]["object_count"] >= 2000 and len(doc["result"]["objects"]) == 20
        assert doc["result"]["page"]["next_offset"] == 20
        page = client.ok("get_scene_info", name="Crowd19*", limit=200)
        assert page["page"]["total"] == 100
    finally:
        for i in range(2000):
            bpy.data.objects.remove(bpy.data.objects["Crowd%04d" % i])


def test_one_undo_step_closes_a_group_of_commands(client, bridge):
    bridge.session.undo = True
    try:
        bpy.ops.ed.undo_push(message="before")
        for name in ("UndoA", "UndoB", "UndoC"):
            client.ok("create_light", type="area", name=name, location=[0, 0, 3])
        assert client.ok("undo_push", label="capstan: scene.lighting_preset")["pushed"] is True
        bpy.ops.ed.undo()
        assert not any(n in bpy.data.objects for n in ("UndoA", "UndoB", "UndoC"))
    finally:
        bridge.session.undo = False
    assert client.ok("undo_push", label="x")["pushed"] is False


def test_snapshots_diff_aspect_by_aspect(client):
    client.ok("create_object", type="cube", name="SnapBox")
    client.ok("scene_snapshot", action="save", id="t0")
    client.ok("modify_object", name="SnapBox", location=[0, 0, 2])
    d = client.ok("scene_snapshot", action="diff", a="t0")
    assert d["same"] is False and d["diff"]["changed"] == ["SnapBox"] and d["diff"]["fields"]["SnapBox"] == ["transform"]
    client.ok("modify_object", name="SnapBox", location=[0, 0, 0])
    assert client.ok("scene_snapshot", action="diff", a="t0")["same"] is True
