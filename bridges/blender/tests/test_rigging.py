"""Rigging commands against real Blender (CATALOG §3 rigging): a vertex group per bone
with some weight > 0 after binding, and an evaluated mesh vertex that moves when a
bone is posed."""

import math

import bpy
import bmesh  # after bpy, which loads it
import pytest



def empty(client, name="RgEmpty"):
    """An object without geometry (the factory camera may be gone: other tests reset the scene)."""
    if name not in bpy.data.objects:
        client.ok("create_object", type="empty", name=name)
    return name

def column(client, name, x):
    """A 1 x 1 x 4 m column standing at x, cut into 16 rings so it can bend (built with
    bmesh here: no command makes such a mesh)."""
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=(1, 1, 4), verts=bm.verts)
    bmesh.ops.translate(bm, vec=(0, 0, 2), verts=bm.verts)
    vertical = [e for e in bm.edges if abs(e.verts[0].co.z - e.verts[1].co.z) > 1]
    bmesh.ops.subdivide_edges(bm, edges=vertical, cuts=15, use_grid_fill=True)
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    obj.location.x = x
    bpy.context.scene.collection.objects.link(obj)
    return obj


def two_bones(x):
    return [{"name": "Root", "head": [0, 0, 0], "tail": [0, 0, 2]},
            {"name": "Tip", "head": [0, 0, 2], "tail": [0, 0, 4], "parent": "Root", "connected": True}]


def evaluated_reach_y(obj):
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    return max(abs((ev.matrix_world @ v.co).y) for v in ev.data.vertices)


def test_create_armature_with_a_chain(client):
    r = client.ok("create_armature", name="RgArm", location=[200, 0, 0], bones=two_bones(200))
    assert r["delta"]["added"] == ["RgArm"]
    assert [(b["name"], b["parent"], b["connected"]) for b in r["bones"]] == [("Root", None, False), ("Tip", "Root", True)]
    arm = bpy.data.objects["RgArm"]
    assert arm.mode == "OBJECT" and arm.data.bones["Tip"].tail_local.z == pytest.approx(4)
    bad = [{"name": "A", "head": [0, 0, 0], "tail": [0, 0, 0]}]
    assert client.call("create_armature", name="RgBad", bones=bad)["error"]["code"] == "invalid_params"
    cyc = [{"name": "A", "head": [0, 0, 0], "tail": [0, 0, 1], "parent": "B"}, {"name": "B", "head": [0, 0, 1], "tail": [0, 0, 2], "parent": "A"}]
    assert client.call("create_armature", name="RgBad", bones=cyc)["error"]["code"] == "invalid_params"
    assert "RgBad" not in bpy.data.objects


def test_edit_bones_add_reparent_remove(client):
    empty(client)
    client.ok("create_armature", name="RgEdit", bones=two_bones(0))
    r = client.ok("edit_bone", armature="RgEdit", action="add", bone="Side", head=[0, 0, 2], tail=[1, 0, 2], parent="Root")
    assert r["total"] == 3 and r["delta"]["changed"] == ["RgEdit"]
    r = client.ok("edit_bone", armature="RgEdit", action="set_parent", bone="Side", parent="Tip")
    assert {b["name"]: b["parent"] for b in r["bones"]}["Side"] == "Tip"
    assert client.call("edit_bone", armature="RgEdit", action="set_parent", bone="Root", parent="Side")["error"]["code"] == "invalid_target"
    r = client.ok("edit_bone", armature="RgEdit", action="set_parent", bone="Side")
    assert {b["name"]: b["parent"] for b in r["bones"]}["Side"] is None
    r = client.ok("edit_bone", armature="RgEdit", action="remove", bone="Side")
    assert r["total"] == 2 and "Side" not in bpy.data.objects["RgEdit"].data.bones
    assert client.call("edit_bone", armature="RgEdit", action="remove", bone="Ghost")["error"]["code"] == "not_found"
    assert client.call("edit_bone", armature="RgEmpty", action="remove", bone="Root")["error"]["code"] == "invalid_target"


def test_bind_auto_weights_then_pose_moves_the_mesh(client):
    mesh = column(client, "RgColumn", -30)  # heat weighting fails far (~200 m) from the origin
    client.ok("create_armature", name="RgRig", location=[-30, 0, 0], bones=two_bones(-30))
    r = client.ok("bind_armature", mesh="RgColumn", armature="RgRig", mode="AUTO")
    assert {g["name"] for g in r["groups"]} == {"Root", "Tip"}
    assert all(g["vertices"] > 0 and g["max_weight"] > 0 for g in r["groups"]), r["groups"]
    assert mesh.parent.name == "RgRig" and r["modifier"]
    assert "RgColumn" in r["delta"]["changed"]
    before = evaluated_reach_y(mesh)
    r = client.ok("pose_bone", armature="RgRig", bone="Tip", rotation=[math.radians(60), 0, 0], frame=1)  # bend about the bone X
    assert r["keyed"] == ["rotation_euler"] and r["delta"]["changed"] == ["RgRig"]
    assert evaluated_reach_y(mesh) > before + 0.5
    assert client.call("pose_bone", armature="RgRig", bone="Ghost", location=[0, 0, 1])["error"]["code"] == "not_found"
    assert client.call("pose_bone", armature="RgRig", bone="Tip", location=[0, 1, 0])["error"]["code"] == "invalid_target"
    assert client.call("bind_armature", mesh="RgRig", armature="RgRig")["error"]["code"] == "invalid_target"


def test_vertex_groups_create_assign_remove_list(client):
    client.ok("create_object", type="cube", name="RgGroups", location=[220, 0, 0])
    r = client.ok("vertex_group", object="RgGroups", action="create", group="Top", vertices=[0, 1], weight=0.5)
    assert r["groups"] == [{"name": "Top", "index": 0, "vertices": 2}] and r["delta"]["changed"] == ["RgGroups"]
    r = client.ok("vertex_group", object="RgGroups", action="assign", group="Top", vertices=[0], weight=0.25, mode="ADD")
    obj = bpy.data.objects["RgGroups"]
    assert obj.vertex_groups["Top"].weight(0) == pytest.approx(0.75)
    assert r["delta"]["changed"] == ["RgGroups"] and "vertex_groups" in r["delta"]["fields"]["RgGroups"]
    r = client.ok("vertex_group", object="RgGroups", action="remove", group="Top", vertices=[1])
    assert r["groups"][0]["vertices"] == 1
    assert client.ok("list_vertex_groups", object="RgGroups")["groups"][0]["vertices"] == 1
    assert client.call("vertex_group", object="RgGroups", action="assign", group="Top", vertices=[99])["error"]["code"] == "invalid_params"
    assert client.call("vertex_group", object="RgGroups", action="assign", group="Nope", vertices=[0])["error"]["code"] == "not_found"
