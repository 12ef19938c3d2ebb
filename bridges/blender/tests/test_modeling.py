"""The create and object commands of blender-modeling against real Blender: the delta,
and the scene read back (counts, transforms, membership, values)."""

import math

import bpy
import pytest


def test_a_bezier_curve_through_points_with_a_bevel(client):
    r = client.ok("create_curve", name="MCurve", points=[[0, 0, 0], [1, 0, 0], [2, 1, 0]], bevel_depth=0.1, location=[0, 0, 1])
    assert r["delta"]["added"] == ["MCurve"] and r["delta"]["changed"] == []
    obj = bpy.data.objects["MCurve"]
    assert obj.type == "CURVE" and tuple(obj.location) == (0, 0, 1)
    spline = obj.data.splines[0]
    assert spline.type == "BEZIER" and len(spline.bezier_points) == 3 and obj.data.bevel_depth == pytest.approx(0.1)
    assert r["length"] > 2.0 and r["points"] == 3


def test_poly_nurbs_path_and_circle_curves(client):
    r = client.ok("create_curve", curve_type="POLY", name="MPoly", points=[[0, 0, 0], [3, 0, 0], [3, 4, 0]], cyclic=True)
    assert r["length"] == pytest.approx(12.0, abs=1e-4) and r["cyclic"]
    r = client.ok("create_curve", curve_type="NURBS", name="MNurbs", points=[[0, 0, 0], [1, 1, 0], [2, 0, 0], [3, 1, 0]])
    assert bpy.data.objects["MNurbs"].data.splines[0].order_u == 4
    client.ok("create_curve", curve_type="PATH", name="MPath", points=[[0, 0, 0], [0, 5, 0]])
    assert bpy.data.objects["MPath"].data.use_path
    r = client.ok("create_curve", curve_type="CIRCLE", name="MCircle", radius=2)
    assert r["length"] == pytest.approx(2 * math.pi * 2, rel=2e-3) and r["cyclic"]


def test_curve_arguments_that_contradict_are_refused_and_change_nothing(client):
    before = len(bpy.data.objects)
    for params in ({"curve_type": "CIRCLE", "points": [[0, 0, 0], [1, 0, 0]]}, {"curve_type": "BEZIER"},
                   {"points": [[0, 0, 0], [1, 0, 0]], "radius": 2}, {"points": [[0, 0, 0]]}, {"name": "bad/name", "curve_type": "CIRCLE"}):
        doc = client.call("create_curve", **params)
        assert not doc["ok"] and doc["error"]["code"] == "invalid_params", (params, doc)
    assert len(bpy.data.objects) == before


def test_text_objects_have_their_body_and_extrusion(client):
    r = client.ok("create_text", text="Hello", name="MText", size=2, extrude=0.1, align_x="CENTER", rotation=[90, 0, 0])
    obj = bpy.data.objects["MText"]
    assert r["delta"]["added"] == ["MText"]
    assert obj.type == "FONT" and obj.data.body == "Hello" and obj.data.extrude == pytest.approx(0.1)
    assert obj.rotation_euler.x == pytest.approx(math.pi / 2)
    assert r["dimensions"][0] > 3 and r["dimensions"][2] == pytest.approx(0.2, abs=1e-3)


def test_a_mesh_from_vertices_and_faces(client):
    verts = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1]]
    faces = [[0, 1, 2, 3], [0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]]
    r = client.ok("create_mesh", name="MPyramid", vertices=verts, faces=faces, location=[2, 0, 0], smooth=True)
    assert r["mesh"] == {"vertices": 5, "edges": 8, "faces": 5} and not r["repaired"]
    mesh = bpy.data.objects["MPyramid"].data
    assert [tuple(v.co) for v in mesh.vertices][4] == (0.5, 0.5, 1.0)
    assert all(p.use_smooth for p in mesh.polygons)


def test_bad_mesh_indices_are_refused_before_anything_is_made(client):
    before = len(bpy.data.meshes)
    doc = client.call("create_mesh", name="MBad", vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], faces=[[0, 1, 3]])
    assert doc["error"]["code"] == "invalid_params" and "vertex 3" in doc["error"]["message"]
    doc = client.call("create_mesh", name="MBad", vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], faces=[[0, 1, 1]])
    assert doc["error"]["code"] == "invalid_params"
    assert len(bpy.data.meshes) == before and "MBad" not in bpy.data.objects


def test_text_converts_to_a_mesh_beside_it_and_can_adopt_its_children(client):
    client.ok("create_text", text="AB", name="MConv", extrude=0.05, location=[0, 3, 0])
    client.ok("create_object", type="empty", name="MConvKid", location=[1, 1, 1])
    client.ok("parent_objects", parent="MConv", children=["MConvKid"])
    r = client.ok("convert_object", object="MConv", new_name="MConvMesh", adopt_children=True)
    assert r["delta"]["added"] == ["MConvMesh"] and r["delta"]["changed"] == ["MConvKid"] and r["adopted"] == ["MConvKid"]
    obj = bpy.data.objects["MConvMesh"]
    assert obj.type == "MESH" and len(obj.data.polygons) > 10 and tuple(obj.location) == (0, 3, 0)
    assert r["mesh"]["faces"] == len(obj.data.polygons) and bpy.data.objects["MConv"].type == "FONT"
    bpy.context.view_layer.update()
    kid = bpy.data.objects["MConvKid"]
    assert kid.parent == obj and (kid.matrix_world.translation - bpy.data.objects["MConvKid"].matrix_world.translation).length == 0
    assert tuple(round(v, 5) for v in kid.matrix_world.translation) == (1, 1, 1)


def test_curves_become_meshes_and_meshes_curves(client):
    client.ok("create_curve", curve_type="CIRCLE", name="MRing", radius=1)
    r = client.ok("convert_object", object="MRing")
    assert r["name"] == "MRing_mesh" and r["delta"]["added"] == ["MRing_mesh"] and r["delta"]["removed"] == []
    r = client.ok("convert_object", object="MRing_mesh", target="CURVE")
    obj = bpy.data.objects[r["name"]]
    assert obj.type == "CURVE" and r["splines"] == 1 and obj.data.splines[0].use_cyclic_u
    client.ok("create_object", type="camera", name="MCam")
    doc = client.call("convert_object", object="MCam")
    assert doc["error"]["code"] == "invalid_target"


def test_duplicates_full_and_linked_with_offsets(client):
    client.ok("create_object", type="cube", name="MDup", location=[0, 0, 0])
    r = client.ok("duplicate_object", name="MDup", count=3, offset=[2, 0, 0])
    names = [c["name"] for c in r["copies"]]
    assert sorted(r["delta"]["added"]) == sorted(names) and len(names) == 3 and r["delta"]["changed"] == []
    assert [c["location"] for c in r["copies"]] == [[2, 0, 0], [4, 0, 0], [6, 0, 0]]
    src = bpy.data.objects["MDup"]
    assert all(bpy.data.objects[n].data != src.data for n in names)
    r = client.ok("duplicate_object", name="MDup", new_name="MDupLinked", linked=True)
    assert r["copies"][0]["name"] == "MDupLinked" and bpy.data.objects["MDupLinked"].data == src.data


def test_custom_properties_get_set_delete(client):
    client.ok("create_object", type="empty", name="MProps")
    r = client.ok("set_custom_property", object="MProps", key="sku", action="set", value="A-17")
    assert r["delta"]["changed"] == ["MProps"] and r["delta"]["fields"]["MProps"] == ["custom_properties"]
    assert bpy.data.objects["MProps"]["sku"] == "A-17"
    r = client.ok("set_custom_property", object="MProps", key="sku", action="get")
    assert r["value"] == "A-17" and r["delta"]["changed"] == []
    r = client.ok("set_custom_property", object="MProps", key="sku", action="delete")
    assert r["previous"] == "A-17" and not r["exists"] and "sku" not in bpy.data.objects["MProps"].keys()
    assert client.call("set_custom_property", object="MProps", key="sku", action="delete")["error"]["code"] == "not_found"
    assert client.call("set_custom_property", object="MProps", key="_hidden", action="set", value=1)["error"]["code"] == "invalid_params"


def test_collections_create_move_link_unlink_delete(client):
    client.ok("create_object", type="cube", name="MCol1")
    client.ok("create_object", type="cube", name="MCol2")
    r = client.ok("manage_collection", action="create", name="MProps Set", objects=["MCol1"])
    assert r["created"] and r["delta"]["datablocks"]["collections"]["added"] == ["MProps Set"]
    assert [c.name for c in bpy.data.objects["MCol1"].users_collection] == ["MProps Set"]
    client.ok("manage_collection", action="create", name="MSub", parent="MProps Set")
    assert "MSub" in bpy.data.collections["MProps Set"].children
    home = bpy.data.objects["MCol2"].users_collection[0]
    home_name = "Scene Collection" if home == bpy.context.scene.collection else home.name
    r = client.ok("manage_collection", action="link", name="MSub", objects=["MCol2"])
    assert sorted(c.name for c in bpy.data.objects["MCol2"].users_collection) == sorted([home.name, "MSub"])
    doc = client.call("manage_collection", action="unlink", name="MSub", objects=["MCol1"])
    assert doc["ok"]  # not in MSub: nothing to do
    doc = client.call("manage_collection", action="unlink", name="MProps Set", objects=["MCol1"])
    assert doc["error"]["code"] == "invalid_target"  # it would be in no collection
    client.ok("manage_collection", action="unlink", name=home_name, objects=["MCol2"])
    listing = client.ok("list_collections")
    by_name = {c["name"]: c for c in listing["collections"]}
    assert by_name["MSub"]["parent"] == "MProps Set" and by_name["MSub"]["objects"] == ["MCol2"]
    r = client.ok("manage_collection", action="move", name="MSub", parent="Scene Collection")
    assert "MSub" in bpy.context.scene.collection.children and r["delta"]["settings"] == ["scene"]
    r = client.ok("delete_collection", name="MProps Set")
    assert r["relinked_objects"] == ["MCol1"] and r["to"] == "Scene Collection"
    assert "MProps Set" not in bpy.data.collections and "MCol1" in bpy.context.scene.collection.objects
    assert client.call("manage_collection", action="move", name="MSub", parent="MSub")["error"]["code"] == "invalid_target"


def test_a_converted_mesh_reads_back_its_dimensions(client):
    client.ok("create_object", type="cube", name="MEdges", size=2)
    client.ok("convert_object", object="MEdges", target="CURVE")
    info = client.ok("get_object_info", name="MEdges_curve")
    assert info["type"] == "CURVE" and info["dimensions"] == [2.0, 2.0, 2.0]
    assert len(bpy.data.objects["MEdges_curve"].data.splines) == 12


def test_renaming_a_parent_reports_its_children_changed(client):
    client.ok("create_object", type="empty", name="MRenParent")
    client.ok("create_object", type="empty", name="MRenKid")
    client.ok("parent_objects", parent="MRenParent", children=["MRenKid"])
    r = client.ok("modify_object", name="MRenParent", new_name="MRenParent2")
    assert r["delta"]["changed"] == ["MRenKid", "MRenParent2"] and r["delta"]["fields"]["MRenKid"] == ["parent"]
