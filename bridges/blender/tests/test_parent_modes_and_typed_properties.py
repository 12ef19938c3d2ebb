"""Issue 34 item 4 against real Blender: the modes of Set Parent To (parent_type, the
vertices or bone followed, the world position kept or not) and custom properties that
keep their type and take Blender's UI data."""

import bpy
import pytest


def _world(name):
    bpy.context.view_layer.update()
    return tuple(round(v, 4) for v in bpy.data.objects[name].matrix_world.translation)


def _pair(client, parent, child, parent_type="cube", parent_location=(1, 2, 0)):
    for name in (parent, child):
        if name in bpy.data.objects:
            bpy.data.objects.remove(bpy.data.objects[name])
    client.ok("create_object", type=parent_type, name=parent, location=list(parent_location))
    client.ok("create_object", type="empty", name=child, location=[3, -1, 2])


def test_object_and_keep_transform_keep_the_world_position(client):
    for mode in ("object", "keep_transform"):
        _pair(client, "PObj", "PObjKid")
        r = client.ok("parent_objects", parent="PObj", children=["PObjKid"], mode=mode)
        kid = bpy.data.objects["PObjKid"]
        assert r["mode"] == mode and r["parent_type"] == "OBJECT" and kid.parent.name == "PObj" and kid.parent_type == "OBJECT"
        assert _world("PObjKid") == (3, -1, 2)


def test_without_inverse_keeps_the_local_transform(client):
    _pair(client, "PNoInv", "PNoInvKid")
    r = client.ok("parent_objects", parent="PNoInv", children=["PNoInvKid"], mode="without_inverse")
    assert r["keep_transform"] is False
    kid = bpy.data.objects["PNoInvKid"]
    assert tuple(kid.location) == (3, -1, 2) and _world("PNoInvKid") == (4, 1, 2)
    assert list(kid.matrix_parent_inverse) == list(kid.matrix_parent_inverse.Identity(4))


def test_vertex_parent_follows_the_nearest_vertex_in_place(client):
    _pair(client, "PVert", "PVertKid")
    r = client.ok("parent_objects", parent="PVert", children=["PVertKid"], mode="vertex")
    kid = bpy.data.objects["PVertKid"]
    assert kid.parent_type == "VERTEX" and r["parent_type"] == "VERTEX" and _world("PVertKid") == (3, -1, 2)
    mesh = bpy.data.objects["PVert"]
    nearest = min(range(len(mesh.data.vertices)), key=lambda i: ((mesh.matrix_world @ mesh.data.vertices[i].co) - kid.matrix_world.translation).length)
    assert r["vertices"] == [[nearest]] and kid.parent_vertices[0] == nearest
    # It follows that vertex: moving the vertex moves the child.
    mesh.data.vertices[nearest].co.z += 1
    mesh.data.update()
    assert _world("PVertKid")[2] == pytest.approx(3, abs=1e-4)


def test_vertex_triangle_parent_on_given_vertices(client):
    _pair(client, "PTri", "PTriKid")
    r = client.ok("parent_objects", parent="PTri", children=["PTriKid"], mode="vertex_triangle", vertices=[0, 1, 2])
    kid = bpy.data.objects["PTriKid"]
    assert kid.parent_type == "VERTEX_3" and tuple(kid.parent_vertices) == (0, 1, 2) and r["vertices"] == [[0, 1, 2]]
    assert _world("PTriKid") == (3, -1, 2)


def test_bone_parent_follows_the_named_bone(client):
    _pair(client, "PArm", "PArmKid", parent_type="empty")
    arm_data = bpy.data.armatures.new("PRigData")
    rig = bpy.data.objects.new("PRig", arm_data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    bone = arm_data.edit_bones.new("Hand")
    bone.head, bone.tail = (0, 0, 0), (0, 0, 1)
    bpy.ops.object.mode_set(mode="OBJECT")
    r = client.ok("parent_objects", parent="PRig", children=["PArmKid"], mode="bone", bone="Hand")
    kid = bpy.data.objects["PArmKid"]
    assert r["parent_type"] == "BONE" and kid.parent_type == "BONE" and kid.parent_bone == "Hand"
    assert _world("PArmKid") == (3, -1, 2)
    doc = client.call("parent_objects", parent="PRig", children=["PArmKid"], mode="bone", bone="Foot")
    assert doc["error"]["code"] == "not_found" and "Foot" in doc["error"]["message"]


def test_modes_the_parent_cannot_take_are_refused_and_change_nothing(client):
    _pair(client, "PNone", "PNoneKid", parent_type="empty")
    for params, code in (
        ({"mode": "vertex"}, "invalid_target"),
        ({"mode": "bone", "bone": "Hand"}, "invalid_target"),
        ({"mode": "bone"}, "invalid_params"),
        ({"vertices": [0]}, "invalid_params"),
        ({"mode": "without_inverse", "keep_transform": True}, "invalid_params"),
    ):
        doc = client.call("parent_objects", parent="PNone", children=["PNoneKid"], **params)
        assert doc["error"]["code"] == code, (params, doc)
    _pair(client, "PMesh", "PMeshKid")
    doc = client.call("parent_objects", parent="PMesh", children=["PMeshKid"], mode="vertex", vertices=[99])
    assert doc["error"]["code"] == "not_found"
    assert bpy.data.objects["PNoneKid"].parent is None and bpy.data.objects["PMeshKid"].parent is None


def test_custom_properties_keep_their_type(client):
    client.ok("create_object", type="empty", name="PTyped")
    for key, value, kind in (("count", 12345, "int"), ("ratio", 2.0, "float"), ("flag", True, "bool"),
                             ("label", "7", "string"), ("offset", [1, 2.5, -3], "vector"), ("steps", [1, 2, 3], "vector")):
        r = client.ok("set_custom_property", object="PTyped", key=key, action="set", value=value)
        stored = bpy.data.objects["PTyped"][key]
        assert r["type"] == kind, (key, r)
        if kind == "vector":
            assert list(stored) == pytest.approx(value) and r["value"] == pytest.approx(value)
        else:
            assert stored == value and type(stored) is type(value) and type(r["value"]) is type(value)
    assert bpy.data.objects["PTyped"]["steps"].typecode == "i" and bpy.data.objects["PTyped"]["offset"].typecode == "d"


def test_custom_property_ui_data(client):
    client.ok("create_object", type="empty", name="PUi")
    r = client.ok("set_custom_property", object="PUi", key="amount", action="set", value=0.25, min=0, max=2,
                  soft_min=0, soft_max=1, subtype="FACTOR", description="How much")
    ui = bpy.data.objects["PUi"].id_properties_ui("amount").as_dict()
    assert (ui["min"], ui["max"], ui["soft_min"], ui["soft_max"], ui["subtype"], ui["description"]) == (0, 2, 0, 1, "FACTOR", "How much")
    assert r["ui"]["subtype"] == "FACTOR" and r["ui"]["description"] == "How much"
    client.ok("set_custom_property", object="PUi", key="count", action="set", value=5)
    r = client.ok("set_custom_property", object="PUi", key="count", action="set", max=10, description="Copies")
    assert r["value"] == 5 and r["ui"]["max"] == 10 and isinstance(r["ui"]["max"], int)
    r = client.ok("set_custom_property", object="PUi", key="tint", action="set", value=[1, 0.5, 0.25], subtype="COLOR")
    assert r["ui"]["subtype"] == "COLOR"


def test_custom_property_ui_data_that_does_not_apply_is_refused_and_changes_nothing(client):
    client.ok("create_object", type="empty", name="PUiBad")
    obj = bpy.data.objects["PUiBad"]
    for params in ({"key": "label", "value": "x", "min": 1}, {"key": "flag", "value": True, "max": 1},
                   {"key": "n", "value": 3, "max": 2.5}, {"key": "n", "value": 3, "min": 4, "max": 1},
                   {"key": "n", "action": "get", "description": "x"}, {"key": "n", "description": "x"}):
        action = params.pop("action", "set")
        doc = client.call("set_custom_property", object="PUiBad", action=action, **params)
        assert doc["error"]["code"] in ("invalid_params", "not_found"), (params, doc)
    assert list(obj.keys()) == []
    client.ok("set_custom_property", object="PUiBad", key="n", action="set", value=3)
    doc = client.call("set_custom_property", object="PUiBad", key="n", action="set", value=4, max=1.5)
    assert doc["error"]["code"] == "invalid_params" and obj["n"] == 3
